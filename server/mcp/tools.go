package mcp

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os/exec"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/claimslint/claimslint/internal/author"
	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/format"
	"github.com/claimslint/claimslint/internal/snapshot"
	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/mcp/wire"
	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// schemaOptions state what inference cannot see: docket.Raw is a string in
// Go and an object on the wire.
var schemaOptions = &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[docket.Raw](): {Type: "object", Description: "fields an import brought that docket has no key for"},
}}

// outSchema is the output schema of T. The types are fixed at compile time,
// so an error here is a bug in this file, caught by every test that starts
// a server.
func outSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](schemaOptions)
	if err != nil {
		panic(fmt.Sprintf("output schema of %T: %v", *new(T), err))
	}
	return s
}

// Options configure the application: what it serves and from where.
// How it is served (stdio or HTTP, the limits, the drain) is the
// transport's (stdio.Options, streamhttp.HTTPOptions).
type Options struct {
	Store docket.Store
	// Dir is the repository root, for the register tools.
	Dir     string
	Log     *slog.Logger
	Version string
	// MaxResult bounds the bytes of one register check's result from its
	// child process (0: wire.DefaultMaxReply); docket mcp sets it to the
	// transport's reply limit.
	MaxResult int
	// ClaimsCheckTimeout bounds one claims_check call (0:
	// DefaultClaimsCheckTimeout).
	ClaimsCheckTimeout time.Duration
	// CheckProcess, if set, makes the command that runs one register
	// check (claims_check, decision_list, decision_show) in a child
	// process, given the child's arguments (CheckChildCommand first; see
	// RunCheckChild): the child is killed the moment its request is
	// cancelled or times out (D71). docket mcp sets it to its own
	// executable (SelfCheckProcess); nil runs the check in process.
	CheckProcess func(args ...string) *exec.Cmd
	// Export, Register and Decisions are the tracker export, the register
	// and the decisions directory relative to Dir, as .claimslint.yml
	// sets them, for the instructions the server gives a client ("": the
	// defaults).
	Export, Register, Decisions string
	// ReadOnly serves only the tools that change nothing (docket mcp
	// --read-only): a tool that writes is not listed, and a call to one
	// is refused; resources and prompts are served as ever (D81).
	ReadOnly bool
}

// New builds the application for one transport (stdio.Serve,
// streamhttp.NewHTTPHandler): the SDK server with docket's tools, its
// resources and prompts and the capabilities it declares (D81), whether
// each tool only reads, and the handlers of the read-only issue tools a
// transport may call without the SDK's dispatch (D82).
func New(o Options) *wire.App { return newApp(o, Capabilities()) }

// NewServer is New's SDK server alone.
func NewServer(o Options) *sdk.Server { return New(o).Server }

// newApp is New declaring caps.
func newApp(o Options, caps *sdk.ServerCapabilities) *wire.App {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	t := newTools(o)
	s := sdk.NewServer(&sdk.Implementation{Name: "docket", Version: o.Version}, &sdk.ServerOptions{
		Logger:                    o.Log,
		SupportedProtocolVersions: wire.ProtocolVersions,
		Instructions:              instructions(o),
		Capabilities:              caps,
		CompletionHandler:         t.complete,
	})
	registry := t.all()
	s.AddReceivingMiddleware(logWrites, screenCalls(registry, o.ReadOnly), t.listResources)
	direct := map[string]sdk.ToolHandler{}
	store := issueToolNames()
	for _, tl := range registry {
		if o.ReadOnly && !tl.readOnly() {
			continue // --read-only: a write tool is neither listed nor callable
		}
		h := tl.add(s)
		if tl.readOnly() && store[tl.def.Name] {
			direct[tl.def.Name] = h
		}
	}
	t.addResources(s)
	t.addPrompts(s)
	return &wire.App{Server: s, ReadOnly: func(name string) bool { return readOnlyTools()[name] }, Direct: direct}
}

// Capabilities is what docket mcp declares at initialize, stated rather
// than inferred by the SDK (D81): tools, resources and prompts without
// listChanged (their lists never change while it runs, so the
// notification is never sent) and resources without subscribe;
// completion of ids; logging, for the write log (D53).
func Capabilities() *sdk.ServerCapabilities {
	return &sdk.ServerCapabilities{
		Tools:       &sdk.ToolCapabilities{ListChanged: false},
		Resources:   &sdk.ResourceCapabilities{ListChanged: false, Subscribe: false},
		Prompts:     &sdk.PromptCapabilities{ListChanged: false},
		Completions: &sdk.CompletionCapabilities{},
		//lint:ignore SA1019 logging is deprecated, not removed; D53 keeps the write log
		Logging: &sdk.LoggingCapabilities{},
	}
}

// tool is one MCP tool as one value: its definition, with the annotations
// that say whether it writes, and its handler. Whatever asks whether a
// tool only reads (the write log, the drain's message at shutdown) asks
// this value, through readOnlyTools. in is its input schema, which
// screenCalls checks arguments against before the SDK sees them.
type tool struct {
	def *sdk.Tool
	in  *jsonschema.Schema
	add func(s *sdk.Server) sdk.ToolHandler
	// work, for a register tool, is what it runs in the check slot: what
	// the check child runs when told its name (RunCheckChild).
	work childWork
}

// withWork is tl carrying w, the register work its handler runs.
func (tl tool) withWork(w childWork) tool {
	tl.work = w
	return tl
}

// The register tools' works, one value each: a tool's handler runs its
// work (work.call), and the registry's tool carries it (withWork), which
// is how the check child finds it by name.
var (
	listWork   = work[NoIn, DecisionsOut]{"decision_list", (*tools).listDecisions}
	showWork   = work[DecisionIn, DecisionOut]{"decision_show", (*tools).showDecision}
	claimsWork = work[CheckIn, CheckOut]{"claims_check", (*tools).checkWork}
	statusWork = work[StatusIn, StatusOut]{"decision_status", (*tools).setStatus}
)

func newTool[In, Out any](def *sdk.Tool, h sdk.ToolHandlerFor[In, Out]) tool {
	if def.InputSchema == nil {
		def.InputSchema = inSchema[In](nil)
	}
	in, _ := def.InputSchema.(*jsonschema.Schema)
	return tool{def: def, in: in, add: func(s *sdk.Server) sdk.ToolHandler { return addTool(s, def, h) }}
}

// readOnly reports whether the tool changes nothing (its readOnlyHint).
func (tl tool) readOnly() bool { return tl.def.Annotations != nil && tl.def.Annotations.ReadOnlyHint }

// all is the registry: every tool docket mcp serves (tools/list sorts
// them by name).
func (t *tools) all() []tool {
	return append(t.issueTools(),
		newTool(&sdk.Tool{Name: "decision_list", Title: "List decisions", Annotations: readOnlyTool, Description: "List the register's decisions with their status and claim counts."}, t.decisionList).withWork(listWork),
		newTool(&sdk.Tool{Name: "decision_show", Title: "Show a decision", Annotations: readOnlyTool,
			Description: "Show one decision: its file's text and the state of each claim."}, t.decisionShow).withWork(showWork),
		newTool(&sdk.Tool{Name: "claims_check", Title: "Check the claims", Annotations: readOnlyTool,
			Description: "Run claimslint check on the repository (or one decision): findings and claim states. With a progressToken it reports progress: queued, checking, done."}, t.claimsCheck).withWork(claimsWork),
		newTool(&sdk.Tool{Name: "decision_accept", Title: "Accept a decision", Annotations: writes(false, true),
			Description: "Accept a decision as claimslint accept does: its file and register row together, retiring what it supersedes; refused (accepted false, with the findings) while its claims do not hold."}, t.decisionAccept).withWork(statusWork),
		newTool(&sdk.Tool{Name: "decision_status", Title: "Set a decision's status", Annotations: writes(false, true),
			Description: "Set a decision's status to accepted, proposed, deprecated or rejected as claimslint status does: its file and register row together."}, t.decisionStatus).withWork(statusWork),
	)
}

// ToolNames returns the names of the registry's tools, in the order they
// are added: what documentation that lists the tools is tested against.
func ToolNames() []string {
	registry := (&tools{}).all()
	out := make([]string, len(registry))
	for i, tl := range registry {
		out[i] = tl.def.Name
	}
	return out
}

// readOnlyTools returns the names of the registry's tools that never
// change the tracker, derived from their annotations once, when the write
// log or the drain first asks (not at start-up: most docket commands
// never serve MCP).
var readOnlyTools = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, tl := range (&tools{}).all() {
		if tl.readOnly() {
			m[tl.def.Name] = true
		}
	}
	return m
})

// issueToolNames names the issue tools, derived from the registry once (a
// server's start does not build their schemas twice). Those of them that
// only read a transport may call directly; the register tools run checks and report
// progress, and are not (wire.App.Direct).
var issueToolNames = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, tl := range (&tools{}).issueTools() {
		m[tl.def.Name] = true
	}
	return m
})

// instructions tells a client where this repository keeps its issues and
// decisions, as its configuration says.
func instructions(o Options) string {
	export, register, decisions := cmp.Or(o.Export, ".knowledge/tracker/issues.jsonl"), cmp.Or(o.Register, "docs/PRD.md"), cmp.Or(o.Decisions, "docs/decisions")
	return "docket is this repository's issue tracker and decision register. Issues live in " + export + "; decisions in " + register + " and " + strings.TrimSuffix(decisions, "/") + "/. claims_check tells whether the code still does what the decisions say."
}

type tools struct {
	store docket.Store
	dir   string
	// register and decisions are the configured paths, for the prompts.
	register, decisions string
	checks              *checkGate // the server's register checks
	// process makes a register check's child process (Options.CheckProcess);
	// nil: in process. maxResult bounds the bytes of its result.
	process   func(args ...string) *exec.Cmd
	maxResult int
}

// newTools is the tools of one server over o's store and repository.
func newTools(o Options) *tools {
	t := &tools{store: o.Store, dir: o.Dir, register: cmp.Or(o.Register, "docs/PRD.md"), decisions: strings.TrimSuffix(cmp.Or(o.Decisions, "docs/decisions"), "/"), checks: newCheckGate(o.ClaimsCheckTimeout), process: o.CheckProcess, maxResult: o.MaxResult}
	if t.maxResult <= 0 {
		t.maxResult = wire.DefaultMaxReply
	}
	return t
}

// DecisionSummary is one register row with its claim counts.
type DecisionSummary struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	Status  string `json:"status"`
	File    string `json:"file"`
	Claims  int    `json:"claims"`
	Failed  int    `json:"failed"`
	Pending int    `json:"pending"`
}

// DecisionsOut is decision_list's output.
type DecisionsOut struct {
	Decisions []DecisionSummary `json:"decisions"`
}

func (t *tools) run(ctx context.Context, decision string) (*check.Result, error) {
	return check.RunContext(ctx, check.Options{Dir: t.dir, Decision: decision})
}

// claims loads the snapshot and evaluates the claims only (of one decision
// when decision is set): the decision tools show claim states, not the
// register rules' findings.
func (t *tools) claims(ctx context.Context, decision string) (*check.Result, error) {
	snap, err := snapshot.LoadContext(ctx, t.dir)
	if err != nil {
		return nil, err
	}
	return check.Claims(snap, decision), nil
}

func (t *tools) decisionList(ctx context.Context, _ *sdk.CallToolRequest, _ NoIn) (*sdk.CallToolResult, DecisionsOut, error) {
	out, err := listWork.call(ctx, t, NoIn{})
	if err != nil {
		return nil, DecisionsOut{}, toolErr("decision_list", err)
	}
	return text(decisionsSummary(out)), out, nil
}

// listDecisions is decision_list's work, run in the check slot.
func (t *tools) listDecisions(ctx context.Context, _ NoIn) (DecisionsOut, error) {
	res, err := t.claims(ctx, "")
	if err != nil {
		return DecisionsOut{}, err
	}
	out := DecisionsOut{Decisions: []DecisionSummary{}}
	for _, d := range res.Decisions {
		s := DecisionSummary{ID: d.ID, Title: d.Title, Status: d.Status, File: d.Path}
		for _, c := range res.Claims {
			if c.Decision != d.ID {
				continue
			}
			s.Claims++
			switch c.State {
			case check.StateFailed:
				s.Failed++
			case check.StatePending:
				s.Pending++
			}
		}
		out.Decisions = append(out.Decisions, s)
	}
	return out, nil
}

// DecisionIn names one decision.
type DecisionIn struct {
	ID string `json:"id" jsonschema:"decision id, like D12"`
}

// DecisionOut is decision_show's output.
type DecisionOut struct {
	ID      string             `json:"id"`
	Title   string             `json:"title"`
	Status  string             `json:"status"`
	File    string             `json:"file"`
	Tracker []string           `json:"tracker"`
	Text    string             `json:"text"`
	Claims  []check.ClaimState `json:"claims"`
}

func (t *tools) decisionShow(ctx context.Context, _ *sdk.CallToolRequest, in DecisionIn) (*sdk.CallToolResult, DecisionOut, error) {
	err := docket.CheckDecision(in.ID) // a bad id starts no check
	var out DecisionOut
	if err == nil {
		out, err = showWork.call(ctx, t, in)
	}
	if err != nil {
		return nil, DecisionOut{}, toolErr("decision_show", err)
	}
	return text(decisionSummary(out)), out, nil
}

// showDecision is decision_show's work, run in the check slot; the tool
// names itself in its errors.
func (t *tools) showDecision(ctx context.Context, in DecisionIn) (DecisionOut, error) {
	if err := docket.CheckDecision(in.ID); err != nil {
		return DecisionOut{}, err
	}
	res, err := t.claims(ctx, in.ID)
	if err != nil {
		return DecisionOut{}, err
	}
	for _, d := range res.Decisions {
		if d.ID != in.ID {
			continue
		}
		doc := res.Doc(d.Path) // read once, by the snapshot
		if doc == nil {
			return DecisionOut{}, fmt.Errorf("read %s: not loaded", d.Path)
		}
		if doc.Err != nil {
			return DecisionOut{}, fmt.Errorf("read %s: %w", d.Path, doc.Err)
		}
		text := doc.Src
		out := DecisionOut{ID: d.ID, Title: d.Title, Status: d.Status, File: d.Path, Tracker: append([]string{}, d.Tracker...), Text: string(text), Claims: []check.ClaimState{}}
		for _, c := range res.Claims {
			if c.Decision == d.ID {
				out.Claims = append(out.Claims, c)
			}
		}
		return out, nil
	}
	return DecisionOut{}, &noDecisionError{in.ID}
}

// CheckIn is claims_check's input.
type CheckIn struct {
	Decision string `json:"decision,omitempty" jsonschema:"check only this decision, like D12"`
}

// Finding is one claimslint finding: the record `claimslint check --format
// json` writes (its formatter makes it, see findingsOf), in the tool's
// schema order and without related positions.
type Finding struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Check    string `json:"check"`
	Decision string `json:"decision,omitempty"`
	Claim    string `json:"claim,omitempty"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
}

// CheckOut is claims_check's output: ok is what `claimslint check` would
// exit 0 on.
type CheckOut struct {
	OK       bool               `json:"ok"`
	Findings []Finding          `json:"findings"`
	Claims   []check.ClaimState `json:"claims"`
}

func (t *tools) claimsCheck(ctx context.Context, req *sdk.CallToolRequest, in CheckIn) (*sdk.CallToolResult, CheckOut, error) {
	p := newProgress(ctx, req, checkStages)
	p.report(0, "queued for the register check slot")
	out, err := t.checkClaims(ctx, in, func() { p.report(1, "checking the claims") })
	if err != nil {
		return nil, CheckOut{}, toolErr("claims_check", err)
	}
	sum := checkSummary(out)
	p.report(checkStages, strings.SplitN(sum, "\n", 2)[0])
	return text(sum), out, nil
}

// checkClaims is claims_check: its argument checked here, its work in the
// check slot (started is told when it runs); the tool names itself in its
// errors.
func (t *tools) checkClaims(ctx context.Context, in CheckIn, started func()) (CheckOut, error) {
	if in.Decision != "" {
		if err := docket.CheckDecision(in.Decision); err != nil {
			return CheckOut{}, err
		}
	}
	return claimsWork.callStarted(ctx, t, in, started)
}

// checkWork is claims_check's work: the check, handed ctx (D54), and its
// findings as the json formatter writes them.
func (t *tools) checkWork(ctx context.Context, in CheckIn) (CheckOut, error) {
	res, err := t.run(ctx, in.Decision)
	if err != nil {
		return CheckOut{}, err
	}
	// A decision the register does not have is an error, as decision_show
	// says: "0 claims, ok" would tell an agent it holds.
	if in.Decision != "" && !res.HasDecision(in.Decision) {
		return CheckOut{}, &noDecisionError{in.Decision}
	}
	out := CheckOut{OK: diag.Errors(res.Findings) == 0, Claims: res.Claims}
	if out.Claims == nil {
		out.Claims = []check.ClaimState{}
	}
	if out.Findings, err = findingsOf(res.Findings); err != nil {
		return CheckOut{}, err
	}
	return out, nil
}

// findingsOf writes fs with the json Formatter, the one every output of
// findings goes through (D46), and reads its records back as Findings.
func findingsOf(fs []diag.Finding) ([]Finding, error) {
	jf, err := format.New("json", nil, "")
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := jf.Format(&b, fs); err != nil {
		return nil, fmt.Errorf("format findings: %w", err)
	}
	var doc struct {
		Findings []Finding `json:"findings"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		return nil, fmt.Errorf("read formatted findings: %w", err)
	}
	if doc.Findings == nil {
		doc.Findings = []Finding{}
	}
	return doc.Findings, nil
}

// StatusIn is decision_status's input.
type StatusIn struct {
	ID     string `json:"id" jsonschema:"decision id, like D12"`
	Status string `json:"status" jsonschema:"the new status: accepted, proposed, deprecated or rejected"`
}

// StatusOut is decision_accept's and decision_status's output (D78): done
// is false when an accept is refused, and unheld lists check's findings
// that refuse it; nothing is changed then.
type StatusOut struct {
	ID      string    `json:"id"`
	From    string    `json:"from"`
	Status  string    `json:"status"`
	Done    bool      `json:"done"`
	Updated []string  `json:"updated"`
	Retired []string  `json:"retired"`
	Unheld  []Finding `json:"unheld"`
	Notes   []string  `json:"notes"`
}

func (t *tools) decisionAccept(ctx context.Context, _ *sdk.CallToolRequest, in DecisionIn) (*sdk.CallToolResult, StatusOut, error) {
	return t.statusCall(ctx, "decision_accept", StatusIn{ID: in.ID, Status: "accepted"})
}

func (t *tools) decisionStatus(ctx context.Context, _ *sdk.CallToolRequest, in StatusIn) (*sdk.CallToolResult, StatusOut, error) {
	return t.statusCall(ctx, "decision_status", in)
}

// statusCall runs a status move in the check slot, as the other register
// tools run (in a child process since D71): accepting runs the claims.
func (t *tools) statusCall(ctx context.Context, tool string, in StatusIn) (*sdk.CallToolResult, StatusOut, error) {
	err := docket.CheckDecision(in.ID) // a bad id starts no check
	var out StatusOut
	if err == nil {
		out, err = statusWork.call(ctx, t, in)
	}
	if err != nil {
		return nil, StatusOut{}, toolErr(tool, err)
	}
	return text(statusSummary(out)), out, nil
}

// setStatus is the work of decision_accept and decision_status: the plan
// claimslint accept and claimslint status make, applied unless refused.
func (t *tools) setStatus(_ context.Context, in StatusIn) (StatusOut, error) {
	if err := docket.CheckDecision(in.ID); err != nil {
		return StatusOut{}, err
	}
	plan, err := author.SetStatus(author.StatusOptions{Dir: t.dir, ID: in.ID, Status: in.Status})
	if err != nil {
		return StatusOut{}, err
	}
	out := StatusOut{ID: plan.ID, From: plan.From, Status: plan.From, Updated: []string{}, Retired: []string{}, Unheld: []Finding{}, Notes: []string{}}
	if len(plan.Unheld) > 0 {
		if out.Unheld, err = findingsOf(plan.Unheld); err != nil {
			return StatusOut{}, err
		}
		return out, nil
	}
	if plan.Existing == "" {
		if err := plan.Apply(t.dir); err != nil {
			return StatusOut{}, err
		}
		out.Updated = append(out.Updated, plan.Paths()...)
		out.Retired = append(out.Retired, plan.Retired...)
		out.Notes = append(out.Notes, plan.Notes...)
	}
	out.Status, out.Done = in.Status, true
	return out, nil
}

// noDecisionError is the error of a decision id the register does not
// hold: a tool error, and a resource that is not found.
type noDecisionError struct{ id string }

func (e *noDecisionError) Error() string {
	return fmt.Sprintf("no decision %s in the register; decision_list shows the ids there are", e.id)
}

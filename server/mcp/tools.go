package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"reflect"
	"time"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/snapshot"
	"github.com/claimslint/claimslint/server"
	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// schemaOptions state what inference cannot see: server.Raw is a string in
// Go and an object on the wire.
var schemaOptions = &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[server.Raw](): {Type: "object", Description: "fields an import brought that docket has no key for"},
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

// Options configure Serve.
type Options struct {
	Store server.Store
	// Dir is the repository root, for the register tools.
	Dir     string
	In      io.Reader
	Out     io.Writer
	Log     *slog.Logger
	Version string
	// MaxInFlight and MaxReply bound the transport (0: the defaults).
	MaxInFlight int
	MaxReply    int
}

// Serve runs one MCP session over In and Out until In ends; it returns nil
// after answering every request it read.
func Serve(ctx context.Context, o Options) error {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	s := NewServer(o)
	ended := make(chan struct{})
	runErr := make(chan error, 1)
	go func() {
		runErr <- s.Run(ctx, &Transport{In: o.In, Out: o.Out, Log: o.Log, Ended: ended, MaxInFlight: o.MaxInFlight, MaxReply: o.MaxReply})
	}()
	var err error
	select {
	case err = <-runErr:
	case <-ended:
		// Every request read has its answer on stdout. The SDK also waits
		// for its handlers; one that outlived DrainTimeout was answered
		// already and must not keep the process alive.
		select {
		case err = <-runErr:
		case <-time.After(time.Second):
			o.Log.Warn("exiting with a tool handler still running")
			return nil
		}
	}
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) {
		return nil
	}
	return err
}

// NewServer builds the SDK server with docket's tools.
func NewServer(o Options) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "docket", Version: o.Version}, &sdk.ServerOptions{
		Logger:                    o.Log,
		SupportedProtocolVersions: ProtocolVersions,
		Instructions:              "docket is this repository's issue tracker and decision register. Issues live in .knowledge/tracker/issues.jsonl; decisions in docs/PRD.md and docs/decisions/. claims_check tells whether the code still does what the decisions say.",
	})
	s.AddReceivingMiddleware(logWrites)
	t := &tools{store: o.Store, dir: o.Dir}
	sdk.AddTool(s, &sdk.Tool{Name: "issue_create", OutputSchema: outSchema[IssueOut](), Description: "Create an issue; returns it with its new id."}, t.create)
	sdk.AddTool(s, &sdk.Tool{Name: "issue_list", OutputSchema: outSchema[IssuesOut](), Description: "List issues, most urgent first; closed ones only with all or status."}, t.list)
	sdk.AddTool(s, &sdk.Tool{Name: "issue_show", OutputSchema: outSchema[IssueOut](), Description: "Show one issue by id."}, t.show)
	sdk.AddTool(s, &sdk.Tool{Name: "issue_update", OutputSchema: outSchema[IssueOut](), Description: "Change fields of an issue; if_version makes it fail when someone else wrote it first."}, t.update)
	sdk.AddTool(s, &sdk.Tool{Name: "issue_close", OutputSchema: outSchema[IssueOut](), Description: "Close an issue with a reason; the record is kept."}, t.closeIssue)
	sdk.AddTool(s, &sdk.Tool{Name: "issue_comment", OutputSchema: outSchema[IssueOut](), Description: "Add a comment to an issue."}, t.comment)
	sdk.AddTool(s, &sdk.Tool{Name: "issue_ready", OutputSchema: outSchema[IssuesOut](), Description: "List open issues that no unfinished issue blocks."}, t.ready)
	sdk.AddTool(s, &sdk.Tool{Name: "decision_list", Description: "List the register's decisions with their status and claim counts."}, t.decisionList)
	sdk.AddTool(s, &sdk.Tool{Name: "decision_show", Description: "Show one decision: its file's text and the state of each claim."}, t.decisionShow)
	sdk.AddTool(s, &sdk.Tool{Name: "claims_check", Description: "Run claimslint check on the repository (or one decision): findings and claim states."}, t.claimsCheck)
	return s
}

type tools struct {
	store server.Store
	dir   string
}

// IssueOut wraps one record, so structured content is always an object.
type IssueOut struct {
	Issue server.Issue `json:"issue"`
}

// IssuesOut wraps a list of records.
type IssuesOut struct {
	Issues []server.Issue `json:"issues"`
}

// CreateIn is issue_create's input.
type CreateIn struct {
	Title       string   `json:"title" jsonschema:"one-line title"`
	Description string   `json:"description,omitempty" jsonschema:"free text"`
	Type        string   `json:"type,omitempty" jsonschema:"bug, feature, task (default), chore, decision or residual"`
	Priority    *int     `json:"priority,omitempty" jsonschema:"0 (most urgent) to 4; default 2"`
	Labels      []string `json:"labels,omitempty"`
	Decisions   []string `json:"decisions,omitempty" jsonschema:"register ids the issue carries, like D12"`
}

func (t *tools) create(ctx context.Context, _ *sdk.CallToolRequest, in CreateIn) (*sdk.CallToolResult, IssueOut, error) {
	typ := server.TypeTask
	if in.Type != "" {
		var err error
		if typ, err = server.ParseType(in.Type); err != nil {
			return nil, IssueOut{}, err
		}
	}
	p := server.DefaultPriority
	if in.Priority != nil {
		p = *in.Priority
	}
	i, err := t.store.Create(ctx, server.NewIssue{Title: in.Title, Description: in.Description, Type: typ, Priority: p, Labels: in.Labels, Decisions: in.Decisions})
	return nil, IssueOut{i}, err
}

// ListIn is issue_list's input.
type ListIn struct {
	Status   []string `json:"status,omitempty" jsonschema:"only these statuses"`
	Label    string   `json:"label,omitempty"`
	Decision string   `json:"decision,omitempty"`
	Type     string   `json:"type,omitempty"`
	All      bool     `json:"all,omitempty" jsonschema:"include closed issues"`
}

func (t *tools) list(ctx context.Context, _ *sdk.CallToolRequest, in ListIn) (*sdk.CallToolResult, IssuesOut, error) {
	var f server.Filter
	for _, s := range in.Status {
		st, err := server.ParseStatus(s)
		if err != nil {
			return nil, IssuesOut{}, err
		}
		f.Status = append(f.Status, st)
	}
	if len(f.Status) == 0 && !in.All {
		f.Status = server.Unfinished
	}
	if in.Type != "" {
		typ, err := server.ParseType(in.Type)
		if err != nil {
			return nil, IssuesOut{}, err
		}
		f.Type = typ
	}
	f.Label, f.Decision = in.Label, in.Decision
	is, err := t.store.List(ctx, f)
	return nil, IssuesOut{is}, err
}

// IDIn names one issue.
type IDIn struct {
	ID string `json:"id" jsonschema:"issue id, like dk-7qx"`
}

func (t *tools) show(ctx context.Context, _ *sdk.CallToolRequest, in IDIn) (*sdk.CallToolResult, IssueOut, error) {
	i, err := t.store.Get(ctx, in.ID)
	return nil, IssueOut{i}, err
}

// UpdateIn is issue_update's input.
type UpdateIn struct {
	ID              string   `json:"id"`
	Title           *string  `json:"title,omitempty"`
	Description     *string  `json:"description,omitempty"`
	Status          string   `json:"status,omitempty" jsonschema:"open, in_progress, blocked or deferred; use issue_close to close"`
	Type            string   `json:"type,omitempty"`
	Priority        *int     `json:"priority,omitempty"`
	AddLabels       []string `json:"add_labels,omitempty"`
	RemoveLabels    []string `json:"remove_labels,omitempty"`
	AddDecisions    []string `json:"add_decisions,omitempty"`
	RemoveDecisions []string `json:"remove_decisions,omitempty"`
	IfVersion       int64    `json:"if_version,omitempty" jsonschema:"fail unless the issue is at this version"`
}

func (t *tools) update(ctx context.Context, _ *sdk.CallToolRequest, in UpdateIn) (*sdk.CallToolResult, IssueOut, error) {
	p := server.Patch{Title: in.Title, Description: in.Description, Priority: in.Priority,
		AddLabels: in.AddLabels, RemoveLabels: in.RemoveLabels, AddDecisions: in.AddDecisions, RemoveDecisions: in.RemoveDecisions, IfVersion: in.IfVersion}
	if in.Status != "" {
		st, err := server.ParseStatus(in.Status)
		if err != nil {
			return nil, IssueOut{}, err
		}
		p.Status = &st
	}
	if in.Type != "" {
		typ, err := server.ParseType(in.Type)
		if err != nil {
			return nil, IssueOut{}, err
		}
		p.Type = &typ
	}
	i, err := t.store.Update(ctx, in.ID, p)
	return nil, IssueOut{i}, err
}

// CloseIn is issue_close's input.
type CloseIn struct {
	ID        string `json:"id"`
	Reason    string `json:"reason" jsonschema:"why it is closed"`
	IfVersion int64  `json:"if_version,omitempty"`
}

func (t *tools) closeIssue(ctx context.Context, _ *sdk.CallToolRequest, in CloseIn) (*sdk.CallToolResult, IssueOut, error) {
	i, err := t.store.CloseIssue(ctx, in.ID, in.Reason, in.IfVersion)
	return nil, IssueOut{i}, err
}

// CommentIn is issue_comment's input.
type CommentIn struct {
	ID     string `json:"id"`
	Text   string `json:"text"`
	Author string `json:"author,omitempty" jsonschema:"who is commenting; default: the MCP client's name"`
}

func (t *tools) comment(ctx context.Context, req *sdk.CallToolRequest, in CommentIn) (*sdk.CallToolResult, IssueOut, error) {
	author := in.Author
	if author == "" {
		author = clientName(req)
	}
	i, err := t.store.Comment(ctx, in.ID, author, in.Text)
	return nil, IssueOut{i}, err
}

// NoIn is the input of tools that take none.
type NoIn struct{}

func (t *tools) ready(ctx context.Context, _ *sdk.CallToolRequest, _ NoIn) (*sdk.CallToolResult, IssuesOut, error) {
	is, err := t.store.Ready(ctx)
	return nil, IssuesOut{is}, err
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

func (t *tools) run(decision string) (*check.Result, error) {
	return check.Run(check.Options{Dir: t.dir, Decision: decision})
}

// claims loads the snapshot and evaluates the claims only (of one decision
// when decision is set): the decision tools show claim states, not the
// register rules' findings.
func (t *tools) claims(decision string) (*check.Result, error) {
	snap, err := snapshot.Load(t.dir)
	if err != nil {
		return nil, err
	}
	return check.Claims(snap, decision), nil
}

func (t *tools) decisionList(ctx context.Context, _ *sdk.CallToolRequest, _ NoIn) (*sdk.CallToolResult, DecisionsOut, error) {
	res, err := t.claims("")
	if err != nil {
		return nil, DecisionsOut{}, err
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
	return nil, out, nil
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
	if err := server.CheckDecision(in.ID); err != nil {
		return nil, DecisionOut{}, err
	}
	res, err := t.claims(in.ID)
	if err != nil {
		return nil, DecisionOut{}, err
	}
	for _, d := range res.Decisions {
		if d.ID != in.ID {
			continue
		}
		doc := res.Doc(d.Path) // read once, by the snapshot
		if doc == nil {
			return nil, DecisionOut{}, fmt.Errorf("read %s: not loaded", d.Path)
		}
		if doc.Err != nil {
			return nil, DecisionOut{}, fmt.Errorf("read %s: %w", d.Path, doc.Err)
		}
		text := doc.Src
		out := DecisionOut{ID: d.ID, Title: d.Title, Status: d.Status, File: d.Path, Tracker: append([]string{}, d.Tracker...), Text: string(text), Claims: []check.ClaimState{}}
		for _, c := range res.Claims {
			if c.Decision == d.ID {
				out.Claims = append(out.Claims, c)
			}
		}
		return nil, out, nil
	}
	return nil, DecisionOut{}, fmt.Errorf("no decision %s in the register; decision_list shows the ids there are", in.ID)
}

// CheckIn is claims_check's input.
type CheckIn struct {
	Decision string `json:"decision,omitempty" jsonschema:"check only this decision, like D12"`
}

// Finding is one claimslint finding.
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

func (t *tools) claimsCheck(ctx context.Context, _ *sdk.CallToolRequest, in CheckIn) (*sdk.CallToolResult, CheckOut, error) {
	if in.Decision != "" {
		if err := server.CheckDecision(in.Decision); err != nil {
			return nil, CheckOut{}, err
		}
	}
	res, err := bounded(ctx, func() (*check.Result, error) { return t.run(in.Decision) })
	if err != nil {
		return nil, CheckOut{}, err
	}
	out := CheckOut{OK: true, Findings: []Finding{}, Claims: res.Claims}
	if out.Claims == nil {
		out.Claims = []check.ClaimState{}
	}
	for _, f := range res.Findings {
		if f.Severity == diag.SeverityError {
			out.OK = false
		}
		out.Findings = append(out.Findings, Finding{File: f.Pos.Filename, Line: f.Pos.Line, Column: f.Pos.Column, Check: f.Check,
			Decision: f.Decision, Claim: f.Claim, Severity: string(f.Severity), Message: f.Message})
	}
	return nil, out, nil
}

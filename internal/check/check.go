// Package check evaluates a decision register against a repository: the
// register rules and the claims of every decision, each rule a value (Rule)
// run on a loaded snapshot through a Pass, each claim kind a value (Kind) in
// a registry. It returns structured findings and never prints; the caller
// formats them.
package check

import (
	"context"
	"fmt"
	"go/token"
	"path"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/ruleid"
	"github.com/claimslint/claimslint/internal/snapshot"
)

// Options configure a run.
type Options struct {
	// Dir is the repository root to check.
	Dir string
	// Decision, when set, limits claim evaluation to one decision; the
	// register rules still run.
	Decision string
	// Base, when set, is a git revision: claim rows changed since Base
	// must come with a change to the lines they anchor on (CL011), and
	// rows of accepted decisions must not be deleted (CL012).
	Base string
	// Prove, when set, proves every claim that held able to fail (CL009).
	Prove bool
	// Budget bounds the run's time (DefaultBudget when zero); a run over
	// it fails with an error naming the file it had reached.
	Budget time.Duration
}

// Claim states reported by list.
const (
	StateOK      = "ok"
	StateFailed  = "failed"
	StatePending = "pending"
	StateRetired = "retired"
)

// ClaimState is the outcome of one claim, the record `claimslint list` prints.
type ClaimState struct {
	Decision string `json:"decision"`
	Status   string `json:"status"`
	Claim    string `json:"claim"`
	Kind     string `json:"kind"`
	State    string `json:"state"`
	// Where lists path:line of the code lines the claim rests on now.
	Where   []string `json:"where"`
	Message string   `json:"message,omitempty"`
	Row     string   `json:"row"`

	lines bool // Where names code lines (the kind scans lines)
}

// Result is everything a run found, over the snapshot it ran on.
type Result struct {
	*snapshot.Snapshot
	Findings []diag.Finding
	Claims   []ClaimState
	// Proofs are prove's outcomes, one per claim it mutated.
	Proofs []Proof
	// Notes are things the user should know that are not findings, such as
	// files skipped because they are binary.
	Notes []string

	opts     Options
	ctx      context.Context // cancelled: the run stops between files and claims
	scanned  atomic.Int64    // files the scan has read
	prepared *prepared       // the claims, validated once per run (CL006, CL007, CL009)
	notesMu  sync.Mutex

	budget       time.Duration
	deadline     time.Time
	budgetMu     sync.Mutex
	overFile     string // the file the budget ran out at
	skippedFiles int
}

// Rule is one check, in the shape of a go/analysis Analyzer: its id, its
// name, its documentation (`claimslint explain ID`) and the function that
// runs it. A rule reports structured findings through its Pass and never
// prints; the driver sorts, de-duplicates and formats them.
type Rule struct {
	ID   string
	Name string
	Doc  string
	// Run reports the rule's findings on pass.Snap. An error means the rule
	// could not be carried out (for example git failed), not a finding.
	Run func(pass *Pass) error
}

// Pass is one rule's view of one run: the snapshot it reads and the sink
// for its findings.
type Pass struct {
	Rule *Rule
	Snap *snapshot.Snapshot
	Opts Options
	res  *Result
}

// Report records a finding of the pass's rule; a finding with no rule id
// gets the pass's.
func (p *Pass) Report(f diag.Finding) {
	if f.Check == "" {
		f.Check = p.Rule.ID
	}
	if f.Severity == "" {
		f.Severity = diag.SeverityError
	}
	p.res.Findings = append(p.res.Findings, f)
}

// Reportf records an error finding of the pass's rule at pos.
func (p *Pass) Reportf(pos token.Position, format string, args ...any) {
	p.Report(diag.Finding{Pos: pos, Message: fmt.Sprintf(format, args...)})
}

// Run loads the repository at opts.Dir and runs every rule on it. An error
// means the check could not be carried out (bad configuration, unreadable
// register); problems in the register's content are findings.
func Run(opts Options) (*Result, error) {
	return RunContext(context.Background(), opts)
}

// RunContext is Run, stopped when ctx is done: between decision files
// while loading, between rules, claims and files while evaluating. A
// stopped run returns ctx's error (errors.Is context.Canceled or
// context.DeadlineExceeded) and no result (D54).
func RunContext(ctx context.Context, opts Options) (*Result, error) {
	snap, err := snapshot.LoadContext(ctx, opts.Dir)
	if err != nil {
		return nil, err
	}
	return RunRulesContext(ctx, snap, opts, Rules...)
}

// Claims evaluates the claims of snap (of one decision when decision is
// set) and nothing else: the claim states `list` and the MCP decision
// tools show, without the register rules.
func Claims(snap *snapshot.Snapshot, decision string) *Result {
	res, _ := RunRules(snap, Options{Dir: snap.Dir, Decision: decision}, claimRule) // claims report no errors
	return res
}

// RunRules runs rules, in order, on snap. Each rule also reports the parse
// findings of the snapshot that carry its id.
func RunRules(snap *snapshot.Snapshot, opts Options, rules ...*Rule) (*Result, error) {
	return RunRulesContext(context.Background(), snap, opts, rules...)
}

// RunRulesContext is RunRules, stopped when ctx is done (see RunContext).
func RunRulesContext(ctx context.Context, snap *snapshot.Snapshot, opts Options, rules ...*Rule) (*Result, error) {
	res := &Result{Snapshot: snap, opts: opts, budget: opts.Budget, ctx: ctx}
	if res.budget <= 0 {
		res.budget = DefaultBudget
	}
	res.deadline = time.Now().Add(res.budget)
	for _, rule := range rules {
		if err := ctx.Err(); err != nil {
			return nil, stoppedErr(err)
		}
		pass := &Pass{Rule: rule, Snap: snap, Opts: opts, res: res}
		for _, f := range snap.ParseFindings {
			if f.Check == rule.ID {
				pass.Report(f)
			}
		}
		if err := rule.Run(pass); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, stoppedErr(err) // a rule may have skipped work
	}
	res.Findings = diag.Dedupe(res.Findings)
	sort.Slice(res.Claims, func(i, j int) bool {
		a, b := res.Claims[i], res.Claims[j]
		if a.Decision != b.Decision {
			return register.IDNumber(a.Decision) < register.IDNumber(b.Decision)
		}
		return claimLess(a.Claim, b.Claim)
	})
	sort.Strings(res.Notes)
	return res, nil
}

// stoppedErr wraps the error of a done context: the run stopped, and
// errors.Is still finds context.Canceled or context.DeadlineExceeded.
func stoppedErr(err error) error { return fmt.Errorf("check stopped: %w", err) }

// stopped reports whether the run's context is done; work in progress then
// ends at the next file or claim, and RunRulesContext returns its error.
func (r *Result) stopped() bool { return r.ctx != nil && r.ctx.Err() != nil }

// claimLess orders C2 before C10.
func claimLess(a, b string) bool {
	na, nb := trailingNumber(a), trailingNumber(b)
	if na >= 0 && nb >= 0 && strings.TrimRight(a, "0123456789") == strings.TrimRight(b, "0123456789") {
		return na < nb
	}
	return a < b
}

func trailingNumber(s string) int {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	if i == len(s) || len(s)-i > 9 {
		return -1
	}
	n := 0
	for _, c := range s[i:] {
		n = n*10 + int(c-'0')
	}
	return n
}

func (r *Result) note(s string) {
	r.notesMu.Lock()
	r.Notes = append(r.Notes, s)
	r.notesMu.Unlock()
}

// registerRules checks that register rows and decision files correspond
// (CL001) and that statuses and supersession are consistent (CL002); the
// two rules share the walk, and each pass reports its own rule's findings.
func registerRules(p *Pass) error {
	r := p.Snap
	errorf := func(pos token.Position, rule, format string, args ...any) {
		if rule == p.Rule.ID {
			p.Reportf(pos, format, args...)
		}
	}
	reg := r.Register
	files := map[string][]*register.Decision{}
	for _, d := range r.Decisions {
		if d.FileID == "" && d.Adopted {
			continue // reported by loadAdopted
		}
		files[d.FileID] = append(files[d.FileID], d)
	}
	rows := map[string]register.Row{}
	for _, row := range reg.Rows {
		if prev, dup := rows[row.ID]; dup {
			errorf(row.Pos, ruleid.Register, "%s appears twice in the register (first at line %d): ids are unique", row.ID, prev.Pos.Line)
			continue
		}
		rows[row.ID] = row
		// An adopted record's unknown status is reported once, at the
		// record, with the statuses: entry that fixes both (D42).
		if row.Status != "" && !register.ValidStatus(row.Status) && !unknownAdopted(files[row.ID]) {
			errorf(row.StatusPos, ruleid.Status, "%s: status %q in the register is not one of %s", row.ID, row.Status, strings.Join(register.Statuses, ", "))
		}
		ds := files[row.ID]
		if len(ds) > 0 && ds[0].Inline {
			continue // the row is the decision (D35)
		}
		if len(ds) == 0 {
			errorf(row.Pos, ruleid.Register, "%s has no decision file: create %s/%s-<slug>.md", row.ID, r.Config.Decisions, row.ID)
			continue
		}
		d := ds[0]
		if row.Link != "" && !isExternal(row.Link) {
			target := path.Clean(path.Join(path.Dir(reg.Path), strings.SplitN(row.Link, "#", 2)[0]))
			if target != d.Path {
				errorf(row.LinkPos, ruleid.Register, "%s links to %s, but its decision file is %s", row.ID, target, d.Path)
			}
		}
		if d.Adopted && !register.ValidStatus(d.Status) {
			continue // one finding, at the record's status (statusAdvice)
		}
		if reg.HasStatus && d.Parsed && d.Status != "" && row.Status != d.Status {
			errorf(row.StatusPos, ruleid.Register, "%s is %q in the register but %q in %s: make them agree", row.ID, row.Status, d.Status, d.Path)
		}
	}
	for id, ds := range files {
		if len(ds) > 1 {
			for _, d := range ds {
				errorf(token.Position{Filename: d.Path, Line: 1, Column: 1}, ruleid.Register, "%d files claim %s: each decision has exactly one file", len(ds), id)
			}
		}
		if _, ok := rows[id]; !ok {
			for _, d := range ds {
				errorf(token.Position{Filename: d.Path, Line: 1, Column: 1}, ruleid.Register, "%s is not in the register %s: add a row for it", id, reg.Path)
			}
		}
	}
	byID := r.ByID()
	for _, d := range r.Decisions {
		if !d.Parsed || d.Inline {
			continue
		}
		if d.ID != "" && register.IDNumber(d.ID) != 0 && d.ID != d.FileID {
			errorf(d.KeyPos("id"), ruleid.Register, "front matter id %s does not match the file name's %s", d.ID, d.FileID)
		}
		if d.Adopted && d.FileID == "" {
			continue
		}
		if d.Adopted && d.Status == "" {
			errorf(d.KeyPos("status"), ruleid.Status, "adopted record %s states no status: map records without one in %s (statuses: {%s: accepted})", d.FileID, config.FileName, register.Unstated)
		} else if d.Adopted && !register.ValidStatus(d.Status) {
			errorf(d.KeyPos("status"), ruleid.Status, "%s", statusAdvice(d))
		} else if d.Status != "" && !register.ValidStatus(d.Status) {
			errorf(d.KeyPos("status"), ruleid.Status, "status %q is not one of %s", d.Status, strings.Join(register.Statuses, ", "))
		}
		if d.Status == "superseded" && len(d.SupersededBy) == 0 && d.Adopted && d.ID == "" {
			errorf(d.KeyPos("status"), ruleid.Status, "adopted record %s is superseded but names no registered successor: give the successor supersedes: [%s] in its front matter (the record itself stays as written)", d.FileID, d.FileID)
		} else if d.Status == "superseded" && len(d.SupersededBy) == 0 {
			errorf(d.KeyPos("status"), ruleid.Status, "%s is superseded but names no successor: add superseded-by: [D<n>]", d.FileID)
		}
		for _, ref := range d.Supersedes {
			t, ok := byID[ref.ID]
			if !ok {
				errorf(d.KeyPos("supersedes"), ruleid.Status, "%s supersedes %s, which has no decision file", d.FileID, ref)
				continue
			}
			if !t.Parsed {
				continue
			}
			if !hasRef(t.SupersededBy, d.FileID) {
				errorf(t.KeyPos("superseded-by"), ruleid.Status, "%s supersedes %s, so %s must list %s in superseded-by", d.FileID, ref, t.FileID, d.FileID)
			}
			if ref.Clause == "" && t.Status != "superseded" && t.Status != "deprecated" && d.Status == "accepted" {
				errorf(t.KeyPos("status"), ruleid.Status, "%s is superseded whole by %s: set status: superseded (or name a clause, %s(n), to supersede part of it)", t.FileID, d.FileID, t.FileID)
			}
		}
		for _, ref := range d.SupersededBy {
			t, ok := byID[ref.ID]
			if !ok {
				errorf(d.KeyPos("superseded-by"), ruleid.Status, "%s is superseded by %s, which has no decision file", d.FileID, ref)
				continue
			}
			if t.Parsed && !hasRef(t.Supersedes, d.FileID) {
				errorf(t.KeyPos("supersedes"), ruleid.Status, "%s lists %s in superseded-by, so %s must list %s in supersedes", d.FileID, ref, t.FileID, d.FileID)
			}
		}
	}
	return nil
}

func hasRef(refs []register.Ref, id string) bool {
	for _, r := range refs {
		if r.ID == id {
			return true
		}
	}
	return false
}

func isExternal(link string) bool {
	return strings.Contains(link, "://") || strings.HasPrefix(link, "#") || strings.HasPrefix(link, "mailto:")
}

// unknownAdopted reports an adopted record whose status the vocabulary does
// not know.
func unknownAdopted(ds []*register.Decision) bool {
	return len(ds) > 0 && ds[0].Adopted && ds[0].Parsed && !register.ValidStatus(ds[0].Status)
}

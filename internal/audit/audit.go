// Package audit cross-checks the register and the tracker export: which
// issues each decision names (the ones that carry it, the residuals it
// leaves open), what state they are in, and whether both sides agree.
// It turns the by-eye reading of an export into a table and a list of
// problems, for `claimslint audit`.
package audit

import (
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/format"
	"github.com/claimslint/claimslint/internal/mention"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/ruleid"
	"github.com/claimslint/claimslint/internal/snapshot"
	"github.com/claimslint/claimslint/internal/trackerformat"
)

// Role says how a decision names an issue.
const (
	RoleTracker  = "tracker"
	RoleResidual = "residual"
	RoleClaim    = "claim"
)

// Ref is one decision naming one issue.
type Ref struct {
	Decision string `json:"decision"`
	Role     string `json:"role"`

	pos token.Position // where the decision names it
}

// Row is one issue id named by the register or naming a decision.
type Row struct {
	ID        string   `json:"id"`
	Status    string   `json:"status"` // "" when not in the export
	Title     string   `json:"title"`
	NamedBy   []Ref    `json:"named_by"`
	Decisions []string `json:"decisions"` // what the issue says it carries

	closed bool // the status is mapped onto the closed class (D57)
}

// Problem kinds.
const (
	ProblemDangling       = "dangling"
	ProblemPlaceholder    = "placeholder"
	ProblemClosedResidual = "closed-residual"
	ProblemNoBacklink     = "no-backlink"
	ProblemUnknownDec     = "unknown-decision"
	ProblemIndex          = "committed-index"
)

// IndexDir is where docket keeps its index: a clone's cache, which git
// must not track (D67).
const IndexDir = ".docket/"

// Problem is one disagreement between register and tracker.
type Problem struct {
	Kind     string `json:"kind"`
	ID       string `json:"id"`
	Decision string `json:"decision,omitempty"`
	Message  string `json:"message"`

	pos token.Position // where to fix it
}

// Report is the audit.
type Report struct {
	Export   string    `json:"export"`
	Rows     []Row     `json:"rows"`
	Problems []Problem `json:"problems"`
}

// Run audits the repository at dir. It loads the snapshot and evaluates no
// claim: the audit reads the register and the export only.
func Run(dir string) (*Report, error) {
	snap, err := snapshot.Load(dir)
	if err != nil {
		return nil, err
	}
	return Build(snap), nil
}

// Build audits a snapshot the caller already has.
func Build(res *snapshot.Snapshot) *Report {
	a := &auditor{res: res, rep: &Report{Export: res.Config.Tracker.Export, Rows: []Row{}, Problems: []Problem{}},
		rows: map[string]*Row{}, known: map[string]bool{}, names: map[string]map[string]bool{}}
	rep := a.rep
	for _, d := range res.Decisions {
		a.named(d)
	}
	// Issues that say they carry a decision join the table too.
	if res.Export != nil {
		for id, iss := range res.Export.Issues {
			if len(iss.Decisions) > 0 {
				a.get(id)
			}
		}
	}
	for _, r := range a.rows {
		rep.Rows = append(rep.Rows, *r)
	}
	slices.SortFunc(rep.Rows, func(a, b Row) int { return strings.Compare(a.ID, b.ID) })
	for _, r := range rep.Rows {
		a.rowProblems(r)
	}
	a.committedIndex()
	return rep
}

// auditor builds a Report: the tracker ids the register names and the
// issues that say they carry a decision, one row each, and the problems.
type auditor struct {
	res   *snapshot.Snapshot
	rep   *Report
	rows  map[string]*Row
	known map[string]bool            // decision file ids
	names map[string]map[string]bool // decision -> ids it names
}

// get is the row of tracker id id, made on first use with the export's
// word on it.
func (a *auditor) get(id string) *Row {
	if r, ok := a.rows[id]; ok {
		return r
	}
	r := &Row{ID: id, NamedBy: []Ref{}, Decisions: []string{}}
	if iss, ok := a.res.Export.Lookup(id); ok {
		r.Status, r.Title, r.closed = iss.Status, iss.Title, iss.Closed()
		r.Decisions = append(r.Decisions, iss.Decisions...)
	}
	a.rows[id] = r
	return r
}

// named records the ids decision d names: in its tracker: and residuals:
// lists and in its claims.
func (a *auditor) named(d *register.Decision) {
	a.known[d.FileID] = true
	a.names[d.FileID] = map[string]bool{}
	add := func(id, role string, pos token.Position) {
		r := a.get(id)
		ref := Ref{Decision: d.FileID, Role: role, pos: pos}
		if !slices.ContainsFunc(r.NamedBy, func(x Ref) bool { return x.Decision == ref.Decision && x.Role == ref.Role }) {
			r.NamedBy = append(r.NamedBy, ref)
		}
		a.names[d.FileID][id] = true
	}
	for _, id := range d.Tracker {
		add(id, RoleTracker, d.KeyPos("tracker"))
	}
	for _, id := range d.Residuals {
		add(id, RoleResidual, d.KeyPos("residuals"))
	}
	for _, c := range d.Claims {
		for _, id := range check.ClaimIssues(c) {
			add(id, RoleClaim, c.CellPos("anchor"))
		}
	}
}

func (a *auditor) problem(pos token.Position, kind, id, dec, format string, args ...any) {
	a.rep.Problems = append(a.rep.Problems, Problem{Kind: kind, ID: id, Decision: dec, Message: fmt.Sprintf(format, args...), pos: pos})
}

// rowProblems reports what is wrong with row r: a placeholder, dangling
// or closed residual id where a decision names it, and a decision the
// issue says it carries that does not exist or does not name it.
func (a *auditor) rowProblems(r Row) {
	res, rep, known, names, problem := a.res, a.rep, a.known, a.names, a.problem
	issuePos := token.Position{Filename: rep.Export, Line: 1, Column: 1}
	if iss, ok := res.Export.Lookup(r.ID); ok {
		issuePos.Line = iss.Line
	}
	for _, ref := range r.NamedBy {
		switch {
		case isPlaceholder(r.ID):
			problem(ref.pos, ProblemPlaceholder, r.ID, ref.Decision, "%s names the placeholder %s: file the issue and write its id in %s, or remove %s from there", ref.Decision, r.ID, where(ref), r.ID)
		case r.Status == "":
			problem(ref.pos, ProblemDangling, r.ID, ref.Decision, "%s names %s, which is not in the tracker export %s: correct the id in %s, or remove it from there", ref.Decision, r.ID, rep.Export, where(ref))
		case ref.Role == RoleResidual && r.closed:
			// Closed is the workflow's closed class (closed, tombstone,
			// or what tracker.workflow maps there: D57). Moving it to
			// tracker: keeps the back-link the issue may have; dropping
			// it would trade this problem for a no-backlink one (D43).
			problem(ref.pos, ProblemClosedResidual, r.ID, ref.Decision, "%s lists %s as a residual, but it is %s in the tracker: move it from residuals: to tracker: in %s's front matter (or reopen it)", ref.Decision, r.ID, r.Status, ref.Decision)
		}
	}
	for _, dec := range r.Decisions {
		switch {
		case !known[dec]:
			problem(issuePos, ProblemUnknownDec, r.ID, dec, "%s says it carries %s, which has no decision file: remove %s from the issue's decisions%s", r.ID, dec, dec, removeHint(res, r.ID, dec))
		case !names[dec][r.ID]:
			problem(issuePos, ProblemNoBacklink, r.ID, dec, "%s says it carries %s, but %s does not name it: add %s to %s's tracker: (or residuals: if it is still open work)", r.ID, dec, dec, r.ID, dec)
		}
	}
}

// committedIndex reports docket's index committed: the index is a
// clone's own cache, one a commit brings is not opened by docket (D67),
// and is reported here, once, at its first tracked file.
func (a *auditor) committedIndex() {
	res := a.res
	if res.Config.Tracker.Format != trackerformat.Docket || res.Repo == nil || !res.Repo.Git {
		return
	}
	var tracked []string
	for _, f := range res.Repo.Files {
		if strings.HasPrefix(f, IndexDir) && res.Repo.IndexMode(f) != "" && f != IndexDir+".gitignore" {
			tracked = append(tracked, f)
		}
	}
	if len(tracked) > 0 {
		a.problem(token.Position{Filename: tracked[0], Line: 1, Column: 1}, ProblemIndex, "", "",
			"%s of docket's index %s %s committed, the first %s: the index is a clone's own cache, and docket does not open one a commit brought; run git rm -r %s and commit (docket builds the index afresh from the export)",
			format.Count(len(tracked), "file"), strings.TrimSuffix(IndexDir, "/"), format.Verb(len(tracked), "be"), strconv.Quote(tracked[0]), strings.TrimSuffix(IndexDir, "/"))
	}
}

// where names the place in a decision that names an issue, for advice.
func where(ref Ref) string {
	switch ref.Role {
	case RoleTracker:
		return ref.Decision + "'s tracker:"
	case RoleResidual:
		return ref.Decision + "'s residuals:"
	}
	return ref.Decision + "'s tracker claim row"
}

// removeHint is the command that removes a decision from an issue, for
// trackers claimslint knows how to edit.
func removeHint(res *snapshot.Snapshot, id, dec string) string {
	if res.Config.Tracker.Format == trackerformat.Docket {
		return " (docket update " + id + " --remove-decision " + dec + ")"
	}
	return ""
}

// Findings returns the problems as findings, for the formats every command
// shares (text, json lines, sarif, github): a dangling id or a placeholder
// is CL004, as check reports it; a missing back-link, an unknown decision
// and a closed residual are CL013.
func (rep *Report) Findings() []diag.Finding {
	var out []diag.Finding
	for _, p := range rep.Problems {
		rule := ruleid.Backlinks
		if p.Kind == ProblemDangling || p.Kind == ProblemPlaceholder {
			rule = ruleid.Tracker
		}
		out = append(out, diag.Finding{Pos: p.pos, Check: rule, Decision: p.Decision, Severity: diag.SeverityError, Message: p.Kind + ": " + p.Message})
	}
	return diag.Dedupe(out)
}

// Rule is CL013, the audit's own rule: its documentation is what
// `claimslint explain CL013` prints and what SARIF output carries. Audit
// runs it; check does not.
var Rule = &check.Rule{ID: ruleid.Backlinks, Name: "tracker-backlinks", Doc: `The register and the tracker name each other (claimslint audit).

Every residual a decision lists (residuals:) is still open in the tracker
export; every decision an issue says it carries exists and names the issue
back (in tracker:, residuals: or a tracker claim). Dangling ids and
placeholders are CL004, as check reports them. With a docket tracker, no
file of docket's index (.docket/) is committed: the index is a clone's own
cache, and docket does not open one a commit brought.

Fix: move a closed residual out of residuals: (or reopen it); add the
issue's id to the decision it carries, or correct the issue's decisions;
git rm -r .docket a committed index.`,
	Run: func(p *check.Pass) error {
		for _, f := range Build(p.Snap).Findings() {
			if f.Check == ruleid.Backlinks {
				p.Report(f)
			}
		}
		return nil
	}}

// WriteText prints the table and the problems for a terminal.
func (rep *Report) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATUS\tNAMED BY\tCARRIES\tTITLE")
	// Every cell comes from the export or the register: it is escaped, so
	// a title holding a newline, a tab or an ESC stays in its cell (D69).
	esc := format.Escape
	for _, r := range rep.Rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", esc(r.ID), esc(or(r.Status, "missing")), esc(refs(r.NamedBy)), esc(or(strings.Join(r.Decisions, ","), "-")), esc(r.Title))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, p := range rep.Problems {
		fmt.Fprintf(w, "%s: %s\n", p.Kind, esc(p.Message))
	}
	_, err := fmt.Fprintf(w, "%d ids, %d problems\n", len(rep.Rows), len(rep.Problems))
	return err
}

// WriteMarkdown prints a table and a problem list ready to paste into a
// run report.
func (rep *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "| Id | Status | Named by | Carries | Title |\n|---|---|---|---|---|\n")
	// Cells are escaped (D69) and their pipes too, so a title cannot end
	// its row or add one.
	cell := func(s string) string { return strings.ReplaceAll(format.Escape(s), "|", `\|`) }
	for _, r := range rep.Rows {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", cell(r.ID), or(cell(r.Status), "**missing**"), cell(refs(r.NamedBy)), or(cell(strings.Join(r.Decisions, ", ")), "-"), cell(r.Title))
	}
	if len(rep.Problems) == 0 {
		fmt.Fprintf(&b, "\nNo problems: every id resolves, every residual is open, every issue's decisions name it back.\n")
	} else {
		fmt.Fprintf(&b, "\nProblems:\n\n")
		for _, p := range rep.Problems {
			fmt.Fprintf(&b, "- %s: %s\n", p.Kind, format.Escape(p.Message))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON prints the report as one JSON document.
func (rep *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// isPlaceholder applies check's placeholder rule (CL004) to a whole id.
func isPlaceholder(id string) bool {
	i := strings.LastIndexByte(id, '-')
	return i >= 0 && mention.IsPlaceholder(id[i+1:])
}

func refs(rs []Ref) string {
	if len(rs) == 0 {
		return "-"
	}
	var s []string
	for _, r := range rs {
		s = append(s, r.Decision+" "+r.Role)
	}
	return strings.Join(s, ", ")
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

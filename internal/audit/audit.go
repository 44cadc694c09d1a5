// Package audit cross-checks the register and the tracker export: which
// issues each decision names (the ones that carry it, the residuals it
// leaves open), what state they are in, and whether both sides agree.
// It turns the by-eye reading of an export into a table and a list of
// problems, for `claimslint audit`.
package audit

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/config"
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
}

// Row is one issue id named by the register or naming a decision.
type Row struct {
	ID        string   `json:"id"`
	Status    string   `json:"status"` // "" when not in the export
	Title     string   `json:"title"`
	NamedBy   []Ref    `json:"named_by"`
	Decisions []string `json:"decisions"` // what the issue says it carries
}

// Problem kinds.
const (
	ProblemDangling       = "dangling"
	ProblemPlaceholder    = "placeholder"
	ProblemClosedResidual = "closed-residual"
	ProblemNoBacklink     = "no-backlink"
	ProblemUnknownDec     = "unknown-decision"
)

// Problem is one disagreement between register and tracker.
type Problem struct {
	Kind     string `json:"kind"`
	ID       string `json:"id"`
	Decision string `json:"decision,omitempty"`
	Message  string `json:"message"`
}

// Report is the audit.
type Report struct {
	Export   string    `json:"export"`
	Rows     []Row     `json:"rows"`
	Problems []Problem `json:"problems"`
}

// Run audits the repository at dir.
func Run(dir string) (*Report, error) {
	res, err := check.Run(check.Options{Dir: dir})
	if err != nil {
		return nil, err
	}
	return Build(res), nil
}

// Build audits a check result the caller already has.
func Build(res *check.Result) *Report {
	rep := &Report{Export: res.Config.Tracker.Export, Rows: []Row{}, Problems: []Problem{}}
	rows := map[string]*Row{}
	get := func(id string) *Row {
		if r, ok := rows[id]; ok {
			return r
		}
		r := &Row{ID: id, NamedBy: []Ref{}, Decisions: []string{}}
		if iss, ok := res.Export.Lookup(id); ok {
			r.Status, r.Title = iss.Status, iss.Title
			r.Decisions = append(r.Decisions, iss.Decisions...)
		}
		rows[id] = r
		return r
	}
	known := map[string]bool{}
	names := map[string]map[string]bool{} // decision -> ids it names
	for _, d := range res.Decisions {
		known[d.FileID] = true
		names[d.FileID] = map[string]bool{}
		add := func(id, role string) {
			r := get(id)
			ref := Ref{Decision: d.FileID, Role: role}
			if !slices.Contains(r.NamedBy, ref) {
				r.NamedBy = append(r.NamedBy, ref)
			}
			names[d.FileID][id] = true
		}
		for _, id := range d.Tracker {
			add(id, RoleTracker)
		}
		for _, id := range d.Residuals {
			add(id, RoleResidual)
		}
		for _, c := range d.Claims {
			if c.Kind == check.KindTracker && c.Anchor != "" {
				add(c.Anchor, RoleClaim)
			}
		}
	}
	// Issues that say they carry a decision join the table too.
	if res.Export != nil {
		for id, iss := range res.Export.Issues {
			if len(iss.Decisions) > 0 {
				get(id)
			}
		}
	}
	for _, r := range rows {
		rep.Rows = append(rep.Rows, *r)
	}
	slices.SortFunc(rep.Rows, func(a, b Row) int { return strings.Compare(a.ID, b.ID) })
	problem := func(kind, id, dec, format string, args ...any) {
		rep.Problems = append(rep.Problems, Problem{Kind: kind, ID: id, Decision: dec, Message: fmt.Sprintf(format, args...)})
	}
	for _, r := range rep.Rows {
		for _, ref := range r.NamedBy {
			switch {
			case isPlaceholder(r.ID):
				problem(ProblemPlaceholder, r.ID, ref.Decision, "%s names the placeholder %s: file the issue and write its id in %s, or remove %s from there", ref.Decision, r.ID, where(ref), r.ID)
			case r.Status == "":
				problem(ProblemDangling, r.ID, ref.Decision, "%s names %s, which is not in the tracker export %s: correct the id in %s, or remove it from there", ref.Decision, r.ID, rep.Export, where(ref))
			case ref.Role == RoleResidual && (r.Status == "closed" || r.Status == "tombstone"):
				// Moving it to tracker: keeps the back-link the issue
				// may have; dropping it would trade this problem for a
				// no-backlink one.
				problem(ProblemClosedResidual, r.ID, ref.Decision, "%s lists %s as a residual, but it is %s in the tracker: move it from residuals: to tracker: in %s's front matter (or reopen it)", ref.Decision, r.ID, r.Status, ref.Decision)
			}
		}
		for _, dec := range r.Decisions {
			switch {
			case !known[dec]:
				problem(ProblemUnknownDec, r.ID, dec, "%s says it carries %s, which has no decision file: remove %s from the issue's decisions%s", r.ID, dec, dec, removeHint(res, r.ID, dec))
			case !names[dec][r.ID]:
				problem(ProblemNoBacklink, r.ID, dec, "%s says it carries %s, but %s does not name it: add %s to %s's tracker: (or residuals: if it is still open work)", r.ID, dec, dec, r.ID, dec)
			}
		}
	}
	return rep
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
func removeHint(res *check.Result, id, dec string) string {
	if res.Config.Tracker.Format == config.FormatDocket {
		return " (docket update " + id + " --remove-decision " + dec + ")"
	}
	return ""
}

// WriteText prints the table and the problems for a terminal.
func (rep *Report) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATUS\tNAMED BY\tCARRIES\tTITLE")
	for _, r := range rep.Rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, or(r.Status, "missing"), refs(r.NamedBy), or(strings.Join(r.Decisions, ","), "-"), r.Title)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, p := range rep.Problems {
		fmt.Fprintf(w, "%s: %s\n", p.Kind, p.Message)
	}
	_, err := fmt.Fprintf(w, "%d ids, %d problems\n", len(rep.Rows), len(rep.Problems))
	return err
}

// WriteMarkdown prints a table and a problem list ready to paste into a
// run report.
func (rep *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "| Id | Status | Named by | Carries | Title |\n|---|---|---|---|---|\n")
	for _, r := range rep.Rows {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", r.ID, or(r.Status, "**missing**"), refs(r.NamedBy), or(strings.Join(r.Decisions, ", "), "-"), strings.ReplaceAll(r.Title, "|", `\|`))
	}
	if len(rep.Problems) == 0 {
		fmt.Fprintf(&b, "\nNo problems: every id resolves, every residual is open, every issue's decisions name it back.\n")
	} else {
		fmt.Fprintf(&b, "\nProblems:\n\n")
		for _, p := range rep.Problems {
			fmt.Fprintf(&b, "- %s: %s\n", p.Kind, p.Message)
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
	return i >= 0 && check.IsPlaceholder(id[i+1:])
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

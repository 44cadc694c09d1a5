package check

import (
	"fmt"
	"go/token"
	"reflect"
	"sort"
	"strings"

	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/snapshot"
)

//go:generate go run ../listgen/cmd/listgen

// Rule is one check, in the shape of a go/analysis Analyzer: its id, its
// name, its documentation (`claimslint explain ID`), the rules whose
// results it reads and the function that runs it. A rule reports
// structured findings through its Pass and never prints; the driver sorts,
// de-duplicates and formats them.
type Rule struct {
	ID   string
	Name string
	Doc  string
	// Requires lists the rules whose results Run reads through
	// pass.ResultOf. The driver runs them first, once each per run; their
	// findings are reported only when they were asked for too.
	Requires []*Rule
	// ResultType is the type of the result Run sets with pass.SetResult,
	// nil for a rule no other rule reads. A rule that sets none hands over
	// the zero value of the type.
	ResultType reflect.Type
	// Run reports the rule's findings on pass.Snap. An error means the rule
	// could not be carried out (for example git failed), not a finding.
	Run func(pass *Pass) error
}

// String names the rule: its id, or the name of a rule without one.
func (r *Rule) String() string {
	if r.ID != "" {
		return r.ID
	}
	return r.Name
}

// Pass is one rule's view of one run: the snapshot it reads, the results
// of the rules it requires and the sink for its findings.
type Pass struct {
	Rule *Rule
	Snap *snapshot.Snapshot
	Opts Options
	// ResultOf holds the result of each rule of Rule.Requires.
	ResultOf map[*Rule]any
	res      *Result
	result   any
	// quiet: the rule runs only because another requires it, so what it
	// reports is dropped and only its result is kept.
	quiet bool
}

// Report records a finding of the pass's rule; a finding with no rule id
// gets the pass's.
func (p *Pass) Report(f diag.Finding) {
	if p.quiet {
		return
	}
	if f.Check == "" {
		f.Check = p.Rule.ID
	}
	if f.Severity == "" {
		f.Severity = diag.SeverityError
	}
	if p.res.capped(f) {
		return
	}
	p.res.Findings = append(p.res.Findings, f)
}

// reportUncapped is Report past the run's cap on findings (D90).
func (p *Pass) reportUncapped(f diag.Finding) {
	if p.quiet {
		return
	}
	if f.Check == "" {
		f.Check = p.Rule.ID
	}
	p.res.Findings = append(p.res.Findings, f)
}

// Reportf records an error finding of the pass's rule at pos; past the
// run's cap its message is not even formatted.
func (p *Pass) Reportf(pos token.Position, format string, args ...any) {
	if !p.quiet && len(p.res.Findings) >= MaxFindings {
		p.res.capped(diag.Finding{Pos: pos, Check: p.Rule.ID, Severity: diag.SeverityError})
		return
	}
	p.Report(diag.Finding{Pos: pos, Message: fmt.Sprintf(format, args...)})
}

// SetResult sets the result the rules requiring the pass's rule read, a
// value of its ResultType.
func (p *Pass) SetResult(v any) { p.result = v }

// note records a note of the run (safe for concurrent use).
func (p *Pass) note(s string) {
	if !p.quiet {
		p.res.note(s)
	}
}

// addClaims records claim states in the run's result.
func (p *Pass) addClaims(sts []ClaimState) {
	if !p.quiet {
		p.res.Claims = append(p.res.Claims, sts...)
	}
}

// addProof records prove's outcome for one claim in the run's result.
func (p *Pass) addProof(pr Proof) {
	if !p.quiet {
		p.res.Proofs = append(p.res.Proofs, pr)
	}
}

// resultOf returns the pass's result, checked against the type its rule
// declares: the zero value of that type when the rule set none.
func (p *Pass) resultOf() (any, error) {
	want := p.Rule.ResultType
	if p.result == nil && want != nil {
		return reflect.Zero(want).Interface(), nil
	}
	if got := reflect.TypeOf(p.result); got != want {
		return nil, fmt.Errorf("internal error: rule %s set a result of type %v, but declares %v", p.Rule, got, want)
	}
	return p.result, nil
}

// plan orders rules and the rules they require, transitively, each once
// and after every rule it requires: a depth-first walk in the order given,
// as go/analysis's checker runs analyzers. A cycle, a nil rule or a rule
// without Run is an error (a programming error: Go's initialisation order
// already refuses a cycle among package-level rules).
func plan(rules []*Rule) ([]*Rule, error) {
	const (
		visiting = 1
		done     = 2
	)
	mark := map[*Rule]int{}
	var order []*Rule
	var visit func(r *Rule, path []string) error
	visit = func(r *Rule, path []string) error {
		if r == nil && len(path) == 0 {
			return fmt.Errorf("internal error: a nil rule was asked for")
		} else if r == nil {
			return fmt.Errorf("internal error: rule %s requires a nil rule", path[len(path)-1])
		}
		switch mark[r] {
		case done:
			return nil
		case visiting:
			return fmt.Errorf("internal error: rules require each other: %s requires %s", strings.Join(path, " requires "), r)
		}
		if r.Run == nil {
			return fmt.Errorf("internal error: rule %s has no Run", r)
		}
		mark[r] = visiting
		for _, req := range r.Requires {
			if err := visit(req, append(path, r.String())); err != nil {
				return err
			}
		}
		mark[r] = done
		order = append(order, r)
		return nil
	}
	for _, r := range rules {
		if err := visit(r, nil); err != nil {
			return nil, err
		}
	}
	return order, nil
}

// Explain returns the documentation of the rule among rules whose id
// (CL007) or name (claims) is given, case-insensitive: explain's list
// shows both, so either finds it.
func Explain(id string, rules []*Rule) (string, error) {
	given := strings.TrimSpace(id)
	id = strings.ToUpper(given)
	for _, r := range rules {
		if r.ID == id || strings.EqualFold(r.Name, given) {
			return fmt.Sprintf("%s %s\n\n%s\n", r.ID, r.Name, r.Doc), nil
		}
	}
	ids := make([]string, len(rules))
	for i, r := range rules {
		ids[i] = r.ID
	}
	sort.Strings(ids)
	return "", fmt.Errorf("unknown rule %q: known rules are %s", id, strings.Join(ids, ", "))
}

// Summary is the first line of the rule's documentation: what it checks.
func (r *Rule) Summary() string {
	s, _, _ := strings.Cut(r.Doc, "\n")
	return s
}

// Index is what `claimslint explain` prints with no id: every rule of
// rules, by id, with its name and summary, one a line (issue 36).
func Index(rules []*Rule) string {
	sorted := append([]*Rule(nil), rules...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].ID < sorted[j].ID })
	width := 0
	for _, r := range sorted {
		width = max(width, len(r.Name))
	}
	var b strings.Builder
	for _, r := range sorted {
		fmt.Fprintf(&b, "%s  %-*s  %s\n", r.ID, width, r.Name, r.Summary())
	}
	b.WriteString("\nclaimslint explain ID prints a rule's documentation.\n")
	return b.String()
}

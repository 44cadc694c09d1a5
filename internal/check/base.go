package check

import (
	"reflect"

	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/repo"
)

// baseRowsRule reads, with --base, each accepted decision as it was at the
// base revision, once per run, for CL011 and CL012. It reports nothing:
// it is not in Rules, and runs when a rule requires it.
var baseRowsRule = &Rule{Name: "base-rows", Run: baseRowsRun, ResultType: reflect.TypeOf(baseRows(nil)),
	Doc: "The claim rows of each accepted decision at --base, read once for the --base rules."}

// baseRows is baseRowsRule's result: one entry per accepted decision that
// existed at the base revision.
type baseRows []baseDecision

// baseDecision is one accepted decision now and at the base revision.
type baseDecision struct {
	d    *register.Decision // the decision now
	then *register.Decision // the decision at the base, parsed
}

// baseRowsRun reads each accepted decision at revision Options.Base; a
// decision new since then has no entry (every row of it is new).
func baseRowsRun(p *Pass) error {
	base, dir := p.Opts.Base, p.Snap.Dir
	if base == "" {
		return nil
	}
	var out baseRows
	r := p.res
	for i, d := range p.Snap.Decisions {
		if !d.Parsed || d.Status != "accepted" {
			continue
		}
		if r.budget.stop(overrun{file: d.Path, doing: "reading decisions at --base " + base}) {
			r.baseCut = len(p.Snap.Decisions) - i // CL011 reports the budget's finding
			break
		}
		old, existed, err := repo.Show(dir, base, d.Path)
		if err != nil {
			return err
		}
		if !existed {
			continue // a new decision: every row is new
		}
		doc := p.Snap.Doc(d.Path)
		if doc == nil || doc.Err != nil {
			continue
		}
		out = append(out, baseDecision{d: d, then: register.ParseDecision(d.Path, old)})
	}
	p.SetResult(out)
	return nil
}

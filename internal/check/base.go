package check

import (
	"context"
	"errors"

	"github.com/claimslint/claimslint/internal/config"
	"reflect"

	"github.com/claimslint/claimslint/internal/register"
)

// baseRowsRule pairs, with --base, each accepted decision with the
// decision of its id in the register at the base revision (baseThenRule),
// once per run, for CL011 and CL012. It reports nothing: it is not in
// Rules, and runs when a rule requires it.
var baseRowsRule = &Rule{Name: "base-rows", Requires: []*Rule{baseThenRule}, Run: baseRowsRun, ResultType: reflect.TypeOf(baseRows(nil)),
	Doc: "The claim rows of each accepted decision at --base, read once for the --base rules."}

// baseRows is baseRowsRule's result: one entry per accepted decision that
// existed at the base revision.
type baseRows []baseDecision

// baseDecision is one accepted decision now and at the base revision.
type baseDecision struct {
	d    *register.Decision // the decision now
	then *register.Decision // the decision of its id at the base
}

// baseRowsRun pairs each accepted decision with its decision at revision
// Options.Base, by id: a decision renamed, or whose claims moved between
// its file and a claims file, is compared all the same; a decision new
// since then has no entry (every row of it is new).
func baseRowsRun(p *Pass) error {
	v, _ := p.ResultOf[baseThenRule].(*baseView)
	if p.Opts.Base == "" || v == nil {
		return nil
	}
	r := p.res
	if errors.Is(v.Err, context.DeadlineExceeded) {
		r.budget.stop(overrun{file: config.FileName, doing: "reading the register at --base " + p.Opts.Base})
		for _, d := range p.Snap.Decisions {
			if d.Parsed && d.Status == "accepted" {
				r.baseCut++ // CL011 reports the budget's finding
			}
		}
		return nil
	}
	if v.Snap == nil {
		return nil // no register at the base, or one CL014 reports unreadable
	}
	then := v.Snap.ByID()
	var out baseRows
	for i, d := range p.Snap.Decisions {
		if !d.Parsed || d.Status != "accepted" {
			continue
		}
		if r.budget.stop(overrun{file: d.Path, doing: "reading decisions at --base " + p.Opts.Base}) {
			r.baseCut = len(p.Snap.Decisions) - i // CL011 reports the budget's finding
			break
		}
		old, existed := then[d.FileID]
		if !existed || !old.Parsed {
			continue // a new decision: every row is new
		}
		doc := p.Snap.Doc(d.Path)
		if doc == nil || doc.Err != nil {
			continue
		}
		out = append(out, baseDecision{d: d, then: old})
	}
	p.SetResult(out)
	return nil
}

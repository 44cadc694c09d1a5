package check

import (
	"fmt"

	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/format"
	"github.com/claimslint/claimslint/internal/ruleid"
)

// vacuousRule is CL009.
var vacuousRule = &Rule{ID: ruleid.Vacuous, Name: "vacuous-claim", Requires: []*Rule{claimRule}, Run: proveRun, Doc: `A claim must be able to fail (claimslint prove).

prove edits, in memory, the lines each claim of an accepted decision rests
on, one mutant at a time, and evaluates the claim alone again: for present
and anchored, each code line that satisfies the claim is deleted, and each
match of a Require (one that must match) is removed from it; for
anchored-every, every line the Anchor matches is deleted at once, and each
line's Require is broken; for absent, a sample of the Anchor is added to the
first file of Path. exec and tracker claims rest on no line and are not
mutated. A claim that stays green under one of its own mutants is vacuous:
the code could lose the line the decision is about and CI would not notice.
The usual cause is a token that appears on more than one code line.

Fix: anchor on the one line that does the work (an anchored claim, or a more
specific pattern), or narrow Path.`}

// proveRun (CL009) proves the claims of accepted decisions that CL007
// found holding.
func proveRun(p *Pass) error {
	if !p.Opts.Prove {
		return nil
	}
	r := p.res
	ok := map[string]bool{}
	for _, st := range p.ResultOf[claimRule].(claimStates) {
		if st.State == StateOK {
			ok[st.Decision+"/"+st.Claim] = true
		}
	}
	var todo []*claim
	for _, c := range r.prepare().all {
		d := c.d
		if c.kind == nil || d.Status != "accepted" || (p.Opts.Decision != "" && d.FileID != p.Opts.Decision) || !ok[d.FileID+"/"+c.c.ID] {
			continue
		}
		todo = append(todo, c)
	}
	for i, c := range todo {
		d := c.d
		if r.budget.stop(overrun{claim: c, doing: "proving", pos: c.c.Pos}) {
			r.budgetFinding(p, ruleid.Vacuous, format.Count(len(todo)-i, "claim")+" not proved")
			return nil
		}
		pr, provable := r.prove(d, c.c)
		if r.budget.spent() {
			// The budget ran out in its mutants: it is not proved either way.
			r.budgetFinding(p, ruleid.Vacuous, format.Count(len(todo)-i, "claim")+" not proved")
			return nil
		}
		if !provable {
			continue
		}
		p.addProof(pr)
		if pr.State == ProofVacuous {
			p.Report(diag.Finding{
				Pos: c.c.Pos, Check: ruleid.Vacuous, Decision: d.FileID, Claim: c.c.ID, Severity: diag.SeverityError,
				Message: fmt.Sprintf("vacuous claim: it stays green when %s (%s still satisfies it); anchor on the one line that does the work", pr.Survivor, pr.Witness),
			})
		}
	}
	return nil
}

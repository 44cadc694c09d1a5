package check

import (
	"fmt"
	"strings"

	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/format"
	"github.com/claimslint/claimslint/internal/ruleid"
)

// vacuousRule is CL009; its documentation lists what prove does to each
// kind of Kinds (vacuousDoc).
//
//registry:rules
var vacuousRule = &Rule{ID: ruleid.Vacuous, Name: "vacuous-claim", Requires: []*Rule{claimRule}, Run: proveRun, Doc: vacuousDoc()}

// vacuousDoc is CL009's documentation: each kind's ProveDoc, and the
// kinds that have none named as not mutated.
func vacuousDoc() string {
	var b strings.Builder
	b.WriteString(`A claim must be able to fail (claimslint prove).

prove edits, in memory, the lines each claim of an accepted decision rests
on, one mutant at a time, and evaluates the claim alone again. The mutants
of each kind:

`)
	var none []string
	for _, k := range Kinds {
		doc := strings.TrimRight(k.ProveDoc(), "\n")
		if doc == "" {
			none = append(none, k.Name())
			continue
		}
		for i, l := range strings.Split(doc, "\n") {
			name := ""
			if i == 0 {
				name = k.Name()
				if len(name) >= 10 {
					fmt.Fprintf(&b, "%s\n", name)
					name = ""
				}
			}
			fmt.Fprintf(&b, "%-10s%s\n", name, l)
		}
	}
	b.WriteString("\n")
	tail := "A claim with a Within cell has, besides, each line it rests on moved out of its block (an absent claim: a matching line added inside it, D94). "
	if len(none) > 0 {
		tail += orList(none, "and") + " claims rest on no line and are not mutated. "
	}
	tail += "A claim that stays green under one of its own mutants is vacuous: the code could lose the line the decision is about and CI would not notice. The usual cause is a token that appears on more than one code line."
	b.WriteString(wrap(tail, 78))
	b.WriteString(`

Fix: anchor on the one line that does the work (an anchored claim, or a more
specific pattern), or narrow Path.`)
	return b.String()
}

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
		pr, provable := r.prove(d, *c.c)
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

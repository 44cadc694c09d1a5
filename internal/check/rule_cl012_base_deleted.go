package check

import (
	"fmt"
	"go/token"

	"github.com/claimslint/claimslint/internal/ruleid"
)

// deletedRule is CL012.
//
//registry:rules
var deletedRule = &Rule{ID: ruleid.Deleted, Name: "claim-row-deleted", Requires: []*Rule{baseThenRule, baseRowsRule}, Run: baseDeletedRun, Doc: `Claims of accepted decisions are retired by supersession, not deletion.

With check --base REV, a claim row present at REV and gone now from a decision
that is still accepted is a finding: a row deleted from the decision's file,
or from its claims file, or the claims file itself removed. The decision is
found by its id, so a renamed file is compared too.

Fix: restore the row, or write a new decision that supersedes this one (or the
clause) and mark it superseded; or acknowledge the retirement in
.claimslint.yml, in the same change, with a reason:

    retired:
      - id: D7/C2
        reason: the limit C2 pinned is gone with the old reader (dk-123)`}

// baseDeletedRun (CL012): a claim row of an accepted decision at revision
// --base is there still (claims are retired by superseding the decision,
// not by deletion).
func baseDeletedRun(p *Pass) error {
	v, _ := p.ResultOf[baseThenRule].(*baseView)
	for _, bd := range p.ResultOf[baseRowsRule].(baseRows) {
		d := bd.d
		now := map[string]bool{}
		for _, c := range d.Claims {
			now[c.ID] = true
		}
		for _, c := range bd.then.Claims {
			if !now[c.ID] {
				if acknowledged(p, v, d.FileID+"/"+c.ID, fmt.Sprintf("%s %s was deleted since %s", d.FileID, c.ID, p.Opts.Base)) {
					continue
				}
				p.Reportf(token.Position{Filename: d.Path, Line: 1, Column: 1},
					"%s %s was deleted since %s while %s is still accepted: restore the row, or supersede the decision (claimslint new --supersedes %s)", d.FileID, c.ID, p.Opts.Base, d.FileID, d.FileID)
			}
		}
	}
	return nil
}

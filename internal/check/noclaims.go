package check

import (
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/ruleid"
)

// noClaimsRule (CL007): an accepted decision with no claims is a finding,
// unless its front matter says "claims: none, <reason>" (D43). Adopted
// records are history and are exempt; a record claimslint wrote into the
// adopted collection (it has an id:) is not.
func noClaimsRule(p *Pass) {
	for _, d := range p.Snap.Decisions {
		if !d.Parsed || d.Status != "accepted" || len(d.Claims) > 0 || d.ClaimsNone != "" || d.FileID == "" {
			continue
		}
		if d.Adopted && d.ID == "" || brokenTable(d) {
			continue
		}
		pos := d.ConfirmationPos
		if !d.HasConfirmation {
			pos = d.KeyPos("status")
		}
		p.Reportf(pos, "%s is accepted but has no claims: add a claim row to its Confirmation table, or state claims: none, <reason> in its front matter", d.FileID)
	}
}

// brokenTable reports a claims table already reported as malformed: its
// finding says what to fix, and "no claims" would say it again.
func brokenTable(d *register.Decision) bool {
	for _, f := range d.Findings {
		if f.Check == ruleid.Claims {
			return true
		}
	}
	return false
}

package check

import (
	"path"

	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/ruleid"
)

// noClaimsRule (CL007): an accepted decision with no claims is a finding,
// unless its front matter says "claims: none, <reason>" (D43). Adopted
// records are history and are exempt; a record claimslint wrote into the
// adopted collection (it has an id:) is not.
//
// require_claims: false in the configuration turns the rule off (D35).
func noClaimsRule(p *Pass) {
	if !p.Snap.Config.ClaimsRequired() {
		return
	}
	for _, d := range p.Snap.Decisions {
		if !d.Parsed || d.Status != "accepted" || len(d.Claims) > 0 || d.ClaimsNone != "" || d.FileID == "" {
			continue
		}
		if d.Inline && !d.HasConfirmation {
			noClaimsInline(p, d)
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

// noClaimsInline is the no-claims finding of an inline decision (D35).
func noClaimsInline(p *Pass, d *register.Decision) {
	where := path.Join(p.Snap.Config.ClaimsDir(), d.FileID+".md")
	p.Reportf(d.KeyPos("status"), "%s is accepted but has no claims: write its Confirmation table in %s, or set require_claims: false in %s", d.FileID, where, config.FileName)
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

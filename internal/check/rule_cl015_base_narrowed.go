package check

import (
	"strings"

	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/ruleid"
)

// narrowedRule is CL015.
//
//registry:rules
var narrowedRule = &Rule{ID: ruleid.Narrowed, Name: "config-narrowed", Requires: []*Rule{baseThenRule}, Run: baseNarrowedRun, Doc: `A change to .claimslint.yml that reads less than at --base is acknowledged in it.

With check --base REV, a setting of .claimslint.yml that reads less than it
did at REV is a finding: a path or glob changed (another register, another
decisions folder, a narrower scripts: or workflows:, another tracker
export), an entry gone from a list (a range site, an adopted folder, a
tracker prefix, a mentions glob, an inline marker), a status word or
workflow mapping dropped or remapped, require_claims turned off, or a
frozen range added. Each can stop decisions or claims being checked
without a line of the register changing. A setting that only reads more
(a new mentions glob, a new status word) is no finding.

Fix: revert the setting, or acknowledge it in the same change with an entry
of retired: naming the setting and why (an entry already there at REV
acknowledges nothing):

    retired:
      - id: register
        reason: the register moved to docs/adr/README.md; same rows`}

// baseNarrowedRun (CL015): each setting that reads less than at --base is
// acknowledged by a retired: entry new in the change.
func baseNarrowedRun(p *Pass) error {
	v, _ := p.ResultOf[baseThenRule].(*baseView)
	if p.Opts.Base == "" || v == nil || baseUnread(p, v, ruleid.Narrowed) || v.Snap == nil {
		return nil
	}
	for _, n := range config.Narrowed(v.Snap.Config, p.Snap.Config) {
		what := n.Key + " " + n.What + " (since " + p.Opts.Base + ")"
		if acknowledged(p, v, n.Key, what) {
			continue
		}
		top, _, _ := strings.Cut(n.Key, ".")
		p.Reportf(configPos(p.Snap.Dir, top), "%s: the configuration reads less than at %s, so decisions or claims can go unchecked with no change to the register: revert it, or acknowledge it in %s (retired: - id: %s, reason: ...)",
			what, p.Opts.Base, config.FileName, n.Key)
	}
	return nil
}

package check

import (
	"fmt"

	"github.com/claimslint/claimslint/internal/ruleid"
)

// trackerRule is CL004.
var trackerRule = &Rule{ID: ruleid.Tracker, Name: "tracker-ids", Run: trackerRun, Doc: `Every tracker id the register mentions resolves in the tracker's export.

Ids are <prefix>-<base36> for each prefix in tracker.prefixes, with an
optional hierarchical suffix (ub-lp9.25, ub-lp9.7.1), or #<n> for the github
format. They are looked up in the register file, every decision and claims
file, every range site, and the files the mentions: globs name (Markdown
text, and only the comments of code files), outside fenced code blocks and
never in the Path, Anchor and Require cells of claim tables. An id missing from the
export (tracker.export) is a finding; so is a placeholder such as dk-TBD,
dk-XXX or dk-???, which stands for an issue nobody filed. A record of the
export that cannot be read is reported at its line.

The prefixes are those of tracker.prefixes and those the export's ids use
(D74): a tracker started with docket init --prefix cli is checked from its
first exported issue on. An entry of a front matter tracker: or residuals:
list whose prefix is in neither (cli-zzz while tracker.prefixes is [dk] and
the export holds no cli id) is a finding too: nothing would check it. In
prose only known prefixes are looked for, since re-run or utf-8 are shaped
like ids.

Fix: file the issue and write its real id, or correct the id; for a prefix
no tracker uses, add it to tracker.prefixes (docket init --prefix cli
--write-config makes that edit) or correct the id.`}

// trackerRun (CL004): every tracker id the corpus mentions resolves.
func trackerRun(p *Pass) error {
	r := p.Snap
	// A claim that names an issue checks it itself; reporting it here too
	// would say the same thing twice.
	claimRows := map[string]bool{}
	for _, d := range r.Decisions {
		for _, c := range d.Claims {
			if len(ClaimIssues(c)) > 0 {
				claimRows[fmt.Sprintf("%s:%d", c.Pos.Filename, c.Pos.Line)] = true
			}
		}
	}
	for _, st := range r.StrayIDs() {
		p.Reportf(st.Pos, "%s: %s is checked against no tracker: %s", st.Key, st.ID, r.PrefixAdvice(st.Prefix))
	}
	for _, m := range r.Mentions() {
		if claimRows[fmt.Sprintf("%s:%d", m.Pos.Filename, m.Pos.Line)] {
			continue
		}
		switch {
		case m.Placeholder:
			p.Reportf(m.Pos, "placeholder tracker id %s: file the issue and write its id", m.ID)
		case r.Export == nil:
			p.Reportf(m.Pos, "%s cannot be resolved: the tracker export %s does not exist", m.ID, r.Config.Tracker.Export)
		default:
			if _, ok := r.Export.Lookup(m.ID); !ok {
				p.Reportf(m.Pos, "%s is not in the tracker export %s", m.ID, r.Config.Tracker.Export)
			}
		}
	}
	return nil
}

package check

import (
	"fmt"

	"github.com/claimslint/claimslint/internal/ruleid"
)

// trackerRule is CL004.
//
//registry:rules
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

A front matter tracker: or residuals: list holds only ids, so an entry of
a prefix tracker.prefixes does not list is checked too (D74): against the
export when the export's ids use that prefix (a tracker started with docket
init --prefix cli, from its first issue on), and otherwise it is a finding,
since nothing would check it (cli-zzz while tracker.prefixes is [dk] and the
export holds no cli id). In prose only the prefixes of tracker.prefixes are
looked for: cli-tools, test-driven and re-run are shaped like ids too.

Fix: file the issue and write its real id, or correct the id; for a prefix
no tracker uses, add it to tracker.prefixes (docket init --prefix cli
--write-config makes that edit) or correct the id.`}

// doingMentions is where a budget runs out while the ids are looked up.
const doingMentions = "looking up the tracker ids the corpus mentions"

// trackerRun (CL004): every tracker id the corpus mentions resolves.
func trackerRun(p *Pass) error {
	r := p.Snap
	// A claim that names an issue checks it itself; reporting it here too
	// would say the same thing twice.
	type row struct {
		file string
		line int
	}
	claimRows := map[row]bool{}
	for _, d := range r.Decisions {
		for _, c := range d.Claims {
			if len(ClaimIssues(c)) > 0 {
				claimRows[row{c.Pos.Filename, c.Pos.Line}] = true
			}
		}
	}
	// Front-matter ids of a prefix tracker.prefixes does not list (D74):
	// the export's own prefixes are checked here, the others reported.
	for _, e := range r.ListedIDs() {
		switch {
		case !e.Learnt:
			p.Reportf(e.Pos, "%s: %s is checked against no tracker: %s", e.Key, e.ID, r.PrefixAdvice(e.Prefix))
		case e.Placeholder:
			p.Reportf(e.Pos, "placeholder tracker id %s: file the issue and write its id", e.ID)
		default:
			if _, ok := r.Export.Lookup(e.ID); !ok {
				p.Reportf(e.Pos, "%s is not in the tracker export %s", e.ID, r.Config.Tracker.Export)
			}
		}
	}
	n := 0
	spent := func(file string, line int) bool {
		if !p.res.budget.stop(overrun{file: file, line: line, doing: doingMentions}) {
			return false
		}
		undone := "no id looked up"
		if n > 0 {
			undone = fmt.Sprintf("the ids after the %d-th not looked up", n)
		}
		p.res.budgetFinding(p, ruleid.Tracker, undone)
		return true
	}
	// Asked between windows of text too, where no id may be (D90).
	for m := range r.Mentions(spent) {
		if n++; n%4096 == 0 && spent(m.Pos.Filename, m.Pos.Line) {
			break
		}
		if claimRows[row{m.Pos.Filename, m.Pos.Line}] {
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

package check

import (
	"bytes"
	"fmt"
	"go/token"
	"regexp"
	"strings"

	"github.com/claimslint/claimslint/internal/codeline"
	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/snapshot"
)

var liveRangeRE = regexp.MustCompile(`\bD1\.\.D([0-9]+)\b`)

// frozenMarkerRE marks a range kept on purpose, on its own line (D37).
var frozenMarkerRE = regexp.MustCompile(`claimslint:\s*frozen`)

// rangeRule (CL003): every range site carries the live range D1..Dn, and
// every other range there is frozen on purpose (frozen_ranges, or a
// "claimslint: frozen" marker on its line) or stale (D37).
func rangeRule(p *Pass) error {
	r := p.Snap
	n := r.MaxN()
	if n == 0 {
		return nil
	}
	want := fmt.Sprintf("D1..D%d", n)
	frozen := map[string]map[string]bool{} // site -> range
	used := map[string]map[string]bool{}
	for _, f := range r.Config.FrozenRanges {
		if frozen[f.Path] == nil {
			frozen[f.Path], used[f.Path] = map[string]bool{}, map[string]bool{}
		}
		frozen[f.Path][f.Range] = true
	}
	for _, site := range r.Config.RangeSites {
		doc := r.Doc(site)
		if doc.Err != nil {
			p.Reportf(token.Position{Filename: site, Line: 1, Column: 1},
				"range site %s cannot be read (%v): create it with the live range %s, or drop it from range_sites in %s", site, doc.Err, want, config.FileName)
			continue
		}
		data := doc.Src
		live, stale := false, false
		var kept []string
		for _, m := range liveRangeRE.FindAllSubmatchIndex(data, -1) {
			got := string(data[m[0]:m[1]])
			if got == want {
				live = true
				continue
			}
			pos := doc.Lines.Pos(m[0])
			switch {
			case frozen[site][got]:
				used[site][got] = true
				kept = append(kept, got)
				p.res.note(fmt.Sprintf("%s:%d: frozen range %s kept on purpose (frozen_ranges)", site, pos.Line, got))
			case frozenMarkerRE.Match(lineAt(data, m[0])):
				kept = append(kept, got)
				p.res.note(fmt.Sprintf("%s:%d: frozen range %s kept on purpose (marker)", site, pos.Line, got))
			default:
				stale = true
				p.Reportf(pos, "stale range %s: write %s (or, if it records an older cascade on purpose, mark it frozen: \"claimslint: frozen\" on its line, or frozen_ranges in %s)", got, want, config.FileName)
			}
		}
		if !live && !stale {
			extra := ""
			if len(kept) > 0 {
				extra = fmt.Sprintf(" (its %s is frozen, which does not count as live)", strings.Join(kept, ", "))
			}
			p.Reportf(token.Position{Filename: site, Line: 1, Column: 1}, "range site has no live range: write %s%s", want, extra)
		}
	}
	isSite := map[string]bool{}
	for _, s := range r.Config.RangeSites {
		isSite[s] = true
	}
	for _, f := range r.Config.FrozenRanges {
		pos := token.Position{Filename: config.FileName, Line: 1, Column: 1}
		switch {
		case !isSite[f.Path]:
			p.Reportf(pos, "frozen_ranges names %s, which is not a range site: add it to range_sites or remove the entry", f.Path)
		case !used[f.Path][f.Range]:
			p.Reportf(pos, "frozen_ranges: %s no longer holds %s: remove the entry", f.Path, f.Range)
		}
	}
	return nil
}

// lineAt returns the line of data holding offset off.
func lineAt(data []byte, off int) []byte {
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	end := bytes.IndexByte(data[off:], '\n')
	if end < 0 {
		return data[start:]
	}
	return data[start : off+end]
}

// trackerRule (CL004): every tracker id the corpus mentions resolves.
func trackerRule(p *Pass) error {
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

// execProblem says why rel is not an executable script, or "".
func execProblem(s *snapshot.Snapshot, rel string) string {
	if s.Repo.Git {
		switch mode := s.Repo.IndexMode(rel); mode {
		case "100755":
		case "":
			return fmt.Sprintf("%s is not in the git index: git add --chmod=+x %s", rel, rel)
		default:
			return fmt.Sprintf("%s is mode %s in the git index, not 100755: git update-index --chmod=+x %s", rel, mode, rel)
		}
	}
	if !s.Repo.Executable(rel) {
		return fmt.Sprintf("%s is not executable on disk: chmod +x %s", rel, rel)
	}
	return ""
}

// scriptRule (CL005): check scripts are executable and run by a workflow.
func scriptRule(p *Pass) error {
	r := p.Snap
	if r.Config.Scripts == "" {
		return nil
	}
	if msg := snapshot.ValidGlob(r.Config.Scripts); msg != "" {
		p.Reportf(token.Position{Filename: config.FileName, Line: 1, Column: 1}, "scripts: %s", msg)
		return nil
	}
	scripts := r.Match(r.Config.Scripts)
	var workflows []string
	if r.Config.Workflows != "" && snapshot.ValidGlob(r.Config.Workflows) == "" {
		workflows = r.Match(r.Config.Workflows)
	}
	type wf struct {
		path string
		raw  []byte
		code []byte
	}
	var wfs []wf
	for _, w := range workflows {
		data, err := r.Repo.ReadFile(w, snapshot.MaxMarkdown)
		if err != nil {
			p.Reportf(token.Position{Filename: w, Line: 1, Column: 1}, "cannot read workflow: %v", snapshot.Describe(err))
			continue
		}
		wfs = append(wfs, wf{w, data, codeline.Mask(w, data)})
	}
	for _, s := range scripts {
		pos := token.Position{Filename: s, Line: 1, Column: 1}
		if msg := execProblem(r, s); msg != "" {
			p.Reportf(pos, "%s", msg)
		}
		re := regexp.MustCompile(`(?:^|[\s"'=(])(?:\./)?` + regexp.QuoteMeta(s) + `(?:$|[\s"';|&)])`)
		run := false
		for _, w := range wfs {
			if re.Match(w.code) {
				run = true
				break
			}
		}
		if !run {
			p.Reportf(pos, "no workflow step runs %s: add one to a file matching %s", s, r.Config.Workflows)
		}
	}
	// Every script path a workflow names must exist.
	prefix := snapshot.GlobPrefix(r.Config.Scripts)
	if prefix == "" {
		return nil
	}
	ref := regexp.MustCompile(`(?:^|[\s"'=(])(?:\./)?(` + regexp.QuoteMeta(prefix) + `[^\s"';|&)]+)`)
	for _, w := range wfs {
		var ln *register.Lines
		for _, m := range ref.FindAllSubmatchIndex(w.code, -1) {
			path := string(w.code[m[2]:m[3]])
			if !snapshot.GlobMatch(r.Config.Scripts, path) || (r.Repo.Has(path) && r.Repo.Present(path)) || strings.ContainsAny(path, "$*{") {
				continue
			}
			if ln == nil {
				ln = register.NewLines(w.path, w.raw)
			}
			p.Reportf(ln.Pos(m[2]), "workflow runs %s, which does not exist", path)
		}
	}
	return nil
}

// severityFor gates a claim finding by its decision's status.
func severityFor(status string) diag.Severity {
	if status == "accepted" {
		return diag.SeverityError
	}
	return diag.SeverityNote
}

// countRule (CL010): a count stated right before a list equals the list's
// length.
func countRule(p *Pass) error {
	history := map[string]bool{}
	for _, d := range p.Snap.Decisions {
		if d.Adopted && d.ID == "" {
			history[d.Path] = true // an adopted record's prose is history (D41)
		}
	}
	// The Markdown the mentions globs add is read too (D36).
	for _, doc := range append(p.Snap.Corpus(), p.Snap.MentionDocs()...) {
		if history[doc.Path] {
			continue
		}
		for _, cl := range doc.Counted {
			if cl.Stated != cl.Items {
				p.Reportf(cl.Pos, "%q states %d but the list below has %d item(s): correct the count or the list", cl.Word, cl.Stated, cl.Items)
			}
		}
	}
	return nil
}

package check

import (
	"bytes"
	"fmt"
	"go/token"
	"strings"

	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/ruleid"
)

// rangeRule is CL003.
//
//registry:rules
var rangeRule = &Rule{ID: ruleid.Range, Name: "live-range", Run: rangeRun, Doc: `Every range site carries the live range D1..Dn.

n is the highest decision id in the register. Each file listed in
range_sites: must contain the text D1..Dn at least once. Every other range
there is stale, and reported with the text to write, unless it is frozen on
purpose: listed in frozen_ranges: ({path, range}) or marked by
"claimslint: frozen" on its own line. check notes each frozen range on stderr;
a frozen_ranges entry that no longer matches is a finding too.

Fix: replace the stale range with the one the message gives.`}

var liveRangeRE = register.LazyRE(`\bD1\.\.D([0-9]+)\b`)

// frozenMarkerRE marks a range kept on purpose, on its own line (D37).
var frozenMarkerRE = register.LazyRE(`claimslint:\s*frozen`)

// rangeRun (CL003): every range site carries the live range D1..Dn, and
// every other range there is frozen on purpose (frozen_ranges, or a
// "claimslint: frozen" marker on its line) or stale (D37).
func rangeRun(p *Pass) error {
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
		for _, m := range liveRangeRE().FindAllSubmatchIndex(data, -1) {
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
				p.note(fmt.Sprintf("%s:%d: frozen range %s kept on purpose (frozen_ranges)", site, pos.Line, got))
			case frozenMarkerRE().Match(lineAt(data, m[0])):
				kept = append(kept, got)
				p.note(fmt.Sprintf("%s:%d: frozen range %s kept on purpose (marker)", site, pos.Line, got))
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

package check

import (
	"bytes"
	"fmt"
	"go/token"
	"path"
	"regexp"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/claimslint/claimslint/internal/codeline"
	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/register"
)

// Rule ids reported by this package (the rest come from register and tracker).
const (
	ruleRange   = "CL003"
	ruleTracker = "CL004"
	ruleScripts = "CL005"
	ruleClaims  = "CL006"
	ruleClaim   = "CL007"
	ruleVacuous = "CL009"
	ruleCount   = "CL010"
	ruleBase    = "CL011"
	ruleDeleted = "CL012"
)

var liveRangeRE = regexp.MustCompile(`\bD1\.\.D([0-9]+)\b`)

// frozenMarkerRE marks a range kept on purpose, on its own line (D37).
var frozenMarkerRE = regexp.MustCompile(`claimslint:\s*frozen`)

// rangeRule (CL003): every range site carries the live range D1..Dn, and
// every other range there is frozen on purpose (frozen_ranges, or a
// "claimslint: frozen" marker on its line) or stale.
func (r *Result) rangeRule() {
	n := r.maxN()
	if n == 0 {
		return
	}
	want := fmt.Sprintf("D1..D%d", n)
	frozen := map[string]map[string]bool{} // site -> range -> configured
	used := map[string]map[string]bool{}
	for _, f := range r.Config.FrozenRanges {
		if frozen[f.Path] == nil {
			frozen[f.Path], used[f.Path] = map[string]bool{}, map[string]bool{}
		}
		frozen[f.Path][f.Range] = true
	}
	for _, site := range r.Config.RangeSites {
		data, err := r.Repo.ReadDoc(site, maxMarkdown)
		if err != nil {
			r.errorf(token.Position{Filename: site, Line: 1, Column: 1}, ruleRange,
				"range site %s cannot be read (%v): create it with the live range %s, or drop it from range_sites in %s", site, describe(err), want, config.FileName)
			continue
		}
		ln := register.NewLines(site, data)
		ms := liveRangeRE.FindAllSubmatchIndex(data, -1)
		live, stale := false, false
		var kept []string
		for _, m := range ms {
			got := string(data[m[0]:m[1]])
			if got == want {
				live = true
				continue
			}
			pos := ln.Pos(m[0])
			switch {
			case frozen[site][got]:
				used[site][got] = true
				kept = append(kept, got)
				r.Notes = append(r.Notes, fmt.Sprintf("%s:%d: frozen range %s kept on purpose (frozen_ranges)", site, pos.Line, got))
			case frozenMarkerRE.Match(lineAt(data, m[0])):
				kept = append(kept, got)
				r.Notes = append(r.Notes, fmt.Sprintf("%s:%d: frozen range %s kept on purpose (marker)", site, pos.Line, got))
			default:
				stale = true
				r.errorf(pos, ruleRange, "stale range %s: write %s (or, if it records an older cascade on purpose, mark it frozen: \"claimslint: frozen\" on its line, or frozen_ranges in %s)", got, want, config.FileName)
			}
		}
		if !live && !stale {
			extra := ""
			if len(kept) > 0 {
				extra = fmt.Sprintf(" (its %s is frozen, which does not count as live)", strings.Join(kept, ", "))
			}
			r.errorf(token.Position{Filename: site, Line: 1, Column: 1}, ruleRange,
				"range site has no live range: write %s%s", want, extra)
		}
	}
	isSite := map[string]bool{}
	for _, s := range r.Config.RangeSites {
		isSite[s] = true
	}
	for _, f := range r.Config.FrozenRanges {
		if !isSite[f.Path] {
			r.errorf(token.Position{Filename: config.FileName, Line: 1, Column: 1}, ruleRange,
				"frozen_ranges names %s, which is not a range site: add it to range_sites or remove the entry", f.Path)
			continue
		}
		if !used[f.Path][f.Range] {
			r.errorf(token.Position{Filename: config.FileName, Line: 1, Column: 1}, ruleRange,
				"frozen_ranges: %s no longer holds %s: remove the entry", f.Path, f.Range)
		}
	}
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

// corpus returns the register, decision and range-site files whose text the
// tracker rule scans, each once.
func (r *Result) corpus() []string {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	add(r.Register.Path)
	for _, d := range r.Decisions {
		add(d.Path)
	}
	for _, s := range r.Config.RangeSites {
		add(s)
	}
	return out
}

// maskFences blanks fenced code blocks, which hold examples rather than
// references.
func maskFences(src []byte) []byte {
	out := append([]byte(nil), src...)
	lines := strings.SplitAfter(string(src), "\n")
	off := 0
	fence := ""
	for _, l := range lines {
		t := strings.TrimSpace(l)
		start := off
		off += len(l)
		if fence == "" {
			if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
				fence = t[:3]
				blankRange(out, start, off)
			}
			continue
		}
		blankRange(out, start, off)
		if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
			fence = ""
		}
	}
	return out
}

func blankRange(b []byte, from, to int) {
	for i := from; i < to; i++ {
		if b[i] != '\n' {
			b[i] = ' '
		}
	}
}

var (
	base36RE      = regexp.MustCompile(`^[0-9a-z]+$`)
	placeholderRE = regexp.MustCompile(`(?i)^(tbd|tba|todo|xxx+|x+|n/?a|none|unknown|new|\?+|_+|0+)$`)
)

// IDPattern returns the regular expression that finds tracker ids of the
// configured prefixes in prose; the last group is the id's suffix.
func IDPattern(cfg config.Config) *regexp.Regexp {
	if cfg.Tracker.Format == config.FormatGitHub {
		return regexp.MustCompile(`(?:^|[^\w&/#])(#)([0-9]+)\b`)
	}
	quoted := make([]string, len(cfg.Tracker.Prefixes))
	for i, p := range cfg.Tracker.Prefixes {
		quoted[i] = regexp.QuoteMeta(p)
	}
	// A child id carries its parents' path: ub-lp9.25, ub-lp9.7.1 (D36).
	return regexp.MustCompile(`\b(` + strings.Join(quoted, "|") + `)-([A-Za-z0-9]+(?:\.[0-9]+)*|\?+|_+)`)
}

// IsPlaceholder reports whether the suffix of a tracker id (after
// "<prefix>-") stands for no issue, like TBD or XXX. A hierarchical
// suffix (lp9.25) is judged by its root (lp9).
func IsPlaceholder(suffix string) bool {
	root, _, _ := strings.Cut(suffix, ".")
	return placeholderRE.MatchString(root) || !base36RE.MatchString(root)
}

// IDMention is one tracker id found in the register corpus.
type IDMention struct {
	ID  string
	Pos token.Position
	// Placeholder is set for ids such as dk-TBD that stand for no issue.
	Placeholder bool
}

// Mentions returns every tracker id in the register corpus and at the
// configured mention sites (D36): in the text of Markdown files, in the
// comments of code files. Fenced examples and the Path, Anchor and Require
// cells of claim tables are not mention sites.
func (r *Result) Mentions() []IDMention {
	if len(r.Config.Tracker.Prefixes) == 0 && r.Config.Tracker.Format != config.FormatGitHub {
		return nil
	}
	re := IDPattern(r.Config)
	cells := r.claimCells()
	var out []IDMention
	for _, f := range r.mentionFiles() {
		data, err := r.Repo.ReadDoc(f, maxMarkdown)
		if err != nil {
			continue // reported by the rule that owns the file
		}
		text := maskFences(data)
		var masked []byte
		if !register.IsProse(f) && !r.isCorpus(f) {
			// A code file: only its comments are mention sites.
			masked = codeline.Mask(f, data)
		}
		ln := register.NewLines(f, data)
		for _, m := range re.FindAllSubmatchIndex(text, -1) {
			if cells.covers(f, m[2], m[1]) {
				continue
			}
			if masked != nil && !blanked(data, masked, m[2], m[1]) {
				continue
			}
			prefix := string(text[m[2]:m[3]])
			suffix := string(text[m[4]:m[5]])
			id := prefix + "-" + suffix
			if prefix == "#" {
				id = "#" + suffix
			}
			ph := prefix != "#" && IsPlaceholder(suffix)
			out = append(out, IDMention{ID: id, Pos: ln.Pos(m[2]), Placeholder: ph})
		}
	}
	return out
}

// blanked reports whether src[from:to] is all comment: masked blanks it.
func blanked(src, masked []byte, from, to int) bool {
	for i := from; i < to; i++ {
		if masked[i] == src[i] {
			return false
		}
	}
	return true
}

func (r *Result) isCorpus(f string) bool {
	for _, c := range r.corpus() {
		if c == f {
			return true
		}
	}
	return false
}

// mentionFiles is the register corpus followed by the files the mentions
// globs name, each once.
func (r *Result) mentionFiles() []string {
	out := r.corpus()
	seen := map[string]bool{}
	for _, f := range out {
		seen[f] = true
	}
	for _, g := range r.Config.Mentions {
		if validGlob(g) != "" {
			continue
		}
		for _, f := range r.matchGlob(g) {
			if !seen[f] && !isBinaryName(f) {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	return out
}

// isBinaryName skips files whose extension says they hold no text.
func isBinaryName(f string) bool {
	switch strings.ToLower(path.Ext(f)) {
	case ".png", ".jpg", ".jpeg", ".gif", ".ico", ".pdf", ".zip", ".gz", ".wasm":
		return true
	}
	return false
}

func (r *Result) trackerRule() {
	for _, m := range r.Mentions() {
		switch {
		case m.Placeholder:
			r.errorf(m.Pos, ruleTracker, "placeholder tracker id %s: file the issue and write its id", m.ID)
		case r.Export == nil:
			r.errorf(m.Pos, ruleTracker, "%s cannot be resolved: the tracker export %s does not exist", m.ID, r.Config.Tracker.Export)
		default:
			if _, ok := r.Export.Lookup(m.ID); !ok {
				r.errorf(m.Pos, ruleTracker, "%s is not in the tracker export %s", m.ID, r.Config.Tracker.Export)
			}
		}
	}
}

// globPrefix is the literal directory part of a glob, up to its first
// meta character, ending in '/' (or empty).
func globPrefix(glob string) string {
	i := strings.IndexAny(glob, "*?[{\\")
	if i < 0 {
		return glob
	}
	return glob[:strings.LastIndexByte(glob[:i], '/')+1]
}

// matchGlob returns the universe files that glob matches. Files are sorted,
// so only those under the glob's literal prefix are tested.
func (r *Result) matchGlob(glob string) []string {
	if fs, ok := r.globs[glob]; ok {
		return fs
	}
	if r.globs == nil {
		r.globs = map[string][]string{}
	}
	fs := r.matchGlobUncached(glob)
	r.globs[glob] = fs
	return fs
}

func (r *Result) matchGlobUncached(glob string) []string {
	prefix := globPrefix(glob)
	files := r.Repo.Files
	lo := lowerBound(files, prefix)
	var out []string
	for i := lo; i < len(files) && strings.HasPrefix(files[i], prefix); i++ {
		if ok, _ := doublestar.Match(glob, files[i]); ok {
			out = append(out, files[i])
		}
	}
	return out
}

func lowerBound(files []string, s string) int {
	lo, hi := 0, len(files)
	for lo < hi {
		m := (lo + hi) / 2
		if files[m] < s {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// validGlob reports why glob cannot name repository files, or "".
func validGlob(glob string) string {
	if err := config.InsideRepo(glob); err != nil {
		return err.Error()
	}
	if !doublestar.ValidatePattern(glob) {
		return fmt.Sprintf("%q is not a valid glob", glob)
	}
	return ""
}

// execProblem says why rel is not an executable script, or "".
func (r *Result) execProblem(rel string) string {
	if r.Repo.Git {
		switch mode := r.Repo.IndexMode(rel); mode {
		case "100755":
		case "":
			return fmt.Sprintf("%s is not in the git index: git add --chmod=+x %s", rel, rel)
		default:
			return fmt.Sprintf("%s is mode %s in the git index, not 100755: git update-index --chmod=+x %s", rel, mode, rel)
		}
	}
	if !r.Repo.Executable(rel) {
		return fmt.Sprintf("%s is not executable on disk: chmod +x %s", rel, rel)
	}
	return ""
}

func (r *Result) scriptRule() {
	if r.Config.Scripts == "" {
		return
	}
	if msg := validGlob(r.Config.Scripts); msg != "" {
		r.errorf(token.Position{Filename: config.FileName, Line: 1, Column: 1}, ruleScripts, "scripts: %s", msg)
		return
	}
	scripts := r.matchGlob(r.Config.Scripts)
	var workflows []string
	if r.Config.Workflows != "" && validGlob(r.Config.Workflows) == "" {
		workflows = r.matchGlob(r.Config.Workflows)
	}
	type wf struct {
		path string
		raw  []byte
		code []byte
	}
	var wfs []wf
	for _, w := range workflows {
		data, err := r.Repo.ReadFile(w, maxMarkdown)
		if err != nil {
			r.errorf(token.Position{Filename: w, Line: 1, Column: 1}, ruleScripts, "cannot read workflow: %v", describe(err))
			continue
		}
		wfs = append(wfs, wf{w, data, codeline.Mask(w, data)})
	}
	for _, s := range scripts {
		pos := token.Position{Filename: s, Line: 1, Column: 1}
		if msg := r.execProblem(s); msg != "" {
			r.errorf(pos, ruleScripts, "%s", msg)
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
			r.errorf(pos, ruleScripts, "no workflow step runs %s: add one to a file matching %s", s, r.Config.Workflows)
		}
	}
	// Every script path a workflow names must exist.
	prefix := globPrefix(r.Config.Scripts)
	if prefix == "" {
		return
	}
	ref := regexp.MustCompile(`(?:^|[\s"'=(])(?:\./)?(` + regexp.QuoteMeta(prefix) + `[^\s"';|&)]+)`)
	for _, w := range wfs {
		ln := register.NewLines(w.path, w.raw)
		for _, m := range ref.FindAllSubmatchIndex(w.code, -1) {
			p := string(w.code[m[2]:m[3]])
			if ok, _ := doublestar.Match(r.Config.Scripts, p); !ok || r.Repo.Has(p) || strings.ContainsAny(p, "$*{") {
				continue
			}
			r.errorf(ln.Pos(m[2]), ruleScripts, "workflow runs %s, which does not exist", p)
		}
	}
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
func (r *Result) countRule() {
	for _, f := range r.mentionFiles() {
		if !r.isCorpus(f) && !strings.HasSuffix(strings.ToLower(f), ".md") {
			continue // counts are read in Markdown: the register corpus and the mentions globs' Markdown (D36)
		}
		data, err := r.readDoc(f)
		if err != nil {
			continue // unreadable files are reported by the rules that need them
		}
		for _, cl := range register.CountedLists(f, data) {
			if cl.Stated != cl.Items {
				r.errorf(cl.Pos, ruleCount, "%q states %d but the list below has %d item(s): correct the count or the list", cl.Word, cl.Stated, cl.Items)
			}
		}
	}
}

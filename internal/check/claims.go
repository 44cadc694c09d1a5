package check

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"go/token"
	"path"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/claimslint/claimslint/internal/codeline"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/repo"
)

// Claim kinds.
const (
	KindPresent  = "present"
	KindAnchored = "anchored"
	KindExec     = "exec"
	KindTracker  = "tracker"
	// KindEvery is anchored's every-line mode: at least one line matches
	// the anchor and every such line carries Require (D38).
	KindEvery = "anchored-every"
	// KindAbsent holds when the anchor matches nothing in scope (D38).
	KindAbsent = "absent"
)

// Scopes of the text a line kind matches, written after the kind:
// present:comment (D38).
const (
	ScopeCode    = "code"    // code lines: comments masked (the default)
	ScopeAny     = "any"     // every line as written
	ScopeComment = "comment" // the comment text of each line
	ScopeProse   = "prose"   // Markdown/HTML paragraphs, list items, headings, table cells
)

// SplitKind splits a Kind cell into the kind and its scope ("" when the
// cell names none).
func SplitKind(cell string) (kind, scope string) {
	kind, scope, _ = strings.Cut(strings.ToLower(strings.TrimSpace(cell)), ":")
	return kind, scope
}

// IsLineKind reports whether kind (with or without its scope) matches
// patterns against file text: present, anchored, anchored-every, absent.
func IsLineKind(kind string) bool {
	k, _ := SplitKind(kind)
	switch k {
	case KindPresent, KindAnchored, KindEvery, KindAbsent:
		return true
	}
	return false
}

// MaxFileSize is the largest file read as code; larger files are skipped
// with a note.
const MaxFileSize = 4 << 20

// maxHits bounds the hits kept per claim, so an anchor that matches every
// line of a large tree cannot exhaust memory.
const maxHits = 64

// hit is one line on which a claim's anchor matched.
type hit struct {
	file string
	line int
	col  int
	// text is the masked (code-only) line.
	text string
	// last is the last line of a prose unit that spans lines, else 0.
	last int
}

func (h hit) pos() token.Position {
	return token.Position{Filename: h.file, Line: h.line, Column: h.col}
}

func (h hit) String() string { return fmt.Sprintf("%s:%d", h.file, h.line) }

// compiled is a claim ready to evaluate.
type compiled struct {
	c        register.Claim
	kind     string // the kind without its scope
	scope    string // ScopeCode when the cell names none
	d        *register.Decision
	anchor   *regexp.Regexp // per line
	filter   *regexp.Regexp // whole-file prefilter, (?m)
	literal  []byte         // every anchor match contains it; may be empty
	require  *regexp.Regexp
	negate   bool
	tests    bool // Path names test files explicitly
	files    []string
	evaluate bool

	mu      sync.Mutex
	code    []hit // anchor on a code line, Require satisfied
	reqFail []hit // anchor on a code line, Require not satisfied
	comment []hit // anchor only in a comment
	test    []hit // anchor on a code line of an excluded test file
	nCode   int   // all anchor hits on code lines (for ambiguity)
	skipped []string
	skip    spans // claim-table pattern cells: never prose
}

func (c *compiled) record(list *[]hit, h hit) {
	if len(*list) < maxHits {
		*list = append(*list, h)
	}
}

// isTestFile reports whether rel is test code, which claims ignore unless
// their Path names test files.
func isTestFile(rel string) bool {
	if strings.HasSuffix(rel, "_test.go") {
		return true
	}
	for _, seg := range strings.Split(path.Dir(rel), "/") {
		if seg == "testdata" || seg == "tests" {
			return true
		}
	}
	return false
}

func namesTests(glob string) bool {
	return strings.Contains(glob, "_test") || strings.Contains(glob, "testdata") || strings.Contains(glob, "tests/")
}

// compileRE compiles a claim pattern, reporting a CL006 finding at its cell.
func (r *Result) compileRE(c register.Claim, col, pat string) (*regexp.Regexp, bool) {
	re, err := regexp.Compile(pat)
	if err != nil {
		r.errorf(c.CellPos(col), ruleClaims, "%s %s: %s `%s` does not compile: %v (patterns are Go RE2; escape literal ( ) [ ] . with \\)",
			c.Decision, c.ID, strings.ToUpper(col[:1])+col[1:], pat, unwrapRE(err))
		return nil, false
	}
	return re, true
}

func unwrapRE(err error) string {
	return strings.TrimPrefix(err.Error(), "error parsing regexp: ")
}

// prepare validates one claim (rule CL006) and returns it compiled, or nil
// when it cannot be evaluated.
func (r *Result) prepare(d *register.Decision, c register.Claim) *compiled {
	cc := &compiled{c: c, d: d}
	cl := c.Decision + " " + c.ID
	cc.kind, cc.scope = SplitKind(c.Kind)
	if cc.scope != "" && !IsLineKind(cc.kind) {
		r.errorf(c.CellPos("kind"), ruleClaims, "%s: kind %q takes no scope (only present, anchored, anchored-every and absent do)", cl, c.Kind)
		return nil
	}
	switch cc.scope {
	case "":
		cc.scope = ScopeCode
	case ScopeCode, ScopeAny, ScopeComment, ScopeProse:
	default:
		r.errorf(c.CellPos("kind"), ruleClaims, "%s: unknown scope %q in %q: write code, any, comment or prose", cl, cc.scope, c.Kind)
		return nil
	}
	switch cc.kind {
	case KindPresent, KindAnchored, KindEvery, KindAbsent:
		if c.Path == "" || c.Anchor == "" {
			r.errorf(c.Pos, ruleClaims, "%s: a %s claim needs Path and Anchor", cl, cc.kind)
			return nil
		}
		if cc.kind == KindAbsent && c.Require != "" {
			r.errorf(c.CellPos("require"), ruleClaims, "%s: an absent claim takes no Require: its Anchor must match nothing", cl)
			return nil
		}
		var ok bool
		if cc.anchor, ok = r.compileRE(c, "anchor", c.Anchor); !ok {
			return nil
		}
		if cc.anchor.MatchString("") {
			// An empty match satisfies every line: the claim could never
			// fail. The usual cause is an unescaped | in a table cell.
			r.errorf(c.CellPos("anchor"), ruleClaims, "%s: Anchor `%s` matches the empty string, so every line matches it (to match a literal |, write \\\\| in the cell)", cl, c.Anchor)
			return nil
		}
		cc.filter = regexp.MustCompile("(?m)" + c.Anchor)
		cc.literal = []byte(requiredLiteral(c.Anchor))
		if req := c.Require; req != "" {
			if strings.HasPrefix(req, "!") {
				cc.negate = true
				req = req[1:]
			}
			if cc.require, ok = r.compileRE(c, "require", req); !ok {
				return nil
			}
		}
	case KindExec:
		if c.Path == "" {
			r.errorf(c.Pos, ruleClaims, "%s: an exec claim needs Path (a glob of scripts)", cl)
			return nil
		}
	case KindTracker:
		if c.Anchor == "" {
			r.errorf(c.Pos, ruleClaims, "%s: a tracker claim needs the issue id in Anchor", cl)
			return nil
		}
		if c.Require != "" && strings.ContainsAny(c.Require, " |") {
			r.errorf(c.CellPos("require"), ruleClaims, "%s: Require of a tracker claim is one status (open, closed...), not %q", cl, c.Require)
			return nil
		}
		return cc
	case "":
		r.errorf(c.CellPos("kind"), ruleClaims, "%s has no Kind: write present, anchored, anchored-every, absent, exec or tracker", cl)
		return nil
	default:
		r.errorf(c.CellPos("kind"), ruleClaims, "%s: unknown kind %q: write present, anchored, anchored-every, absent, exec or tracker", cl, c.Kind)
		return nil
	}
	if msg := validGlob(c.Path); msg != "" {
		r.errorf(c.CellPos("path"), ruleClaims, "%s: Path %s", cl, msg)
		return nil
	}
	cc.tests = namesTests(c.Path)
	cc.files = r.matchGlob(c.Path)
	return cc
}

// evalClaims evaluates every claim of every decision whose status is
// evaluated. Files are read once each, in parallel, and every claim that
// touches a file is matched in that one pass.
func (r *Result) evalClaims(only string) {
	var all []*compiled
	cells := r.claimCells()
	for _, d := range r.Decisions {
		if !d.Parsed {
			continue
		}
		for _, c := range d.Claims {
			cc := r.prepare(d, c)
			retired := d.Status != "accepted" && d.Status != "proposed"
			state := ClaimState{Decision: d.FileID, Status: d.Status, Claim: c.ID, Kind: c.Kind, Row: fmt.Sprintf("%s:%d", c.Pos.Filename, c.Pos.Line), Where: []string{}}
			if only != "" && d.FileID != only {
				continue
			}
			switch {
			case retired:
				state.State = StateRetired
				r.Claims = append(r.Claims, state)
				continue
			case cc == nil:
				state.State = StateFailed
				if d.Status == "proposed" {
					state.State = StatePending
				}
				state.Message = "claim row is malformed (CL006)"
				r.Claims = append(r.Claims, state)
				continue
			}
			cc.evaluate = true
			cc.skip = cells
			all = append(all, cc)
		}
	}
	r.scan(all)
	for _, cc := range all {
		r.conclude(cc)
	}
}

// scan reads every file some present or anchored claim touches, once, on
// all cores.
func (r *Result) scan(all []*compiled) {
	// Claims are grouped by their Path glob first, so indexing costs
	// globs x files, not claims x files: a thousand claims on one glob
	// touch each file's entry once.
	byGlob := map[string][]*compiled{}
	var globs []string
	for _, cc := range all {
		if !IsLineKind(cc.kind) {
			continue
		}
		if _, ok := byGlob[cc.c.Path]; !ok {
			globs = append(globs, cc.c.Path)
		}
		byGlob[cc.c.Path] = append(byGlob[cc.c.Path], cc)
	}
	fileGlobs := map[string][]byte{} // the file's glob indexes, 4 bytes each
	var order []string
	for gi, g := range globs {
		for _, f := range byGlob[g][0].files {
			if _, ok := fileGlobs[f]; !ok {
				order = append(order, f)
			}
			fileGlobs[f] = binary.LittleEndian.AppendUint32(fileGlobs[f], uint32(gi))
		}
	}
	// Files touched by the same globs share one claim list and, when it is
	// long enough, one multi-literal matcher.
	type group struct {
		ccs  []*compiled
		once sync.Once
		mm   *multiMatcher
		idx  []int // per claim of the set: its literal's index, or -1
	}
	groups := map[string]*group{}
	groupOf := make(map[string]*group, len(order))
	for _, f := range order {
		k := string(fileGlobs[f])
		g := groups[k]
		if g == nil {
			g = &group{}
			for i := 0; i < len(k); i += 4 {
				g.ccs = append(g.ccs, byGlob[globs[binary.LittleEndian.Uint32([]byte(k[i:i+4]))]]...)
			}
			groups[k] = g
		}
		groupOf[f] = g
	}
	work := make(chan string)
	var wg sync.WaitGroup
	var notesMu sync.Mutex
	workers := runtime.GOMAXPROCS(0)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range work {
				g := groupOf[f]
				var mm *multiMatcher
				var idx []int
				if len(g.ccs) >= multiMin {
					g.once.Do(func() {
						var lits [][]byte
						for _, cc := range g.ccs {
							if len(cc.literal) > 0 {
								g.idx = append(g.idx, len(lits))
								lits = append(lits, cc.literal)
							} else {
								g.idx = append(g.idx, -1)
							}
						}
						g.mm = newMultiMatcher(lits)
					})
					mm, idx = g.mm, g.idx
				}
				if note := scanFile(r.Repo.ReadFile, f, g.ccs, mm, idx); note != "" {
					notesMu.Lock()
					r.Notes = append(r.Notes, note)
					notesMu.Unlock()
				}
			}
		}()
	}
	for _, f := range order {
		work <- f
	}
	close(work)
	wg.Wait()
}

// multiMin is the number of claims on one file from which one
// multi-literal pass beats a bytes.Contains per claim.
const multiMin = 4

// scanFile matches every claim in ccs against one file. It returns a note
// when the file is skipped.
func scanFile(read func(rel string, max int64) ([]byte, error), rel string, ccs []*compiled, mm *multiMatcher, litIdx []int) string {
	src, err := read(rel, MaxFileSize)
	if err != nil {
		for _, cc := range ccs {
			cc.mu.Lock()
			cc.skipped = append(cc.skipped, rel)
			cc.mu.Unlock()
		}
		return fmt.Sprintf("skipped %s: %v", rel, describeSkip(err))
	}
	if bytes.IndexByte(src[:min(len(src), 8000)], 0) >= 0 {
		return fmt.Sprintf("skipped %s: binary file", rel)
	}
	if !utf8.Valid(src) {
		return fmt.Sprintf("skipped %s: not valid UTF-8", rel)
	}
	masked := codeline.Mask(rel, src)
	test := isTestFile(rel)
	// Lines are split once per file and shared by every claim that needs
	// them, not once per claim.
	var codeLines, rawLines, commentLines []string
	var starts []int
	split := func() {
		if codeLines == nil {
			codeLines, rawLines = splitLines(masked), splitLines(src)
			starts = lineStarts(src)
		}
	}
	var units []register.Unit
	unitsRead := false
	var found []bool
	if mm != nil {
		found = mm.match(src)
	}
	for k, cc := range ccs {
		if test && !cc.tests && cc.kind != KindPresent {
			continue
		}
		if cc.scope == ScopeProse {
			if !unitsRead {
				units, unitsRead = register.ProseUnits(rel, src), true
				split()
			}
			cc.mu.Lock()
			for _, u := range units {
				if cc.skip.covers(rel, u.Start, u.End) {
					continue
				}
				loc := cc.anchor.FindStringIndex(u.Text)
				if loc == nil {
					continue
				}
				ln := sort.SearchInts(starts, u.Start+1) - 1
				h := hit{rel, ln + 1, u.Start - starts[ln] + 1, u.Text, sort.SearchInts(starts, u.End)}
				if test && !cc.tests {
					cc.record(&cc.test, h)
					continue
				}
				cc.inScope(h)
			}
			cc.mu.Unlock()
			continue
		}
		var lines []int // the lines to try, nil for all
		if len(cc.literal) > 0 {
			// Every match contains the literal, so only the lines that
			// contain it can match: the regexp runs on those lines alone,
			// never on the whole file.
			if found != nil {
				if !found[litIdx[k]] {
					continue
				}
			} else if !bytes.Contains(src, cc.literal) {
				continue
			}
			split()
			lines = candidateLines(src, cc.literal, starts)
		} else {
			if !cc.filter.Match(masked) && !cc.filter.Match(src) {
				continue
			}
			split()
		}
		if cc.scope == ScopeComment && commentLines == nil {
			commentLines = splitLines(commentText(src, masked))
		}
		cc.mu.Lock()
		try := func(ln int) {
			var scoped string
			switch cc.scope {
			case ScopeAny:
				scoped = rawLines[ln]
			case ScopeComment:
				scoped = commentLines[ln]
			default:
				scoped = codeLines[ln]
			}
			loc := cc.anchor.FindStringIndex(scoped)
			if loc == nil {
				// A match outside the scope (in a comment for a code
				// claim, in code for a comment claim) is kept for the
				// message.
				if raw := rawLines[ln]; len(cc.comment) < maxHits && cc.anchor.MatchString(raw) {
					cc.record(&cc.comment, hit{file: rel, line: ln + 1, col: 1, text: raw})
				}
				return
			}
			h := hit{file: rel, line: ln + 1, col: loc[0] + 1, text: scoped}
			if test && !cc.tests {
				cc.record(&cc.test, h)
				return
			}
			cc.inScope(h)
		}
		if lines != nil {
			for _, ln := range lines {
				try(ln)
			}
		} else {
			for ln := range codeLines {
				try(ln)
			}
		}
		cc.mu.Unlock()
	}
	return ""
}

// inScope records a line (or prose unit) of the claim's scope on which the
// anchor matched.
func (cc *compiled) inScope(h hit) {
	cc.nCode++
	switch cc.kind {
	case KindAnchored, KindAbsent:
		cc.record(&cc.code, h)
	default:
		if cc.requireOK(h.text) {
			cc.record(&cc.code, h)
		} else {
			cc.record(&cc.reqFail, h)
		}
	}
}

// commentText returns src with every code byte blanked: what remains is the
// comment text, at the same offsets.
func commentText(src, masked []byte) []byte {
	out := make([]byte, len(src))
	for i, c := range src {
		switch {
		case c == '\n' || c == '\r':
			out[i] = c
		case masked[i] != c:
			out[i] = c
		default:
			out[i] = ' '
		}
	}
	return out
}

// spans are byte ranges per file that are not text: the Path, Anchor and
// Require cells of claim tables (D36, D38).
type spans map[string][][2]int

func (s spans) covers(file string, from, to int) bool {
	for _, sp := range s[file] {
		if from < sp[1] && to > sp[0] {
			return true
		}
	}
	return false
}

// claimCells returns the pattern cells of every claim of the run.
func (r *Result) claimCells() spans {
	out := spans{}
	for _, d := range r.Decisions {
		for _, c := range d.Claims {
			for _, sp := range c.Spans {
				out[d.Path] = append(out[d.Path], sp)
			}
		}
	}
	return out
}

// lineStarts returns the byte offset of the start of each line of src.
func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// candidateLines returns, in order and once each, the 0-based lines of src
// that contain lit.
func candidateLines(src, lit []byte, starts []int) []int {
	var out []int
	for off := 0; ; {
		i := bytes.Index(src[off:], lit)
		if i < 0 {
			return out
		}
		pos := off + i
		ln := sort.SearchInts(starts, pos+1) - 1
		if len(out) == 0 || out[len(out)-1] != ln {
			out = append(out, ln)
		}
		// Continue after this line: one visit per line is enough.
		if ln+1 < len(starts) {
			off = starts[ln+1]
		} else {
			return out
		}
	}
}

// splitLines splits src at '\n' and drops a trailing '\r' from each line;
// index i is line i+1.
func splitLines(src []byte) []string {
	lines := strings.Split(string(src), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

func describeSkip(err error) string {
	switch {
	case errors.Is(err, repo.ErrTooLarge):
		return fmt.Sprintf("larger than %d MiB", MaxFileSize>>20)
	case errors.Is(err, repo.ErrNotRegular):
		return strings.TrimPrefix(err.Error(), repo.ErrNotRegular.Error()+": ") + ", not followed"
	}
	return describe(err).Error()
}

func (cc *compiled) requireOK(line string) bool {
	if cc.require == nil {
		return true
	}
	return cc.require.MatchString(line) != cc.negate
}

func quoteRE(s string) string { return "`" + s + "`" }

func listHits(hs []hit, max int) string {
	var parts []string
	for i, h := range hs {
		if i == max {
			parts = append(parts, fmt.Sprintf("and %d more", len(hs)-max))
			break
		}
		parts = append(parts, h.String())
	}
	return strings.Join(parts, ", ")
}

// conclude turns a scanned claim into its state and findings.
func (r *Result) conclude(cc *compiled) {
	c := cc.c
	st := ClaimState{Decision: cc.d.FileID, Status: cc.d.Status, Claim: c.ID, Kind: c.Kind, Row: fmt.Sprintf("%s:%d", c.Pos.Filename, c.Pos.Line), Where: []string{}}
	sev := severityFor(cc.d.Status)
	var fails []diag.Finding
	fail := func(pos token.Position, check, format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		if sev != diag.SeverityError {
			msg = "pending: " + msg
		}
		fails = append(fails, diag.Finding{Pos: pos, Check: check, Decision: cc.d.FileID, Claim: c.ID, Severity: sev, Message: msg})
	}
	noFiles := func() bool {
		if len(cc.files) > 0 {
			return false
		}
		fail(c.CellPos("path"), ruleClaims, "Path %s matches no file", quoteRE(c.Path))
		return true
	}
	outside := func() string {
		// Where the out-of-scope matches were, in the words of the scope.
		switch cc.scope {
		case ScopeComment:
			return "only on code lines, outside comments"
		case ScopeProse:
			return "only outside prose"
		}
		return "only in comments"
	}
	unit := "code line"
	switch cc.scope {
	case ScopeAny:
		unit = "line"
	case ScopeComment:
		unit = "comment line"
	case ScopeProse:
		unit = "prose unit"
	}
	switch cc.kind {
	case KindPresent:
		if noFiles() {
			break
		}
		if len(cc.code) > 0 {
			st.Where = append(st.Where, cc.code[0].String())
			break
		}
		switch {
		case len(cc.reqFail) > 0:
			fail(c.Pos, ruleClaim, "Anchor %s matches %s, but no such line matches Require %s", quoteRE(c.Anchor), listHits(cc.reqFail, 3), quoteRE(c.Require))
		case len(cc.test) > 0:
			fail(c.Pos, ruleClaim, "Anchor %s matches only test files (%s); production code must carry it (name test files in Path to count them)", quoteRE(c.Anchor), listHits(cc.test, 3))
		case len(cc.comment) > 0 && cc.scope == ScopeCode:
			fail(c.Pos, ruleClaim, "Anchor %s appears only in comments (%s); a claim needs a code line (or a scope: present:comment)", quoteRE(c.Anchor), listHits(cc.comment, 3))
		case len(cc.comment) > 0:
			fail(c.Pos, ruleClaim, "Anchor %s appears %s (%s); no %s of %s matches it", quoteRE(c.Anchor), outside(), listHits(cc.comment, 3), unit, quoteRE(c.Path))
		default:
			fail(c.Pos, ruleClaim, "no %s of %s matches Anchor %s", unit, quoteRE(c.Path), quoteRE(c.Anchor))
		}
	case KindAnchored, KindEvery:
		if noFiles() {
			break
		}
		switch {
		case cc.nCode == 0:
			extra := ""
			if len(cc.comment) > 0 {
				extra = fmt.Sprintf(" (it appears %s: %s)", outside(), listHits(cc.comment, 3))
			} else if len(cc.test) > 0 {
				extra = fmt.Sprintf(" (it appears only in tests: %s)", listHits(cc.test, 3))
			}
			fail(c.Pos, ruleClaim, "anchor vanished: no %s of %s matches %s%s", unit, quoteRE(c.Path), quoteRE(c.Anchor), extra)
		case cc.kind == KindEvery:
			for _, h := range cc.code {
				st.Where = append(st.Where, h.String())
			}
			for _, h := range cc.reqFail {
				st.Where = append(st.Where, h.String())
				if cc.negate {
					fail(h.pos(), ruleClaim, "an anchored %s matches forbidden %s (every line %s matches must not)", unit, quoteRE(strings.TrimPrefix(c.Require, "!")), quoteRE(c.Anchor))
				} else {
					fail(h.pos(), ruleClaim, "an anchored %s does not match Require %s (every line %s matches must)", unit, quoteRE(c.Require), quoteRE(c.Anchor))
				}
			}
		case cc.nCode > 1:
			for _, h := range cc.code {
				fail(h.pos(), ruleClaim, "anchor ambiguous: %s matches %d %ss (%s); make it match exactly one (or use anchored-every)", quoteRE(c.Anchor), cc.nCode, unit, listHits(cc.code, 5))
			}
			for _, h := range cc.code {
				st.Where = append(st.Where, h.String())
			}
		default:
			h := cc.code[0]
			st.Where = append(st.Where, h.String())
			if !cc.requireOK(h.text) {
				if cc.negate {
					fail(h.pos(), ruleClaim, "anchored line matches forbidden %s", quoteRE(strings.TrimPrefix(c.Require, "!")))
				} else {
					fail(h.pos(), ruleClaim, "anchored line does not match Require %s", quoteRE(c.Require))
				}
			}
		}
	case KindAbsent:
		if noFiles() {
			break
		}
		for _, h := range cc.code {
			fail(h.pos(), ruleClaim, "forbidden %s is present: %s must match no %s of %s", quoteRE(c.Anchor), quoteRE(c.Anchor), unit, quoteRE(c.Path))
		}
	case KindExec:
		if noFiles() {
			break
		}
		for _, f := range cc.files {
			if msg := r.execProblem(f); msg != "" {
				fail(token.Position{Filename: f, Line: 1, Column: 1}, ruleClaim, "%s", msg)
			} else {
				st.Where = append(st.Where, f)
			}
		}
	case KindTracker:
		id := c.Anchor
		iss, ok := r.Export.Lookup(id)
		switch {
		case r.Export == nil:
			fail(c.CellPos("anchor"), ruleClaim, "%s cannot be resolved: the tracker export %s does not exist", id, r.Config.Tracker.Export)
		case !ok:
			fail(c.CellPos("anchor"), ruleClaim, "%s is not in the tracker export %s", id, r.Config.Tracker.Export)
		case !iss.Satisfies(c.Require):
			fail(c.CellPos("require"), ruleClaim, "%s is %s in the tracker, want %s", id, iss.Status, c.Require)
		default:
			st.Where = append(st.Where, fmt.Sprintf("%s:%d", r.Export.Path, iss.Line))
		}
	}
	switch {
	case len(fails) == 0:
		st.State = StateOK
	case sev == diag.SeverityError:
		st.State = StateFailed
		st.Message = fails[0].Message
	default:
		st.State = StatePending
		st.Message = fails[0].Message
	}
	r.Findings = append(r.Findings, fails...)
	r.Claims = append(r.Claims, st)
}

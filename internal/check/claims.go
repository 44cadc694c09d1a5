package check

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"go/token"
	"path"
	"regexp/syntax"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/claimslint/claimslint/internal/codeline"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/region"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/relimit"
	"github.com/claimslint/claimslint/internal/repo"
	"github.com/claimslint/claimslint/internal/ruleid"
	"github.com/claimslint/claimslint/internal/snapshot"
)

// MaxFileSize is the largest file read as code. A larger file is not read:
// it is a warning, and a finding of every absent, anchored and
// anchored-every claim whose Path names it (D68).
const MaxFileSize = 4 << 20

// maxHits bounds the hits kept per claim, so an anchor that matches every
// line of a large tree cannot exhaust memory.
const maxHits = 64

// hit is one line on which a claim's anchor matched.
type hit struct {
	file string
	line int
	col  int
	// text is the line (or prose unit) as the claim's scope reads it;
	// size is its length in bytes where text is not kept (a line the
	// anchor was not run on).
	text string
	// last is the last line of a prose unit that spans lines, else 0.
	last int
	size int
	// inString marks a match outside the claim's scope that lies inside
	// a string the scope does not read (a here-document, a multi-line
	// string), not in a comment or on a code line (D76).
	inString bool
	// twoWays marks a match on a line of a file the lexer read two ways
	// that only one reading counts as in scope (D89).
	twoWays bool
	// why says, for a line or file the anchor was not run on, why not;
	// all is set when it was not run on the file at all.
	why string
	all bool
}

func (h hit) pos() token.Position {
	return token.Position{Filename: h.file, Line: h.line, Column: h.col}
}

func (h hit) String() string { return fmt.Sprintf("%s:%d", h.file, h.line) }

func (c *claim) record(list *[]hit, h hit) {
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

// prepared is the claims of one run, each row validated once (CL006) and
// readied by its kind.
type prepared struct {
	all []*claim // every row of every parsed decision, in order
	bad []diag.Finding
}

// prepare validates every claim row once per run.
func (r *Result) prepare() *prepared {
	if r.prepared != nil {
		return r.prepared
	}
	p := &prepared{}
	var past []register.Claim // the rows past MaxClaims (D90)
	rows := 0
	for _, d := range r.Decisions {
		if d.Parsed {
			rows += len(d.Claims)
		}
	}
	// One allocation for the claims, not one each (D92).
	slab := make([]claim, min(rows, MaxClaims))
	p.all = make([]*claim, 0, len(slab))
	for _, d := range r.Decisions {
		if !d.Parsed {
			continue
		}
		for i := range d.Claims {
			if len(p.all) == MaxClaims {
				past = append(past, d.Claims[i])
				continue
			}
			c := &slab[len(p.all)]
			c.init(r.Snapshot, d, &d.Claims[i])
			p.all = append(p.all, c)
		}
	}
	if len(past) > 0 {
		p.bad = append(p.bad, diag.Finding{Pos: past[0].Pos, Check: ruleid.Claims, Severity: diag.SeverityError,
			Message: fmt.Sprintf("%s %s and the %d claim rows after it are not evaluated: a run evaluates at most %d claims (D90); archive old decisions, or state their claims in fewer rows", past[0].Decision, past[0].ID, len(past)-1, MaxClaims)})
	}
	// What the patterns compile to is decided first, in row order, so
	// that which row the run's account refuses does not depend on
	// scheduling (D90).
	var account relimit.Run
	for _, c := range p.all {
		c.sizePatterns(&account)
	}
	// Rows are independent (compiling their patterns is most of the
	// cost), so they are prepared on all cores; findings keep row order.
	var wg sync.WaitGroup
	next := indexes(len(p.all))
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, ok := next(); ok; i, ok = next() {
				c := p.all[i]
				if r.stopped() {
					continue // drain: the run returns the context's error
				}
				if at := (overrun{claim: c, doing: "preparing the claims", pos: c.c.Pos}); r.budget.stop(at) {
					c.cut, c.cutAt = true, at // not evaluated: the budget's finding says so
					continue
				}
				c.budget = r.budget
				if c.oversize || !c.prepareRow() && !c.cut {
					c.kind = nil // cannot be evaluated
				}
				c.writeWarnings() // write_warnings.go
			}
		}()
	}
	wg.Wait()
	link(p.all)
	for _, c := range p.all {
		p.bad = append(p.bad, c.bad...)
	}
	r.budget.firstCut(p.all)
	r.prepared = p
	return p
}

// sizePatterns refuses the claim (CL006) when its Anchor or Require
// compiles to a program past relimit.MaxInsts, or past what is left of the
// run's account (D90): it is then not prepared, and nothing is compiled.
// A literal anchor compiles nothing and is not counted; a cell too long or
// that does not parse is left to prepareRow, which says so.
func (c *claim) sizePatterns(account *relimit.Run) {
	for _, cell := range []struct{ col, text string }{{"anchor", c.c.Anchor}, {"require", strings.TrimPrefix(c.c.Require, "!")}} {
		if cell.text == "" || len(cell.text) > MaxPattern {
			continue
		}
		if _, lit := plainLiteral(cell.text); lit && cell.col == "anchor" {
			continue // a literal compiles nothing, and no literal of MaxPattern bytes is over relimit.MaxInsts (TestLiteralsNeedNoSize)
		}
		re, err := syntax.Parse(cell.text, syntax.Perl)
		if err != nil {
			continue
		}
		// Sized first: telling a literal needs Simplify, which expands
		// every counted repetition.
		n, exact, err := relimit.SizeOf(re)
		if err != nil {
			continue
		}
		col := strings.ToUpper(cell.col[:1]) + cell.col[1:]
		if msg := relimit.Refusal(n, exact); msg != "" {
			c.malformed(c.c.CellPos(cell.col), "%s: %s %s", c.name(), col, msg)
			c.oversize = true
			return
		}
		if cell.col == "anchor" {
			// Parsed once: prepareLines reads the literal and the program
			// size from this tree (D92).
			c.anchorTree = &parsedPattern{src: cell.text, re: re.Simplify()}
			if _, lit := c.anchorTree.exact(); lit {
				continue
			}
		}
		if used := account.Used(); !account.Take(n) {
			c.malformed(c.c.CellPos(cell.col), "%s: %s %s; anchor more claims on literals, which compile nothing, or shorten the counted repetitions", c.name(), col, relimit.RunRefusal(n, used))
			c.oversize = true
			return
		}
	}
}

// prepareRow checks the Kind cell and lets the kind validate the rest.
func (c *claim) prepareRow() bool {
	switch {
	case c.c.Kind == "":
		c.malformed(c.c.CellPos("kind"), "%s has no Kind: write %s", c.name(), kindList())
		return false
	case c.kind == nil:
		c.malformed(c.c.CellPos("kind"), "%s: unknown kind %q: write %s", c.name(), c.c.Kind, kindList())
		return false
	}
	for _, cell := range []struct{ col, text string }{{"anchor", c.c.Anchor}, {"require", c.c.Require}} {
		if len(cell.text) > MaxPattern {
			// Compiling a 4 MB anchor took 5 s and 1 GB (D70).
			c.malformed(c.c.CellPos(cell.col), "%s: %s is %d bytes long, over the %d-byte limit for a pattern", c.name(), strings.ToUpper(cell.col[:1])+cell.col[1:], len(cell.text), MaxPattern)
			return false
		}
	}
	if _, ok := c.kind.(scopedKind); !ok && c.scope != "" {
		c.malformed(c.c.CellPos("kind"), "%s: kind %s takes no scope (%q): only the kinds that read lines do", c.name(), c.kind.Name(), c.c.Kind)
		return false
	}
	switch c.scope {
	case "":
		c.scope = ScopeCode
	case ScopeCode, ScopeTest, ScopeAny, ScopeAll, ScopeComment, ScopeProse:
	default:
		c.malformed(c.c.CellPos("kind"), "%s: unknown scope %q in %q: write %s", c.name(), c.scope, c.c.Kind, orList(Scopes, "or"))
		return false
	}
	if _, ok := c.kind.(scopedKind); ok && !c.expand() {
		return false
	}
	return c.kind.Prepare(c)
}

// conclude lets the claim's kind evaluate it and returns its state.
func (c *claim) conclude() ClaimState {
	c.dropGone()
	c.fails, c.where = nil, nil
	c.rg.sort()
	c.t.sort()
	c.kind.Evaluate(c)
	st := ClaimState{Decision: c.d.FileID, Status: c.d.Status, Claim: c.c.ID, Kind: c.c.Kind,
		Row: fmt.Sprintf("%s:%d", c.c.Pos.Filename, c.c.Pos.Line), Where: append([]string{}, c.where...), lines: c.lines != nil}
	switch {
	case len(c.fails) == 0:
		st.State = StateOK
	case c.fails[0].Severity == diag.SeverityError:
		st.State = StateFailed
		st.Message = c.fails[0].Message
	default:
		st.State = StatePending
		st.Message = c.fails[0].Message
	}
	return st
}

// dropGone takes out of the claim's files those its scan found deleted
// from the work tree while still in the index: not part of what the code
// says now, as Repo.Present says of them (D56). The files a line kind
// reads come from the index alone (MatchIndexed), and the scan's open is
// what asks the work tree (D92).
func (c *claim) dropGone() {
	if len(c.gone) == 0 {
		return
	}
	gone := make(map[string]bool, len(c.gone))
	for _, f := range c.gone {
		gone[f] = true
	}
	// A new slice: c.files is the glob cache's, shared by other claims.
	c.files = slices.DeleteFunc(slices.Clone(c.files), func(f string) bool { return gone[f] })
	c.gone = nil
}

// scan reads every file some line-reading claim touches, once, on all
// cores; it returns a warning for each file it could not read (D68).
func (r *Result) scan(all []*claim) ([]diag.Finding, error) {
	order, groupOf := scanGroups(all)
	var (
		wg       sync.WaitGroup
		warnMu   sync.Mutex
		warnings []diag.Finding
	)
	warn := func(w diag.Finding) {
		warnMu.Lock()
		warnings = append(warnings, w)
		warnMu.Unlock()
	}
	next := indexes(len(order))
	workers := runtime.GOMAXPROCS(0)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.scanWorker(func() (string, bool) {
				i, ok := next()
				if !ok {
					return "", false
				}
				return order[i], true
			}, groupOf, warn)
		}()
	}
	wg.Wait()
	sortClaimHits(all)
	if r.stopped() {
		return nil, stoppedErr(r.ctx.Err())
	}
	return warnings, nil
}

// indexes hands out 0 to n-1, each once, to the workers that call it:
// work taken by index, not handed over a channel that wakes a worker per
// item, which cost as much as reading a small file (D56).
func indexes(n int) func() (int, bool) {
	var taken atomic.Int64
	return func() (int, bool) {
		i := taken.Add(1) - 1
		return int(i), i < int64(n)
	}
}

// scanGroup is the claims of the files the same globs touch: one claim
// list and, when it is long enough, one multi-literal matcher.
type scanGroup struct {
	ccs  []*claim
	once sync.Once
	mm   *multiMatcher
	idx  []int // per claim of the set: its literal's index, or -1
}

// scanGroups is the files line-reading claims touch, in the order first
// touched, and each file's group. Claims are grouped by their Path glob
// first, so indexing costs globs x files, not claims x files: a thousand
// claims on one glob touch each file's entry once.
func scanGroups(all []*claim) ([]string, map[string]*scanGroup) {
	byGlob := map[string][]*claim{}
	var globs []string
	for _, cc := range all {
		if cc.lines == nil {
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
	// Files touched by the same globs share one group.
	groups := map[string]*scanGroup{}
	groupOf := make(map[string]*scanGroup, len(order))
	for _, f := range order {
		k := string(fileGlobs[f])
		g := groups[k]
		if g == nil {
			g = &scanGroup{}
			for i := 0; i < len(k); i += 4 {
				g.ccs = append(g.ccs, byGlob[globs[binary.LittleEndian.Uint32([]byte(k[i:i+4]))]]...)
			}
			groups[k] = g
		}
		groupOf[f] = g
	}
	return order, groupOf
}

// matcher is the group's multi-literal matcher and each claim's literal
// index in it, built once by the first worker that needs it; nil for a
// group of fewer than multiMin claims.
func (g *scanGroup) matcher() (*multiMatcher, []int) {
	if len(g.ccs) < multiMin {
		return nil, nil
	}
	g.once.Do(func() {
		var lits [][]byte
		for _, cc := range g.ccs {
			if len(cc.lines.literal) > 0 {
				g.idx = append(g.idx, len(lits))
				lits = append(lits, cc.lines.literal)
			} else {
				g.idx = append(g.idx, -1)
			}
		}
		g.mm = newMultiMatcher(lits)
	})
	return g.mm, g.idx
}

// scanWorker scans the files it takes from next until there are none;
// a file it could not read is given to warn.
func (r *Result) scanWorker(next func() (string, bool), groupOf map[string]*scanGroup, warn func(diag.Finding)) {
	sc := &scratch{meter: meter{b: r.budget}}
	// One read buffer per worker: scanFile keeps no byte of a file
	// once it returns (hits copy their lines).
	read := func(rel string, max int64) ([]byte, error) {
		b, err := r.Repo.ReadFileInto(rel, max, sc.src)
		if err == nil {
			sc.src = b
		}
		return b, err
	}
	for f, ok := next(); ok; f, ok = next() {
		if r.stopped() || r.budgetOut(f, groupOf[f].ccs[0]) {
			continue // drain: the run was stopped, or its budget's finding says what was left
		}
		r.scanned.Add(1)
		g := groupOf[f]
		mm, idx := g.matcher()
		if why := scanFile(read, f, g.ccs, mm, idx, sc); why != "" {
			warn(unreadWarning(f, why))
		}
	}
}

// sortClaimHits orders each claim's hits and unread files by path:
// workers record them in the order they reach files; messages and prove
// read them in path order, so a run's output does not depend on
// scheduling (dk-r6v).
func sortClaimHits(all []*claim) {
	for _, cc := range all {
		for _, l := range [][]hit{cc.costly, cc.code, cc.reqFail, cc.comment, cc.test} {
			sortHits(l)
		}
		slices.SortFunc(cc.unread, func(a, b unread) int { return strings.Compare(a.file, b.file) })
	}
}

// unread is a file a claim's Path names that the scan could not read,
// and why (D68).
type unread struct{ file, why string }

// unreadWarning is the warning for a file no claim could read: shown in
// every format (in github's as ::warning), it fails no run by itself.
func unreadWarning(file, why string) diag.Finding {
	return diag.Finding{Pos: token.Position{Filename: file}, Check: ruleid.Claim, Severity: diag.SeverityWarning,
		Message: "not read: " + why + "; an absent, anchored or anchored-every claim whose Path names it fails"}
}

// sortHits orders hits by file, line and column.
func sortHits(hs []hit) {
	slices.SortFunc(hs, func(a, b hit) int {
		if c := strings.Compare(a.file, b.file); c != 0 {
			return c
		}
		if a.line != b.line {
			return a.line - b.line
		}
		return a.col - b.col
	})
}

// multiMin is the number of claims on one file from which one
// multi-literal pass beats a bytes.Index per claim: building the automaton
// costs a table row per literal byte, and bytes.Index is vectorised, so a
// file named by a few claims (a Rust file with eight pub fn anchors) is
// searched literal by literal.
const multiMin = 32

// scratch is one scan worker's reusable storage: the regions of the file
// at hand, its masked text, its line index and which claims it can match,
// so a file costs no allocation beyond its bytes.
type scratch struct {
	src     []byte // the file read (Repo.ReadFileInto)
	regions codeline.Regions
	mask    []byte
	line    []byte
	alt     []byte // a line as the file's other reading masks it (D89)
	starts  []int
	cand    []bool // fileScan.cand
	first   []int  // fileScan.first
	occ     []int  // the lines findLines found, a byte of each
	occAt   []int  // per claim, where its lines start in occ
	meter   meter  // the run's budget, asked between lines (D70)
}

// lineIndex gives line bounds and numbers of src by byte offset. Lines are
// never split into strings: a claim reads the bytes of its candidate lines
// only (D56).
type lineIndex struct {
	src    []byte
	sc     *scratch
	lookup int
	built  bool
}

// bounds returns the line holding byte off as [start, end): end excludes
// the newline and a trailing '\r'; next is where the following line starts.
func (l *lineIndex) bounds(off int) (start, end, next int) {
	start = bytes.LastIndexByte(l.src[:off], '\n') + 1
	end = bytes.IndexByte(l.src[off:], '\n')
	if end < 0 {
		end = len(l.src)
		next = end + 1
	} else {
		end += off
		next = end + 1
	}
	if end > start && l.src[end-1] == '\r' {
		end--
	}
	return start, end, next
}

// number returns the 1-based number of the line starting at start. A few
// lookups count newlines; past that, an index of line starts is built once
// per file.
func (l *lineIndex) number(start int) int {
	l.lookup++
	if l.lookup < 8 && !l.built {
		return bytes.Count(l.src[:start], []byte{'\n'}) + 1
	}
	sc := l.sc
	if !l.built {
		sc.starts = append(sc.starts[:0], 0)
		for i := 0; ; {
			k := bytes.IndexByte(l.src[i:], '\n')
			if k < 0 {
				break
			}
			i += k + 1
			sc.starts = append(sc.starts, i)
		}
		l.built = true
	}
	return sort.SearchInts(sc.starts, start+1)
}

// count returns how many lines start before byte off (the line number of
// the byte before off, 1-based), as sort.SearchInts(starts, off) does.
func (l *lineIndex) count(off int) int {
	l.lookup = 8 // build the index, if not built yet
	l.number(0)
	return sort.SearchInts(l.sc.starts, off)
}

// scanFile matches every claim in ccs against one file, in four steps:
// read it (readCode), keep the claims it can match (candidates: a claim
// whose literal it lacks cannot), classify its lines as code, comment and
// string (codeline.Scan), and match each candidate claim (match). It
// returns why when the file could not be read. sc may be nil.
func scanFile(read func(rel string, max int64) ([]byte, error), rel string, ccs []*claim, mm *multiMatcher, litIdx []int, sc *scratch) string {
	src, why, gone := readCode(read, rel, ccs)
	if gone {
		return "" // deleted from the work tree: dropped from its claims' files, not scanned
	}
	if why != "" {
		for _, cc := range ccs {
			cc.done.Add(1)
		}
		return why
	}
	if sc == nil {
		sc = &scratch{}
	}
	f := &fileScan{rel: rel, src: src, test: isTestFile(rel), sc: sc, ln: lineIndex{src: src, sc: sc}}
	if !f.candidates(ccs, mm, litIdx) {
		for _, cc := range ccs {
			cc.done.Add(1)
		}
		return "" // a file no claim can match is not lexed
	}
	// The lexer reads up to the last line a claim can match, and one more
	// (codeline.ScanPrefix), when the lines are known before it runs.
	codeline.ScanPrefix(rel, src, f.findLines(ccs), &sc.regions)
	for k, cc := range ccs {
		if f.cand[k] {
			f.match(k, cc)
		}
		if f.cut {
			return "" // the budget ran out: this claim and the rest are not done
		}
		cc.done.Add(1)
	}
	return ""
}

// maxLines is how many lines findLines keeps for a file: past it, the
// file is lexed whole and its claims search their lines as they go.
const maxLines = 256

// findLines finds, before the file is lexed, the lines the claims ccs can
// match when each candidate claim matches the lines that hold its literal
// (matchLiteralLines): the searches matchLiteralLines would make, in the
// same order, kept in the worker's storage (sc.occ, per claim from
// sc.occAt). It returns where the line after the last one starts: the
// lexer need read no further (D92). A claim of another kind, the
// multi-literal pass or more than maxLines lines leave the file to be
// lexed whole: it returns len(src). A claim with a Within cell counts the
// lines its first region pattern's literal holds: the lexer reads the
// blocks they open as the block scans reach them (D94). It records where
// the lexed prefix ends (f.lexed).
func (f *fileScan) findLines(ccs []*claim) (keep int) {
	defer func() { f.lexed = keep }()
	src, sc := f.src, f.sc
	if f.found != nil {
		return len(src)
	}
	sc.occ, sc.occAt = sc.occ[:0], append(sc.occAt[:0], make([]int, len(ccs)+1)...)
	for k, cc := range ccs {
		sc.occAt[k] = len(sc.occ)
		if !f.cand[k] {
			continue
		}
		spec := cc.lines
		lit := spec.literal
		if spec.within != nil {
			if !f.prefixBlocks() {
				return len(src)
			}
			lit = spec.within[0].literal
		}
		if spec.scope == ScopeProse || len(lit) == 0 {
			return len(src)
		}
		for pos := f.first[k]; ; {
			if len(sc.occ) == maxLines {
				return len(src)
			}
			sc.occ = append(sc.occ, pos)
			_, _, next := f.ln.bounds(pos)
			keep = max(keep, min(next, len(src)))
			if next >= len(src) {
				break
			}
			i := indexLiteral(src[next:], lit)
			if i < 0 {
				break
			}
			pos = next + i
		}
		if spec.within != nil { // and the block the last line opens
			keep = max(keep, rawBlockEnd(src, sc.occ[len(sc.occ)-1]))
		}
	}
	sc.occAt[len(ccs)] = len(sc.occ)
	f.lines = true
	return keep
}

// rawBlockEnd guesses where the block opened at or after byte from ends,
// reading every brace as code (the file is not lexed yet): the start of
// the line after the '}' that closes the first '{' from byte from on, or
// len(src). It is only how far to lex first: a block's scan that
// reaches past it lexes the rest (region.NewPrefix).
func rawBlockEnd(src []byte, from int) int {
	i := bytes.IndexByte(src[from:], '{')
	if i < 0 {
		return len(src)
	}
	depth := 0
	for j := from + i; j < len(src); j++ {
		switch src[j] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				if k := bytes.IndexByte(src[j:], '\n'); k >= 0 {
					return j + k + 1
				}
				return len(src)
			}
		}
	}
	return len(src)
}

// prefixBlocks reports whether the file's blocks can be read with the
// file lexed only as far as its claims' lines: its lexer reads a prefix
// (codeline.Prefixed) and its blocks are braces, whose scans lex the rest
// only when they reach it (region.NewPrefix).
func (f *fileScan) prefixBlocks() bool {
	return codeline.Prefixed(f.rel, f.src) && region.FamilyOf(codeline.Name(f.rel, f.src)) == region.Braces
}

// readCode reads one file for the claims ccs, or says why it cannot: it
// is larger than MaxFileSize, a symbolic link (at any component), not a
// regular file, or unreadable. Each claim the file counts for records it
// (D68). Every other file is read, whatever its bytes: a NUL (a binary
// file) or bytes that are not UTF-8 (one Latin-1 byte) are matched as
// bytes, as git grep -a and Go's regexp read them, so no file under a
// claim goes unread for what it holds.
func readCode(read func(rel string, max int64) ([]byte, error), rel string, ccs []*claim) (src []byte, why string, gone bool) {
	src, err := read(rel, MaxFileSize)
	if err == nil {
		return src, "", false
	}
	if len(ccs) > 0 && !ccs[0].snap.Repo.Present(rel) {
		// Deleted, still in the index: what Present would have said
		// before the scan, asked only of a file that did not open.
		for _, cc := range ccs {
			cc.mu.Lock()
			cc.gone = append(cc.gone, rel)
			cc.mu.Unlock()
		}
		return nil, "", true
	}
	why = describeSkip(err)
	test := isTestFile(rel)
	for _, cc := range ccs {
		if spec := cc.lines; test && spec.skipTests && !spec.tests {
			continue // the claim does not read test files
		}
		cc.mu.Lock()
		cc.unread = append(cc.unread, unread{rel, why})
		cc.mu.Unlock()
	}
	return nil, why, false
}

// fileScan is one file being matched against its claims.
type fileScan struct {
	rel  string
	src  []byte
	test bool // the file is test code
	sc   *scratch
	ln   lineIndex
	// found holds, per literal of the multi-literal pass, its first
	// offsets (nil when the pass did not run); litIdx maps a claim to its
	// literal.
	found  [][]int32
	litIdx []int
	cand   []bool // per claim: the file can match it
	// first[k] is where claim k's literal first occurs when no
	// multi-literal pass ran: the search for candidate lines starts there.
	first []int
	// masked is the whole file with comments and strings blanked, once a
	// claim without a literal needed it (whole).
	masked    []byte
	units     []register.Unit // the prose units, once a prose claim read them
	unitsRead bool
	refused   string // why the file is not read as prose, once asked
	// spent is the steps the claim being matched has taken on this file
	// (D70); over is set when that passed maxFileCost.
	spent int
	over  bool
	// cut is set when the run's budget ran out in this file.
	cut bool
	// lines is set when findLines found the lines of every candidate
	// claim (sc.occ) before the file was lexed.
	lines bool
	// rx is the file's block structure, once a region claim asked; within
	// what each Within cell found in it (D94).
	rx     *region.Index
	within map[string]*withinRes
	// lexed is where the lexed prefix of the file ends (len(src): the
	// whole file), until a block's scan lexes the rest (lexRest).
	lexed int
}

// candidates marks the claims the file can match, and reports whether
// there is one. A claim whose required literal is not in the file cannot
// match it; with many claims (mm), one multi-literal pass decides.
func (f *fileScan) candidates(ccs []*claim, mm *multiMatcher, litIdx []int) bool {
	if mm != nil {
		f.found, f.litIdx = mm.match(f.src), litIdx
	}
	sc := f.sc // the worker's storage, reused from file to file
	sc.cand = append(sc.cand[:0], make([]bool, len(ccs))...)
	sc.first = append(sc.first[:0], make([]int, len(ccs))...)
	f.cand, f.first = sc.cand, sc.first
	anyCand := false
	for k, cc := range ccs {
		if f.candidate(k, cc.lines) {
			f.cand[k], anyCand = true, true
		}
	}
	return anyCand
}

// candidate reports whether the file can match claim k, whose line spec
// is spec.
func (f *fileScan) candidate(k int, spec *lineSpec) bool {
	if f.test && !spec.tests && spec.skipTests {
		return false
	}
	if spec.within != nil {
		// A file that opens the region counts even without the anchor's
		// literal: an absent claim holds there, a missing region is a
		// finding (D94).
		lit := spec.within[0].literal
		if len(lit) == 0 {
			return true
		}
		f.first[k] = indexLiteral(f.src, lit)
		return f.first[k] >= 0
	}
	if len(spec.literal) == 0 || spec.scope == ScopeProse {
		return true
	}
	// Every match contains the literal, so only the lines that contain it
	// can match: the regexp runs on those lines alone, never on the whole
	// file.
	if f.found != nil {
		return f.found[f.litIdx[k]] != nil
	}
	f.first[k] = indexLiteral(f.src, spec.literal)
	return f.first[k] >= 0
}

// match matches claim k against the file, holding the claim's lock: its
// prose units for a prose claim; else the lines holding its literal, or,
// for a claim without one whose pattern the file matches, every line. A
// claim whose anchor cannot read the whole file within maxFileCost is
// not run on it at all, and one whose prefilter would be a call over
// maxMatchCost reads the lines without it (D70).
func (f *fileScan) match(k int, cc *claim) {
	spec := cc.lines
	cc.mu.Lock()
	defer cc.mu.Unlock()
	f.spent, f.over = 0, false
	switch {
	case spec.within != nil:
		f.matchWithin(k, cc)
	case spec.scope == ScopeProse:
		f.matchProse(cc)
	case len(spec.literal) > 0:
		f.matchLiteralLines(k, cc)
	case spec.cost > 0 && len(f.src)*spec.cost > maxFileCost:
		f.notRunOnFile(cc, fmt.Sprintf("its %d bytes times %s are over the budget of %d steps for one file", len(f.src), spec.states(), maxFileCost))
	case len(f.src)*spec.anchorCost > maxMatchCost:
		f.matchEveryLine(cc) // the prefilter would be one call over budget
	case spec.filterRE().Match(f.whole()) || spec.filterRE().Match(f.src):
		f.spent += 2 * len(f.src) * spec.anchorCost
		f.matchEveryLine(cc)
	}
}

// notRunOnFile records that claim cc's anchor was not run on this file.
func (f *fileScan) notRunOnFile(cc *claim, why string) {
	cc.record(&cc.costly, hit{file: f.rel, line: 1, col: 1, size: len(f.src), why: why, all: true})
}

// whole returns the file as code lines read it, masked once: a claim
// without a literal reads every line. Otherwise only candidate lines are
// masked, each alone.
func (f *fileScan) whole() []byte {
	if f.masked == nil {
		f.masked = f.src
		if len(f.sc.regions.Spans) > 0 {
			f.sc.mask = f.sc.regions.MaskTo(f.sc.mask, f.src)
			f.masked = f.sc.mask
		}
	}
	return f.masked
}

// matchProse matches a prose claim against each prose unit of the file. A
// Markdown file over the limits of D40 has no units it can be read as: the
// claim is not run on it, and says why.
func (f *fileScan) matchProse(cc *claim) {
	rel, src, spec := f.rel, f.src, cc.lines
	if !f.unitsRead {
		f.units, f.refused = register.ProseUnits(rel, src)
		f.unitsRead = true
	}
	if f.refused != "" {
		f.notRunOnFile(cc, "it is not read as prose: "+f.refused)
		return
	}
	for _, u := range f.units {
		if spec.skip.Covers(rel, u.Start, u.End) {
			continue // a claim table's pattern cell is not prose
		}
		if !f.afford(cc, u.Start, len(u.Text)) {
			if f.over || f.cut {
				return
			}
			continue
		}
		if spec.findString(u.Text) == nil {
			continue
		}
		lineStart := bytes.LastIndexByte(src[:u.Start], '\n') + 1
		h := hit{file: rel, line: f.ln.number(lineStart), col: u.Start - lineStart + 1, text: u.Text, last: f.ln.count(u.End)}
		if (f.test || f.sc.regions.InTest(u.Start)) && !spec.tests {
			cc.record(&cc.test, h)
			continue
		}
		cc.inScope(h)
	}
}

// afford charges claim cc for reading n bytes at offset at (a line or a
// prose unit) and reports whether to read them (D70): not when the one
// call would be over maxMatchCost (the claim then records the line it was
// not run on), nor once the claim has spent maxFileCost on this file
// (over), nor once the run's budget has run out (cut).
func (f *fileScan) afford(cc *claim, at, n int) bool {
	spec := cc.lines
	cost := n * spec.cost
	costly := spec.cost > 0 && cost > maxMatchCost
	if costly {
		cc.record(&cc.costly, hit{file: f.rel, line: f.ln.number(bytes.LastIndexByte(f.src[:at], '\n') + 1), col: 1, size: n,
			why: fmt.Sprintf("a %d-byte line times %s is over the budget of %d steps", n, spec.states(), maxMatchCost)})
		cost = 0
	} else if f.spent += cost; f.spent > maxFileCost {
		f.over = true
		f.notRunOnFile(cc, fmt.Sprintf("its lines times %s come to over the budget of %d steps for one file", spec.states(), maxFileCost))
		return false
	}
	if f.sc.meter.tick(max(cost, n)) {
		f.sc.meter.b.stop(overrun{claim: cc, file: f.rel, line: f.ln.number(bytes.LastIndexByte(f.src[:at], '\n') + 1), doing: doingAnchor})
		f.cut = true
		return false
	}
	return !costly
}

// matchLiteralLines tries the lines holding claim k's literal, each once.
// The multi-literal pass already knows the first occurrences; past those,
// or without the pass, the rest are searched from the last one.
func (f *fileScan) matchLiteralLines(k int, cc *claim) {
	if f.lines { // found before the file was lexed
		next, ok := 0, true
		for _, pos := range f.sc.occ[f.sc.occAt[k]:f.sc.occAt[k+1]] {
			if next, ok = f.visit(cc, pos, next); !ok {
				return
			}
		}
		return
	}
	lit := cc.lines.literal
	var known []int32
	if f.found != nil {
		known = f.found[f.litIdx[k]]
	}
	next, ok := 0, true
	for _, e := range known {
		if next, ok = f.visit(cc, int(e)+1-len(lit), next); !ok {
			return
		}
	}
	if f.found == nil || len(known) == maxKnown {
		// More occurrences than the pass kept: find the rest.
		if f.found == nil {
			if next, ok = f.visit(cc, f.first[k], next); !ok { // found by the candidate search
				return
			}
		}
		for next < len(f.src) {
			i := indexLiteral(f.src[next:], lit)
			if i < 0 {
				break
			}
			if next, ok = f.visit(cc, next+i, next); !ok {
				return
			}
		}
	}
}

// visit tries the line holding byte pos, unless a visit before covered it
// (pos < next), and returns where the line after it starts; ok is false
// when the claim must stop reading the file (afford).
func (f *fileScan) visit(cc *claim, pos, next int) (int, bool) {
	if pos < next {
		return next, true
	}
	start, end, nx := f.ln.bounds(pos)
	return nx, f.tryLine(cc, start, end)
}

// matchEveryLine tries every line of the file.
func (f *fileScan) matchEveryLine(cc *claim) {
	src := f.src
	for start := 0; start <= len(src); {
		end := bytes.IndexByte(src[start:], '\n')
		next := len(src) + 1
		if end < 0 {
			end = len(src)
		} else {
			end += start
			next = end + 1
		}
		e := end
		if e > start && src[e-1] == '\r' {
			e--
		}
		if !f.tryLine(cc, start, e) {
			return
		}
		start = next
	}
}

// tryLine matches a claim against the line src[start:end] as its scope
// reads it, and records the hit: in scope, in test code, outside the scope
// (kept for the message), or on a line too long to run the anchor on. It
// reports whether the claim goes on reading the file (afford).
func (f *fileScan) tryLine(cc *claim, start, end int) bool {
	src, sc, test, spec := f.src, f.sc, f.test, cc.lines
	if !f.afford(cc, start, end-start) {
		return !f.over && !f.cut
	}
	scoped := f.scoped(spec.scope, start, end)
	loc := spec.find(scoped)
	twoWays := false
	if o := sc.regions.Other(); o != nil && spec.scope != ScopeAny && spec.scope != ScopeAll {
		// The lexer read the file two ways (D89): a claim holds only if
		// it holds both ways. A line that matches in one reading only
		// breaks a claim that forbids the match and supports none.
		alt := f.scopedBy(o, spec.scope, start, end)
		if altLoc := spec.find(alt); (altLoc == nil) != (loc == nil) {
			switch cc.kind.(type) {
			case absentKind, everyKind:
				if loc == nil {
					scoped, loc = alt, altLoc
				}
			default:
				loc, twoWays = nil, true
			}
		}
	}
	if loc == nil {
		// A match outside the scope (in a comment for a code claim, in
		// code for a comment claim) is kept for the message.
		if len(cc.comment) < maxHits {
			if raw := spec.find(src[start:end]); raw != nil {
				h := hit{file: f.rel, line: f.ln.number(start), col: 1, text: string(src[start:end])}
				h.inString = f.inString(spec.scope, start, end, raw[0])
				if twoWays {
					h.inString, h.twoWays = false, true
				}
				cc.record(&cc.comment, h)
			}
		}
		return true
	}
	if spec.skipCells && spec.skip.Covers(f.rel, start+loc[0], start+loc[1]) {
		return true // a claim's own pattern cell is not text
	}
	h := hit{file: f.rel, line: f.ln.number(start), col: loc[0] + 1, text: string(scoped)}
	if (test || sc.regions.InTest(start+loc[0])) && !spec.tests {
		cc.record(&cc.test, h)
		return true
	}
	cc.inScope(h)
	return true
}

// inString reports whether a match at src[start+at:] outside a claim's
// scope lies in a string that code lines do not read: the byte is in a
// string, and the line as code reads it does not carry the match (a line
// wholly inside a here-document or a multi-line string is masked; a
// one-line string stays code, as do Go's raw strings).
func (f *fileScan) inString(scope string, start, end, at int) bool {
	if f.sc.regions.KindAt(start+at) != codeline.String {
		return false
	}
	if scope != ScopeComment {
		return true // the code view (masked) did not match
	}
	return f.sc.regions.MaskLine(nil, f.src, start, end)[at] == ' '
}

// scopedBy returns the line src[start:end] as a claim of scope reads it
// in the file's other reading o (codeline.Regions.Other), in its own
// storage.
func (f *fileScan) scopedBy(o *codeline.Regions, scope string, start, end int) []byte {
	sc := f.sc
	if scope == ScopeComment {
		sc.alt = commentLine(sc.alt, f.src, o, start, end)
	} else {
		sc.alt = o.MaskLine(sc.alt, f.src, start, end)
	}
	return sc.alt
}

// scoped returns the line src[start:end] as a claim of scope reads it: as
// written (any), its comment text (comment), or with comments and strings
// blanked (code).
func (f *fileScan) scoped(scope string, start, end int) (scoped []byte) {
	src, sc := f.src, f.sc
	switch {
	case scope == ScopeAny || scope == ScopeAll:
		scoped = src[start:end]
	case scope == ScopeComment:
		sc.line = commentLine(sc.line, src, &sc.regions, start, end)
		scoped = sc.line
	case f.masked != nil:
		scoped = f.masked[start:end]
	default:
		sc.line = sc.regions.MaskLine(sc.line, src, start, end)
		scoped = sc.line
	}
	return scoped
}

// inScope records a line (or prose unit) of the claim's scope on which
// its anchor matched. The caller holds cc.mu.
func (cc *claim) inScope(h hit) {
	for _, e := range cc.lines.allows {
		if e.excuses(h) {
			return // an allow row of the decision excuses the line (D66)
		}
	}
	cc.nCode++
	if cc.lines.onHit != nil {
		cc.lines.onHit(cc, h)
	}
	if !cc.lines.requireAtScan || cc.requireOK(h.text) {
		cc.record(&cc.code, h)
	} else {
		cc.record(&cc.reqFail, h)
	}
}

// commentLine appends to dst[:0] the line src[start:end] with every byte
// outside a comment blanked: what a comment-scoped claim reads (D38).
func commentLine(dst, src []byte, r *codeline.Regions, start, end int) []byte {
	out := append(dst[:0], src[start:end]...)
	for i := range out {
		if out[i] != '\r' {
			out[i] = ' '
		}
	}
	i := sort.Search(len(r.Spans), func(i int) bool { return r.Spans[i].End > start })
	for ; i < len(r.Spans) && r.Spans[i].Start < end; i++ {
		if sp := r.Spans[i]; sp.Kind == codeline.Comment {
			a, b := max(sp.Start, start), min(sp.End, end)
			copy(out[a-start:b-start], src[a:b])
		}
	}
	return out
}

func describeSkip(err error) string {
	if errors.Is(err, repo.ErrTooLarge) {
		return fmt.Sprintf("larger than %d MiB", MaxFileSize>>20)
	}
	if e, ok := errors.AsType[*repo.NotRegularError](err); ok {
		return e.What + ", not followed"
	}
	return snapshot.Describe(err).Error()
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

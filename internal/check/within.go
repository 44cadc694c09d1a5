package check

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/claimslint/claimslint/internal/codeline"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/region"
)

// regionPat is one pattern of a Within cell (D94): a line of code it
// matches opens a block, and the claim reads only the lines of the
// innermost blocks.
type regionPat struct {
	pattern string
	re      *regexp.Regexp
	// exact is the pattern when it is a literal: matched as bytes, never
	// compiled (as a literal Anchor is, D56).
	exact   *exactAnchor
	literal []byte
	cost    int
	// each confines the claim to every block the pattern opens; without
	// it, the pattern must open exactly one.
	each bool
}

// find returns where the pattern first matches line, or nil.
func (p *regionPat) find(line []byte) []int {
	if p.exact != nil {
		return p.exact.find(line)
	}
	return p.re.FindIndex(line)
}

func (p *regionPat) String() string {
	if p.each {
		return "each " + quoteRE(p.pattern)
	}
	return quoteRE(p.pattern)
}

// withinAdvice is how a Within cell is written, for messages.
const withinAdvice = "write each region pattern in backticks, outer first, separated by >, as in `impl Transport` > `fn receive\\(`, and each before a pattern that names every block it opens"

// parseWithin reads a Within cell: one or more code spans, outer first,
// separated by `>`, each optionally preceded by the word each. A cell
// without a backtick is one pattern.
func parseWithin(cell string) (pats []regionPat, why string) {
	s := strings.TrimSpace(cell)
	if !strings.Contains(s, "`") {
		each := false
		if rest, ok := strings.CutPrefix(s, "each "); ok {
			each, s = true, strings.TrimSpace(rest)
		}
		if s == "" {
			return nil, "it names no pattern"
		}
		return []regionPat{{pattern: strings.ReplaceAll(s, `\|`, "|"), each: each}}, ""
	}
	for first := true; ; first = false {
		s = strings.TrimSpace(s)
		if s == "" {
			if first {
				return nil, "it names no pattern"
			}
			return pats, ""
		}
		if !first {
			if s[0] != '>' {
				return nil, fmt.Sprintf("%q follows a pattern where > or the end of the cell was expected", clip(s))
			}
			s = strings.TrimSpace(s[1:])
			if s == "" {
				return nil, "no pattern follows its last >"
			}
		}
		p := regionPat{}
		if rest, ok := strings.CutPrefix(s, "each"); ok && strings.HasPrefix(strings.TrimSpace(rest), "`") {
			p.each, s = true, strings.TrimSpace(rest)
		}
		n := leadingTicks(s)
		if n == 0 {
			return nil, fmt.Sprintf("%q is not in backticks", clip(s))
		}
		end := strings.Index(s[n:], strings.Repeat("`", n))
		if end < 0 {
			return nil, fmt.Sprintf("the code span %q is not closed", clip(s))
		}
		inner := s[n : n+end]
		if len(inner) >= 2 && inner[0] == ' ' && inner[len(inner)-1] == ' ' && strings.TrimSpace(inner) != "" {
			inner = inner[1 : len(inner)-1]
		}
		if inner == "" {
			return nil, "a code span is empty"
		}
		p.pattern = strings.ReplaceAll(inner, `\|`, "|")
		pats = append(pats, p)
		s = s[n+end+n:]
	}
}

func leadingTicks(s string) int {
	n := 0
	for n < len(s) && s[n] == '`' {
		n++
	}
	return n
}

func clip(s string) string { return clipN(s, 40) }

// clipN cuts s to at most n bytes, at a rune boundary, marking the cut.
func clipN(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// prepareWithin compiles the claim's Within cell into spec, reporting a
// malformed cell as CL006 at the cell.
func (c *claim) prepareWithin(spec *lineSpec) bool {
	pats, why := parseWithin(c.c.Within)
	if why != "" {
		c.malformed(c.c.CellPos("within"), "%s: Within cell %q: %s; %s", c.name(), c.c.Within, why, withinAdvice)
		return false
	}
	if c.scope == ScopeProse {
		c.malformed(c.c.CellPos("within"), "%s: a prose claim reads paragraphs, not blocks: Within needs the code lines of a scope other than prose", c.name())
		return false
	}
	for i := range pats {
		p := &pats[i]
		if len(p.pattern) > MaxPattern {
			c.malformed(c.c.CellPos("within"), "%s: a Within pattern is %d bytes long, over the %d-byte limit for a pattern", c.name(), len(p.pattern), MaxPattern)
			return false
		}
		if exact, isLit := exactLiteral(p.pattern); isLit {
			p.exact, p.literal, p.cost = &exact, exact.text, 1
			spec.within = append(spec.within, p)
			continue
		}
		re, ok := c.compileRE("within", p.pattern)
		if !ok {
			return false
		}
		if re.MatchString("") {
			c.malformed(c.c.CellPos("within"), "%s: Within pattern %s matches the empty string, so every line would open a block", c.name(), quoteRE(p.pattern))
			return false
		}
		lit, insts := analyse(p.pattern)
		p.re, p.literal, p.cost = re, []byte(lit), max(insts, 1)
		spec.within = append(spec.within, p)
	}
	c.rg.levels = make([]regionLevel, len(spec.within))
	return true
}

// regionLevel is what one Within pattern found across the files of Path.
type regionLevel struct {
	n       int   // blocks opened
	opened  []hit // the lines that opened them (bounded)
	noBlock []hit // lines it matched that open no block (bounded)
}

// blockAt is one innermost block of a claim, in a file.
type blockAt struct {
	file string
	region.Block
}

// regionState is what the scan found of a claim's regions.
type regionState struct {
	levels  []regionLevel
	blocks  []blockAt // the innermost blocks (bounded)
	unknown []string  // files whose language has no blocks claimslint knows
}

// maxBlocks bounds the blocks kept per claim.
const maxBlocks = 4096

// withinRes is what the Within patterns of one cell found in one file,
// shared by the claims that name the same cell.
type withinRes struct {
	levels  []regionLevel
	blocks  []region.Block
	unknown bool
	costly  []hit
}

// regions finds the blocks of spec's Within patterns in the file, once
// per cell and file, for claim k.
func (f *fileScan) regions(k int, cell string, spec *lineSpec) *withinRes {
	if r, ok := f.within[cell]; ok {
		return r
	}
	res := &withinRes{levels: make([]regionLevel, len(spec.within))}
	if f.within == nil {
		f.within = map[string]*withinRes{}
	}
	f.within[cell] = res
	if f.rx == nil {
		f.sc.meter.tick(len(f.src))
		f.rx = region.NewPrefix(f.src, &f.sc.regions, f.lexed, f.lexRest)
	}
	rx := f.rx
	if rx.Family() == region.None {
		res.unknown = true
		return res
	}
	spans := [][2]int{{1, -1}} // line ranges searched, 1-based (-1: the last line)
	for li, p := range spec.within {
		var blocks []region.Block
		lv := &res.levels[li]
		for _, sp := range spans {
			each := f.eachLine
			if li == 0 && f.lines {
				each = f.knownLines(k) // the lines findLines found
			}
			each(rx, sp[0], sp[1], p.literal, func(l, start, end int) {
				if n := end - start; n*p.cost > maxMatchCost {
					res.costly = append(res.costly, hit{file: f.rel, line: l, col: 1, size: n,
						why: fmt.Sprintf("a %d-byte line times the %d states of Within %s is over the budget of %d steps", n, p.cost, quoteRE(p.pattern), maxMatchCost)})
					return
				}
				f.sc.meter.tick((end - start) * p.cost)
				text := f.scoped(ScopeCode, start, end)
				loc := p.find(text)
				if loc == nil {
					return
				}
				h := hit{file: f.rel, line: l, col: loc[0] + 1, text: string(text)}
				b, ok := rx.Open(start + loc[0])
				if !ok {
					if len(lv.noBlock) < maxHits {
						lv.noBlock = append(lv.noBlock, h)
					}
					return
				}
				lv.n++
				if len(lv.opened) < maxHits {
					lv.opened = append(lv.opened, h)
				}
				blocks = append(blocks, b)
			})
		}
		res.blocks = blocks
		spans = mergeBlocks(blocks)
	}
	return res
}

// mergeBlocks returns the line ranges the blocks cover, merged, so nested
// blocks are read once.
func mergeBlocks(bs []region.Block) [][2]int {
	var out [][2]int
	sorted := make([]region.Block, 0, len(bs))
	for _, b := range bs {
		if !b.Empty() {
			sorted = append(sorted, b)
		}
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].First < sorted[j].First })
	for _, b := range sorted {
		if n := len(out); n > 0 && b.First <= out[n-1][1]+1 {
			out[n-1][1] = max(out[n-1][1], b.Last)
			continue
		}
		out = append(out, [2]int{b.First, b.Last})
	}
	return out
}

// lexRest lexes the whole file, once a block's scan reaches the end of
// the prefix lexed (region.NewPrefix): the regions before it stay as
// they were (codeline.ScanPrefix).
func (f *fileScan) lexRest() {
	codeline.Scan(f.rel, f.src, &f.sc.regions)
	f.lexed = len(f.src)
}

// knownLines returns eachLine over the whole file for claim k's first
// region pattern, whose lines findLines found (a byte of each, in sc.occ).
func (f *fileScan) knownLines(k int) func(rx *region.Index, from, to int, lit []byte, fn func(l, start, end int)) {
	return func(rx *region.Index, _, _ int, _ []byte, fn func(l, start, end int)) {
		next := 0
		for _, pos := range f.sc.occ[f.sc.occAt[k]:f.sc.occAt[k+1]] {
			if pos < next {
				continue
			}
			l := rx.LineOf(pos)
			s, e := rx.LineBounds(l)
			fn(l, s, e)
			next = e + 1
		}
	}
}

// eachLine calls fn for each line from..to (1-based, inclusive; to -1:
// the last line) that holds lit (every line when lit is empty), with its
// byte bounds.
func (f *fileScan) eachLine(rx *region.Index, from, to int, lit []byte, fn func(l, start, end int)) {
	if to < 0 && len(lit) == 0 {
		to = rx.Lines()
	}
	if to >= 0 && from > to {
		return
	}
	lo, _ := rx.LineBounds(from)
	hi := f.lastByte()
	if to >= 0 {
		_, hi = rx.LineBounds(to)
	}
	if len(lit) == 0 {
		for l := from; l <= to; l++ {
			s, e := rx.LineBounds(l)
			fn(l, s, e)
		}
		return
	}
	for next := lo; next < hi; {
		i := bytes.Index(f.src[next:hi], lit)
		if i < 0 {
			return
		}
		l := rx.LineOf(next + i)
		s, e := rx.LineBounds(l)
		fn(l, s, e)
		next = e + 1
	}
}

// lastByte is where the file's last line ends, without a '\r' before its
// end (region.Index.LineBounds), read without counting its lines.
func (f *fileScan) lastByte() int {
	src := f.src
	hi := len(src)
	if hi > bytes.LastIndexByte(src, '\n')+1 && src[hi-1] == '\r' {
		hi--
	}
	return hi
}

// matchWithin matches claim k, cc, against the lines of the blocks its
// Within patterns open in the file (D94).
func (f *fileScan) matchWithin(k int, cc *claim) {
	spec := cc.lines
	res := f.regions(k, cc.c.Within, spec)
	rg := &cc.rg
	if res.unknown {
		rg.unknown = append(rg.unknown, f.rel)
		return
	}
	for _, h := range res.costly {
		cc.record(&cc.costly, h)
	}
	for i, lv := range res.levels {
		to := &rg.levels[i]
		to.n += lv.n
		for _, h := range lv.opened {
			cc.record(&to.opened, h)
		}
		for _, h := range lv.noBlock {
			cc.record(&to.noBlock, h)
		}
	}
	for _, b := range res.blocks {
		if len(rg.blocks) < maxBlocks {
			rg.blocks = append(rg.blocks, blockAt{f.rel, b})
		}
	}
	rx := f.rx
	if spec.first {
		for _, b := range res.blocks {
			f.firstLine(cc, rx, b)
		}
		return
	}
	lit := spec.literal
	if spec.exact == nil && len(lit) == 0 {
		lit = nil
	}
	for _, sp := range mergeBlocks(res.blocks) {
		stop := false
		f.eachLine(rx, sp[0], sp[1], lit, func(_, start, end int) {
			if !stop && !f.tryLine(cc, start, end) {
				stop = true
			}
		})
		if stop {
			return
		}
	}
}

// firstLine records the first code line of block b: a hit when the anchor
// matches it, else a line that breaks the claim (reqFail).
func (f *fileScan) firstLine(cc *claim, rx *region.Index, b region.Block) {
	for l := b.First; l <= b.Last; l++ {
		s, e := rx.LineBounds(l)
		text := f.scoped(ScopeCode, s, e)
		if len(bytes.TrimSpace(text)) == 0 {
			continue
		}
		if !f.afford(cc, s, e-s) {
			return
		}
		scoped := f.scoped(cc.lines.scope, s, e)
		h := hit{file: f.rel, line: l, col: 1, text: string(scoped)}
		if loc := cc.lines.find(scoped); loc != nil {
			h.col = loc[0] + 1
			cc.nCode++
			cc.record(&cc.code, h)
		} else {
			cc.record(&cc.reqFail, h)
		}
		return
	}
	cc.record(&cc.reqFail, hit{file: f.rel, line: b.Open, col: 1, text: ""})
}

// pathIn names the lines a claim reads: its Path, and its regions.
func (c *claim) pathIn() string {
	if c.lines == nil || len(c.lines.within) == 0 {
		return quoteRE(c.c.Path)
	}
	var parts []string
	for _, p := range c.lines.within {
		parts = append(parts, p.String())
	}
	return quoteRE(c.c.Path) + " inside " + strings.Join(parts, " > ")
}

// regionFailed fails the claim when a Within pattern found no block, or
// several where one is meant (D94), and reports whether it did: the
// claim's own test is then not evaluated, since its lines are not known.
func (c *claim) regionFailed() bool {
	if c.lines == nil || len(c.lines.within) == 0 {
		return false
	}
	row := c.c
	for i, p := range c.lines.within {
		lv := c.rg.levels[i]
		where := quoteRE(row.Path)
		if i > 0 {
			where = "the blocks of " + c.lines.within[i-1].String()
		}
		switch {
		case lv.n == 0:
			var why []string
			if len(lv.noBlock) > 0 {
				why = append(why, fmt.Sprintf("it matches %s, where no block opens", listHits(lv.noBlock, 3)))
			}
			if len(c.rg.unknown) > 0 {
				why = append(why, fmt.Sprintf("claimslint knows no block structure for %s", strings.Join(firstN(c.rg.unknown, 3), ", ")))
			}
			if len(c.costly) > 0 {
				why = append(why, fmt.Sprintf("it was not run on %s", listHits(c.costly, 3)))
			}
			msg := ""
			if len(why) > 0 {
				msg = " (" + strings.Join(why, "; ") + ")"
			}
			c.fail(row.CellPos("within"), "region not found: no code line of %s matches Within %s and opens a block%s", where, p, msg)
			return true
		case lv.n > 1 && !p.each:
			f := c.fail(lv.opened[0].pos(), "region ambiguous: Within %s opens %d blocks in %s (%s); make it match one line, or write each before it to read every block", p, lv.n, where, listHits(lv.opened, 5))
			for _, h := range lv.opened[1:] {
				f.Related = append(f.Related, diag.Related{Pos: h.pos(), Message: "also opens a block of " + p.String()})
			}
			return true
		}
	}
	return false
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return append(append([]string{}, s[:n]...), fmt.Sprintf("%d more", len(s)-n))
	}
	return s
}

// blockOf returns the innermost block of the claim that holds line l of
// file, or false.
func (c *claim) blockOf(file string, l int) (blockAt, bool) {
	var best blockAt
	found := false
	for _, b := range c.rg.blocks {
		if b.file == file && b.First <= l && l <= b.Last && (!found || b.Last-b.First < best.Last-best.First) {
			best, found = b, true
		}
	}
	return best, found
}

// regionMutants are the edits a real change makes to a region claim
// (D94): for absent, a line the anchor matches added as the first line of
// each block (an arm added inside the region); otherwise each line the
// claim rests on moved out of its block, to just before the line that
// opens it.
func regionMutants(cc *claim) []mutant {
	if cc.lines == nil || len(cc.lines.within) == 0 {
		return nil
	}
	var out []mutant
	if cc.kind.Name() == "absent" {
		sample, ok := absentSample(cc)
		if !ok {
			return nil
		}
		for i, b := range cc.rg.blocks {
			if i == 8 {
				break
			}
			lines, ok := fileLines(cc, b.file)
			if !ok || b.Open > len(lines) {
				continue
			}
			at := b.First // insert before this 1-based line
			if b.First == b.Open {
				continue // a block on one line: nothing can be added inside it alone
			}
			indent := leadingSpace(lines[b.Open-1]) + "\t"
			if !b.Empty() && b.First <= len(lines) {
				indent = leadingSpace(lines[b.First-1])
			}
			mod := append(append(append([]string{}, lines[:at-1]...), indent+sample+"\n"), lines[at-1:]...)
			out = append(out, mutant{file: b.file, line: at, desc: fmt.Sprintf("%q is added inside the block %s opens at %s:%d", sample, cc.lines.within[len(cc.lines.within)-1], b.file, b.Open), src: []byte(strings.Join(mod, ""))})
		}
		return out
	}
	for i, h := range cc.code {
		if i == 8 {
			break
		}
		b, ok := cc.blockOf(h.file, h.line)
		if !ok || b.Open >= h.line || b.Open < 1 {
			continue
		}
		lines, ok := fileLines(cc, h.file)
		if !ok || h.line > len(lines) {
			continue
		}
		moved := lines[h.line-1]
		var mod []string
		mod = append(mod, lines[:b.Open-1]...)
		mod = append(mod, moved)
		mod = append(mod, lines[b.Open-1:h.line-1]...)
		mod = append(mod, lines[h.line:]...)
		out = append(out, mutant{file: h.file, line: b.Open, desc: fmt.Sprintf("%s:%d is moved out of its block, above %s:%d", h.file, h.line, h.file, b.Open), src: []byte(strings.Join(mod, ""))})
	}
	return out
}

// fileLines reads a file of the claim as lines, each with its newline.
func fileLines(cc *claim, file string) ([]string, bool) {
	src, err := cc.snap.Repo.ReadFile(file, MaxFileSize)
	if err != nil {
		return nil, false
	}
	return strings.SplitAfter(string(src), "\n"), true
}

func leadingSpace(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}

// sort orders what workers recorded in the order they reached files, so
// messages do not depend on scheduling.
func (rg *regionState) sort() {
	for i := range rg.levels {
		sortHits(rg.levels[i].opened)
		sortHits(rg.levels[i].noBlock)
	}
	sort.Slice(rg.blocks, func(i, j int) bool {
		a, b := rg.blocks[i], rg.blocks[j]
		if a.file != b.file {
			return a.file < b.file
		}
		if a.Open != b.Open {
			return a.Open < b.Open
		}
		return a.First < b.First
	})
	sort.Strings(rg.unknown)
}

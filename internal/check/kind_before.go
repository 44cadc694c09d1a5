package check

import (
	"fmt"
	"go/token"
	"regexp"
	"sort"
	"strings"
)

// before: a line matching Anchor comes before a line matching Require, in
// each file of Path where either appears, or in each block of its Within
// cell (D95).
//
//registry:kinds 9
type beforeKind struct{}

func (beforeKind) Name() string { return "before" }

func (beforeKind) scoped() {}

func (beforeKind) mustMutate() {}

func (beforeKind) ProveDoc() string {
	return `the first line of A and the first line of B are swapped.`
}

func (beforeKind) Doc() string {
	return `a code line matching Anchor comes before a code line matching
Require: in each file of Path where either appears (in each block,
with a Within cell), both do, and the first Anchor line precedes the
first Require line ("lock before write"). Neither anywhere is "anchor
vanished".`
}

// orderREs are a before claim's two patterns.
type orderREs struct{ a, b *regexp.Regexp }

func (beforeKind) Prepare(c *claim) bool {
	if c.c.Require == "" {
		c.malformed(c.c.CellPos("require"), "%s: a before claim needs Require: the pattern of the line that must come after Anchor's", c.name())
		return false
	}
	a, ok := c.compileRE("anchor", c.c.Anchor)
	if !ok {
		return false
	}
	b, ok := c.compileRE("require", c.c.Require)
	if !ok {
		return false
	}
	if b.MatchString("") {
		c.malformed(c.c.CellPos("require"), "%s: Require `%s` matches the empty string, so every line matches it", c.name(), c.c.Require)
		return false
	}
	res := orderREs{a, b}
	// The scan matches either pattern; each hit is told apart as it is
	// recorded.
	row := *c.c
	row.Anchor = "(?:" + c.c.Anchor + ")|(?:" + c.c.Require + ")"
	saved := c.c
	c.c = &row
	ok = c.prepareLines(&lineSpec{skipTests: true, ownRequire: true, onHit: func(c *claim, h hit) {
		if res.a.MatchString(h.text) {
			c.t.addLine(0, h.file, h.line)
		}
		if res.b.MatchString(h.text) {
			c.t.addLine(1, h.file, h.line)
		}
	}})
	c.c = saved
	return ok
}

// orderScope is one file or block a before claim is read in.
type orderScope struct {
	file     string
	from, to int
	what     string
}

func (c *claim) orderScopes() []orderScope {
	var out []orderScope
	if c.lines != nil && len(c.lines.within) > 0 {
		for _, b := range c.rg.blocks {
			out = append(out, orderScope{b.file, b.First, b.Last, fmt.Sprintf("the block opened at %s:%d", b.file, b.Open)})
		}
		return out
	}
	seen := map[string]bool{}
	for _, m := range c.t.lines {
		for f := range m {
			seen[f] = true
		}
	}
	files := make([]string, 0, len(seen))
	for f := range seen {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		out = append(out, orderScope{f, 1, 1 << 30, f})
	}
	return out
}

func (beforeKind) Evaluate(c *claim) {
	if c.judged() {
		return
	}
	row := c.c
	if c.nCode == 0 {
		c.fail(row.Pos, "anchor vanished: no %s of %s matches %s or %s", c.unit(), c.pathIn(), quoteRE(row.Anchor), quoteRE(row.Require))
		return
	}
	for _, s := range c.orderScopes() {
		a := c.t.firstIn(0, s.file, s.from, s.to)
		b := c.t.firstIn(1, s.file, s.from, s.to)
		switch {
		case a == 0 && b == 0:
			continue // a block with neither
		case a == 0:
			c.fail(posAt(s.file, b), "order: %s at %s:%d has no line matching %s before it in %s", quoteRE(row.Require), s.file, b, quoteRE(row.Anchor), s.what)
		case b == 0:
			c.fail(posAt(s.file, a), "order: %s at %s:%d is followed by no line matching %s in %s", quoteRE(row.Anchor), s.file, a, quoteRE(row.Require), s.what)
		case b <= a:
			c.fail(posAt(s.file, b), "order: %s at %s:%d comes before %s at %s:%d in %s; the Anchor line must come first", quoteRE(row.Require), s.file, b, quoteRE(row.Anchor), s.file, a, s.what)
		default:
			c.hold(fmt.Sprintf("%s:%d", s.file, a))
			c.hold(fmt.Sprintf("%s:%d", s.file, b))
		}
	}
}

// Mutants: the order swapped: in the first file or block that holds
// both, the first Anchor line and the first Require line trade places.
func (beforeKind) Mutants(c *claim) ([]mutant, bool) {
	for _, s := range c.orderScopes() {
		a := c.t.firstIn(0, s.file, s.from, s.to)
		b := c.t.firstIn(1, s.file, s.from, s.to)
		if a == 0 || b == 0 || a == b {
			continue
		}
		src, ok := fileLines(c, s.file)
		if !ok || a > len(src) || b > len(src) {
			return nil, true
		}
		mod := append([]string{}, src...)
		la, lb := mod[a-1], mod[b-1]
		if !strings.HasSuffix(la, "\n") || !strings.HasSuffix(lb, "\n") {
			return nil, true
		}
		mod[a-1], mod[b-1] = lb, la
		return []mutant{{file: s.file, line: a, desc: fmt.Sprintf("%s:%d and %s:%d swapped", s.file, a, s.file, b), src: []byte(strings.Join(mod, ""))}}, true
	}
	return nil, true
}

func posAt(file string, line int) token.Position {
	return token.Position{Filename: file, Line: line, Column: 1}
}

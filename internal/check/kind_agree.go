package check

import (
	"fmt"
	"strings"
)

// agree: the value Anchor's capture group captures is the same on every
// line it matches across the files of Path, code and docs alike, compared
// as a value (valueOf); Require `= v` pins it (D95).
//
//registry:kinds 11
type agreeKind struct{}

func (agreeKind) Name() string { return "agree" }

func (agreeKind) scoped() {}

func (agreeKind) mustMutate() {}

func (agreeKind) ProveDoc() string {
	return `one of the values is changed.`
}

func (agreeKind) Doc() string {
	return `Anchor has a capture group (the one named v, else the first): the
value it captures is the same on every line it matches across the
files of Path, code and docs alike, and it matches at least two lines;
or, with Require = value, every capture equals value. Values compare
as values: integers in any base, with _, shifts, products and KiB/MiB,
GiB and time units (16 << 20 = 16 MiB = 16777216); Go and Rust
strings, raw or interpreted, by their contents; a rune or character
literal by its code point (',' = '\x2c' = 44); the rest as text.`
}

// agreeGroup returns the index of the capture group of c's anchor.
func agreeGroup(c *claim) int {
	re := c.lines.re()
	if i := re.SubexpIndex("v"); i > 0 {
		return i
	}
	return 1
}

// pinned returns the value Require pins, or "" when it pins none.
func pinned(req string) (text string, ok bool) {
	r := strings.TrimSpace(req)
	if r == "" {
		return "", false
	}
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(r, "="), "=")), true
}

func (agreeKind) Prepare(c *claim) bool {
	if r := strings.TrimSpace(c.c.Require); r != "" && !strings.HasPrefix(r, "=") {
		c.malformed(c.c.CellPos("require"), "%s: Require of an agree claim pins the value, written = value (as in = 16 << 20), not %q", c.name(), c.c.Require)
		return false
	}
	spec := &lineSpec{skipTests: true, ownRequire: true}
	spec.onHit = func(c *claim, h hit) {
		m := c.lines.re().FindStringSubmatch(h.text)
		g := agreeGroup(c)
		if m == nil || g >= len(m) {
			return
		}
		v, _ := valueOf(m[g])
		c.t.total++
		if c.t.values == nil {
			c.t.values = map[string][]hit{}
		}
		hs, seen := c.t.values[v]
		if !seen {
			if len(c.t.order) >= maxHits {
				return
			}
			c.t.order = append(c.t.order, v)
		}
		h.text = m[g] // the value as written, for messages
		if len(hs) < 3 {
			c.t.values[v] = append(hs, h)
		}
	}
	if !c.prepareLines(spec) {
		return false
	}
	if spec.re().NumSubexp() == 0 {
		c.malformed(c.c.CellPos("anchor"), "%s: the Anchor of an agree claim needs a capture group, the value compared: (?P<v>...) or (...)", c.name())
		return false
	}
	return true
}

func (agreeKind) Evaluate(c *claim) {
	if c.judged() {
		return
	}
	row := c.c
	if c.t.total == 0 {
		c.fail(row.Pos, "anchor vanished: no %s of %s matches %s", c.unit(), c.pathIn(), quoteRE(row.Anchor))
		return
	}
	for _, v := range c.t.order {
		for _, h := range c.t.values[v] {
			c.hold(h.String())
		}
	}
	if p, ok := pinned(row.Require); ok {
		want, _ := valueOf(p)
		for _, v := range c.t.order {
			if v != want {
				h := c.t.values[v][0]
				c.fail(h.pos(), "value: %s captures %s at %s, want %s", quoteRE(row.Anchor), describeValue(h.text), h, describeValue(p))
			}
		}
		return
	}
	if c.t.total < 2 {
		h := c.t.values[c.t.order[0]][0]
		c.fail(h.pos(), "agree: %s matches one line only (%s): nothing to agree with; widen Path, or pin the value with Require = %s", quoteRE(row.Anchor), h, strings.TrimSpace(h.text))
		return
	}
	if len(c.t.order) > 1 {
		first := c.t.values[c.t.order[0]][0]
		for _, v := range c.t.order[1:] {
			h := c.t.values[v][0]
			c.fail(h.pos(), "values disagree: %s captures %s at %s but %s at %s", quoteRE(row.Anchor), describeValue(h.text), h, describeValue(first.text), first)
		}
	}
}

// Mutants: one agreeing value changed, at the last place it is written
// (or at the one place, for a pinned value).
func (agreeKind) Mutants(c *claim) ([]mutant, bool) {
	if len(c.t.order) == 0 {
		return nil, true
	}
	hs := c.t.values[c.t.order[len(c.t.order)-1]]
	h := hs[len(hs)-1]
	src, ok := fileLines(c, h.file)
	if !ok || h.line > len(src) {
		return nil, true
	}
	full := src[h.line-1]
	line := strings.TrimRight(full, "\r\n")
	loc := c.lines.re().FindStringSubmatchIndex(line)
	g := agreeGroup(c)
	if loc == nil || 2*g+1 >= len(loc) || loc[2*g] < 0 {
		return nil, true
	}
	val := line[loc[2*g]:loc[2*g+1]]
	changed := changeValue(val)
	if changed == val {
		return nil, true
	}
	mod := append([]string{}, src...)
	mod[h.line-1] = line[:loc[2*g]] + changed + full[loc[2*g+1]:]
	return []mutant{{file: h.file, line: h.line, desc: fmt.Sprintf("the value at %s:%d changed from %s to %s", h.file, h.line, val, changed), src: []byte(strings.Join(mod, ""))}}, true
}

// changeValue returns a different value spelled as v is: a digit bumped,
// else a letter changed, else a character added.
func changeValue(v string) string {
	b := []byte(v)
	for i := len(b) - 1; i >= 0; i-- {
		switch c := b[i]; {
		case c >= '1' && c <= '8':
			b[i]++
			return string(b)
		case c == '9' || c == '0':
			b[i] = '7'
			return string(b)
		}
	}
	for i := len(b) - 1; i >= 0; i-- {
		if c := b[i]; c >= 'a' && c <= 'y' || c >= 'A' && c <= 'Y' {
			b[i]++
			return string(b)
		}
	}
	// A value of punctuation (the rune ','): a character other than a
	// quote or an escape changed, so a quoted value stays quoted and the
	// value itself differs.
	for i := len(b) - 1; i >= 0; i-- {
		if !strings.ContainsRune("'\"`\\", rune(b[i])) {
			b[i] = 'x'
			return string(b)
		}
	}
	if n := len(b); n >= 2 && b[0] == b[n-1] {
		return v[:n-1] + "x" + v[n-1:] // an empty quoted value
	}
	return v + "x"
}

package check

import (
	"fmt"
	"strconv"
	"strings"
)

// count: the lines in scope matching Anchor across the files of Path (or
// in each file) number exactly, at least or at most n (D95).
//
//registry:kinds 8
type countKind struct{}

func (countKind) Name() string { return "count" }

func (countKind) scoped() {}

func (countKind) mustMutate() {}

func (countKind) ProveDoc() string {
	return `lines the Anchor matches are deleted or repeated, one past
what Require allows.`
}

func (countKind) Doc() string {
	return `Require is = n, >= n or <= n, optionally followed by each file:
the code lines (or lines of the scope) across the files of Path that
match Anchor number exactly, at least or at most n; with each file,
in every file of Path. With a Within cell, only the lines of its
blocks count (D94). Every match counts, not only those listed.`
}

// countSpec is a count claim's Require: the comparison, n, and whether
// it holds in each file.
type countSpec struct {
	op   string // "=", ">=" or "<="
	n    int
	each bool
}

func (s countSpec) String() string {
	out := s.op + " " + strconv.Itoa(s.n)
	if s.each {
		out += " each file"
	}
	return out
}

// parseCount reads "= 7", "== 7", ">= 1", "<= 3", "= 1 each file".
func parseCount(req string) (countSpec, bool) {
	s := strings.TrimSpace(req)
	var cs countSpec
	if rest, ok := strings.CutSuffix(s, "each file"); ok {
		cs.each, s = true, strings.TrimSpace(rest)
	}
	for _, op := range []string{">=", "<=", "==", "="} {
		if rest, ok := strings.CutPrefix(s, op); ok {
			cs.op = strings.TrimPrefix(op, "=")
			if op == "==" || op == "=" {
				cs.op = "="
			}
			n, err := strconv.Atoi(strings.TrimSpace(rest))
			if err != nil || n < 0 {
				return cs, false
			}
			cs.n = n
			return cs, true
		}
	}
	return cs, false
}

func (s countSpec) holds(n int) bool {
	switch s.op {
	case ">=":
		return n >= s.n
	case "<=":
		return n <= s.n
	}
	return n == s.n
}

func (countKind) Prepare(c *claim) bool {
	cs, ok := parseCount(c.c.Require)
	if !ok {
		c.malformed(c.c.CellPos("require"), "%s: Require of a count claim is = n, >= n or <= n, optionally followed by each file (as in = 7, >= 1 each file), not %q", c.name(), c.c.Require)
		return false
	}
	if cs.op == "<=" && cs.n == 0 || cs.op == ">=" && cs.n == 0 {
		c.malformed(c.c.CellPos("require"), "%s: Require %q holds whatever the lines say: write = 0 (or use absent), or a bound above 0", c.name(), c.c.Require)
		return false
	}
	c.t.perFile = map[string]int{}
	return c.prepareLines(&lineSpec{skipTests: true, ownRequire: true, onHit: func(c *claim, h hit) { c.t.perFile[h.file]++ }})
}

func (countKind) Evaluate(c *claim) {
	if c.judged() {
		return
	}
	cs, _ := parseCount(c.c.Require)
	for _, h := range c.code {
		c.hold(h.String())
	}
	if !cs.each {
		if !cs.holds(c.nCode) {
			c.fail(c.c.CellPos("require"), "count: %s matches %d %s of %s%s, want %s", quoteRE(c.c.Anchor), c.nCode, plural(c.unit(), c.nCode), c.pathIn(), hitsNote(c.code), cs)
		}
		return
	}
	for _, f := range c.files {
		if isTestFile(f) && !c.lines.tests {
			continue
		}
		if n := c.t.perFile[f]; !cs.holds(n) {
			var in []hit
			for _, h := range c.code {
				if h.file == f {
					in = append(in, h)
				}
			}
			c.fail(c.c.CellPos("require"), "count: %s matches %d %s of %s%s, want %s", quoteRE(c.c.Anchor), n, plural(c.unit(), n), f, hitsNote(in), cs)
		}
	}
}

func plural(unit string, n int) string {
	if n == 1 {
		return unit
	}
	return unit + "s"
}

func hitsNote(hs []hit) string {
	if len(hs) == 0 {
		return ""
	}
	return " (" + listHits(hs, 5) + ")"
}

// Mutants: the count off by one, as a real change makes it: one line
// matching Anchor deleted and one duplicated (= n); for >= n, the lines
// past n-1 deleted; for <= n, the first duplicated until n+1.
func (countKind) Mutants(c *claim) ([]mutant, bool) {
	cs, _ := parseCount(c.c.Require)
	if len(c.code) == 0 {
		return nil, true
	}
	// The hits of one file: the first file's, or each file's for "each".
	file := c.code[0].file
	var lines []int
	for _, h := range c.code {
		if h.file == file {
			lines = append(lines, h.line)
		}
	}
	have := c.nCode
	if cs.each {
		have = c.t.perFile[file]
	}
	src, ok := fileLines(c, file)
	if !ok {
		return nil, true
	}
	var ms []mutant
	del := func(k int) {
		if k < 1 || k > len(lines) {
			return
		}
		drop := map[int]bool{}
		for _, l := range lines[len(lines)-k:] {
			drop[l] = true
		}
		var kept []string
		for i, l := range src {
			if !drop[i+1] {
				kept = append(kept, l)
			}
		}
		ms = append(ms, mutant{file: file, line: lines[len(lines)-k], deleted: true, desc: fmt.Sprintf("%d of the lines %s matches in %s deleted (count %d)", k, quoteRE(c.c.Anchor), file, have-k), src: []byte(strings.Join(kept, ""))})
	}
	dup := func(k int) {
		if k < 1 || lines[0] > len(src) {
			return
		}
		l := lines[0]
		line := src[l-1]
		if !strings.HasSuffix(line, "\n") {
			line += "\n"
		}
		mod := append(append([]string{}, src[:l]...), strings.Repeat(line, k))
		mod = append(mod, src[l:]...)
		ms = append(ms, mutant{file: file, line: l + 1, desc: fmt.Sprintf("%s:%d duplicated %d time(s) (count %d)", file, l, k, have+k), src: []byte(strings.Join(mod, ""))})
	}
	switch cs.op {
	case "=":
		del(1)
		dup(1)
	case ">=":
		del(have - cs.n + 1)
	case "<=":
		dup(cs.n - have + 1)
	}
	return ms, true
}

package check

import (
	"fmt"
	"strconv"
	"strings"
)

// A Require written (?= value) compares a value, not a spelling (issue 34
// item 4, dk-ikl, D95): the Anchor captures the value (its group named v,
// else its first group), and each anchored line's capture must equal value
// as valueOf reads both (16 << 20, 16777216 and 16 MiB are one value;
// "a\tb" and `a	b` one string). The spelling cannot be a Require of an
// older table: RE2 has no look-ahead, so a Require that starts with (?=
// never compiled, and every table that checks today keeps its meaning.
// !(?= value) is the negation: no anchored line captures value.

const valuePrefix = "(?="

// valueRequire returns the value a Require pins, written (?= value).
func valueRequire(req string) (string, bool) {
	r := strings.TrimSpace(req)
	if !strings.HasPrefix(r, valuePrefix) || !strings.HasSuffix(r, ")") {
		return "", false
	}
	return strings.TrimSpace(r[len(valuePrefix) : len(r)-1]), true
}

// valueSpec is a Require that compares the Anchor's capture as a value.
type valueSpec struct {
	want  string // the value, as valueOf reads it
	text  string // as written
	group int    // the Anchor's group that captures it
}

// prepareValueRequire reads a Require written (?= value) into spec; it
// returns false, with a CL006 finding, when the Anchor captures nothing.
// A Require of another spelling is left to prepareLines.
func (c *claim) prepareValueRequire(spec *lineSpec) bool {
	req := c.c.Require
	neg := strings.HasPrefix(strings.TrimSpace(req), "!")
	v, ok := valueRequire(strings.TrimPrefix(strings.TrimSpace(req), "!"))
	if !ok || spec.ownRequire {
		return true
	}
	if v == "" {
		c.malformed(c.c.CellPos("require"), "%s: Require %q names no value: write (?= 16 MiB), the value the Anchor's group must capture", c.name(), req)
		return false
	}
	if spec.exact != nil || spec.anchor == nil || spec.anchor.NumSubexp() == 0 {
		c.malformed(c.c.CellPos("anchor"), "%s: Require %s compares the value the Anchor captures, and Anchor %s has no group: write one around the value, as in `const maxFrame = (.+)`", c.name(), quoteRE(req), quoteRE(c.c.Anchor))
		return false
	}
	g := 1
	if i := spec.anchor.SubexpIndex("v"); i > 0 {
		g = i
	}
	want, _ := valueOf(v)
	spec.value = &valueSpec{want: want, text: v, group: g}
	spec.negate = neg
	spec.ownRequire = true // no pattern to compile
	return true
}

// valueOK reports whether line's capture holds the value (any line the
// Anchor does not capture on fails).
func (s *valueSpec) holds(spec *lineSpec, line string) bool {
	m := spec.re().FindStringSubmatch(line)
	if m == nil || s.group >= len(m) {
		return false
	}
	got, _ := valueOf(m[s.group])
	return got == s.want
}

// valueMutants are, per anchored line, its captured value changed: an
// integer to the next one, any other value with a character added, as a
// real edit of the constant would.
func valueMutants(cc *claim) []mutant {
	spec := cc.lines
	if spec == nil || spec.value == nil || spec.negate {
		return nil
	}
	var out []mutant
	for _, h := range cc.code {
		src, err := cc.snap.Repo.ReadFile(h.file, MaxFileSize)
		if err != nil {
			continue
		}
		lines := strings.SplitAfter(string(src), "\n")
		if h.line > len(lines) {
			continue
		}
		line := lines[h.line-1]
		loc := spec.re().FindStringSubmatchIndex(line)
		g := spec.value.group
		if loc == nil || 2*g+1 >= len(loc) || loc[2*g] < 0 {
			continue
		}
		captured := line[loc[2*g]:loc[2*g+1]]
		changed := captured + "1"
		if v, kind := valueOf(captured); kind == "integer" {
			if n, err := strconv.ParseInt(v, 10, 64); err == nil && n < 1<<62 {
				changed = strconv.FormatInt(n+1, 10)
			}
		}
		edited := line[:loc[2*g]] + changed + line[loc[2*g+1]:]
		mod := append(append([]string{}, lines[:h.line-1]...), edited)
		mod = append(mod, lines[h.line:]...)
		out = append(out, mutant{file: h.file, line: h.line, desc: fmt.Sprintf("the value on %s:%d is changed to %s", h.file, h.line, changed), src: []byte(strings.Join(mod, ""))})
	}
	return out
}

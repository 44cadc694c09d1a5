package check

import (
	"go/token"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/claimslint/claimslint/internal/diag"
)

// The rows check warns about when it reads them (issue 34 item 6, D105):
// each holds today, and each is a way a claim goes wrong that prove finds
// only later, if at all. A warning fails no run.

// aligned reports two literal spaces after a character of the line (not
// after a blank, ^, | or (: not leading indentation), outside a quoted
// string of the pattern (a format string's "a  # b" is text, not a
// column): the columns gofmt and other formatters align, whose width a
// neighbour's rename changes. It is the regular expression
// [^\s^|(]<two spaces> found anywhere, read by hand: that expression
// has no literal to search by, and stepped through every byte of every
// anchor of a check (D92); FuzzAligned holds the two to each other.
func aligned(pat string) bool {
	for i := 1; i+1 < len(pat); i++ {
		if pat[i] != ' ' || pat[i+1] != ' ' {
			continue
		}
		switch r, _ := utf8.DecodeLastRuneInString(pat[:i]); r {
		case ' ', '\t', '\n', '\f', '\r', '^', '|', '(':
			continue
		}
		if strings.Count(pat[:i], `"`)%2 == 0 {
			return true
		}
	}
	return false
}

// writeWarnings adds the warnings of a prepared line claim to c.bad,
// reported by CL006 with the row's other findings.
func (c *claim) writeWarnings() {
	if c.kind == nil || c.lines == nil {
		return
	}
	for _, cell := range []struct{ col, text string }{{"anchor", c.c.Anchor}, {"require", c.c.Require}} {
		if aligned(cell.text) {
			c.warn(c.c.CellPos(cell.col), "%s: %s %s holds two literal spaces, a column a formatter aligns (gofmt pads to the longest neighbour), which a rename elsewhere changes although the fact held: write ` +` for the run", c.name(), strings.ToUpper(cell.col[:1])+cell.col[1:], quoteRE(cell.text))
		}
	}
	if name, _ := SplitKind(c.c.Kind); name == "anchored-every" && c.requireOverlaps() {
		c.warn(c.c.CellPos("require"), "%s: Require %s matches the text every line of Anchor %s holds, so it can fail only when the anchor vanishes: require what the line must say beyond its Anchor, or drop the Require", c.name(), quoteRE(c.c.Require), quoteRE(c.c.Anchor))
	}
}

// requireOverlaps reports whether the claim's Require matches every line
// its Anchor matches (RequireOverlaps).
func (c *claim) requireOverlaps() bool {
	spec := c.lines
	return spec.require != nil && !spec.negate && overlaps(string(spec.literal), spec.require)
}

// RequireOverlaps reports whether require matches the literal every match
// of anchor holds, wherever that literal stands in a line: then every line
// the anchor matches matches require, and the Require says nothing.
// migrate drops such a Require (it writes the row's meaning, quietly).
func RequireOverlaps(anchor, require string) bool {
	if require == "" || strings.HasPrefix(require, "!") || len(anchor) > MaxPattern || len(require) > MaxPattern {
		return false
	}
	re, err := regexp.Compile(require)
	if err != nil {
		return false
	}
	lit, _ := analyse(anchor)
	if exact, ok := exactLiteral(anchor); ok {
		lit = string(exact.text)
	}
	return overlaps(lit, re)
}

func overlaps(lit string, require *regexp.Regexp) bool {
	if lit == "" {
		return false
	}
	for _, s := range []string{lit, "a" + lit + "a", " " + lit + " ", "_" + lit + "."} {
		if !require.MatchString(s) {
			return false
		}
	}
	return true
}

// warn records a warning about the claim's row (CL006, never failing).
func (c *claim) warn(pos token.Position, format string, args ...any) {
	c.malformed(pos, format, args...)
	c.bad[len(c.bad)-1].Severity = diag.SeverityWarning
}

package check

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/claimslint/claimslint/internal/register"
)

// Placeholders let a claim's Anchor and Require refer to the live range
// instead of spelling the highest decision id of the day (D64). They are
// filled when the claim is read, from the register's highest id n:
//
//	{{range}}   the live range as a pattern, D1\.\.Dn
//	{{n}}       n
//	{{n-k}}     n minus k, for k from 1 to 9 (a tokenizer's alternation of
//	            the newest ids: D\({{n}}\|{{n-1}}\|)
//
// So a claim that pins the live range at some line holds after
// `claimslint new` moves it there, and fails when that line is left behind.
// A pattern that means the braces literally escapes them: \{\{n\}\}.
var placeholderRE = register.LazyRE(`\{\{(range|n)(?:-([1-9]))?\}\}`)

// HasPlaceholder reports whether a pattern holds a live-range placeholder.
func HasPlaceholder(pat string) bool {
	return strings.Contains(pat, "{{") && placeholderRE().MatchString(pat)
}

// ExpandPlaceholders fills the placeholders of pat for the highest id n.
func ExpandPlaceholders(pat string, n int) (string, error) {
	if !HasPlaceholder(pat) {
		return pat, nil
	}
	var bad error
	out := placeholderRE().ReplaceAllStringFunc(pat, func(m string) string {
		v, err := placeholderValue(m, n)
		if err != nil && bad == nil {
			bad = err
		}
		return v
	})
	return out, bad
}

// placeholderValue is the pattern text one placeholder stands for.
func placeholderValue(m string, n int) (string, error) {
	sub := placeholderRE().FindStringSubmatch(m)
	if n == 0 {
		return m, fmt.Errorf("%s refers to the live range, and the register has no decision id", m)
	}
	k := 0
	if sub[2] != "" {
		k, _ = strconv.Atoi(sub[2])
	}
	if sub[1] == "range" {
		if k != 0 {
			return m, fmt.Errorf("%s: only {{n}} counts back; write D1\\.\\.D{{n-%d}}", m, k)
		}
		return `D1\.\.D` + strconv.Itoa(n), nil
	}
	if n-k < 1 {
		return m, fmt.Errorf("%s is below D1: the register's highest id is D%d", m, n)
	}
	return strconv.Itoa(n - k), nil
}

// expand fills the placeholders of the claim's Anchor and Require from
// the register's highest id, reporting a CL006 finding when one cannot be
// filled.
func (c *claim) expand() bool {
	if !HasPlaceholder(c.c.Anchor) && !HasPlaceholder(c.c.Require) {
		return true
	}
	n := 0
	if c.snap.Register != nil {
		n = c.snap.MaxN()
	}
	row := *c.c // the claim's own copy: the decision's row keeps its placeholders
	c.c = &row
	for _, col := range []struct {
		name string
		pat  *string
	}{{"anchor", &c.c.Anchor}, {"require", &c.c.Require}} {
		out, err := ExpandPlaceholders(*col.pat, n)
		if err != nil {
			c.malformed(c.c.CellPos(col.name), "%s: %s %v", c.name(), strings.ToUpper(col.name[:1])+col.name[1:], err)
			return false
		}
		*col.pat = out
	}
	return true
}

package check

import (
	"fmt"
	"strings"

	"github.com/claimslint/claimslint/internal/diag"
)

// anchored: Anchor matches exactly one code line across the files of Path,
// and Require matches that line.
//
//registry:kinds 2
type anchoredKind struct{}

func (anchoredKind) Name() string { return "anchored" }

func (anchoredKind) scoped() {}

func (anchoredKind) ProveDoc() string {
	return `each code line that satisfies the claim is deleted, and each
match of a Require (one that must match) is removed from it.`
}

func (anchoredKind) Doc() string {
	return `Anchor matches exactly one code line across the files of Path;
Require must match that line (!re: must not). No hit is "anchor
vanished" (reported at the claim's row), several are "anchor
ambiguous" (reported once, at the first hit, the others related).`
}

func (anchoredKind) Prepare(c *claim) bool {
	return c.prepareLines(&lineSpec{skipTests: true})
}

func (anchoredKind) Evaluate(c *claim) {
	if c.noFiles() || c.regionFailed() {
		return
	}
	c.notRead() // a file it could not read may hold the line that breaks it (D68)
	row := c.c
	if c.nCode <= 1 && c.notRun() {
		return
	}
	switch {
	case c.nCode == 0:
		c.fail(row.Pos, "anchor vanished: no %s of %s matches %s%s", c.unit(), c.pathIn(), quoteRE(row.Anchor), c.vanishedWhere())
	case c.nCode > 1:
		// One finding at the first hit; every other hit is a related
		// position, so the problem is counted and fixed once (D46).
		f := c.fail(c.code[0].pos(), "anchor ambiguous: %s matches %d %ss (%s); make it match exactly one (or use anchored-every)", quoteRE(row.Anchor), c.nCode, c.unit(), listHits(c.code, 5))
		for _, h := range c.code[1:] {
			f.Related = append(f.Related, diag.Related{Pos: h.pos(), Message: "also matches " + quoteRE(row.Anchor)})
		}
		for _, h := range c.code {
			c.hold(h.String())
		}
	default:
		h := c.code[0]
		c.hold(h.String())
		if !c.requireOK(h.text) {
			// The line as it reads now, so the fix (of the code or of
			// the Require) starts from what is there (issue 34).
			now := clipN(strings.TrimSpace(h.text), 120)
			if c.lines.negate {
				c.fail(h.pos(), "anchored line matches forbidden %s; it reads %q", quoteRE(strings.TrimPrefix(row.Require, "!")), now)
			} else {
				c.fail(h.pos(), "anchored line does not match Require %s; it reads %q", quoteRE(row.Require), now)
			}
		}
	}
}

func (anchoredKind) Mutants(c *claim) ([]mutant, bool) {
	return append(append(lineMutants(c), valueMutants(c)...), regionMutants(c)...), true
}

// vanishedWhere says where a vanished anchor still matches: outside the
// scope, or in tests only.
func (c *claim) vanishedWhere() string {
	switch {
	case len(c.comment) > 0:
		where, hits, also := c.outside()
		if where == stringWhere {
			return fmt.Sprintf(" (it appears %s at %s; %s: %s:any)", where, listHits(hits, 3), anyAdvice, c.kind.Name())
		}
		return fmt.Sprintf(" (it appears %s: %s%s)", where, listHits(hits, 3), also)
	case len(c.test) > 0:
		return fmt.Sprintf(" (it appears only in tests: %s)", listHits(c.test, 3))
	}
	return ""
}

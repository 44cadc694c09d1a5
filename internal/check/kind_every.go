package check

import "strings"

// anchored-every: at least one line in scope matches Anchor, and every
// such line carries Require (or none does, with !re) (D38).
//
//registry:kinds 3
type everyKind struct{}

func (everyKind) Name() string { return "anchored-every" }

func (everyKind) scoped() {}

func (everyKind) ProveDoc() string {
	return `every line the Anchor matches is deleted at once, and each
line's Require is broken.`
}

func (everyKind) Doc() string {
	return `anchored's every-line mode: at least one code line (or line of
the scope) across the files of Path matches Anchor, and every line
that does matches Require (!re: none does). No hit is "anchor
vanished"; each line that breaks Require is reported at that line.`
}

func (everyKind) Prepare(c *claim) bool {
	return c.prepareLines(&lineSpec{skipTests: true, requireAtScan: true})
}

func (everyKind) Evaluate(c *claim) {
	if c.noFiles() || c.regionFailed() {
		return
	}
	c.notRead() // a file it could not read may hold the line that breaks it (D68)
	row := c.c
	if c.notRun() {
		return // a line the anchor was not run on may break Require (D70)
	}
	if c.nCode == 0 {
		c.fail(row.Pos, "anchor vanished: no %s of %s matches %s%s", c.unit(), c.pathIn(), quoteRE(row.Anchor), c.vanishedWhere())
		return
	}
	for _, h := range c.code {
		c.hold(h.String())
	}
	for _, h := range c.reqFail {
		c.hold(h.String())
		if c.lines.negate {
			c.fail(h.pos(), "an anchored %s matches forbidden %s (every line %s matches must not)", c.unit(), quoteRE(strings.TrimPrefix(row.Require, "!")), quoteRE(row.Anchor))
		} else {
			c.fail(h.pos(), "an anchored %s does not match Require %s (every line %s matches must)", c.unit(), quoteRE(row.Require), quoteRE(row.Anchor))
		}
	}
}

func (everyKind) Mutants(c *claim) ([]mutant, bool) {
	return append(append(everyMutants(c), valueMutants(c)...), regionMutants(c)...), true
}

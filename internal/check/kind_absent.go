package check

// absent: Anchor matches nothing in the claim's scope (D38). With :prose it
// is the negative sweep that survives a rewrap.
type absentKind struct{}

func init() { registerKind(27, absentKind{}) }

func (absentKind) Name() string { return "absent" }

func (absentKind) scoped() {}

func (absentKind) Doc() string {
	return `Anchor matches no code line (or line, or unit, of the scope) of
the files of Path; each match is reported where it is. It takes no
Require. absent:prose reads paragraphs, list items, headings and
table cells with whitespace folded, so a rewrap cannot hide a match.`
}

func (absentKind) Prepare(c *claim) bool {
	if c.c.Require != "" {
		c.malformed(c.c.CellPos("require"), "%s: an absent claim takes no Require: its Anchor must match nothing", c.name())
		return false
	}
	return c.prepareLines(&lineSpec{skipTests: true})
}

func (absentKind) Evaluate(c *claim) {
	if c.noFiles() {
		return
	}
	for _, h := range c.code {
		c.fail(h.pos(), "forbidden %s is present: it must match no %s of %s", quoteRE(c.c.Anchor), c.unit(), quoteRE(c.c.Path))
	}
	c.notRun() // a line the anchor was not run on may hold a match (D70)
}

func (absentKind) Mutants(c *claim) ([]mutant, bool) {
	ms := absentMutants(c)
	return ms, len(ms) > 0
}

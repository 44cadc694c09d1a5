package check

// absent: Anchor matches nothing in the claim's scope (D38). With :prose it
// is the negative sweep that survives a rewrap.
//
//registry:kinds 4
type absentKind struct{}

func (absentKind) Name() string { return "absent" }

func (absentKind) forbids() {}

func (absentKind) scoped() {}

func (absentKind) ProveDoc() string {
	return `a sample of the Anchor is added to the first file of Path.`
}

func (absentKind) Doc() string {
	return `Anchor matches no code line (or line, or unit, of the scope) of
the files of Path; each match is reported where it is. With a Require,
only a line that also matches it counts (with !re, only a line that
does not: an escape). allow rows of the same decision excuse lines.
absent:prose reads paragraphs, list items, headings and table cells
with whitespace folded, so a rewrap cannot hide a match; absent:all
reads every line of every file, tests too, as git grep does.`
}

func (absentKind) Prepare(c *claim) bool {
	// Require narrows which matches count (D66): the subject a sweep's hit
	// must be about, or with !re the escape that clears it.
	if !c.prepareLines(&lineSpec{skipTests: true, requireAtScan: true}) {
		return false
	}
	// A sweep never finds its own pattern: the Path, Anchor and Require
	// cells of claim tables are patterns, not text (D36), so an absent
	// claim over the register's own files can hold.
	c.lines.skipCells, c.lines.skip = true, c.snap.ClaimCells()
	return true
}

func (absentKind) Evaluate(c *claim) {
	if c.noFiles() || c.regionFailed() {
		return
	}
	c.notRead() // a file it could not read may hold the line that breaks it (D68)
	cond := ""
	switch req := c.c.Require; {
	case req != "" && c.lines.negate:
		cond = " on a line that does not match " + quoteRE(req[1:])
	case req != "":
		cond = " on a line that also matches " + quoteRE(req)
	}
	for _, h := range c.code {
		c.fail(h.pos(), "forbidden %s is present%s: it must match no %s of %s", quoteRE(c.c.Anchor), cond, c.unit(), c.pathIn())
	}
	c.notRun() // a line the anchor was not run on may hold a match (D70)
}

func (absentKind) Mutants(c *claim) ([]mutant, bool) {
	ms := absentMutants(c)
	return ms, len(ms) > 0
}

package check

// present: at least one code line of the files of Path matches Anchor (and
// Require on that line).
//
//registry:kinds 1
type presentKind struct{}

func (presentKind) Name() string { return "present" }

func (presentKind) scoped() {}

func (presentKind) ProveDoc() string {
	return `each code line that satisfies the claim is deleted, and each
match of a Require (one that must match) is removed from it.`
}

func (presentKind) Doc() string {
	return `at least one code line (not a comment, not a test file unless Path
names test files) of the files matched by Path matches Anchor, and
Require on that same line when given. With a scope, :test, :any,
:comment or :prose, the line (or unit) is read as that scope says
(D38); :test counts test regions and test files (D64).`
}

func (presentKind) Prepare(c *claim) bool {
	return c.prepareLines(&lineSpec{requireAtScan: true})
}

func (presentKind) Evaluate(c *claim) {
	if c.noFiles() || c.regionFailed() {
		return
	}
	if len(c.code) > 0 {
		c.hold(c.code[0].String())
		return
	}
	row := c.c
	if c.notRun() {
		return
	}
	switch {
	case len(c.reqFail) > 0:
		c.fail(row.Pos, "Anchor %s matches %s, but no such line matches Require %s", quoteRE(row.Anchor), listHits(c.reqFail, 3), quoteRE(row.Require))
	case len(c.test) > 0:
		c.fail(row.Pos, "Anchor %s matches only tests (%s); production code must carry it (or a scope: present:test counts tests)", quoteRE(row.Anchor), listHits(c.test, 3))
	case len(c.comment) > 0:
		where, hits, also := c.outside()
		switch {
		case where == stringWhere:
			c.fail(row.Pos, "Anchor %s appears %s at %s; no %s of %s matches it (%s: present:any)", quoteRE(row.Anchor), where, listHits(hits, 3), c.unit(), quoteRE(row.Path), anyAdvice)
		case where == twoWaysWhere:
			c.fail(row.Pos, "Anchor %s appears %s (%s); a claim holds only if it holds both ways (D89)", quoteRE(row.Anchor), where, listHits(hits, 3))
		case c.scope == ScopeCode:
			c.fail(row.Pos, "Anchor %s appears only in comments (%s)%s; a claim needs a code line (or a scope: present:comment)", quoteRE(row.Anchor), listHits(hits, 3), also)
		default:
			c.fail(row.Pos, "Anchor %s appears %s (%s)%s; no %s of %s matches it", quoteRE(row.Anchor), where, listHits(hits, 3), also, c.unit(), quoteRE(row.Path))
		}
	default:
		c.fail(row.Pos, "no %s of %s matches Anchor %s", c.unit(), c.pathIn(), quoteRE(row.Anchor))
	}
}

func (presentKind) Mutants(c *claim) ([]mutant, bool) {
	return append(append(lineMutants(c), valueMutants(c)...), regionMutants(c)...), true
}

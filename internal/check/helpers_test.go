package check

import "slices"

// Helpers the tests share; the command never calls them.

// addKind inserts k into Kinds after the kind named after (tests add
// examples) and returns the function that restores the list; the rules'
// documentation follows either way. A test that calls it must not be
// parallel: Kinds is read by every run.
func addKind(after string, k Kind) (restore func()) {
	saved := Kinds
	i := slices.IndexFunc(Kinds, func(x Kind) bool { return x.Name() == after })
	Kinds = slices.Insert(slices.Clone(Kinds), i+1, k)
	claimRule.Doc, claimTableRule.Doc, vacuousRule.Doc = claimsDoc(), claimTablesDoc(), vacuousDoc()
	return func() {
		Kinds = saved
		claimRule.Doc, claimTableRule.Doc, vacuousRule.Doc = claimsDoc(), claimTablesDoc(), vacuousDoc()
	}
}

// requiredLiteral returns a string that every match of pattern must contain,
// or "" when none can be derived. A claim whose literal is absent from a
// file cannot match it, so the regular expression runs only on the few files
// that contain the literal: the cost of a check follows the bytes read, not
// files times claims.
func requiredLiteral(pattern string) string {
	lit, _ := analyse(pattern)
	return lit
}

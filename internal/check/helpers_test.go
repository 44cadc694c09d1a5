package check

// Helpers the tests share; the command never calls them.

// unregisterKind removes the kind named name (tests register examples).
func unregisterKind(name string) {
	kindsMu.Lock()
	defer kindsMu.Unlock()
	for i, e := range kinds {
		if e.kind.Name() == name {
			kinds = append(kinds[:i:i], kinds[i+1:]...)
			break
		}
	}
	claimRule.Doc, claimTableRule.Doc = claimsDoc(), claimTablesDoc()
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

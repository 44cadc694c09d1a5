package check

import "github.com/claimslint/claimslint/internal/glob"

// Reads reports whether a claim whose Kind cell is kind and whose Path
// cell is pattern reads the repository file rel: rel matches the pattern, and
// is not test code unless the Path names tests or the scope counts them,
// as a scan reads it. `claimslint impact` asks it of the files a change
// touches (D84).
func Reads(kind, pattern, rel string) bool {
	if !glob.Match(pattern, rel) {
		return false
	}
	_, scope := SplitKind(kind)
	return !isTestFile(rel) || namesTests(pattern) || scope == ScopeTest || scope == ScopeAll
}

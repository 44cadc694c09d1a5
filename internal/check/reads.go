package check

import "github.com/claimslint/claimslint/internal/snapshot"

// Reads reports whether a claim whose Kind cell is kind and whose Path
// cell is glob reads the repository file rel: rel matches the glob, and
// is not test code unless the Path names tests or the scope counts them,
// as a scan reads it. `claimslint impact` asks it of the files a change
// touches (D84).
func Reads(kind, glob, rel string) bool {
	if !snapshot.GlobMatch(glob, rel) {
		return false
	}
	_, scope := SplitKind(kind)
	return !isTestFile(rel) || namesTests(glob) || scope == ScopeTest || scope == ScopeAll
}

package snapshot

import "github.com/claimslint/claimslint/internal/glob"

// GlobMatch is glob.Match, kept under its old name for internal/author
// only, whose calls move with adoption's own package this session; the
// name goes when they call glob.Match (D104).
func GlobMatch(pattern, p string) bool { return glob.Match(pattern, p) }

package snapshot

import (
	"regexp"

	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/glob"
	"github.com/claimslint/claimslint/internal/mention"
)

// GlobMatch is glob.Match, kept under its old name for internal/author
// only, whose calls move with adoption's own package this session; the
// name goes when they call glob.Match (D104).
func GlobMatch(pattern, p string) bool { return glob.Match(pattern, p) }

// IDPattern and FileMentions are mention.Pattern and mention.InFile, kept
// under their old names for internal/author only, as GlobMatch is.
func IDPattern(cfg config.Config) *regexp.Regexp { return mention.Pattern(cfg) }

func FileMentions(rel string, data []byte, re *regexp.Regexp) []mention.Mention {
	return mention.InFile(rel, data, re)
}

package register

import (
	"net/url"
	"path"
	"strings"

	"github.com/claimslint/claimslint/server/vocab"
)

// LinkTarget is the repository path a register row's link names: the
// link below the register's folder dir, its #fragment cut, its %XX
// escapes decoded ("0001-c%23-style.md" is the file "0001-c#-style.md";
// D96).
func LinkTarget(dir, link string) string {
	dest, _, _ := strings.Cut(link, "#")
	if u, err := url.PathUnescape(dest); err == nil {
		dest = u
	}
	return path.Clean(path.Join(dir, dest))
}

// The decision-id grammar (D72) lives in server/vocab, the leaf docket and
// claimslint share (D62): docket checks the decision ids an issue names
// without reading Markdown. These are the register's names for it.

// IDPattern is the decision-id grammar: D, a number without leading zeros
// (0 is one), then at most one lowercase letter.
const IDPattern = vocab.DecisionIDPattern

// ID is a parsed decision id: D<N><Suffix>.
type ID = vocab.DecisionID

// ParseID parses s as a decision id.
func ParseID(s string) (ID, bool) { return vocab.ParseDecisionID(s) }

// IsID reports whether s is a decision id.
func IsID(s string) bool { return vocab.IsDecisionID(s) }

// IDNumber returns n for "D<n>" or "D<n><letter>", or 0 when id is not a
// decision id.
func IDNumber(id string) int { return vocab.DecisionNumber(id) }

// CompareIDs orders decision ids by number, then suffix: D0 < D4 < D4a.
func CompareIDs(a, b string) int { return vocab.CompareDecisionIDs(a, b) }

package register

import "github.com/claimslint/claimslint/server/vocab"

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

package vocab

import (
	"cmp"
	"regexp"
	"strconv"
	"strings"
)

// DecisionIDPattern is the decision-id grammar (D72), the one source
// every pattern that reads a decision id is built from, in claimslint and
// docket alike: D, then a number without
// leading zeros (0 is one: an adopted collection's 0000 record is D0),
// then at most one lowercase letter (an adopted 0004a is D4a). It has no
// anchors and no groups; wrap it as the reader needs.
const DecisionIDPattern = `D(?:0|[1-9][0-9]*)[a-z]?`

// maxIDDigits bounds an id's number so it always fits an int.
const maxIDDigits = 9

var wholeIDRE = regexp.MustCompile(`^` + DecisionIDPattern + `$`)

// DecisionID is a parsed decision id: D<N><Suffix>.
type DecisionID struct {
	N      int
	Suffix string // "" or one lowercase letter
}

// String renders the id as written: D4, D0, D4a.
func (id DecisionID) String() string { return "D" + strconv.Itoa(id.N) + id.Suffix }

// Plain reports whether the id has no letter suffix.
func (id DecisionID) Plain() bool { return id.Suffix == "" }

// ParseDecisionID parses s as a decision id. It refuses anything the grammar
// does not accept, and numbers of more than nine digits.
func ParseDecisionID(s string) (DecisionID, bool) {
	if !wholeIDRE.MatchString(s) {
		return DecisionID{}, false
	}
	digits := strings.TrimRight(s[1:], "abcdefghijklmnopqrstuvwxyz")
	if len(digits) > maxIDDigits {
		return DecisionID{}, false
	}
	n, err := strconv.Atoi(digits)
	if err != nil {
		return DecisionID{}, false
	}
	return DecisionID{N: n, Suffix: s[1+len(digits):]}, true
}

// IsDecisionID reports whether s is a decision id.
func IsDecisionID(s string) bool {
	_, ok := ParseDecisionID(s)
	return ok
}

// DecisionNumber returns n for "D<n>" or "D<n><letter>", or 0 when id is not a
// decision id. D0 is 0 too: use IsDecisionID or ParseDecisionID to tell an id from a
// non-id.
func DecisionNumber(id string) int {
	p, _ := ParseDecisionID(id)
	return p.N
}

// CompareDecisionIDs orders decision ids by number, then suffix: D0 < D4 < D4a <
// D5 < D10. Strings that are not ids sort after every id, by text.
func CompareDecisionIDs(a, b string) int {
	pa, oka := ParseDecisionID(a)
	pb, okb := ParseDecisionID(b)
	switch {
	case oka && okb:
		if c := cmp.Compare(pa.N, pb.N); c != 0 {
			return c
		}
		return cmp.Compare(pa.Suffix, pb.Suffix)
	case oka:
		return -1
	case okb:
		return 1
	}
	return cmp.Compare(a, b)
}

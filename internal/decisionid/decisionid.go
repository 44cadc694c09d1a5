// Package decisionid is the decision-id grammar both products read (D72):
// claimslint's register and docket's record check an id against the one
// pattern here.
package decisionid

import (
	"cmp"
	"strconv"
)

// Pattern is the decision-id grammar (D72), the one source
// every pattern that reads a decision id is built from, in claimslint and
// docket alike: D, then a number without
// leading zeros (0 is one: an adopted collection's 0000 record is D0),
// then at most one lowercase letter (an adopted 0004a is D4a). It has no
// anchors and no groups; wrap it as the reader needs.
const Pattern = `D(?:0|[1-9][0-9]*)[a-z]?`

// maxIDDigits bounds an id's number so it always fits an int.
const maxIDDigits = 9

// ID is a parsed decision id: D<N><Suffix>.
type ID struct {
	N      int
	Suffix string // "" or one lowercase letter
}

// String renders the id as written: D4, D0, D4a.
func (id ID) String() string { return "D" + strconv.Itoa(id.N) + id.Suffix }

// Plain reports whether the id has no letter suffix.
func (id ID) Plain() bool { return id.Suffix == "" }

// Parse parses s as a decision id. It refuses anything the grammar
// does not accept, and numbers of more than nine digits.
func Parse(s string) (ID, bool) {
	// Pattern read by hand, not by a regular expression: Compare parses
	// both ids at every step of a sort of the register (FuzzParseID holds
	// this to Pattern).
	if len(s) < 2 || s[0] != 'D' || s[1] < '0' || s[1] > '9' || s[1] == '0' && len(s) > 2 && isDigit(s[2]) {
		return ID{}, false
	}
	end := 2
	for end < len(s) && isDigit(s[end]) {
		end++
	}
	digits := s[1:end]
	if end < len(s) && s[end] >= 'a' && s[end] <= 'z' {
		end++
	}
	if end != len(s) || len(digits) > maxIDDigits {
		return ID{}, false
	}
	n, err := strconv.Atoi(digits)
	if err != nil {
		return ID{}, false
	}
	return ID{N: n, Suffix: s[1+len(digits):]}, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// Valid reports whether s is a decision id.
func Valid(s string) bool {
	_, ok := Parse(s)
	return ok
}

// Number returns n for "D<n>" or "D<n><letter>", or 0 when id is not a
// decision id. D0 is 0 too: use Valid or Parse to tell an id from a
// non-id.
func Number(id string) int {
	p, _ := Parse(id)
	return p.N
}

// Compare orders decision ids by number, then suffix: D0 < D4 < D4a <
// D5 < D10. Strings that are not ids sort after every id, by text.
func Compare(a, b string) int {
	pa, oka := Parse(a)
	pb, okb := Parse(b)
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

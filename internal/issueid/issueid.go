// Package issueid is the syntax of tracker ids, prefixes and tokens both
// products read: docket checks every record it writes against it, and
// claimslint's tracker reader checks every id of an export against the
// same grammar, so an id one tool refuses the other refuses too.
package issueid

import (
	"fmt"
	"regexp"
	"sync"
)

// The patterns compile at first use, not when the package is initialised:
// a check of a register with no tracker never reads an id (D92). This
// package imports nothing of ours, so it holds sync.OnceValue itself, the
// shape of register.LazyRE.
var (
	prefixRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9]{0,15}$`) })
	// An id is a prefix, a dash, and a rest of letters, digits, dashes,
	// underscores and dots: docket's own dk-x7q, and what other trackers
	// write (beads' bd-au0.7, bd-wisp-0385z, hq-cv-d46qe).
	idRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_]*)-([A-Za-z0-9][A-Za-z0-9_.-]*)$`)
	})
	tokenRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9_-]*$`) })
)

// MaxIDLen is the longest id a record may have.
const MaxIDLen = 128

// MaxTokenLen is the longest status, type or dependency type a record may
// carry.
const MaxTokenLen = 64

// ValidPrefix reports whether p can prefix ids: a lower-case letter, then up
// to 15 lower-case letters or digits.
func ValidPrefix(p string) error {
	if !prefixRE().MatchString(p) {
		return fmt.Errorf("prefix %q: use a lower-case letter followed by up to 15 lower-case letters or digits, like dk", p)
	}
	return nil
}

// SplitID returns the prefix (up to the first dash) and the rest of id, or
// ok=false when id is not an id: a letter, letters, digits or underscores,
// a dash, then letters, digits, dashes, underscores and dots, at most
// MaxIDLen bytes.
func SplitID(id string) (prefix, rest string, ok bool) {
	if len(id) > MaxIDLen {
		return "", "", false
	}
	m := idRE().FindStringSubmatch(id)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// ValidToken reports whether s can be a status, type or dependency type a
// record carries (docket's own or one kept from an import): lower-case
// letters, digits, dashes and underscores, starting with a letter, at most
// MaxTokenLen bytes.
func ValidToken(s string) bool { return tokenRE().MatchString(s) && len(s) <= MaxTokenLen }

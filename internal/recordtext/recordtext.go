// Package recordtext holds the rules for the text a tracker record carries
// (titles, descriptions): docket refuses a bad one at every write, and
// claimslint's tracker reader refuses it in a docket export (D67).
package recordtext

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxTitleLen is the longest title a record may carry, in bytes.
const MaxTitleLen = 500

// CheckTitle says why t cannot be a record's title, or returns nil: it is
// blank, longer than MaxTitleLen bytes, not UTF-8, or holds a control
// character (a line break, an escape), which would make a listing
// ambiguous. docket refuses such a record in its export and at every
// write; claimslint's tracker reader refuses it in a docket export (D67).
// This is the one copy of the rule.
func CheckTitle(t string) error {
	if strings.TrimSpace(t) == "" {
		return errors.New("empty title: give the issue a one-line title")
	}
	if len(t) > MaxTitleLen {
		return fmt.Errorf("title is %d bytes: keep it under %d and put the rest in the description", len(t), MaxTitleLen)
	}
	return CheckText("title", t, false)
}

// CheckText says why s cannot be the text of a record's field what (a
// title, a description, a comment), or returns nil: it is not UTF-8, or
// holds a control character; with lines, line breaks and tabs are text.
func CheckText(what, s string, lines bool) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("%s is not valid UTF-8", what)
	}
	for _, r := range s {
		if unicode.IsControl(r) && !(lines && (r == '\n' || r == '\r' || r == '\t')) {
			return fmt.Errorf("%s contains control character %U", what, r)
		}
	}
	return nil
}

package check

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/register"
)

// statusAdvice is the fix for an adopted record's status that is not in
// the vocabulary: map it, never edit the record. Where a word of the
// vocabulary is near the status (previewing and preview), the advice
// names the class that word means; else it names none (D97): the status
// is reported either way, never guessed.
func statusAdvice(d *register.Decision, vocab map[string]string) string {
	if class, near := nearClass(d.Status, vocab); class != "" {
		return fmt.Sprintf("status %q of adopted record %s is not in the status vocabulary: map it in %s (statuses: {%q: %s}, as %q is, if that is what it means) and write that status in its register row",
			d.RawStatus, d.FileID, config.FileName, d.Status, class, near)
	}
	return fmt.Sprintf("status %q of adopted record %s is not in the status vocabulary: map it in %s (statuses: {%q: S}, S one of %s) and write that status in its register row",
		d.RawStatus, d.FileID, config.FileName, d.Status, strings.Join(register.Statuses, ", "))
}

// nearClass is the status a vocabulary word near status means, and that
// word: the status's leading word differs from a word of the vocabulary
// only in its ending (previewing, preview; implementing, implemented).
// "" when none is near, or when near words mean different statuses: a
// sentence ("Working on the implementation") gets no class.
func nearClass(status string, vocab map[string]string) (class, near string) {
	words := strings.FieldsFunc(strings.ToLower(status), func(r rune) bool { return !unicode.IsLetter(r) })
	if len(words) == 0 {
		return "", ""
	}
	for _, k := range slices.Sorted(maps.Keys(vocab)) {
		st := vocab[k]
		if strings.Contains(k, " ") || !register.ValidStatus(st) || !nearWord(words[0], k) {
			continue
		}
		if class != "" && class != st {
			return "", ""
		}
		class, near = st, k
	}
	return class, near
}

// nearWord reports w equal to the vocabulary word k, or the two sharing
// all of k but its last two letters and all of w but its last four, five
// letters at least.
func nearWord(w, k string) bool {
	if w == k {
		return true
	}
	n := 0
	for n < len(w) && n < len(k) && w[n] == k[n] {
		n++
	}
	return n >= 5 && n >= len(k)-2 && n >= len(w)-4
}

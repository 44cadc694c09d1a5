package snapshot

import (
	"iter"
	"regexp"
)

// idMatcher finds the matches of a tracker id pattern (IDPattern's) one
// at a time, so a line of millions of ids is never held as a list of them
// and whoever reads the matches can stop between any two (D90).
//
// re.FindAllSubmatchIndex resumes each search at the end of the previous
// match while still seeing the bytes before it: \b there reads the last
// byte of that match, and ^ does not match. Searching the rest of the text
// as a slice of its own would read its first byte as the start of a text
// (dk-__dk-1 would yield dk-1, #1#2 would yield #2). So the searches after
// the first run from, which holds the byte before the resume point, steps
// over it, then takes the leftmost match of re after it: the same match,
// at the same offsets, that FindAllSubmatchIndex finds next.
type idMatcher struct {
	re, from *regexp.Regexp
}

// newIDMatcher returns the matcher of re, which must not match the empty
// string (IDPattern's never do: a prefix and its suffix, or # and digits).
func newIDMatcher(re *regexp.Regexp) idMatcher {
	// (?s:.) is the byte before the resume point (the last byte of a
	// match, ASCII in IDPattern's patterns, so one rune); the lazy (?s:.*?)
	// tries the resume points in order, and re's own preference decides at
	// each, as an unanchored search does. re's group 0 is from's group 1.
	return idMatcher{re: re, from: regexp.MustCompile(resume + re.String() + ")")}
}

// resume opens the pattern of a search after a match: the byte before
// the resume point, then the lazy path to where re matches.
const resume = "^(?s:.)(?s:.*?)("

// all yields, in order, the submatch indexes re.FindAllSubmatchIndex(text,
// -1) returns, each slice freshly allocated.
func (m idMatcher) all(text []byte) iter.Seq[[]int] {
	return func(yield func([]int) bool) {
		loc := m.re.FindSubmatchIndex(text)
		for loc != nil && loc[1] > loc[0] {
			if !yield(loc) {
				return
			}
			at := loc[1] - 1 // the byte before the resume point
			next := m.from.FindSubmatchIndex(text[at:])
			if next == nil {
				return
			}
			loc = next[2:]
			for i := range loc {
				if loc[i] >= 0 {
					loc[i] += at
				}
			}
		}
	}
}

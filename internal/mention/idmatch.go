package mention

import (
	"iter"
	"regexp"
)

// idMatcher finds the matches of a tracker id pattern (Pattern's) one
// at a time, each search over a window of the text, so a line of millions
// of ids is never held as a list of them, and whoever reads the matches
// can stop between any two and between any two windows, even in a text
// where nothing matches (D90).
//
// re.FindAllSubmatchIndex resumes each search at the end of the previous
// match while still seeing the bytes before it: \b there reads the last
// byte of that match, and ^ does not match. Searching the rest of the text
// as a slice of its own would read its first byte as the start of a text
// (an id whose suffix is underscores followed by another would yield the
// second, #1#2 would yield #2). So the searches after the first run from,
// which holds the byte before the resume point, steps over it, then takes
// the leftmost match of re after it: the same match, at the same offsets,
// that FindAllSubmatchIndex finds next.
//
// A window ends where the text need not: a match is taken only when it
// ends at least reach bytes before the window does, so every byte re
// reads to decide it (the alternatives of the prefix, the end of the
// suffix) is in the window. Otherwise the search resumes where a match
// could begin that the window cut, and nothing before it matches: reach
// bytes before the window's end, at an ASCII byte (one rune whatever
// surrounds it), or at the match the window found, whichever is first.
type idMatcher struct {
	re, from *regexp.Regexp
	// window is how many bytes one search reads at most (a window that
	// cannot move on is doubled).
	window int
	// reach is the bytes after a match's end, and after its start, that
	// re reads to decide it: the longest prefix, its dash, a character of
	// the suffix and the two bytes that may extend it (.5), with room.
	reach int
}

// idWindow is the bytes one search reads: a budget asked between windows
// is asked every few milliseconds of matching.
const idWindow = 1 << 20

// newIDMatcher returns the matcher of re, which must not match the empty
// string (Pattern's never do: a prefix and its suffix, or # and digits)
// and must decide each match within reach bytes of its start and of its
// end (prefixLen + 8 for Pattern with prefixes of at most prefixLen
// bytes).
func newIDMatcher(re *regexp.Regexp, reach, window int) idMatcher {
	// (?s:.) is the byte before the resume point (the last byte of a
	// match, or an ASCII byte: one rune either way); the lazy (?s:.*?)
	// tries the resume points in order, and re's own preference decides
	// at each, as an unanchored search does. re's group 0 is from's group
	// 1.
	return idMatcher{re: re, from: regexp.MustCompile(resume + re.String() + ")"), reach: reach, window: max(window, 4*reach)}
}

// resume opens the pattern of a search after a match: the byte before
// the resume point, then the lazy path to where re matches.
const resume = "^(?s:.)(?s:.*?)("

// search returns the first match of re at or after at in text[:end],
// where at is 0 or a resume point, offsets in text.
func (m idMatcher) search(text []byte, at, end int) []int {
	if at == 0 {
		return m.re.FindSubmatchIndex(text[:end])
	}
	loc := m.from.FindSubmatchIndex(text[at-1 : end])
	if loc == nil {
		return nil
	}
	loc = loc[2:]
	for i := range loc {
		if loc[i] >= 0 {
			loc[i] += at - 1
		}
	}
	return loc
}

// all yields, in order, the submatch indexes re.FindAllSubmatchIndex(text,
// -1) returns, each slice freshly allocated. Between two windows it asks
// stop (when not nil) with the offset reached, and ends when it says so.
func (m idMatcher) all(text []byte, stop func(at int) bool) iter.Seq[[]int] {
	return func(yield func([]int) bool) {
		at, size := 0, m.window
		for at < len(text) {
			end := min(len(text), at+size)
			loc := m.search(text, at, end)
			if loc != nil && loc[1] == loc[0] {
				return // an empty match: not a pattern of Pattern's
			}
			switch {
			case loc != nil && (end == len(text) || loc[1]+m.reach <= end):
				if !yield(loc) {
					return
				}
				at, size = loc[1], m.window
				continue
			case loc == nil && end == len(text):
				return
			}
			// The window may have cut a match: resume where one could
			// begin, or read a larger window when that is where it began.
			next := end - m.reach
			if loc != nil {
				next = min(next, loc[0])
			}
			for next > at && text[next-1] >= 0x80 {
				next--
			}
			if next > at {
				at, size = next, m.window
			} else {
				size *= 2
			}
			if stop != nil && stop(at) {
				return
			}
		}
	}
}

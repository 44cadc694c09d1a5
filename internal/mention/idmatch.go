package mention

import (
	"bytes"
	"iter"
	"regexp"
	"strings"
	"unicode/utf8"
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
	// lits are the literal bytes every match of re holds (each prefix
	// and its dash, or #), back whether a match begins one rune before
	// them (the github form), and at and at0 re anchored at a start
	// after the first byte and at the text's start: a search looks for
	// the literals and tries re only where they are (prefilter). lits is
	// nil for a pattern that is not Pattern's.
	lits    [][]byte
	back    bool
	at, at0 *regexp.Regexp
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
	m := idMatcher{re: re, from: regexp.MustCompile(resume + re.String() + ")"), reach: reach, window: max(window, 4*reach)}
	if lits, back, ok := literalsOf(re.String()); ok {
		m.lits, m.back = lits, back
		m.at = regexp.MustCompile("^(?s:.)(" + re.String() + ")")
		m.at0 = regexp.MustCompile("^(?:" + re.String() + ")")
	}
	return m
}

// literalsOf returns the literals every match of the pattern expr holds,
// and whether a match begins one rune before them, when expr is one that
// Pattern writes (ok false otherwise: the matcher then searches with the
// regexp alone). The prefixes are read back from the quoted alternation
// and the pattern written again from them must be expr.
func literalsOf(expr string) (lits [][]byte, back, ok bool) {
	if expr == numberedPattern {
		return [][]byte{[]byte("#")}, true, true
	}
	inner, opens := strings.CutPrefix(expr, prefixedOpen)
	inner, closes := strings.CutSuffix(inner, prefixedClose)
	if !opens || !closes {
		return nil, false, false
	}
	var prefixes []string
	var cur strings.Builder
	for i := 0; i < len(inner); i++ {
		switch c := inner[i]; {
		case c == '\\' && i+1 < len(inner):
			i++
			cur.WriteByte(inner[i])
		case c == '|':
			prefixes = append(prefixes, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	prefixes = append(prefixes, cur.String())
	quoted := make([]string, len(prefixes))
	for i, p := range prefixes {
		quoted[i] = regexp.QuoteMeta(p)
		lits = append(lits, []byte(p+"-"))
	}
	if prefixedOpen+strings.Join(quoted, "|")+prefixedClose != expr {
		return nil, false, false
	}
	return lits, false, true
}

// resume opens the pattern of a search after a match: the byte before
// the resume point, then the lazy path to where re matches.
const resume = "^(?s:.)(?s:.*?)("

// search returns the first match of re at or after at in text[:end],
// where at is 0 or a resume point, offsets in text.
func (m idMatcher) search(text []byte, at, end int) []int {
	if m.lits != nil {
		return m.prefiltered(text, at, end)
	}
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

// prefiltered is search by the literals: every match of re holds one
// of lits (a prefix and its dash at the match's start, or the # after
// the match's first rune), so the leftmost match at or after at begins
// at the first place, in order, where a literal is and re matches
// anchored; re is tried nowhere else.
func (m idMatcher) prefiltered(text []byte, at, end int) []int {
	// next[i] is where lits[i] is next at or after cur, -1 when nowhere
	// in the window, notLooked before the first look.
	const notLooked = -2
	var buf [4]int
	next := buf[:0]
	for range m.lits {
		next = append(next, notLooked)
	}
	for cur := at; ; {
		c := -1
		for i, lit := range m.lits {
			if next[i] == notLooked || next[i] >= 0 && next[i] < cur {
				j := bytes.Index(text[cur:end], lit)
				next[i] = -1
				if j >= 0 {
					next[i] = cur + j
				}
			}
			if next[i] >= 0 && (c < 0 || next[i] < c) {
				c = next[i]
			}
		}
		if c < 0 {
			return nil
		}
		cur = c + 1
		if loc := m.anchoredAt(text, c, at, end); loc != nil {
			return loc
		}
	}
}

// anchoredAt returns re's match in text[:end] that begins where the
// literal at c says one begins, if it is at or after at.
func (m idMatcher) anchoredAt(text []byte, c, at, end int) []int {
	s := c
	if m.back {
		// # then a digit; the match begins with the rune before the #
		// (^ when the # opens the text).
		if c+1 >= end || text[c+1] < '0' || text[c+1] > '9' {
			return nil
		}
		if c > 0 {
			_, n := utf8.DecodeLastRune(text[:c])
			s = c - n
		}
	}
	if s < at {
		return nil
	}
	// re decides a match within reach bytes of its start and of its end:
	// read a few reaches first (a regexp clears state in proportion to
	// the text it is given), the rest of the window only for a match that
	// ends too near the short one's end.
	if lim := s + 4*m.reach; lim < end {
		if loc := m.anchored(text, s, lim); loc == nil || loc[1]+m.reach <= lim {
			return loc
		}
	}
	return m.anchored(text, s, end)
}

// anchored returns re's match in text[:end] that begins at s, if any.
func (m idMatcher) anchored(text []byte, s, end int) []int {
	if s == 0 {
		return m.at0.FindSubmatchIndex(text[:end])
	}
	loc := m.at.FindSubmatchIndex(text[s-1 : end])
	if loc == nil {
		return nil
	}
	loc = loc[2:]
	for i := range loc {
		if loc[i] >= 0 {
			loc[i] += s - 1
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

package glob

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// expand returns the brace expansions of a valid pattern, as a shell
// expands them, or ok false past max of them. Braces, escapes and
// bracket expressions nest as doublestar reads them.
func expand(p string, max int) (out []string, ok bool) {
	i := 0
	for i < len(p) {
		switch p[i] {
		case '\\':
			i += 2
			continue
		case '[':
			i++
			for i < len(p) && p[i] != ']' {
				if p[i] == '\\' {
					i++
				}
				i++
			}
			i++
			continue
		case '{':
		default:
			i++
			continue
		}
		// p[i] opens the first brace: split its alternatives.
		depth, j, start := 0, i+1, i+1
		var alts []string
		for ; j < len(p); j++ {
			switch p[j] {
			case '\\':
				j++
				continue
			case '[':
				for j++; j < len(p) && p[j] != ']'; j++ {
					if p[j] == '\\' {
						j++
					}
				}
				continue
			case '{':
				depth++
				continue
			case '}':
				if depth > 0 {
					depth--
					continue
				}
			case ',':
				if depth > 0 {
					continue
				}
			default:
				continue
			}
			alts = append(alts, p[start:j])
			start = j + 1
			if p[j] == '}' {
				break
			}
		}
		for _, a := range alts {
			rest, ok := expand(p[:i]+a+p[j+1:], max-len(out))
			if !ok {
				return nil, false
			}
			out = append(out, rest...)
			if len(out) > max {
				return nil, false
			}
		}
		return out, true
	}
	return []string{p}, true
}

// plain reports whether a brace-free pattern is one on which doublestar's
// one-pass search and Glob must agree: every ** is a whole segment, no
// other star run is longer than one, and no bracket expression can match
// '/' (doublestar's search can miss a match such an expression allows).
func plain(e string) bool {
	for i := 0; i < len(e); i++ {
		switch e[i] {
		case '\\':
			i++
		case '[':
			t, err := parseClass(e, i)
			if err != nil {
				return false
			}
			if t.classMatch('/') {
				return false
			}
			i = t.end - 1
		case '*':
			j := i
			for j < len(e) && e[j] == '*' {
				j++
			}
			switch {
			case j-i == 1:
			case j-i == 2 && (i == 0 || e[i-1] == '/') && (j == len(e) || e[j] == '/'):
			default:
				return false
			}
			i = j - 1
		}
	}
	return true
}

// realistic reports whether name is a path git can list: not empty, no
// empty segment, valid UTF-8.
func realistic(name string) bool {
	return name != "" && !strings.HasPrefix(name, "/") && !strings.HasSuffix(name, "/") &&
		!strings.Contains(name, "//") && utf8.ValidString(name)
}

// regexOracle translates a brace-free pattern to the regular expression
// that is its documented meaning (an independent reading of it): stars
// pair up from the left; a pair that starts a segment and ends the
// pattern matches anything, one that starts a segment before a '/' any
// number of segments, the '/' included; any other pair, or a lone star,
// is [^/]*; ? is [^/]; a bracket expression is its set (negated, it
// matches '/' too, as doublestar's does); and a '/' before a pair that
// ends the pattern, or before a pair and a last '/', may also match
// nothing (a/** and a/**/ match a).
func regexOracle(e string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString(`(?s)^(?:`)
	lit := func(r rune) { b.WriteString(regexp.QuoteMeta(string(r))) }
	segStart := true // the byte before i is '/', or i is 0
	for i := 0; i < len(e); {
		switch {
		case e[i] == '\\':
			r, n := utf8.DecodeRuneInString(e[i+1:])
			lit(r)
			segStart = r == '/'
			i += 1 + n
		case e[i] == '[':
			t, _ := parseClass(e, i)
			b.WriteString("[")
			if t.neg {
				b.WriteString("^")
			}
			n := 0
			for _, it := range t.class {
				if it.lo <= it.hi {
					fmt.Fprintf(&b, `\x{%x}-\x{%x}`, it.lo, it.hi)
					n++
				}
			}
			if n == 0 {
				b.WriteString(`\x{10FFFF}`) // an empty set: see below
			}
			b.WriteString("]")
			if n == 0 {
				// Only empty ranges: the set holds nothing (U+10FFFF aside,
				// which no test path holds).
				fixEmpty(&b, t.neg)
			}
			segStart = false
			i = t.end
		case e[i] == '/' && (e[i+1:] == "**" || e[i+1:] == "**/"):
			if e[i+1:] == "**" {
				b.WriteString(`(?:/.*)?`)
			} else {
				b.WriteString(`(?:/(?:[^/]*/)*)?`)
			}
			i = len(e)
		case strings.HasPrefix(e[i:], "**"):
			switch {
			case segStart && i+2 == len(e):
				b.WriteString(`.*`)
			case segStart && e[i+2] == '/':
				b.WriteString(`(?:[^/]*/)*`)
				i++ // the '/' is the pair's
			default:
				b.WriteString(`[^/]*`)
				segStart = false
			}
			i += 2
		case e[i] == '*':
			b.WriteString(`[^/]*`)
			segStart = false
			i++
		case e[i] == '?':
			b.WriteString(`[^/]`)
			segStart = false
			i++
		default:
			r, n := utf8.DecodeRuneInString(e[i:])
			lit(r)
			segStart = r == '/'
			i += n
		}
	}
	b.WriteString(`)$`)
	return regexp.MustCompile(b.String())
}

// meaning is what Glob must answer on a pattern whose expansions are all
// plain, by regexOracle; ok is false outside that set.
func meaning(p, name string) (match, ok bool) {
	es, ok := expand(p, 64)
	if !ok {
		return false, false
	}
	for _, e := range es {
		if regexOracle(e).MatchString(name) {
			return true, true
		}
	}
	return false, true
}

// fixEmpty rewrites the class just written, whose set is empty: it
// matches nothing, or, negated, any rune.
func fixEmpty(b *strings.Builder, neg bool) {
	s := b.String()
	cut := strings.LastIndex(s, "[")
	b.Reset()
	b.WriteString(s[:cut])
	if neg {
		b.WriteString(`.`)
	} else {
		b.WriteString(`[^\x00-\x{10FFFF}]`)
	}
}

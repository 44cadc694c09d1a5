package check

import (
	"bytes"
	"regexp/syntax"
	"unicode/utf8"
)

// exactAnchor is an anchor that matches one literal string, with no case
// folding, optionally only at the start and/or the end of the line: such
// an anchor needs no regular expression.
type exactAnchor struct {
	text           []byte
	atStart, atEnd bool // ^ and $ (without (?m), they hold at the line's ends)
}

// exactLiteral returns pattern as an exactAnchor when it is one: a literal,
// possibly between ^ and $. A pattern that does not parse is not one
// (compiling it reports the error).
func exactLiteral(pattern string) (exactAnchor, bool) {
	if e, ok := plainLiteral(pattern); ok {
		return e, true // most anchors of a real register: nothing to parse (D92)
	}
	return parsedLiteral(pattern)
}

// parsedLiteral is exactLiteral by regexp/syntax's parse.
func parsedLiteral(pattern string) (exactAnchor, bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return exactAnchor{}, false
	}
	return literalOf(re.Simplify())
}

// literalOf is exactLiteral of a parsed and simplified pattern.
func literalOf(re *syntax.Regexp) (exactAnchor, bool) {
	var e exactAnchor
	subs := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		subs = re.Sub
	}
	if len(subs) > 0 && subs[0].Op == syntax.OpBeginText {
		e.atStart, subs = true, subs[1:]
	}
	if len(subs) > 0 && subs[len(subs)-1].Op == syntax.OpEndText {
		e.atEnd, subs = true, subs[:len(subs)-1]
	}
	if len(subs) != 1 || subs[0].Op != syntax.OpLiteral || subs[0].Flags&syntax.FoldCase != 0 || len(subs[0].Rune) == 0 {
		return exactAnchor{}, false
	}
	e.text = []byte(string(subs[0].Rune))
	return e, true
}

// parsedPattern is an anchor parsed and simplified once per run
// (claim.sizePatterns), for what prepareLines reads of it (D92).
type parsedPattern struct {
	src string // the pattern
	re  *syntax.Regexp
}

// exact is exactLiteral of the pattern.
func (p *parsedPattern) exact() (exactAnchor, bool) { return literalOf(p.re) }

// literalAnchor is exactLiteral of the claim's anchor, from the tree
// sizePatterns parsed when there is one: a plain literal is not parsed at
// all, and another anchor once (D92).
func (c *claim) literalAnchor(anchor string) (exactAnchor, bool) {
	if p := c.anchorTree; p != nil && p.src == anchor {
		return literalOf(p.re)
	}
	return exactLiteral(anchor)
}

// analyseAnchor is analyse of the claim's anchor, from the tree
// sizePatterns parsed when there is one.
func (c *claim) analyseAnchor(anchor string) (lit string, insts int) {
	if p := c.anchorTree; p != nil && p.src == anchor {
		return analyseOf(p.re)
	}
	return analyse(anchor)
}

// plainLiteral reads, without regexp/syntax, the literals most anchors
// are: an optional ^, bytes that are no metacharacter or a backslash and
// ASCII punctuation (what regexp.QuoteMeta writes), an optional $. It
// answers only what exactLiteral's parse would (FuzzPlainLiteral), and
// false for everything else, which the parse then decides. Parsing cost
// a 1,000-claim check a tenth of its time (D92).
func plainLiteral(pattern string) (exactAnchor, bool) {
	var e exactAnchor
	p := pattern
	if len(p) > 0 && p[0] == '^' {
		e.atStart, p = true, p[1:]
	}
	if n := len(p); n > 0 && p[n-1] == '$' && !escaped(p, n-1) {
		e.atEnd, p = true, p[:n-1]
	}
	if p == "" || !utf8.ValidString(p) {
		return exactAnchor{}, false
	}
	text := make([]byte, 0, len(p))
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\':
			if i+1 == len(p) || !isASCIIPunct(p[i+1]) {
				return exactAnchor{}, false
			}
			i++
			text = append(text, p[i])
		case isMeta(c):
			return exactAnchor{}, false
		default:
			text = append(text, c)
		}
	}
	e.text = text
	return e, true
}

// escaped reports whether p[i] follows an odd number of backslashes.
func escaped(p string, i int) bool {
	n := 0
	for i > 0 && p[i-1] == '\\' {
		n, i = n+1, i-1
	}
	return n%2 == 1
}

// isMeta reports whether c has a meaning of its own in a pattern (the
// bytes regexp.QuoteMeta escapes).
func isMeta(c byte) bool {
	switch c {
	case '\\', '.', '+', '*', '?', '(', ')', '|', '[', ']', '{', '}', '^', '$':
		return true
	}
	return false
}

// isASCIIPunct reports whether a backslash before c makes it the literal
// c, as regexp/syntax reads it: an ASCII byte that is not a letter, a
// digit, a space or a control character.
func isASCIIPunct(c byte) bool {
	return c > ' ' && c < 0x7f && !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z')
}

// find returns where the anchor first matches line, as [start, end), or
// nil: what the regular expression's FindIndex returns.
func (e *exactAnchor) find(line []byte) []int {
	n := len(e.text)
	switch {
	case e.atStart && e.atEnd:
		if bytes.Equal(line, e.text) {
			return []int{0, n}
		}
	case e.atStart:
		if bytes.HasPrefix(line, e.text) {
			return []int{0, n}
		}
	case e.atEnd:
		if bytes.HasSuffix(line, e.text) {
			return []int{len(line) - n, len(line)}
		}
	default:
		if i := bytes.Index(line, e.text); i >= 0 {
			return []int{i, i + n}
		}
	}
	return nil
}

// analyse returns the literal every match of pattern contains, or "" when
// none can be derived, and the size of its compiled program: the number
// of states the matcher may track at every byte of a line. A claim whose
// literal is absent from a file cannot match it, so the regular
// expression runs only on the few files that contain the literal: the
// cost of a check follows the bytes read, not files times claims.
func analyse(pattern string) (lit string, insts int) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", 0
	}
	return analyseOf(re.Simplify())
}

// analyseOf is analyse of a parsed and simplified pattern.
func analyseOf(re *syntax.Regexp) (lit string, insts int) {
	if prog, err := syntax.Compile(re); err == nil {
		insts = len(prog.Inst)
	}
	return longestLiteral(re), insts
}

func longestLiteral(re *syntax.Regexp) string {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return ""
		}
		return string(re.Rune)
	case syntax.OpCapture:
		return longestLiteral(re.Sub[0])
	case syntax.OpPlus:
		return longestLiteral(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min > 0 {
			return longestLiteral(re.Sub[0])
		}
	case syntax.OpConcat:
		best, run := "", ""
		for _, sub := range re.Sub {
			if sub.Op == syntax.OpLiteral && sub.Flags&syntax.FoldCase == 0 {
				run += string(sub.Rune)
				if len(run) > len(best) {
					best = run
				}
				continue
			}
			run = ""
			// Zero-width assertions do not break a literal run's meaning,
			// but they do separate runs; a required sub-expression may hold
			// a longer literal.
			if s := longestLiteral(sub); len(s) > len(best) {
				best = s
			}
		}
		return best
	}
	return ""
}

// commonBytes are the printable ASCII bytes, tab and newline, most
// common first, of Go and Rust source (counted over a third of the .go
// and .rs files of $GOROOT/src and Debian's rust-src, 2026-12-02). A
// byte not listed (a control byte, a byte of a multi-byte rune) is rarer
// than any listed. The order only steers indexLiteral's search, never
// what it finds.
const commonBytes = " etrnas\t\nio0,lcudfx/pm()._1:\"gh=b2v{}ySTEA64k3ICO8RwMPD5[]NFLVB;9-\\U7*G'!&Hz>`<qW#|+YX%jKQZ$J?^@~"

// byteRank is each byte's place in commonBytes, from the end: 0 for the
// bytes not listed, len(commonBytes) for the most common.
var byteRank = func() (r [256]uint8) {
	for i := range len(commonBytes) {
		r[commonBytes[i]] = uint8(len(commonBytes) - i)
	}
	return r
}()

// indexLiteral is bytes.Index(s, lit). bytes.Index finds its candidates
// by the literal's first byte: an anchor on an indented line (`^    pub
// fn len\(&self\) -> usize \{$`) starts with a blank, the most common
// byte of source, and one that starts pub or fn with a letter nearly as
// common, so it stopped at every indentation, then fell back to a scan
// of the whole file, for each claim on it (a fifth of check's time on
// rust-src, D92). So candidates are found by the literal's rarest byte
// in source (byteRank), with bytes.IndexByte, and each is checked whole.
// Candidates that fail the check are counted: past a few, and a byte of
// the file in 64, the rest is left to bytes.Index, so a file made to
// fail every check costs no more than bytes.Index does.
func indexLiteral(s, lit []byte) int {
	if len(lit) < 2 {
		return bytes.Index(s, lit)
	}
	k := 0 // the offset in lit of its rarest byte
	for i := 1; i < len(lit); i++ {
		if byteRank[lit[i]] < byteRank[lit[k]] {
			k = i
		}
	}
	c := lit[k]
	misses, allowed := 0, 16+len(s)/64
	for from := k; from < len(s); {
		i := bytes.IndexByte(s[from:], c)
		if i < 0 {
			return -1
		}
		at := from + i - k
		if at+len(lit) > len(s) {
			return -1 // and every later candidate ends past s too
		}
		if bytes.Equal(s[at:at+len(lit)], lit) {
			return at
		}
		if misses++; misses > allowed {
			if j := bytes.Index(s[at+1:], lit); j >= 0 {
				return at + 1 + j
			}
			return -1
		}
		from += i + 1
	}
	return -1
}

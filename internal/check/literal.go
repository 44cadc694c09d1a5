package check

import (
	"bytes"
	"regexp/syntax"
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
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return exactAnchor{}, false
	}
	re = re.Simplify()
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
	re = re.Simplify()
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

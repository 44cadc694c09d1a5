package check

import (
	"regexp/syntax"
)

// requiredLiteral returns a string that every match of pattern must contain,
// or "" when none can be derived. A claim whose literal is absent from a
// file cannot match it, so the regular expression runs only on the few files
// that contain the literal: the cost of a check follows the bytes read, not
// files times claims.
func requiredLiteral(pattern string) string {
	lit, _ := analyse(pattern)
	return lit
}

// exactLiteral reports whether pattern matches exactly one string, with no
// case folding, and returns it: such an anchor needs no regular
// expression, its matches are the string's occurrences. A pattern that does
// not parse is not one (compiling it reports the error).
func exactLiteral(pattern string) (string, bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", false
	}
	re = re.Simplify()
	if re.Op != syntax.OpLiteral || re.Flags&syntax.FoldCase != 0 || len(re.Rune) == 0 {
		return "", false
	}
	return string(re.Rune), true
}

// analyse returns the literal every match of pattern contains (see
// requiredLiteral) and the size of its compiled program: the number of
// states the matcher may track at every byte of a line.
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

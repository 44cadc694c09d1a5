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
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return ""
	}
	return longestLiteral(re.Simplify())
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

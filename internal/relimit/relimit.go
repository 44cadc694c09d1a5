// Package relimit bounds the regular expressions a run compiles from
// repository content by the size of their compiled programs (D90).
//
// The byte length of a pattern says little about what it costs: an
// anchor of 4,060 bytes, `a{1000}b{1000}...`, compiles to 580,000
// instructions, and Go's matchers allocate per instruction, per core
// and per copy of the program. What a pattern costs is its program: the
// instructions regexp/syntax compiles it to after Simplify, which are the
// states the matcher tracks at every byte it reads.
package relimit

import (
	"fmt"
	"regexp/syntax"
	"sync"
)

// MaxInsts bounds one pattern's compiled program. Every pattern up to
// the 4,096-byte cell limit without a counted repetition fits
// (one instruction a byte at most); `[a-z]{1000}` is 1,002.
const MaxInsts = 10_000

// MaxRunInsts bounds the compiled programs of one run, over every pattern
// it compiles from the repository's content.
const MaxRunInsts = 1_000_000

// Size returns the number of instructions Go compiles pattern to (with
// syntax.Perl and flags), counted before anything large is built, from
// Go's own estimate on the parsed tree, which is never below the real
// count (FuzzEstimate): a pattern whose estimate is within MaxInsts, or
// past four times it, is not compiled here, and its estimate is returned
// with exact false; one in between is compiled to say exactly by how
// much it passes. An error means the pattern does not parse.
func Size(pattern string, flags syntax.Flags) (n int, exact bool, err error) {
	re, err := syntax.Parse(pattern, syntax.Perl|flags)
	if err != nil {
		return 0, false, err
	}
	return SizeOf(re)
}

// SizeOf is Size of a pattern the caller parsed, so that one parse serves
// the size and what else the caller reads from the tree.
func SizeOf(re *syntax.Regexp) (n int, exact bool, err error) {
	if est := estimate(re) + 4; est <= MaxInsts || est > 4*MaxInsts { // + the program's fail, match and capture
		return int(est), false, nil
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return 0, false, err
	}
	return len(prog.Inst), true, nil
}

// ceiling saturates estimates: nothing past it needs telling apart.
const ceiling = 1 << 40

// estimate is regexp/syntax's calcSize: the instructions a parsed tree
// compiles to, pessimistic for stars, in one walk of the tree.
func estimate(re *syntax.Regexp) int64 {
	var n int64
	switch re.Op {
	case syntax.OpLiteral:
		n = int64(len(re.Rune))
	case syntax.OpCapture, syntax.OpStar:
		n = 2 + estimate(re.Sub[0])
	case syntax.OpPlus, syntax.OpQuest:
		n = 1 + estimate(re.Sub[0])
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			n += estimate(sub)
		}
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			n += estimate(sub)
		}
		n += int64(len(re.Sub))
	case syntax.OpRepeat:
		sub := estimate(re.Sub[0])
		switch {
		case re.Max == -1 && re.Min == 0:
			n = 2 + sub
		case re.Max == -1:
			n = 1 + int64(re.Min)*sub
		default:
			n = int64(re.Max)*sub + int64(re.Max-re.Min)
		}
	}
	return min(max(n, 1), ceiling)
}

// Refusal says why a pattern of n instructions cannot be compiled, in the
// words of a finding: what, and how to fix it; "" when it can.
func Refusal(n int, exact bool) string {
	if n <= MaxInsts {
		return ""
	}
	about := ""
	if !exact {
		about = "about "
	}
	return fmt.Sprintf("compiles to %s%d instructions, over the %d a pattern may compile to (D90): write each counted repetition {n} with a smaller n, or match a literal and leave the repetition out", about, n, MaxInsts)
}

// Run is one run's account of the instructions it compiled (D90). Its
// zero value is an empty account; it is safe for concurrent use, but
// callers take from it in a fixed order so that which pattern is refused
// does not depend on scheduling.
type Run struct {
	mu   sync.Mutex
	used int
}

// Take charges n instructions to the run and reports whether they fit in
// MaxRunInsts; a pattern that does not fit is not charged.
func (r *Run) Take(n int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.used+n > MaxRunInsts {
		return false
	}
	r.used += n
	return true
}

// Used returns the instructions charged so far.
func (r *Run) Used() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.used
}

// RunRefusal says why a pattern of n instructions did not fit in the
// run's account after used, in the words of a finding; the caller adds
// how to fix it.
func RunRefusal(n, used int) string {
	return fmt.Sprintf("compiles to about %d instructions, and the patterns before it already use about %d: a run compiles at most %d (D90)", n, used, MaxRunInsts)
}

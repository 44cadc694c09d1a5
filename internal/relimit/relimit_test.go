package relimit

import (
	"regexp/syntax"
	"strings"
	"testing"
)

func TestSize(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		pattern string
		n       int
		exact   bool
		refused bool
	}{
		{`\bfoo\(\w+\)`, 12, false, false},  // compiles to 10
		{"[a-z]{1000}", 1004, false, false}, // 1,002
		{strings.Repeat("[a-z]{1000}", 10), 10002, true, true},
		{strings.Repeat("a{1000}", 580), 580004, false, true}, // 4,060 bytes
		{"x{2,5}", 12, false, false},                          // 10
	} {
		n, exact, err := Size(tc.pattern, 0)
		if err != nil || n != tc.n || exact != tc.exact || (Refusal(n, exact) != "") != tc.refused {
			t.Errorf("Size(%.30q) = %d, %v, %v (refused %v); want %d, %v, refused %v", tc.pattern, n, exact, err, Refusal(n, exact) != "", tc.n, tc.exact, tc.refused)
		}
	}
	if _, _, err := Size("a(", 0); err == nil {
		t.Error("Size(`a(`) parsed")
	}
}

func TestRunAccount(t *testing.T) {
	t.Parallel()
	var r Run
	if !r.Take(MaxRunInsts-1) || r.Take(2) || !r.Take(1) || r.Used() != MaxRunInsts {
		t.Errorf("the account did not stop at %d: used %d", MaxRunInsts, r.Used())
	}
}

// FuzzEstimate holds the estimate made without compiling to what the
// program is: never below it, so a pattern refused unseen is one that
// compiles past the limit.
func FuzzEstimate(f *testing.F) {
	for _, s := range []string{`a{2,5}`, `(a|b)*c+`, `(?i)k{3}`, `[^a]{0,7}x?`, `(?:)`, `^$\b`, `(a*)*`, `x{3,}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		re, err := syntax.Parse(pattern, syntax.Perl)
		if err != nil {
			return
		}
		est := estimate(re) + 4
		prog, err := syntax.Compile(re.Simplify())
		if err != nil {
			return
		}
		if int64(len(prog.Inst)) > est {
			t.Errorf("%q: estimated %d, compiles to %d", pattern, est, len(prog.Inst))
		}
	})
}

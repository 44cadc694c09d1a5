package check

import (
	"bytes"
	"testing"
)

// FuzzMultiMatcher: the one-pass matcher agrees with bytes.Contains for
// every literal, on any text.
func FuzzMultiMatcher(f *testing.F) {
	f.Add([]byte("func screenFrame( sym12 sym120"), []byte("sym12"), []byte("sym120"), []byte("creen"))
	f.Add([]byte("aaaa"), []byte("aa"), []byte("aaa"), []byte("b"))
	f.Add([]byte("hershe"), []byte("he"), []byte("she"), []byte("hers"))
	f.Fuzz(func(t *testing.T, text, a, b, c []byte) {
		var lits [][]byte
		for _, l := range [][]byte{a, b, c} {
			if len(l) > 0 {
				lits = append(lits, l)
			}
		}
		for _, m := range []*multiMatcher{newMultiMatcher(lits), newSparseMatcher(lits)} {
			found := m.match(text)
			for i, l := range lits {
				if (found[i] != nil) != bytes.Contains(text, l) {
					t.Fatalf("literal %q in %q: matcher %v, bytes.Contains %v", l, text, found[i] != nil, bytes.Contains(text, l))
				}
				// The offsets are the first occurrences' last bytes.
				off := 0
				for _, e := range found[i] {
					k := bytes.Index(text[off:], l)
					if k < 0 || int(e) != off+k+len(l)-1 {
						t.Fatalf("literal %q in %q: offsets %v", l, text, found[i])
					}
					off += k + 1
				}
			}
		}
	})
}

// newSparseMatcher builds the automaton with sparse edges whatever its
// size, so the fuzz target covers both representations.
func newSparseMatcher(lits [][]byte) *multiMatcher {
	saved := denseLimit
	denseLimit = 0
	defer func() { denseLimit = saved }()
	return newMultiMatcher(lits)
}

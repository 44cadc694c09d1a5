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
		found := newMultiMatcher(lits).match(text)
		for i, l := range lits {
			if found[i] != bytes.Contains(text, l) {
				t.Fatalf("literal %q in %q: matcher %v, bytes.Contains %v", l, text, found[i], !found[i])
			}
		}
	})
}

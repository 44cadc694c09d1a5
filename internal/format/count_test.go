package format

import "testing"

func TestCount(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		n          int
		noun, want string
	}{
		{0, "claim", "0 claims"}, {1, "claim", "1 claim"}, {2, "decision file", "2 decision files"},
		{1, "mutant", "1 mutant"}, {3, "match", "3 matches"}, {2, "index", "2 indexes"}, {2, "row", "2 rows"},
	} {
		if got := Count(c.n, c.noun); got != c.want {
			t.Errorf("Count(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
	for _, c := range []struct {
		n          int
		verb, want string
	}{{1, "agree", "agrees"}, {2, "agree", "agree"}, {0, "differ", "differ"}, {1, "be", "is"}, {4, "be", "are"}} {
		if got := Verb(c.n, c.verb); got != c.want {
			t.Errorf("Verb(%d, %q) = %q, want %q", c.n, c.verb, got, c.want)
		}
	}
}

package check

import (
	"strings"
	"testing"
)

// TestIndexListsEveryRule: explain with no id lists each rule once, in id
// order, with its name and the first line of its documentation.
func TestIndexListsEveryRule(t *testing.T) {
	t.Parallel()
	idx := Index(Rules)
	lines := strings.Split(strings.TrimSuffix(idx, "\n"), "\n")
	if len(lines) != len(Rules)+2 {
		t.Fatalf("%d lines for %d rules:\n%s", len(lines), len(Rules), idx)
	}
	prev := ""
	for i, l := range lines[:len(Rules)] {
		f := strings.Fields(l)
		if len(f) < 3 || f[0] <= prev {
			t.Fatalf("line %d %q: want an id after %q, a name and a summary", i+1, l, prev)
		}
		prev = f[0]
		r := ruleByID(f[0])
		if r == nil || f[1] != r.Name || !strings.HasSuffix(l, "  "+r.Summary()) || r.Summary() == "" {
			t.Errorf("line %d %q: not rule %s's name and summary", i+1, l, f[0])
		}
	}
}

func ruleByID(id string) *Rule {
	for _, r := range Rules {
		if r.ID == id {
			return r
		}
	}
	return nil
}

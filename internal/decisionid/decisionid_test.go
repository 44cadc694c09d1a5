package decisionid

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestParseID: the grammar (D72) accepts D0 and one lowercase letter,
// and refuses leading zeros, upper-case and double suffixes, and numbers
// too long for an int.
func TestParseID(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want ID
		ok   bool
	}{
		{"D1", ID{N: 1}, true},
		{"D0", ID{N: 0}, true},
		{"D4a", ID{N: 4, Suffix: "a"}, true},
		{"D130007", ID{N: 130007}, true},
		{"D999999999", ID{N: 999999999}, true},
		{"D1000000000", ID{}, false},
		{"D01", ID{}, false},
		{"D00", ID{}, false},
		{"D4A", ID{}, false},
		{"D4ab", ID{}, false},
		{"D", ID{}, false},
		{"Da", ID{}, false},
		{"d4", ID{}, false},
		{" D4", ID{}, false},
		{"D-1", ID{}, false},
	}
	for _, c := range cases {
		got, ok := Parse(c.in)
		if ok != c.ok || got != c.want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v, %v", c.in, got, ok, c.want, c.ok)
		}
		if ok && got.String() != c.in {
			t.Errorf("Parse(%q).String() = %q", c.in, got.String())
		}
	}
}

// TestCompareIDs: D0 < D4 < D4a < D4b < D5 < D10, and what is not an id
// sorts after every id.
func TestCompareIDs(t *testing.T) {
	t.Parallel()
	got := []string{"D10", "x", "D4a", "D5", "D0", "D4", "D4b", "D1"}
	slices.SortFunc(got, Compare)
	want := []string{"D0", "D1", "D4", "D4a", "D4b", "D5", "D10", "x"}
	if !slices.Equal(got, want) {
		t.Errorf("sorted %v, want %v", got, want)
	}
}

// FuzzParseID: Parse never panics, accepts exactly what Pattern
// accepts (within maxIDDigits), and renders an accepted id back as it was
// written.
func FuzzParseID(f *testing.F) {
	for _, s := range []string{"D0", "D4a", "D12", "D01", "D4ab", "D1000000000", "D"} {
		f.Add(s)
	}
	wholeIDRE := regexp.MustCompile(`^` + Pattern + `$`)
	f.Fuzz(func(t *testing.T, s string) {
		id, ok := Parse(s)
		if ok && !wholeIDRE.MatchString(s) {
			t.Fatalf("Parse(%q) accepted what Pattern refuses", s)
		}
		if !ok && wholeIDRE.MatchString(s) && len(strings.TrimRight(s[1:], "abcdefghijklmnopqrstuvwxyz")) <= maxIDDigits {
			t.Fatalf("Parse(%q) refused an id of the grammar", s)
		}
		if ok && id.String() != s {
			t.Fatalf("Parse(%q).String() = %q", s, id.String())
		}
		if ok && (id.N < 0 || len(id.Suffix) > 1) {
			t.Fatalf("Parse(%q) = %+v", s, id)
		}
		if !ok && Valid(s) {
			t.Fatalf("Valid(%q) but Parse refused it", s)
		}
	})
}

package register

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
		got, ok := ParseID(c.in)
		if ok != c.ok || got != c.want {
			t.Errorf("ParseID(%q) = %+v, %v; want %+v, %v", c.in, got, ok, c.want, c.ok)
		}
		if ok && got.String() != c.in {
			t.Errorf("ParseID(%q).String() = %q", c.in, got.String())
		}
	}
}

// TestCompareIDs: D0 < D4 < D4a < D4b < D5 < D10, and what is not an id
// sorts after every id.
func TestCompareIDs(t *testing.T) {
	t.Parallel()
	got := []string{"D10", "x", "D4a", "D5", "D0", "D4", "D4b", "D1"}
	slices.SortFunc(got, CompareIDs)
	want := []string{"D0", "D1", "D4", "D4a", "D4b", "D5", "D10", "x"}
	if !slices.Equal(got, want) {
		t.Errorf("sorted %v, want %v", got, want)
	}
}

// TestIDPatternReaders: every reader of a decision id built from
// IDPattern reads D0 and D4a: a register id cell, a file name, a
// reference with a clause.
func TestIDPatternReaders(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"D0", "D4a", "D12"} {
		if m := idCellRE.FindStringSubmatch("**" + id + "**"); m == nil || m[1] != id {
			t.Errorf("id cell **%s** read as %v", id, m)
		}
		if m := FileNameRE.FindStringSubmatch(id + "-title.md"); m == nil || m[1] != id {
			t.Errorf("file name %s-title.md read as %v", id, m)
		}
		if m := refRE.FindStringSubmatch(id + "(C2)"); m == nil || m[1] != id {
			t.Errorf("reference %s(C2) read as %v", id, m)
		}
	}
	if regexp.MustCompile(`^` + IDPattern + `$`).MatchString("D04") {
		t.Error("IDPattern accepts D04")
	}
}

// FuzzParseID: ParseID never panics, accepts exactly what IDPattern
// accepts (within nine digits), and renders an accepted id back as it was
// written.
func FuzzParseID(f *testing.F) {
	for _, s := range []string{"D0", "D4a", "D12", "D01", "D4ab", "D1000000000", "D"} {
		f.Add(s)
	}
	wholeIDRE := regexp.MustCompile(`^` + IDPattern + `$`)
	const maxIDDigits = 9
	f.Fuzz(func(t *testing.T, s string) {
		id, ok := ParseID(s)
		if ok && !wholeIDRE.MatchString(s) {
			t.Fatalf("ParseID(%q) accepted what IDPattern refuses", s)
		}
		if !ok && wholeIDRE.MatchString(s) && len(strings.TrimRight(s[1:], "abcdefghijklmnopqrstuvwxyz")) <= maxIDDigits {
			t.Fatalf("ParseID(%q) refused an id of the grammar", s)
		}
		if ok && id.String() != s {
			t.Fatalf("ParseID(%q).String() = %q", s, id.String())
		}
		if ok && (id.N < 0 || len(id.Suffix) > 1) {
			t.Fatalf("ParseID(%q) = %+v", s, id)
		}
		if !ok && IsID(s) {
			t.Fatalf("IsID(%q) but ParseID refused it", s)
		}
	})
}

package repo

import (
	"fmt"
	"testing"
)

func TestParseHunk(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want Hunk
		bad  bool
	}{
		{in: "@@ -4 +4 @@", want: Hunk{4, 1, 4, 1}},
		{in: "@@ -2,2 +1,0 @@ func f() {", want: Hunk{2, 2, 1, 0}},
		{in: "@@ -0,0 +1,3 @@", want: Hunk{0, 0, 1, 3}},
		{in: "@@ -x +1 @@", bad: true},
		{in: "@@ -1,4294967296 +1 @@", bad: true},
		{in: "@@ -1 +1", bad: true},
		{in: "@@@ -1 -1 +1 @@@", bad: true},
	} {
		h, err := ParseHunk(c.in)
		if (err != nil) != c.bad || err == nil && h != c.want {
			t.Errorf("ParseHunk(%q) = %+v, %v; want %+v (refused: %v)", c.in, h, err, c.want, c.bad)
		}
	}
}

// FuzzParseHunk: a header is read or refused, never a panic; what is read
// reads back the same from its canonical spelling, within range.
func FuzzParseHunk(f *testing.F) {
	for _, s := range []string{"@@ -4 +4 @@", "@@ -2,2 +1,0 @@ x", "@@ -1,4294967296 +1 @@", "@@ - +@@", "@@ -1,2147483647 +0 @@"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := ParseHunk(s)
		if err != nil {
			return
		}
		if h.OldStart < 0 || h.OldLines < 0 || h.NewStart < 0 || h.NewLines < 0 || h.OldStart+h.OldLines > 1<<31 || h.NewStart+h.NewLines > 1<<31 {
			t.Fatalf("%q read as %+v", s, h)
		}
		again, err := ParseHunk(fmt.Sprintf("@@ -%d,%d +%d,%d @@", h.OldStart, h.OldLines, h.NewStart, h.NewLines))
		if err != nil || again != h {
			t.Fatalf("%q read as %+v, its canonical spelling as %+v, %v", s, h, again, err)
		}
	})
}

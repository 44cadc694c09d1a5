package author

import (
	"strings"
	"testing"
)

func TestAddSupersededBy(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want, err string }{
		{"---\nid: D2\n---\n# x\n", "---\nid: D2\nsuperseded-by: [D5]\n---\n# x\n", ""},
		{"---\nid: D2\nsuperseded-by: [D4]\n---\n", "---\nid: D2\nsuperseded-by: [D4, D5]\n---\n", ""},
		{"---\nid: D2\nsuperseded-by: [D5]\n---\n", "---\nid: D2\nsuperseded-by: [D5]\n---\n", ""},
		{"---\nid: D2\nsuperseded-by:\n  - D4\n---\n", "", "not a [list] on one line"},
		{"# no front matter\n", "", "no front matter"},
	} {
		got, err := addSupersededBy([]byte(tt.in), "D5")
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%q: err %v, want %q", tt.in, err, tt.err)
		case tt.err == "" && (err != nil || string(got) != tt.want):
			t.Errorf("%q: got %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

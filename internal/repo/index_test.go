package repo

import (
	"slices"
	"strings"
	"testing"
)

// TestListIndex: git's ls-files -s output becomes the sorted universe
// and the index modes; a path in conflict (several stages) is listed
// once with its last stage's mode, in git's order or not.
func TestListIndex(t *testing.T) {
	t.Parallel()
	rec := func(mode, stage, path string) string {
		return mode + " 0123456789012345678901234567890123456789 " + stage + "\t" + path + "\x00"
	}
	for _, tc := range []struct {
		name  string
		out   string
		files []string
		modes map[string]string
	}{
		{"empty", "", nil, nil},
		{"sorted", rec("100644", "0", "a.go") + rec("100755", "0", "b/run.sh") + rec("120000", "0", "c"),
			[]string{"a.go", "b/run.sh", "c"}, map[string]string{"a.go": "100644", "b/run.sh": "100755", "c": "120000", "d": ""}},
		{"conflict", rec("100644", "1", "a.go") + rec("100644", "2", "a.go") + rec("100755", "3", "a.go") + rec("100644", "0", "b.go"),
			[]string{"a.go", "b.go"}, map[string]string{"a.go": "100755", "b.go": "100644"}},
		{"unsorted", rec("100644", "0", "z.go") + rec("100644", "1", "a.go") + rec("100755", "2", "a.go"),
			[]string{"a.go", "z.go"}, map[string]string{"a.go": "100755", "z.go": "100644"}},
		{"a record without a tab", "junk\x00" + rec("100644", "0", "a b\tc.go"),
			[]string{"a b\tc.go"}, map[string]string{"a b\tc.go": "100644", "junk": ""}},
	} {
		r := &Repo{}
		r.listIndex(tc.out)
		if !slices.Equal(r.Files, tc.files) {
			t.Errorf("%s: files %q, want %q", tc.name, r.Files, tc.files)
		}
		for p, want := range tc.modes {
			if got := r.IndexMode(p); got != want {
				t.Errorf("%s: IndexMode(%q) = %q, want %q", tc.name, p, got, want)
			}
			if got := r.Has(p); got != (want != "" || slices.Contains(tc.files, p)) {
				t.Errorf("%s: Has(%q) = %v", tc.name, p, got)
			}
		}
		if strings.Contains(tc.name, "sorted") && !slices.IsSorted(r.Files) {
			t.Errorf("%s: files not sorted: %q", tc.name, r.Files)
		}
	}
}

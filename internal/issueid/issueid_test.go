package issueid

import (
	"strings"
	"testing"
)

func TestSplitID(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		id, prefix, rest string
		ok               bool
	}{
		{"dk-x7q", "dk", "x7q", true},
		{"bd-au0.7", "bd", "au0.7", true},
		{"hq-cv-d46qe", "hq", "cv-d46qe", true},
		{"ub_x-1", "ub_x", "1", true},
		{"dk", "", "", false},
		{"-x", "", "", false},
		{"dk-", "", "", false},
		{"dk-.x", "", "", false},
		{"1k-x", "", "", false},
		{"dk-" + strings.Repeat("a", MaxIDLen-3), "dk", strings.Repeat("a", MaxIDLen-3), true},
		{"dk-" + strings.Repeat("a", MaxIDLen-2), "", "", false},
	} {
		p, r, ok := SplitID(tc.id)
		if p != tc.prefix || r != tc.rest || ok != tc.ok {
			t.Errorf("SplitID(%q) = %q, %q, %v; want %q, %q, %v", tc.id, p, r, ok, tc.prefix, tc.rest, tc.ok)
		}
	}
}

func TestValidPrefixAndToken(t *testing.T) {
	t.Parallel()
	for p, ok := range map[string]bool{"dk": true, "a": true, "a123456789abcdefg": false, "a123456789abcdef": true, "Dk": false, "1a": false, "": false, "d-k": false} {
		if err := ValidPrefix(p); (err == nil) != ok {
			t.Errorf("ValidPrefix(%q) = %v, want ok=%v", p, err, ok)
		}
	}
	for s, ok := range map[string]bool{"open": true, "in_progress": true, "wont-fix": true, "Open": false, "1x": false, "": false, strings.Repeat("a", MaxTokenLen): true, strings.Repeat("a", MaxTokenLen+1): false} {
		if ValidToken(s) != ok {
			t.Errorf("ValidToken(%q) = %v, want %v", s, !ok, ok)
		}
	}
}

// FuzzSplitID: an id SplitID accepts is its prefix, a dash and its rest,
// within MaxIDLen; the prefix never holds a dash.
func FuzzSplitID(f *testing.F) {
	for _, s := range []string{"dk-x7q", "bd-au0.7", "hq-cv-d46qe", "-", "a-b-c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		p, r, ok := SplitID(id)
		if !ok {
			return
		}
		if p+"-"+r != id || len(id) > MaxIDLen || strings.Contains(p, "-") || p == "" || r == "" {
			t.Fatalf("SplitID(%q) = %q, %q", id, p, r)
		}
	})
}

package impact

import (
	"strings"
	"testing"
)

// TestValidLinks: --links is an http(s) URL with {commit}, and nothing
// that would end a Markdown link.
func TestValidLinks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"", true},
		{"https://github.com/o/r/blob/{commit}/", true},
		{"http://git.example.invalid/o/r/-/blob/{commit}/", true},
		{"https://github.com/o/r/blob/main/", false},
		{"javascript:alert(1)//{commit}", false},
		{"file:///etc/{commit}/", false},
		{"https:///{commit}/", false},
		{"https://x/{commit}/a b/", false},
		{"https://x/{commit})[y](z", false},
		{"https://x/{commit}/<img>", false},
		{"https://x/{commit}/\"q\"", false},
	} {
		if err := ValidLinks(tc.in); (err == nil) != tc.ok {
			t.Errorf("ValidLinks(%q) = %v, want ok %v", tc.in, err, tc.ok)
		}
	}
}

// TestLinkEscapesPath: a path from the repository cannot end the link it
// is in, nor add markup: each segment is percent-encoded, parentheses too.
func TestLinkEscapesPath(t *testing.T) {
	t.Parallel()
	r := Result{HeadCommit: "h", BaseCommit: "b", links: "https://x/{commit}/"}
	for _, tc := range []struct {
		side, path string
		line       int
		want       string
	}{
		{SideHead, "docs/D1.md", 0, "[t](https://x/h/docs/D1.md)"},
		{SideBase, "src/a.go", 7, "[t](https://x/b/src/a.go#L7)"},
		{SideHead, "a (b)/c d.go", 2, "[t](https://x/h/a%20%28b%29/c%20d.go#L2)"},
		{SideHead, "e)[x](javascript:y\n.go", 1, "[t](https://x/h/e%29%5Bx%5D%28javascript:y%0A.go#L1)"},
	} {
		got := r.link("t", tc.side, tc.path, tc.line)
		if got != tc.want {
			t.Errorf("link(%q) = %s, want %s", tc.path, got, tc.want)
		}
		if strings.ContainsAny(strings.TrimSuffix(strings.TrimPrefix(got, "[t]("), ")"), " ()<>\n") {
			t.Errorf("link(%q) = %s holds a character that ends a link", tc.path, got)
		}
	}
	if got := (Result{HeadCommit: "h"}).link("t", SideHead, "a.go", 1); got != "t" {
		t.Errorf("without --links: %s, want the text alone", got)
	}
}

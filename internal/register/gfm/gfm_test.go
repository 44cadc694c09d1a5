package gfm

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// render is src as HTML by a goldmark with ext alone.
func render(t testing.TB, ext goldmark.Extender, src []byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(ext)).Convert(src, &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// pairs are each extension of this copy beside goldmark's own.
var pairs = []struct {
	name       string
	ours, gold goldmark.Extender
}{
	{"GFM", GFM, extension.GFM},
	{"Table", Table, extension.Table},
	{"Strikethrough", Strikethrough, extension.Strikethrough},
	{"TaskList", TaskList, extension.TaskList},
	{"Linkify", Linkify, extension.Linkify},
}

// sameAsGoldmark fails t when an extension of this copy renders src other
// than goldmark's extension does.
func sameAsGoldmark(t testing.TB, name string, src []byte) {
	t.Helper()
	for _, p := range pairs {
		if got, want := render(t, p.ours, src), render(t, p.gold, src); got != want {
			t.Fatalf("%s: %s renders differently from goldmark's:\n got %q\nwant %q", name, p.name, got, want)
		}
	}
}

// TestSameAsGoldmark renders every Markdown file of the repository (the
// register, the guides, the test data: tables, links, lists, hostile
// input) with this copy and with goldmark's extension package: the HTML
// must be the same, byte for byte.
func TestSameAsGoldmark(t *testing.T) {
	t.Parallel()
	n := 0
	err := filepath.WalkDir("../../..", func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && (e.Name() == ".git" || e.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if e.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		sameAsGoldmark(t, p, src)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("rendered %d Markdown files, want the repository's", n)
	}
	sameAsGoldmark(t, "samples", []byte("a www.example.com/x?y=1 b https://example.com:8080/p(q) c ftp://x.org d mail@example.com\n\n- [x] done\n- [ ] not\n\n~~gone~~ ~one~\n\n| a | b |\n|:-|-:|\n| \\| | `x\\|y` |\n"))
}

// FuzzSameAsGoldmark holds the copy to goldmark's extension on any input.
func FuzzSameAsGoldmark(f *testing.F) {
	f.Add([]byte("| a | b |\n|:-:|--|\n| 1 | 2 | 3 |\n"))
	f.Add([]byte("see https://example.com/a_(b) and www.x.org."))
	f.Add([]byte("- [X] a\n  - [ ] b\n\n~~x~~"))
	f.Fuzz(func(t *testing.T, src []byte) {
		sameAsGoldmark(t, "input", src)
	})
}

package main

import (
	"os"
	"strings"
	"testing"
)

// TestSplice: a partial run replaces only the sections it measured and
// keeps the page's header, headline list and hand-kept sections in place;
// a full run replaces the header too; a section new to the page goes
// before its last one.
func TestSplice(t *testing.T) {
	t.Parallel()
	page := "# Benchmarks\nold header\n\n" + headlineHeading + "\nold headlines\n\n## A\nold a\n```\n## not a heading\n```\n\n## Hand kept\nby hand\n\n## Go microbenchmarks\ngo test\n"
	run := "# Benchmarks\nnew header\n\n" + headlineHeading + "\nnew headlines\n\n## A\nnew a\n\n## B\nnew b\n\n## Go microbenchmarks\ngo test\n"
	for _, tc := range []struct {
		full       bool
		want, gone []string
	}{
		{false, []string{"old header", "old headlines", "new a", "by hand", "new b\n\n## Go microbenchmarks"}, []string{"old a", "new header", "new headlines", "## not a heading\n```\n\n## Hand"}},
		{true, []string{"new header", "new headlines", "new a", "by hand", "new b\n\n## Go microbenchmarks"}, []string{"old a", "old header", "old headlines"}},
	} {
		got := splice(page, run, tc.full)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("full=%v: %q missing:\n%s", tc.full, w, got)
			}
		}
		for _, g := range tc.gone {
			if strings.Contains(got, g) {
				t.Errorf("full=%v: %q kept:\n%s", tc.full, g, got)
			}
		}
		if strings.Count(got, "## Go microbenchmarks") != 1 || strings.Count(got, "## A\n") != 1 {
			t.Errorf("full=%v: a section doubled:\n%s", tc.full, got)
		}
	}
	if got := splice("", run, false); got != run {
		t.Errorf("an empty page is the run itself")
	}
}

// TestSpliceOwnPage: the published page spliced with itself is itself,
// whole or in part.
func TestSpliceOwnPage(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../docs/benchmarks.md")
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, full := range []bool{false, true} {
		if got := splice(page, page, full); got != page {
			t.Errorf("full=%v: the page spliced with itself changed", full)
		}
	}
}

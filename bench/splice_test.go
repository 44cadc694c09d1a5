package main

import (
	"os"
	"strings"
	"testing"
)

// TestSplice: a partial run replaces only the sections it measured and
// keeps the page's header and hand-kept sections in place (its headline
// section's text is intro.md's, the run's: TestSpliceHeadlines);
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
		{false, []string{"old header", "new headlines", "new a", "by hand", "new b\n\n## Go microbenchmarks"}, []string{"old a", "new header", "old headlines", "## not a heading\n```\n\n## Hand"}},
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

// TestSpliceHeadlines: a partial run replaces the headlines of the tables
// it measured, keeps the others, and orders them as their tables are on
// the page; the section's text around the list is the run's (intro.md).
func TestSpliceHeadlines(t *testing.T) {
	t.Parallel()
	page := "# Benchmarks\n\n" + headlineHeading + "\nold how to run\n\nHeadline figures, generated from this run's tables (yesterday):\n\n" +
		"- old a figure (see *A table*).\n- old b figure (*B table*; run of yesterday).\n\n" +
		"## A table, in full\nold a\n\n## B table\nold b\n\n## Go microbenchmarks\ngo test\n"
	run := "# Benchmarks\n\n" + headlineHeading + "\nhow to run\n\n" + headlineLead + "\n\n" +
		"- new b figure (*B table*; run of today).\n- new c figure (*C table*; run of today).\n\n" +
		"## B table\nnew b\n\n## C table\nnew c\n\n## Go microbenchmarks\ngo test\n"
	got := splice(page, run, false)
	want := "how to run\n\n" + headlineLead + "\n\n- old a figure (see *A table*).\n- new b figure (*B table*; run of today).\n- new c figure (*C table*; run of today).\n\n## A table"
	if !strings.Contains(got, want) {
		t.Errorf("headlines not merged in table order:\n%s", got)
	}
	for _, gone := range []string{"old b figure", "old how to run", "(yesterday):"} {
		if strings.Contains(got, gone) {
			t.Errorf("%q kept:\n%s", gone, got)
		}
	}
	// A run that measured no table with a headline keeps the page's lines
	// under the run's text.
	quiet := "# Benchmarks\n\n" + headlineHeading + "\nhow to run\n\n" + headlineLead + "\n\n## D table\nnew d\n\n## Go microbenchmarks\ngo test\n"
	got = splice(page, quiet, false)
	want = "how to run\n\n" + headlineLead + "\n\n- old a figure (see *A table*).\n- old b figure (*B table*; run of yesterday).\n\n## A table"
	if !strings.Contains(got, want) {
		t.Errorf("the page's lines not kept:\n%s", got)
	}
}

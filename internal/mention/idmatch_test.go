package mention

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/trackerformat"
)

// idPatterns are Pattern's patterns for the matcher's tests: the
// github format, one prefix, and prefixes that end or start in bytes a
// resume point can hold (z after a suffix letter, x- inside a suffix).
func idPatterns() map[string]*regexp.Regexp {
	prefixes := func(p ...string) config.Config {
		var c config.Config
		c.Tracker.Prefixes = p
		return c
	}
	var gh config.Config
	gh.Tracker.Format = trackerformat.GitHub
	return map[string]*regexp.Regexp{
		"github":  Pattern(gh),
		"dk":      Pattern(prefixes("dk")),
		"dk,z,ab": Pattern(prefixes("dk", "z", "ab", "dkx")),
		"quoted":  Pattern(prefixes("c++", "a|b", `x\y`, "k-")),
	}
}

// streamed collects what the matcher yields.
func streamed(m idMatcher, text []byte) [][]int {
	var out [][]int
	for loc := range m.all(text, nil) {
		out = append(out, loc)
	}
	return out
}

// matchers are the matcher of re with windows of every size from the
// smallest it takes up, and the default: a window boundary at every
// offset of a short text; each with the prefilter and without it.
func matchers(re *regexp.Regexp) []idMatcher {
	out := []idMatcher{newIDMatcher(re, 4+8, idWindow)}
	for w := 1; w <= 48; w++ {
		m := out[0]
		m.window = w
		plain := m
		plain.lits = nil
		out = append(out, m, plain)
	}
	return out
}

// TestPatternsArePrefiltered: every pattern Pattern writes gives the
// matcher its literals (so the tests above compare the prefilter with
// the regexp), and a pattern of another shape none.
func TestPatternsArePrefiltered(t *testing.T) {
	t.Parallel()
	for name, re := range idPatterns() {
		if m := newIDMatcher(re, 12, idWindow); m.lits == nil {
			t.Errorf("%s: %s has no literals", name, re)
		}
	}
	want := map[string]string{"dk,z,ab": "dk- z- ab- dkx-", "quoted": `c++- a|b- x\y- k--`, "github": "#"}
	for name, lits := range want {
		m := newIDMatcher(idPatterns()[name], 12, idWindow)
		var got []string
		for _, l := range m.lits {
			got = append(got, string(l))
		}
		if strings.Join(got, " ") != lits {
			t.Errorf("%s: literals %q, want %q", name, got, lits)
		}
	}
	for _, expr := range []string{`\b(dk)-x`, `\b(\d)-([A-Za-z0-9]+(?:\.[0-9]+)*|\?+|_+)`, `\b(a(b))-([A-Za-z0-9]+(?:\.[0-9]+)*|\?+|_+)`} {
		if m := newIDMatcher(regexp.MustCompile(expr), 12, idWindow); m.lits != nil {
			t.Errorf("%s: literals %q, want none", expr, m.lits)
		}
	}
}

// TestIDMatcherAsFindAll: the matcher yields exactly what one
// FindAllSubmatchIndex over the whole text finds, at the resume points
// where reading the rest as a text of its own would differ.
func TestIDMatcherAsFindAll(t *testing.T) {
	t.Parallel()
	texts := []string{
		"",
		"dk-1",
		"see dk-1 and dk-2.",
		"dk-__dk-1",    // \b after _ : no second id
		"dk-??dk-1",    // \b after ? : a second id
		"dk-abz-1",     // z-1 inside a match is not an id
		"dk-ab.5.dk-1", // the hierarchical suffix, then \b after .
		"dk-ab.dk-1",   // . not followed by a digit ends the suffix
		"#1#2 (#3) a#4 &#5 /#6 ##7 #8",
		"#12x #3",        // \b after the digits
		"dk-1\ndk-2\n#9", // lines
		"xdk-1 dk-1_ dk-1é dk-1\xff\xfedk-2 é#4 \xc3#5",
		strings.Repeat("dk-zzz ", 50),
		strings.Repeat("dk-??", 50),
		strings.Repeat("#1 ", 50),
		"dkx-1 dk-x1 ab-z-1 z-ab-2",
		"c++-1 a|b-2 x\\y-3 k--4 k-k--5 ##1 #",
	}
	for name, re := range idPatterns() {
		for _, m := range matchers(re) {
			for _, text := range texts {
				want := re.FindAllSubmatchIndex([]byte(text), -1)
				if got := streamed(m, []byte(text)); !slices.EqualFunc(got, want, slices.Equal) {
					t.Errorf("%s, window %d, on %q: matcher %v, FindAllSubmatchIndex %v", name, m.window, text, got, want)
				}
			}
		}
	}
}

// TestIDMatcherStops: a consumer that stops is not called again.
func TestIDMatcherStops(t *testing.T) {
	t.Parallel()
	m := newIDMatcher(idPatterns()["dk"], 10, idWindow)
	n := 0
	for range m.all([]byte(strings.Repeat("dk-1 ", 100)), nil) {
		if n++; n == 3 {
			break
		}
	}
	if n != 3 {
		t.Fatalf("yielded %d, want 3", n)
	}
}

// FuzzIDMatcher compares the matcher with one FindAllSubmatchIndex over
// the whole text, for each of Pattern's patterns.
func FuzzIDMatcher(f *testing.F) {
	for _, s := range []string{"dk-__dk-1", "#1#2", "dk-abz-1 z-2", "dk-ab.5.dk-1", "é#4 \xc3#5 dk-1\xffdk-2", "\xe2\x82#1 \xf0\xe2\x82\xac#2 c++-1 k--2"} {
		f.Add(s, uint8(5))
	}
	res := idPatterns()
	f.Fuzz(func(t *testing.T, text string, window uint8) {
		for name, re := range res {
			want := re.FindAllSubmatchIndex([]byte(text), -1)
			m := newIDMatcher(re, 4+8, idWindow)
			m.window = 1 + int(window)%64
			plain := m
			plain.lits = nil
			for _, m := range []idMatcher{m, plain} {
				if got := streamed(m, []byte(text)); !slices.EqualFunc(got, want, slices.Equal) {
					t.Fatalf("%s, window %d, prefilter %t, on %q: matcher %v, FindAllSubmatchIndex %v", name, m.window, m.lits != nil, text, got, want)
				}
			}
		}
	})
}

// BenchmarkIDMatcher times the matcher against one FindAllSubmatchIndex
// on a line naming an id 200,000 times (the shape of bench/run.sh --only
// budget's 31 MB input, smaller).
func BenchmarkIDMatcher(b *testing.B) {
	re := idPatterns()["dk"]
	line := []byte(strings.Repeat("dk-zzz ", 200_000))
	b.Run("matcher", func(b *testing.B) {
		m := newIDMatcher(re, 10, idWindow)
		for b.Loop() {
			n := 0
			for range m.all(line, nil) {
				n++
			}
		}
	})
	b.Run("FindAllSubmatchIndex", func(b *testing.B) {
		for b.Loop() {
			_ = re.FindAllSubmatchIndex(line, -1)
		}
	})
}

// TestIDMatcherAsksBetweenWindows: in a text with no id the matcher asks
// stop between windows, with the offset reached, and ends when it says
// so; it is not one search over the whole text (D90).
func TestIDMatcherAsksBetweenWindows(t *testing.T) {
	t.Parallel()
	m := newIDMatcher(idPatterns()["dk"], 10, 64)
	text := []byte(strings.Repeat("word ", 1000))
	var asked []int
	for range m.all(text, func(at int) bool { asked = append(asked, at); return len(asked) == 3 }) {
		t.Fatal("yielded a match in a text without one")
	}
	if len(asked) != 3 || !slices.IsSorted(asked) || asked[2] >= len(text)/2 {
		t.Fatalf("asked at %v, want three offsets early in %d bytes", asked, len(text))
	}
}

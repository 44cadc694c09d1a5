package glob

import (
	"strings"
	"testing"
	"time"

	"github.com/bmatcuk/doublestar/v4"
)

// TestGlob: what a glob matches, as doublestar does, and where Glob differs
// from doublestar's one-pass search, on purpose (the Glob comment).
func TestGlob(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pat, name string
		want      bool
		ds        bool // doublestar.Match's answer, when it differs from want
		differs   bool
	}{
		{pat: "src/*.go", name: "src/a.go", want: true},
		{pat: "src/a.go", name: "src/a.go", want: true}, // a literal: the one path it spells
		{pat: "src/a.go", name: "src/a.gox", want: false},
		{pat: "src/a.go", name: "src/a.go/b", want: false},
		{pat: "src/a.go", name: "src", want: false},
		{pat: "src/", name: "src", want: false},
		{pat: "dé/ü.go", name: "dé/ü.go", want: true},
		{pat: "src/*.go", name: "src/a/b.go", want: false},
		{pat: "src/**/*.go", name: "src/a.go", want: true},
		{pat: "src/**/*.go", name: "src/a/b/c.go", want: true},
		{pat: "src/**", name: "src", want: true}, // the directory itself
		{pat: "src/**", name: "src/a/b", want: true},
		{pat: "**/*_test.go", name: "a/b_test.go", want: true},
		{pat: "{cmd,internal}/**/*.go", name: "internal/x/y.go", want: true},
		{pat: "{cmd,internal}/**/*.go", name: "server/y.go", want: false},
		{pat: "a**b", name: "axxb", want: true}, // ** inside a segment is *
		{pat: "a**b", name: "ax/b", want: false},
		{pat: "docs/[!_]*.md", name: "docs/a.md", want: true},
		{pat: "docs/[!_]*.md", name: "docs/_a.md", want: false},
		{pat: "a[!x]b", name: "a/b", want: true}, // as in doublestar, a negated set matches '/'
		{pat: `\*.go`, name: "*.go", want: true},
		{pat: `\*.go`, name: "a.go", want: false},
		{pat: "{**/a,a}/b", name: "x/y/a/b", want: true},
		{pat: "{**/a,a}/b", name: "a/b", want: true},
		{pat: "{a/,b}**/c", name: "a/x/c", want: true},
		{pat: "{a/,b}**/c", name: "b/x/c", want: false},
		// doublestar's search gives up where a match exists:
		{pat: "*[!x]*c", name: "a/bc", want: true, ds: false, differs: true},
		{pat: "?*/**", name: "b", want: true, ds: false, differs: true},
		// braces are expanded first, then stars pair up, as in a shell:
		{pat: "*{*,a}/b", name: "x/y/b", want: true, ds: false, differs: true},
		{pat: "a/**{/b,c}", name: "a/b", want: true, ds: false, differs: true},
		// a rest that doublestar lets match nothing only after a '/':
		{pat: "a**/", name: "a", want: false, ds: true, differs: true},
	}
	for _, tc := range tests {
		g, err := Compile(tc.pat)
		if err != nil {
			t.Fatalf("%q: %v", tc.pat, err)
		}
		if got := g.Match(tc.name); got != tc.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tc.pat, tc.name, got, tc.want)
		}
		wantDS := tc.want
		if tc.differs {
			wantDS = tc.ds
		}
		if ds, _ := doublestar.Match(tc.pat, tc.name); ds != wantDS {
			t.Errorf("doublestar.Match(%q, %q) = %v, the table says %v", tc.pat, tc.name, ds, wantDS)
		}
		if m, ok := meaning(tc.pat, tc.name); !ok || m != tc.want {
			t.Errorf("the regular reading of %q on %q: %v (ok %v)", tc.pat, tc.name, m, ok)
		}
	}
}

// TestGlobAgreesWithDoublestar: on every pattern of a small alphabet whose
// stars are whole segments or single and whose sets cannot match '/',
// against every path of a small alphabet git could list, every doublestar
// match is a Glob match, and the two agree unless the pattern ends in /**
// or /**/ (doublestar does not let a star before it match nothing).
func TestGlobAgreesWithDoublestar(t *testing.T) {
	t.Parallel()
	units := []string{"a", "b", "/", "*", "**", "?", "[ab]", "[!/]", `\*`, "é"}
	names := []string{"a"}
	for len(names) < 4000 {
		for _, n := range names {
			for _, u := range []string{"a", "b", "/", "*", "é"} {
				names = append(names, n+u)
			}
		}
	}
	var pats []string
	var grow func(p string, depth int)
	grow = func(p string, depth int) {
		if p != "" {
			pats = append(pats, p)
		}
		if depth == 0 {
			return
		}
		for _, u := range units {
			grow(p+u, depth-1)
		}
	}
	grow("", 3)
	compared := 0
	for _, p := range pats {
		if !doublestar.ValidatePattern(p) || !plain(p) {
			continue
		}
		g, err := Compile(p)
		if err != nil {
			t.Fatalf("%q: %v", p, err)
		}
		dir := strings.HasSuffix(p, "/**") || strings.HasSuffix(p, "/**/")
		for _, n := range names {
			if !realistic(n) {
				continue
			}
			compared++
			got := g.Match(n)
			want, _ := doublestar.Match(p, n)
			if want && !got || !dir && got != want {
				t.Errorf("Match(%q, %q) = %v, doublestar %v", p, n, got, want)
			}
		}
	}
	if compared < 100_000 {
		t.Fatalf("compared %d pairs: the generator is broken", compared)
	}
}

// stalls are the glob shapes that cost doublestar time exponential in the
// alternatives a path can enter, or quadratic in its stars, and one that
// cost an earlier Glob cubic time.
var stalls = []struct {
	name, pat, path string
	match           bool
}{
	{"issue 22", strings.Repeat("{**/a,a}/", 30) + "b", strings.Repeat("a/", 30) + "c", false},
	{"nested alternatives", strings.Repeat("{a,", 30) + "b" + strings.Repeat("}", 30) + strings.Repeat("/{a,*}", 30) + "/x", strings.Repeat("a/", 31) + "c", false},
	{"stars", strings.Repeat("*a", 200) + "b", strings.Repeat("a", 3000), false},
	{"doublestars", strings.Repeat("**/a/", 100) + "b", strings.Repeat("a/", 1000) + "c", false},
	// Found by FuzzGlobMatch: empty alternatives let every star pair with
	// every later one; pairing them while walking, not by listing pairs,
	// took this from 43 s to milliseconds.
	// (One expansion is /**/**/...: it matches every path.)
	{"empty alternatives", strings.Repeat("{,/}{*,}", 128), strings.Repeat("a/", 200) + "x", true},
}

// TestGlobLinear: each stall matches (or not) in a time linear in the path;
// doublestar.Match ran the first for minutes.
func TestGlobLinear(t *testing.T) {
	for _, tc := range stalls {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			g, err := Compile(tc.pat)
			if err != nil {
				t.Fatal(err)
			}
			if g.Match(tc.path) != tc.match {
				t.Errorf("Match(%.40q..., %.40q...) = %v", tc.pat, tc.path, !tc.match)
			}
			if d := time.Since(start); !raceEnabled && d > time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
	g, _ := Compile(stalls[0].pat)
	if !g.Match(strings.Repeat("a/", 30) + "b") {
		t.Error("the issue's glob does not match the path it names")
	}
}

func TestGlobRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ pat, want string }{
		{strings.Repeat("a", Max+1), "over the 1024-byte limit"},
		{"a\xffb", "not valid UTF-8"},
		{"{a", "not a valid glob"},
		{"[a", "not a valid glob"},
	} {
		if _, err := Compile(tc.pat); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Compile(%.20q) = %v, want %q", tc.pat, err, tc.want)
		}
		if msg := Valid(tc.pat); !strings.Contains(msg, tc.want) {
			t.Errorf("Valid(%.20q) = %q, want %q", tc.pat, msg, tc.want)
		}
	}
}

// FuzzGlobMatch holds Glob to its meaning and to doublestar, and to a time
// budget: a valid pattern matches as the regular expression its expansions
// read as (regexOracle); every doublestar match of a plain pattern on a
// path git could list is Glob's; and the pattern repeated to the length
// limit, against the path repeated 30 deep, matches within a second (not
// enforced under the race detector), where doublestar's search can take
// minutes.
func FuzzGlobMatch(f *testing.F) {
	for _, s := range stalls {
		f.Add(s.pat[:min(len(s.pat), 40)], s.path[:min(len(s.path), 40)])
	}
	f.Add("src/**/*.go", "src/a/b.go")
	f.Add("{a/,b}**/c", "a/x/c")
	f.Add("*[!x]*c", "a/bc")
	f.Add("a/**{/b,c}", "a/b")
	f.Add(`[a-\]]\*{,/}?`, "]*/x")
	f.Fuzz(func(t *testing.T, pat, name string) {
		if len(pat) > 48 || len(name) > 48 {
			return
		}
		g, err := Compile(pat)
		if err != nil {
			if Syntax(pat) == "" {
				t.Fatalf("Compile(%q): %v, but the pattern is valid", pat, err)
			}
			return
		}
		got := g.Match(name)
		if want, ok := meaning(pat, name); ok && got != want {
			t.Fatalf("Match(%q, %q) = %v, its meaning %v", pat, name, got, want)
		}
		if !strings.ContainsAny(pat, "{}") && plain(pat) && realistic(name) {
			if ds, _ := doublestar.Match(pat, name); ds && !got {
				t.Fatalf("Match(%q, %q) = false, doublestar true", pat, name)
			}
		}
		if pat == "" {
			return
		}
		big := strings.Repeat(pat, Max/len(pat))
		path := strings.Repeat(name+"/", 30)
		start := time.Now()
		bg, err := Compile(big)
		if err != nil {
			return // a repeated pattern can be invalid ("\\" + "\\" is not)
		}
		bg.Match(path)
		bg.Match(strings.Repeat("a/", 30) + name)
		if d := time.Since(start); !raceEnabled && d > time.Second {
			t.Fatalf("%q repeated to %d bytes against a %d-byte path took %v (budget 1s)", pat, len(big), len(path), d)
		}
	})
}

// TestLiteralGlob: a glob without meta characters builds no automaton
// (D92) and answers as the automaton would.
func TestLiteralGlob(t *testing.T) {
	t.Parallel()
	names := []string{"", "src", "src/", "src/a.go", "src/a.gox", "src/a.go/b", "src/a", "rc/a.go", "dé/ü.go", "a/b/c"}
	for _, pat := range []string{"src/a.go", "src", "src/", "dé/ü.go", "a/b/c", "a b/c-d_e.f"} {
		g, err := Compile(pat)
		if err != nil {
			t.Fatal(err)
		}
		if !g.literal || g.states != nil || g.toks != nil {
			t.Errorf("%q: literal %v, %d states, %d tokens: want a literal and no automaton", pat, g.literal, len(g.states), len(g.toks))
		}
		a, err := compileAutomaton(pat)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range append(names, pat) {
			if got, want := g.Match(n), a.Match(n); got != want {
				t.Errorf("Match(%q, %q) = %v, the automaton says %v", pat, n, got, want)
			}
		}
	}
	for _, pat := range []string{"src/*.go", "src/a?go", `src/\a.go`, "src/{a,b}.go", "src/[a].go"} {
		if g, _ := Compile(pat); g.literal {
			t.Errorf("%q: compiled as a literal", pat)
		}
	}
}

// FuzzValid: plainPath's shortcut in Valid gives what the full checks
// (InsideRepo, then Syntax) give, for every string.
func FuzzValid(f *testing.F) {
	for _, s := range []string{"src/a.go", "a/../b", "./a", "a//b", "a/.git/x", "a/.GIT", "/a", "a/", "c:x", "a b", "a/*.go", ".git", "..", "a/.b/c", "x\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Valid(s), valid(s); got != want {
			t.Fatalf("Valid(%q) = %q, full checks say %q", s, got, want)
		}
	})
}

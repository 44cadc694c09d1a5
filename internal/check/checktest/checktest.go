// Package checktest runs claimslint rules on a fixture directory and
// compares their findings with expectations written inline in the
// fixture's own files, in the spirit of
// golang.org/x/tools/go/analysis/analysistest.
//
// An expectation is the word want followed by one or more quoted regular
// expressions (Go string syntax, "..." or `...`) on the line the finding
// must point at:
//
//	| C1 | anchored | `a.go` | `x\(` | | | <!-- want "anchor ambiguous" -->
//	func x() {} // want "..."
//
// Each expression must match the text form of exactly one finding on that
// line ("message (tag)"); every finding must be expected. A table row may
// carry its expectation in an extra trailing cell: GFM ignores cells past
// the header's. A related position is expected as "related: message".
//
// A finding on a line that cannot carry a comment (the opening --- of a
// front matter, where findings about a whole file point) is expected from
// another line of the same file as want@N, N the line's number:
//
//	<!-- want@1 "C2 was deleted" -->
package checktest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/snapshot"
)

var (
	wantRE  = regexp.MustCompile("\\bwant(?:@([1-9][0-9]*))?((?:\\s+(?:\"(?:[^\"\\\\]|\\\\.)*\"|`[^`]*`))+)")
	quoteRE = regexp.MustCompile("\"(?:[^\"\\\\]|\\\\.)*\"|`[^`]*`")
)

type key struct {
	file string
	line int
}

type expectation struct {
	re  *regexp.Regexp
	src string
	met bool
}

// Expectations reads every want expectation under dir (but not in .git),
// keyed by repository-relative file and line.
func Expectations(dir string) (map[key][]*expectation, error) {
	out := map[key][]*expectation{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir // a fixture copied into a git repository
		}
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		for i, l := range strings.Split(string(data), "\n") {
			m := wantRE.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			line := i + 1
			if m[1] != "" {
				line, _ = strconv.Atoi(m[1])
			}
			for _, q := range quoteRE.FindAllString(m[2], -1) {
				s, err := strconv.Unquote(q)
				if err != nil {
					return fmt.Errorf("%s:%d: bad want %s: %v", rel, i+1, q, err)
				}
				re, err := regexp.Compile(s)
				if err != nil {
					return fmt.Errorf("%s:%d: want %s does not compile: %v", rel, i+1, q, err)
				}
				k := key{rel, line}
				out[k] = append(out[k], &expectation{re: re, src: s})
			}
		}
		return nil
	})
	return out, err
}

// RunQuiet loads dir and runs rules on it without comparing findings with
// the fixture's expectations.
func RunQuiet(t testing.TB, dir string, opts check.Options, rules ...*check.Rule) *check.Result {
	t.Helper()
	snap, err := snapshot.Load(dir)
	if err != nil {
		t.Fatalf("load %s: %v", dir, err)
	}
	opts.Dir = dir
	res, err := check.RunRules(snap, opts, rules...)
	if err != nil {
		t.Fatalf("run rules on %s: %v", dir, err)
	}
	return res
}

// Run loads the fixture dir as a snapshot, runs rules on it with opts
// (opts.Dir is set to dir) and reports, through t, every finding nobody
// expected and every expectation no finding met. It returns the result
// for further assertions.
func Run(t testing.TB, dir string, opts check.Options, rules ...*check.Rule) *check.Result {
	t.Helper()
	res := RunQuiet(t, dir, opts, rules...)
	want, err := Expectations(dir)
	if err != nil {
		t.Fatal(err)
	}
	match := func(pos key, text string) bool {
		for _, e := range want[pos] {
			if !e.met && e.re.MatchString(text) {
				e.met = true
				return true
			}
		}
		return false
	}
	var problems []string
	for _, f := range res.Findings {
		k := key{f.Pos.Filename, max(f.Pos.Line, 1)}
		text := fmt.Sprintf("%s (%s)", f.Message, f.Tag())
		if !match(k, text) {
			problems = append(problems, fmt.Sprintf("%s:%d: unexpected finding: %s", k.file, k.line, text))
		}
		for _, r := range f.Related {
			rk := key{r.Pos.Filename, max(r.Pos.Line, 1)}
			if !match(rk, "related: "+r.Message) {
				problems = append(problems, fmt.Sprintf("%s:%d: unexpected related position: %s", rk.file, rk.line, r.Message))
			}
		}
	}
	for k, es := range want {
		for _, e := range es {
			if !e.met {
				problems = append(problems, fmt.Sprintf("%s:%d: no finding matches %q", k.file, k.line, e.src))
			}
		}
	}
	sort.Strings(problems)
	for _, p := range problems {
		t.Error(p)
	}
	return res
}

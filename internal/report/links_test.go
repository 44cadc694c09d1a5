package report

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// appendTo appends text to the decision file of the fixture whose name
// starts with prefix, before its Confirmation section when before is set.
func editDecision(t *testing.T, dir, prefix string, edit func([]byte) []byte) string {
	t.Helper()
	p := filepath.Join(dir, "docs", "decisions")
	ents, _ := os.ReadDir(p)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), prefix) {
			f := filepath.Join(p, e.Name())
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(f, edit(b), 0o644); err != nil {
				t.Fatal(err)
			}
			return "docs/decisions/" + e.Name()
		}
	}
	t.Fatalf("no decision %s* in %s", prefix, p)
	return ""
}

func commitAll(t *testing.T, dir string) {
	t.Helper()
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "x"}} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.invalid"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

func sitePages(t *testing.T, o Options) map[string]string {
	t.Helper()
	files, err := Site(o)
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]string{}
	for _, f := range files {
		pages[f.Name] = string(f.Data)
	}
	var single bytes.Buffer
	if err := Write(&single, o); err != nil {
		t.Fatal(err)
	}
	pages["single"] = single.String()
	return pages
}

// TestTextLinks: a relative link in a decision's text points inside the
// site or to the repository at the commit, never at a path next to the
// page: another decision's file is its page; a repository file is the file
// at the commit with --repo-url on a clean tree, else plain text; a link
// out of the repository or to no file is plain text; absolute links and
// fragments are kept.
func TestTextLinks(t *testing.T) {
	t.Parallel()
	dir := fixture(t)
	if err := os.WriteFile(filepath.Join(dir, "docs", "benchmarks.md"), []byte("# Benchmarks\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var d1 string
	ents, _ := os.ReadDir(filepath.Join(dir, "docs", "decisions"))
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "D1-") {
			d1 = e.Name()
		}
	}
	prose := "See [the figures](../benchmarks.md#site), [the first](" + d1 + "), [root](/src/wire.go), " +
		"[away](../../../etc/passwd), [none](missing.md), [web](https://example.invalid/x), [here](#context), ![chart](chart.png).\n\n## Confirmation\n"
	editDecision(t, dir, "D2-", func(b []byte) []byte {
		return bytes.Replace(b, []byte("## Confirmation\n"), []byte(prose), 1)
	})
	commitAll(t, dir)
	head, _ := cleanHead(dir)
	if head == "" {
		t.Fatal("the fixture's tree is not clean")
	}
	const url = "https://example.invalid/org/repo"
	for _, c := range []struct {
		name, url, page string
		want, not       []string
	}{
		{name: "no --repo-url", page: "D2.html",
			want: []string{`<a href="D1.html">the first</a>`, "See the figures, ", "root, away, none, ", `<a href="https://example.invalid/x">web</a>`, `<a href="#context">here</a>`, "chart."},
			not:  []string{"benchmarks.md", "wire.go", "passwd", "missing.md", "chart.png"}},
		{name: "--repo-url", url: url, page: "D2.html",
			want: []string{`<a href="D1.html">the first</a>`, `<a href="` + url + `/blob/` + head + `/docs/benchmarks.md#site">the figures</a>`,
				`<a href="` + url + `/blob/` + head + `/src/wire.go">root</a>`, "away, none, ", "chart."},
			not: []string{"passwd", "missing.md", "chart.png"}},
		{name: "single file", url: url, page: "single",
			want: []string{`<a href="#D1">the first</a>`, `/blob/` + head + `/docs/benchmarks.md#site">the figures</a>`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := sitePages(t, Options{Dir: dir, RepoURL: c.url, Now: time.Unix(0, 0)})[c.page]
			i := strings.Index(s, "See ")
			if i < 0 {
				t.Fatalf("%s lacks the decision's text", c.page)
			}
			text := s[i : i+strings.Index(s[i:], "</p>")]
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("text lacks %q:\n%s", w, text)
				}
			}
			for _, n := range c.not {
				if strings.Contains(text, n) {
					t.Errorf("text holds %q:\n%s", n, text)
				}
			}
		})
	}
}

// TestFindingLinks: each of check's findings under Needs attention links
// to the claim on its decision's page (in --single, to the claim's
// section), and to its line in the code view when the code view shows it;
// the fragments exist.
func TestFindingLinks(t *testing.T) {
	t.Parallel()
	dir := fixture(t)
	// A claim whose anchored line holds a forbidden word: the finding is
	// at the code line, which the code view shows.
	editDecision(t, dir, "D2-", func(b []byte) []byte {
		return append(b, []byte("| C2 | anchored | `src/*.go` | `^package wire$` | `!wire` | the package |\n"+
			"| C3 | present | `src/two.go` | `^var . = 1$` | | two lines satisfy it: vacuous |\n")...)
	})
	if err := os.WriteFile(filepath.Join(dir, "src", "two.go"), []byte("package two\n\nvar a = 1\nvar b = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pages := sitePages(t, Options{Dir: dir, Now: time.Unix(0, 0)})
	// prove's vacuous claim, under Needs attention, links its claim too.
	if !strings.Contains(pages["index.html"], `<td><a href="D2.html#D2-C3">D2</a></td><td>C3</td><td><span class="badge vacuous">`) {
		t.Error("the vacuous claim under Needs attention does not link its claim")
	}
	if !strings.Contains(pages["single"], `<td><a href="#D2-C3">D2</a></td><td>C3</td>`) {
		t.Error("the single file's vacuous claim does not link its claim's section")
	}
	for _, c := range []struct{ page, claim, line string }{
		{"index.html", `href="D2.html#D2-C1">D2/C1</a>`, `href="(code-\d+)\.html#(code-\d+-L1)"><code>src/wire\.go:1</code></a>`},
		{"single", `href="#D2-C1">D2/C1</a>`, `href="#()(code-\d+-L1)"><code>src/wire\.go:1</code></a>`},
	} {
		s := pages[c.page]
		fs := regexp.MustCompile(`<li class="finding"[^\n]*`).FindAllString(s, -1)
		if len(fs) < 2 {
			t.Fatalf("%s: %d findings, want 2 at least:\n%s", c.page, len(fs), strings.Join(fs, "\n"))
		}
		all := strings.Join(fs, "\n")
		if !strings.Contains(all, c.claim) {
			t.Errorf("%s: no finding links the claim (%s):\n%s", c.page, c.claim, all)
		}
		if n := strings.Count(all, `class="to-claim"`); n != len(fs) {
			t.Errorf("%s: %d of %d findings link their claim", c.page, n, len(fs))
		}
		m := regexp.MustCompile(c.line).FindStringSubmatch(all)
		if m == nil {
			t.Errorf("%s: no finding links its line in the code view (%s):\n%s", c.page, c.line, all)
			continue
		}
		// The fragment is on the page the link names.
		target := s
		if c.page != "single" {
			target = pages[m[1]+".html"]
		}
		// C2 fails on that line: the code view marks it (D99).
		if !strings.Contains(target, `<tr id="`+m[2]+`" class="failed">`) {
			t.Errorf("%s: the line's fragment %s is not on its page, marked as failing", c.page, m[2])
		}
	}
	if !strings.Contains(pages["D2.html"], `id="D2-C1"`) {
		t.Error("the claim's fragment is not on its decision's page")
	}
}

// TestTimelineTitles: the timeline names each decision by id and title.
func TestTimelineTitles(t *testing.T) {
	t.Parallel()
	s := sitePages(t, Options{Dir: fixture(t), Now: time.Unix(0, 0)})["index.html"]
	i := strings.Index(s, `<ol class="timeline">`)
	if i < 0 {
		t.Fatal("the index has no timeline")
	}
	tl := s[i : i+strings.Index(s[i:], "</ol>")]
	if !strings.Contains(tl, `<a href="D2.html">D2</a> Reject batches</li>`) {
		t.Errorf("the timeline does not give D2's title beside its id:\n%s", tl)
	}
}

// TestCheckRepoURL: only an http or https URL with a host links lines.
func TestCheckRepoURL(t *testing.T) {
	for u, ok := range map[string]bool{
		"https://github.com/you/repo": true, "http://git.example.invalid/r": true, "HTTPS://example.invalid/r": true,
		"javascript:alert(1)": false, "file:///etc/passwd": false, "github.com/you/repo": false, "https://": false,
		"data:text/html,x": false, "//example.invalid/r": false, "ftp://example.invalid/r": false, " https://x.invalid": false,
	} {
		if err := CheckRepoURL(u); (err == nil) != ok {
			t.Errorf("CheckRepoURL(%q) = %v, want ok=%v", u, err, ok)
		} else if err != nil && !strings.Contains(err.Error(), "--repo-url") {
			t.Errorf("CheckRepoURL(%q): %v does not name the flag", u, err)
		}
	}
	if _, err := Site(Options{Dir: t.TempDir(), RepoURL: "javascript:alert(1)"}); err == nil || !strings.Contains(err.Error(), "--repo-url") {
		t.Errorf("Site with a javascript: URL: %v, want the flag's refusal", err)
	}
}

// FuzzManifest: no manifest names a path, a dot name or the manifest.
func FuzzManifest(f *testing.F) {
	for _, s := range []string{"index.html\nD1.html\n", "../x\n/etc/passwd\na/b\n.\n..\n.claimslint-report\n", "# c\r\nx.html\r\n", "a\\b\x00c\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for n := range parseManifest(b) {
			if n == "" || strings.ContainsAny(n, "/\\\x00\n") || strings.HasPrefix(n, ".") || filepath.Base(n) != n {
				t.Fatalf("parseManifest(%q) lists %q", b, n)
			}
		}
	})
}

package report

import (
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/claimslint/claimslint/internal/register"
)

// TestSlug: a heading's id is GitHub's (github-slugger), so an in-page
// link written for GitHub resolves on the site (D99).
func TestSlug(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"Context and Problem Statement", "context-and-problem-statement"},
		{"Decision Outcome", "decision-outcome"},
		{"Hello, World!", "hello-world"},
		{"--base and `16 << 20`", "--base-and-16--20"},
		{"Über Café", "über-café"},
		{"A  B", "a--b"},
		{"C++ (and C#)", "c-and-c"},
		{"snake_case 2.0", "snake_case-20"},
		{"   ", "---"},
	} {
		if got := slug(c.in); got != c.want {
			t.Errorf("slug(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestHeadingIDsAndRefs: headings get GitHub's ids, repeats numbered;
// D<n> in text links to a decision the register holds, never inside a
// link or code, never to the decision itself.
func TestHeadingIDsAndRefs(t *testing.T) {
	t.Parallel()
	src := "# D3: Title\n\n## Options\n\nSee D1, D2 and D3; not D9.\n\n## Options\n\n`D1` and [D2](https://example.invalid).\n\n```\nD1\n```\n"
	body, err := register.RenderHTML([]byte(src), 0)
	if err != nil {
		t.Fatal(err)
	}
	href := func(id string) string {
		if id == "D1" || id == "D2" || id == "D3" {
			return id + ".html"
		}
		return ""
	}
	got := string(headingIDs(linkDecisionRefs(body, "D3", href), ""))
	for _, want := range []string{
		`<h2 id="options">Options</h2>`, `<h2 id="options-1">Options</h2>`,
		`See <a class="dref" href="D1.html">D1</a>, <a class="dref" href="D2.html">D2</a> and D3; not D9.`,
		`<code>D1</code>`, `<a href="https://example.invalid">D2</a>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Count(got, `class="dref"`) != 2 {
		t.Errorf("%d decision links, want 2:\n%s", strings.Count(got, `class="dref"`), got)
	}
	if got := string(headingIDs(body, "D3-h-")); !strings.Contains(got, `<h2 id="D3-h-options">`) {
		t.Errorf("the single file's prefix is missing:\n%s", got)
	}
}

var tagsRE = regexp.MustCompile(`<[^>]*>`)

// FuzzHeadingIDsAndRefs: whatever a decision's text, the rewriting adds
// ids and links only: the text a reader sees is the same, no element is
// opened that goldmark did not write but a link, and every id is unique.
func FuzzHeadingIDsAndRefs(f *testing.F) {
	for _, s := range []string{"# T\n\n## A\n\nD1 D2", "## D1 `D2` <b>D3</b>\n\n## D1", "[D1](#d1)\n\n### x&amp;y\n\n## x&y", "<h2>raw</h2> D4"} {
		f.Add(s)
	}
	href := func(id string) string { return id + ".html" }
	idRE := regexp.MustCompile(`<h[1-6] id="([^"]*)"`)
	f.Fuzz(func(t *testing.T, src string) {
		body, err := register.RenderHTML([]byte(src), 0)
		if err != nil {
			return
		}
		got := headingIDs(linkDecisionRefs(body, "D0", href), "")
		if a, b := html.UnescapeString(tagsRE.ReplaceAllString(string(body), "")), html.UnescapeString(tagsRE.ReplaceAllString(string(got), "")); a != b {
			t.Fatalf("the text changed:\n%q\n%q", a, b)
		}
		if strings.Count(string(got), "<") != strings.Count(string(body), "<")+2*strings.Count(string(got), `class="dref"`) {
			t.Fatalf("tags other than links were added:\n%s\n%s", body, got)
		}
		seen := map[string]bool{}
		for _, m := range idRE.FindAllStringSubmatch(string(got), -1) {
			if seen[m[1]] {
				t.Fatalf("id %q twice:\n%s", m[1], got)
			}
			seen[m[1]] = true
		}
	})
}

// TestDatesFromGit: a record that states no date is dated by the commit
// that added it, marked as such (D99).
func TestDatesFromGit(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	write := func(rel, s string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("docs/PRD.md", "| ID | Decision | Status |\n|---|---|---|\n| D1 | [Undated](decisions/D1-undated.md) | accepted |\n| D2 | [Dated](decisions/D2-dated.md) | accepted |\n\nLive range: D1..D2.\n")
	write("docs/decisions/D1-undated.md", "---\nid: D1\nstatus: accepted\nclaims: none, a fixture\n---\n# D1: Undated\n")
	write("docs/decisions/D2-dated.md", "---\nid: D2\nstatus: accepted\ndate: 2025-05-05\nclaims: none, a fixture\n---\n# D2: Dated\n")
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "x"}} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.invalid"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "GIT_COMMITTER_DATE=2020-01-02T03:04:05Z", "GIT_AUTHOR_DATE=2020-01-02T03:04:05Z")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	pages := sitePages(t, Options{Dir: dir, Now: time.Unix(0, 0)})
	if p := pages["D1.html"]; !strings.Contains(p, `<time datetime="2020-01-02">2020-01-02</time> (from git`) {
		t.Errorf("D1 is not dated by git:\n%s", p)
	}
	if p := pages["D2.html"]; !strings.Contains(p, `<time datetime="2025-05-05">2025-05-05</time> ·`) {
		t.Error("D2's own date is not kept")
	}
	if strings.Contains(pages["index.html"], `class="timeline undated"`) {
		t.Error("a record git dates is listed as undated")
	}
}

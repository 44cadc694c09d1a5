package report_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"html"
	"maps"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/lintcmd"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/report/scale"
	"github.com/claimslint/claimslint/internal/snapshot"
)

// anchorTag is a link's tags, without the words between them.
var anchorTag = regexp.MustCompile(`<a [^>]*>|</a>`)

// headingID is the id a heading of a decision's text gets on the site.
var headingID = regexp.MustCompile(`<h([1-6]) id="[^"]*">`)

var update = flag.Bool("update", false, "write the screenshots of this repository's site into docs/report")

// siteCase is a repository the site is built for: this one, and real
// adopted collections of internal/author/testdata/collections (SOURCES).
type siteCase struct {
	name, collection, adoptDir string
	// generated is the budget case of internal/report/scale (500
	// decisions), with one claim broken and one decision proposed, so
	// needs attention has errors and notes.
	generated bool
	// page is a decision page to screenshot and look into.
	page string
}

var siteCases = []siteCase{
	{name: "this-repository", page: "D44"},
	{name: "bbc__tams", collection: "bbc__tams", page: "D5"},
	{name: "celestiaorg__celestia-app", collection: "celestiaorg__celestia-app", adoptDir: ".", page: "D3"},
	// check reports six findings here: needs attention must list them.
	{name: "opendatahub-io__architecture-decision-records", collection: "opendatahub-io__architecture-decision-records", adoptDir: "architecture-decision-records", page: "D1"},
	{name: "generated-500", generated: true, page: "D500"},
}

// generatedDir writes the budget case (500 decisions, 5,000 claims) in a
// git repository, with D500/C10's line changed (an error) and D1 proposed
// (its ten claims pending: notes).
func generatedDir(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	if err := scale.Write(dir); err != nil {
		t.Fatal(err)
	}
	for _, e := range []struct{ file, old, new string }{
		{"src/f49.go", "const c49099 = 4999\n", "const c49099 = 5000\n"},
		{"docs/decisions/D1-limit-1-holds.md", "status: accepted\n", "status: proposed\n"},
		{"docs/PRD.md", "(decisions/D1-limit-1-holds.md) | accepted |", "(decisions/D1-limit-1-holds.md) | proposed |"},
	} {
		p := filepath.Join(dir, filepath.FromSlash(e.file))
		b, err := os.ReadFile(p)
		if err != nil || !bytes.Contains(b, []byte(e.old)) {
			t.Fatalf("%s: no %q (%v)", e.file, e.old, err)
		}
		if err := os.WriteFile(p, bytes.Replace(b, []byte(e.old), []byte(e.new), 1), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "c"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

func run(t *testing.T, args ...string) (string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := lintcmd.Main(append([]string{"claimslint"}, args...), &out, &errb)
	return out.String() + errb.String(), code
}

// repoDir returns the repository the case is about: this one, or a copy
// of the collection adopted in place in a fresh git repository.
func repoDir(t *testing.T, c siteCase) string {
	if c.generated {
		return generatedDir(t)
	}
	if c.collection == "" {
		root, err := filepath.Abs(filepath.Join("..", ".."))
		if err != nil {
			t.Fatal(err)
		}
		return root
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "author", "testdata", "collections", c.collection))); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "c"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	args := []string{"init", "--dir", dir, "--adopt"}
	if c.adoptDir != "" {
		args = append(args, c.adoptDir)
	}
	if out, code := run(t, append(args, "--date", "2026-12-01", "--ref", "0123456789abcdef0123456789abcdef01234567")...); code != 0 {
		t.Fatalf("init --adopt: exit %d\n%s", code, out)
	}
	return dir
}

type jsonFinding struct {
	Check    string `json:"check"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Message  string `json:"message"`
	Severity string `json:"severity"`
}

var findingRE = regexp.MustCompile(`<li class="finding" data-check="([^"]*)" data-file="([^"]*)" data-line="(\d+)" data-column="(\d+)"><span class="badge ([a-z]+)">[a-z]+</span> <code>([^<]*)</code>[^\n]*</li>`)

// TestSiteOfRepositories builds the site of this repository and of two
// adopted collections and asserts what each page must say: needs
// attention is check --format json (same findings, same order) and check's
// text line for line; every decision has a page with its full text; every
// claim shows its Why and the code line it rests on; every page is under
// 200 KB and fetches nothing.
func TestSiteOfRepositories(t *testing.T) {
	for _, c := range siteCases {
		t.Run(c.name, func(t *testing.T) {
			dir := repoDir(t, c)
			site := t.TempDir()
			if out, code := run(t, "report", "--dir", dir, "--out", site); code != 0 {
				t.Fatalf("report --out: exit %d\n%s", code, out)
			}
			index := readPage(t, site, "index.html")

			jsonOut, _ := run(t, "check", "--dir", dir, "--format", "json")
			var doc struct{ Findings []jsonFinding }
			if err := json.Unmarshal([]byte(jsonOut), &doc); err != nil {
				t.Fatalf("check --format json: %v\n%s", err, jsonOut)
			}
			textOut, _ := run(t, "check", "--dir", dir)
			lines := strings.Split(strings.TrimSuffix(textOut, "\n"), "\n")
			if textOut == "" {
				lines = nil
			}
			// Errors first, then warnings, then notes, each in check's
			// order (D99).
			rank := map[string]int{"error": 0, "warning": 1, "note": 2}
			order := make([]int, len(doc.Findings))
			for i := range order {
				order[i] = i
			}
			if len(lines) == len(doc.Findings) {
				sort.SliceStable(order, func(a, b int) bool {
					return rank[doc.Findings[order[a]].Severity] < rank[doc.Findings[order[b]].Severity]
				})
				fs, ls := make([]jsonFinding, len(order)), make([]string, len(order))
				for i, k := range order {
					fs[i], ls[i] = doc.Findings[k], lines[k]
				}
				doc.Findings, lines = fs, ls
			}
			got := findingRE.FindAllStringSubmatch(index, -1)
			if len(got) > 0 && slices.ContainsFunc(doc.Findings, func(f jsonFinding) bool { return f.Severity == "error" }) && got[0][5] != "error" {
				t.Errorf("the first item of needs attention is a %s, and check reports an error", got[0][5])
			}
			if len(got) != len(doc.Findings) || len(got) != len(lines) || strings.Count(index, `<li class="finding"`) != len(got) {
				t.Fatalf("needs attention lists %d findings (%d items); check --format json has %d, check prints %d lines",
					len(got), strings.Count(index, `<li class="finding"`), len(doc.Findings), len(lines))
			}
			for i, f := range doc.Findings {
				g := got[i]
				want := []string{f.Check, f.File, fmt.Sprint(f.Line), fmt.Sprint(f.Column), f.Severity}
				have := []string{html.UnescapeString(g[1]), html.UnescapeString(g[2]), g[3], g[4], g[5]}
				if strings.Join(want, "|") != strings.Join(have, "|") {
					t.Errorf("finding %d: site has %q, check --format json has %q", i, have, want)
				}
				if text := html.UnescapeString(g[6]); text != lines[i] || !strings.Contains(text, strings.SplitN(f.Message, "\n", 2)[0]) {
					t.Errorf("finding %d: site says %q, check prints %q (message %q)", i, text, lines[i], f.Message)
				}
			}

			snap, err := snapshot.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(snap.Decisions) < 3 {
				t.Fatalf("%d decisions: the case should have a register", len(snap.Decisions))
			}
			seen := map[string]bool{}
			claims := 0
			for _, d := range snap.Decisions {
				if seen[d.FileID] {
					continue // a second file of one id has a numbered page
				}
				seen[d.FileID] = true
				if !strings.Contains(index, `href="`+d.FileID+`.html"`) {
					t.Errorf("the index does not link %s", d.FileID)
				}
				page := readPage(t, site, d.FileID+".html")
				if dd := snap.Doc(d.Path); dd != nil && dd.Src != nil && !d.Inline {
					// The text, with links compared by their words: the site
					// points them at its pages or the commit (TestTextLinks).
					body, err := register.RenderHTMLLinks(dd.Src, 0, func(string) (string, bool) { return "", false })
					if err != nil {
						t.Fatal(err)
					}
					body = anchorTag.ReplaceAll(body, nil)
					// Headings carry GitHub's ids on the site (D99).
					plain := headingID.ReplaceAllString(anchorTag.ReplaceAllString(page, ""), "<h$1>")
					if len(bytes.TrimSpace(body)) == 0 || !strings.Contains(plain, string(body)) {
						t.Errorf("%s.html does not hold the decision's full text", d.FileID)
					}
				}
				for _, cl := range d.Claims {
					claims++
					if cl.Why != "" && !strings.Contains(page, `<dd class="why">`+html.EscapeString(cl.Why)+`</dd>`) {
						t.Errorf("%s.html lacks claim %s's Why %q", d.FileID, cl.ID, cl.Why)
					}
				}
			}
			if c.collection == "" && !c.generated {
				if claims < 100 {
					t.Errorf("this repository's site shows %d claims", claims)
				}
				// An excerpt: the anchored line of D44/C1, highlighted.
				page := readPage(t, site, "D44.html")
				if !strings.Contains(page, `<li class="hit"><span class="n">`) || !strings.Contains(page, html.EscapeString("if f.Check != ruleid.Vacuous {")) {
					t.Error("D44.html shows no highlighted excerpt of the line C1 anchors on")
				}
				if !strings.Contains(page, "The HTML report said &#34;Needs attention: nothing&#34;") && !strings.Contains(page, "The HTML report said &quot;Needs attention: nothing&quot;") {
					t.Error("D44.html lacks its Context's first sentence")
				}
				code := readPage(t, site, "code.html")
				if !strings.Contains(code, "<code>internal/report/report.go</code>") {
					t.Error("the code view does not list internal/report/report.go")
				}
			}
			checkPages(t, site)
		})
	}
}

func readPage(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkPages asserts every page of a site is under 200 KB and names no
// external asset, and the policy that keeps it from fetching any.
func checkPages(t *testing.T, site string) {
	t.Helper()
	ents, err := os.ReadDir(site)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(site, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(e.Name(), ".html") {
			continue
		}
		if len(b) >= 200<<10 {
			t.Errorf("%s is %d bytes, over 200 KB", e.Name(), len(b))
		}
		s := string(b)
		for _, banned := range []string{`src="http`, `src="//`, "<link ", "@import", "url(http", "<img", "<iframe"} {
			if strings.Contains(s, banned) {
				t.Errorf("%s is not self-contained: it has %q", e.Name(), banned)
			}
		}
		if !strings.Contains(s, `<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;self&#39;;`) {
			t.Errorf("%s has no policy against fetching", e.Name())
		}
		// Every link into the site names one of its pages, and the
		// fragment it names is on that page: a decision's relative link
		// ("../benchmarks.md") is rewritten, a finding's link lands.
		for _, m := range hrefRE.FindAllStringSubmatch(s, -1) {
			h := html.UnescapeString(m[1])
			if strings.HasPrefix(h, "#") || strings.HasPrefix(h, "https://") || strings.HasPrefix(h, "http://") || strings.HasPrefix(h, "mailto:") {
				continue
			}
			name, frag, _ := strings.Cut(h, "#")
			b, err := os.ReadFile(filepath.Join(site, name))
			if err != nil || strings.Contains(name, "/") {
				t.Errorf("%s links %q, which is not a page of the site", e.Name(), h)
				continue
			}
			if frag != "" && !bytes.Contains(b, []byte(`id="`+frag+`"`)) {
				t.Errorf("%s links %q, whose fragment is not on the page", e.Name(), h)
			}
		}
	}
}

var hrefRE = regexp.MustCompile(`href="([^"]*)"`)

var idRE = regexp.MustCompile(` id="([^"]*)"`)

// deadLinks returns every link of the pages (name to HTML) that leads
// nowhere on the site: a page it does not have, or a fragment no element
// of the page it names carries. Links with a scheme leave the site and are
// not followed.
func deadLinks(pages map[string]string) []string {
	ids := map[string]map[string]bool{}
	for name, p := range pages {
		ids[name] = map[string]bool{}
		for _, m := range idRE.FindAllStringSubmatch(p, -1) {
			ids[name][html.UnescapeString(m[1])] = true
		}
	}
	var dead []string
	for _, name := range slices.Sorted(maps.Keys(pages)) {
		for _, m := range hrefRE.FindAllStringSubmatch(pages[name], -1) {
			h := html.UnescapeString(m[1])
			if strings.Contains(h, ":") || h == "search.js" {
				continue
			}
			file, frag, _ := strings.Cut(h, "#")
			if file == "" {
				file = name
			}
			if frag, err := url.PathUnescape(frag); err == nil && ids[file] != nil && (frag == "" || ids[file][frag]) {
				continue
			}
			dead = append(dead, name+": "+h)
		}
	}
	return dead
}

func sitePagesIn(t *testing.T, dir string) map[string]string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]string{}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".html") {
			pages[e.Name()] = readPage(t, dir, e.Name())
		}
	}
	return pages
}

// TestEveryLinkResolves: on the site of this repository and of each
// adopted collection, and in their single files, every link to a page or
// a fragment lands on an element that exists, the decisions' in-text
// links to their own headings (GitHub's ids) included (D99).
func TestEveryLinkResolves(t *testing.T) {
	for _, c := range siteCases {
		t.Run(c.name, func(t *testing.T) {
			dir := repoDir(t, c)
			site := t.TempDir()
			if out, code := run(t, "report", "--dir", dir, "--out", site); code != 0 {
				t.Fatalf("report --out: exit %d\n%s", code, out)
			}
			pages := sitePagesIn(t, site)
			for _, d := range deadLinks(pages) {
				t.Errorf("dead link: %s", d)
			}
			inText := 0
			for _, p := range pages {
				for _, m := range regexp.MustCompile(`(?s)<div class="text">.*?</div>\n`).FindAllString(p, -1) {
					inText += strings.Count(m, `href="#`)
				}
			}
			if c.name == "bbc__tams" && inText < 19 {
				t.Errorf("bbc__tams: %d in-text links to headings, want its 19", inText)
			}
			one := filepath.Join(t.TempDir(), "one.html")
			if out, code := run(t, "report", "--dir", dir, "--single", one); code != 0 {
				t.Fatalf("report --single: exit %d\n%s", code, out)
			}
			for _, d := range deadLinks(map[string]string{"one.html": readPage(t, filepath.Dir(one), "one.html")}) {
				t.Errorf("dead link in the single file: %s", d)
			}
		})
	}
}

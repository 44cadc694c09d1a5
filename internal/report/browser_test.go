package report_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// need skips the test when a tool it needs is missing, and fails it under
// CI=true (.ci/run and the CI job install it), as the TypeScript client
// test does.
func need(t *testing.T, what, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is missing under CI: %s", what, why)
	}
	t.Skipf("%s is missing: %s", what, why)
}

// chromium is Debian's browser; without it the test skips, under CI too,
// as the report's other browser tests do: .ci/run installs it where it
// can, and a hosted runner has no Debian package (D32).
func chromium(t *testing.T) string {
	t.Helper()
	c, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed (apt-get install chromium, Debian's package); the pages are still checked by TestSiteOfRepositories")
	}
	return c
}

func axeScript(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "axe", "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		need(t, "axe-core", "npm ci --prefix internal/report/testdata/axe")
	}
	return b
}

func browse(t *testing.T, chrome string, args ...string) []byte {
	t.Helper()
	flags := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
		"--disable-sync", "--no-first-run", "--hide-scrollbars", "--force-device-scale-factor=1", "--user-data-dir=" + t.TempDir()}
	out, err := exec.Command(chrome, append(flags, args...)...).Output()
	if err != nil {
		t.Fatalf("chromium %v: %v", args, err)
	}
	return out
}

// runAxe is loaded after axe-core into a copy of a page: it runs every
// rule and writes the violations, and how wide the page is, into the DOM.
const runAxe = `axe.run(document).then(function(r){var p=document.createElement('pre');p.id='axe-result';
p.textContent=JSON.stringify({width:document.documentElement.scrollWidth,inner:window.innerWidth,violations:r.violations.map(function(v){
return {id:v.id,impact:v.impact,help:v.help,nodes:v.nodes.slice(0,3).map(function(n){return n.target.join(' ')})}})});
document.body.appendChild(p)},function(e){var p=document.createElement('pre');p.id='axe-result';p.textContent='{"error":'+JSON.stringify(String(e))+'}';document.body.appendChild(p)});`

var axeResultRE = regexp.MustCompile(`(?s)<pre id="axe-result">(.*?)</pre>`)

type axeResult struct {
	Error      string
	Width      int
	Inner      int
	Violations []struct {
		ID, Impact, Help string
		Nodes            []string
	}
}

// TestSiteInBrowser opens the site of this repository and of the adopted
// collections in headless Chromium (Debian's package): axe-core finds no
// serious or critical violation on the index, a decision page, the graph
// and the code view, each at a phone's width (390 px) where no page is
// wider than the window; the search script runs under the pages' policy
// and finds by a decision's text; and screenshots are taken (-update
// writes this repository's into docs/report).
func TestSiteInBrowser(t *testing.T) {
	chrome := chromium(t)
	axe := axeScript(t)
	for _, c := range siteCases {
		t.Run(c.name, func(t *testing.T) {
			dir := repoDir(t, c)
			site := t.TempDir()
			if out, code := run(t, "report", "--dir", dir, "--out", site); code != 0 {
				t.Fatalf("report --out: exit %d\n%s", code, out)
			}
			if err := os.WriteFile(filepath.Join(site, "axe.min.js"), axe, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(site, "run-axe.js"), []byte(runAxe), 0o644); err != nil {
				t.Fatal(err)
			}
			pages := []string{"index", c.page, "graph", "code"}
			if _, err := os.Stat(filepath.Join(site, "code-1.html")); err == nil {
				pages = append(pages, "code-1")
			}
			for _, p := range pages {
				src := readPage(t, site, p+".html")
				withAxe := strings.Replace(src, "</body>", `<script src="axe.min.js"></script><script src="run-axe.js"></script></body>`, 1)
				name := "axe-" + p + ".html"
				if err := os.WriteFile(filepath.Join(site, name), []byte(withAxe), 0o644); err != nil {
					t.Fatal(err)
				}
				dom := browse(t, chrome, "--window-size=390,844", "--virtual-time-budget=60000", "--dump-dom", "file://"+filepath.Join(site, name))
				m := axeResultRE.FindSubmatch(dom)
				if m == nil {
					t.Fatalf("%s: axe wrote no result", p)
				}
				var r axeResult
				if err := json.Unmarshal([]byte(htmlUnescape(string(m[1]))), &r); err != nil || r.Error != "" {
					t.Fatalf("%s: axe: %v %s", p, err, r.Error)
				}
				for _, v := range r.Violations {
					if v.Impact == "serious" || v.Impact == "critical" {
						t.Errorf("%s: axe %s violation %s: %s at %v", p, v.Impact, v.ID, v.Help, v.Nodes)
					}
				}
				if r.Inner == 0 || r.Width > r.Inner {
					t.Errorf("%s at 390 px: the page is %d px wide in a %d px window", p, r.Width, r.Inner)
				}
			}
			// The search script runs under the pages' policy, and a
			// decision's text finds it.
			dom := string(browse(t, chrome, "--virtual-time-budget=10000", "--dump-dom", "file://"+filepath.Join(site, "index.html")))
			all := regexp.MustCompile(`<p id="shown"[^>]*>(\d+) of (\d+) decisions shown</p>`).FindStringSubmatch(dom)
			if all == nil || all[1] != all[2] || strings.Contains(dom, `<form id="filters" role="search" hidden`) {
				t.Fatalf("the search script did not run in the browser: %q", all)
			}
			word := map[string]string{"this-repository": "hostile"}[c.name]
			if word != "" {
				dom := string(browse(t, chrome, "--virtual-time-budget=10000", "--dump-dom", "file://"+filepath.Join(site, "index.html")+"#q="+word))
				m := regexp.MustCompile(`<p id="shown"[^>]*>(\d+) of (\d+) decisions shown</p>`).FindStringSubmatch(dom)
				if m == nil {
					t.Fatal("no search result count")
				}
				n, _ := strconv.Atoi(m[1])
				total, _ := strconv.Atoi(m[2])
				if n == 0 || n >= total || strings.Count(dom, `<tr data-key=`)-strings.Count(dom, `" hidden="">`) < 1 {
					t.Errorf("searching %q shows %d of %d decisions", word, n, total)
				}
			}
			if c.collection == "" {
				// The single file's inline script runs under its policy
				// (by its hash) and searches as the site's does.
				one := filepath.Join(site, "one.html")
				if out, code := run(t, "report", "--dir", dir, "--single", one); code != 0 {
					t.Fatalf("report --single: exit %d\n%s", code, out)
				}
				dom := string(browse(t, chrome, "--virtual-time-budget=10000", "--dump-dom", "file://"+one+"#q=hostile"))
				m := regexp.MustCompile(`<p id="shown"[^>]*>(\d+) of (\d+) decisions shown</p>`).FindStringSubmatch(dom)
				if m == nil || m[1] == "0" || m[1] == m[2] {
					t.Errorf("the single file's search did not run or found nothing: %q", m)
				}
			}
			// Screenshots: this repository's pages, and the graph of a
			// collection that has one (this register supersedes nothing).
			out := t.TempDir()
			docs := filepath.Join("..", "..", "docs", "report")
			shots := map[string]string{"index": "index", c.page: "decision", "code-1": "code", "index@390": "index-390"}
			if c.collection != "" {
				shots = map[string]string{"graph": "graph-" + c.name}
			}
			if *update && (c.collection == "" || c.name == "bbc__tams") {
				out = docs
				if err := os.MkdirAll(out, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for p, name := range shots {
				size := "--window-size=1100,800"
				if q, ok := strings.CutSuffix(p, "@390"); ok {
					p, size = q, "--window-size=390,844"
				}
				if _, err := os.Stat(filepath.Join(site, p+".html")); err != nil {
					continue
				}
				png := filepath.Join(out, name+".png")
				browse(t, chrome, "--screenshot="+png, size, "file://"+filepath.Join(site, p+".html"))
				b, err := os.ReadFile(png)
				if err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) || len(b) < 5_000 {
					t.Errorf("screenshot of %s is not a rendered page (%d bytes, %v)", p, len(b), err)
				}
			}
		})
	}
}
func htmlUnescape(s string) string {
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#39;", "'", "&amp;", "&").Replace(s)
}

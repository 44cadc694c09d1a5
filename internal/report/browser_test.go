package report_test

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
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

type axeResult struct {
	Error      string
	Width      int
	Inner      int
	Violations []struct {
		ID, Impact, Help string
		Nodes            []string
	}
}

// frame holds a page in an iframe 390 px wide: headless Chromium will not
// make its window narrower than 500 px, an iframe is as narrow as asked.
// It copies the page's axe result out when axe has written it.
const frame = `<!DOCTYPE html><html lang="en"><head><title>390 px</title></head><body style="margin:0"><iframe id="f" title="page" src="PAGE" width="390" height="844" style="border:0;display:block"></iframe>
<script>var n=0;function poll(){var d;try{d=document.getElementById('f').contentDocument}catch(e){return done(JSON.stringify({error:String(e)}))}
var r=d&&d.getElementById('axe-result');if(r)return done(r.textContent);if(++n>1200)return done('{"error":"axe did not finish"}');setTimeout(poll,100)}
function done(s){var p=document.createElement('pre');p.id='frame-result';p.textContent=s;document.body.appendChild(p)}poll()</script></body></html>`

// firstError holds the index at 1400x1000 and writes where its first
// item of needs attention is, and its severity.
const firstError = `<!DOCTYPE html><html lang="en"><head><title>first error</title></head><body style="margin:0"><iframe id="f" title="page" src="index.html" width="1400" height="1000" style="border:0;display:block"></iframe>
<script>document.getElementById('f').addEventListener('load',function(){var p=document.createElement('pre');p.id='frame-result';try{var d=document.getElementById('f').contentDocument,li=d.querySelector('#attention ~ div li.finding');
p.textContent=JSON.stringify({top:li.getBoundingClientRect().top,severity:li.querySelector('.badge').textContent})}catch(e){p.textContent=JSON.stringify({error:String(e)})}document.body.appendChild(p)})</script></body></html>`

var frameResultRE = regexp.MustCompile(`(?s)<pre id="frame-result">(.*?)</pre>`)

// searchCase is a query typed into the search box of a page, and the
// decision it must rank first.
type searchCase struct{ Page, Query, first string }

var searchCases = map[string][]searchCase{
	"this-repository": {
		{"D44", "dk-1vo", "D84"},               // a tracker id, from a decision page
		{"code", "internal/impact", "D84"},     // a path, from the code view
		{"graph", "impact.go", "D84"},          // a file name
		{"index", "--base", "D29"},             // a flag: the decision about check --base first
		{"D1", "16 << 20", "D21"},              // code as written
		{"index", "supersession graph", "D83"}, // words in a row
	},
	"generated-500": {
		{"D1", "Limit 250 holds", "D250"},
		{"index", "c07023", "D73"}, // code: the const D73/C4 anchors on
		{"D500", "src/f49.go", "D491"},
	},
}

// searches opens each page of QUERIES (a JSON list of searchCase) in an
// iframe with its query in the fragment, and writes what each search box
// listed: the decisions' keys in order, the count line, and whether a
// snippet marks the words.
const searches = `<!DOCTYPE html><html lang="en"><head><title>searches</title></head><body><script>
var qs=QUERIES,out=[],left=qs.length;function done(){var p=document.createElement('pre');p.id='frame-result';p.textContent=JSON.stringify(out);document.body.appendChild(p)}
qs.forEach(function(q,i){var f=document.createElement('iframe');f.title='search '+i;f.width=900;f.height=300;f.src=q.Page+'.html#search='+encodeURIComponent(q.Query);
f.addEventListener('load',function(){try{var d=f.contentDocument;out[i]={hits:[].map.call(d.querySelectorAll('#results li.hit'),function(li){return li.getAttribute('data-key')}),
count:d.getElementById('results-count').textContent,snippet:!!d.querySelector('#results .snippet mark')}}catch(e){out[i]={error:String(e)}}if(--left===0)done()});document.body.appendChild(f)});
</script></body></html>`

var hitRE = regexp.MustCompile(`<li class="hit" data-key="([^"]*)">`)

// TestSiteInBrowser opens the site of this repository, of the adopted
// collections and of a generated 500-decision register in headless
// Chromium (Debian's package): axe-core finds no serious or critical
// violation on the index, a decision page, the graph and the code view,
// each in an iframe 390 px wide (a phone) where no page is wider than its
// window; the search runs under the pages' policy from every page and
// ranks what a reader types (an id, a path, a flag, code) first; "the"
// alone finds nothing; the first item of needs attention is an error when
// there is one; and screenshots are taken (-update writes them into
// docs/report) (D83, D99).
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
				framed := "frame-" + p + ".html"
				if err := os.WriteFile(filepath.Join(site, framed), []byte(strings.Replace(frame, "PAGE", name, 1)), 0o644); err != nil {
					t.Fatal(err)
				}
				dom := browse(t, chrome, "--allow-file-access-from-files", "--window-size=500,844", "--virtual-time-budget=120000", "--dump-dom", "file://"+filepath.Join(site, framed))
				m := frameResultRE.FindSubmatch(dom)
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
				if r.Inner != 390 || r.Width > r.Inner {
					t.Errorf("%s at 390 px: the page is %d px wide in a %d px window", p, r.Width, r.Inner)
				}
			}
			// The filter script runs under the pages' policy.
			dom := string(browse(t, chrome, "--virtual-time-budget=10000", "--dump-dom", "file://"+filepath.Join(site, "index.html")))
			all := regexp.MustCompile(`<p id="shown"[^>]*>(\d+) of (\d+) decisions shown</p>`).FindStringSubmatch(dom)
			if all == nil || all[1] != all[2] || strings.Contains(dom, `<form id="filters" role="search" hidden`) {
				t.Fatalf("the search script did not run in the browser: %q", all)
			}
			// Needs attention: an error first, when check reports one.
			if i := strings.Index(dom, `<li class="finding"`); i >= 0 && strings.Contains(dom, `<span class="badge error">error</span>`) {
				if !strings.HasPrefix(dom[i:], `<li class="finding"`) || !strings.Contains(dom[i:i+strings.Index(dom[i:], "</li>")], `<span class="badge error">error</span>`) {
					t.Errorf("the first item of needs attention is not an error: %.200s", dom[i:])
				}
			}
			if c.generated {
				// Where the first error is, at 1400x1000: on the first screen.
				if err := os.WriteFile(filepath.Join(site, "first-error.html"), []byte(firstError), 0o644); err != nil {
					t.Fatal(err)
				}
				dom := browse(t, chrome, "--allow-file-access-from-files", "--window-size=1400,1000", "--virtual-time-budget=30000", "--dump-dom", "file://"+filepath.Join(site, "first-error.html"))
				var r struct {
					Top      float64
					Severity string
					Error    string
				}
				if m := frameResultRE.FindSubmatch(dom); m == nil || json.Unmarshal([]byte(htmlUnescape(string(m[1]))), &r) != nil || r.Error != "" {
					t.Fatalf("no position of the first error: %s", r.Error)
				}
				t.Logf("the first item of needs attention (%s) is %.0f px down at 1400x1000", r.Severity, r.Top)
				if r.Severity != "error" || r.Top > 1000 {
					t.Errorf("the first item of needs attention (%s) is %.0f px down: not an error on the first screen", r.Severity, r.Top)
				}
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
					t.Errorf("filtering by %q shows %d of %d decisions", word, n, total)
				}
			}
			// The search box of every page ranks what a reader types: every
			// query in one browser, each page in an iframe of its own.
			scs := append(searchCases[c.name], searchCase{"index", "the", ""})
			qs, _ := json.Marshal(scs)
			if err := os.WriteFile(filepath.Join(site, "searches.html"), []byte(strings.Replace(searches, "QUERIES", string(qs), 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			var got []struct {
				Hits    []string
				Count   string
				Snippet bool
				Error   string
			}
			sdom := browse(t, chrome, "--allow-file-access-from-files", "--virtual-time-budget=60000", "--dump-dom", "file://"+filepath.Join(site, "searches.html"))
			if m := frameResultRE.FindSubmatch(sdom); m == nil || json.Unmarshal([]byte(htmlUnescape(string(m[1]))), &got) != nil || len(got) != len(scs) {
				t.Fatalf("the searches wrote no result: %.300s", sdom)
			}
			for i, sc := range scs {
				g := got[i]
				switch {
				case g.Error != "":
					t.Errorf("searching %q from %s.html: %s", sc.Query, sc.Page, g.Error)
				case sc.first == "":
					if len(g.Hits) != 0 || !strings.Contains(g.Count, "is too common a word to search for") {
						t.Errorf("searching %q from %s.html lists %d decisions (%q)", sc.Query, sc.Page, len(g.Hits), g.Count)
					}
				case c.name == "this-repository" && !slices.Contains(g.Hits[:min(3, len(g.Hits))], sc.first):
					// This register grows with every round: a decision that
					// names the query more often may rank above the one the
					// case names, so the case asks for the top three here
					// (the generated register's cases ask for the first).
					t.Errorf("searching %q from %s.html: top %v, want %s among them", sc.Query, sc.Page, g.Hits[:min(3, len(g.Hits))], sc.first)
				case c.name != "this-repository" && (len(g.Hits) == 0 || g.Hits[0] != sc.first):
					t.Errorf("searching %q from %s.html: first %v, want %s", sc.Query, sc.Page, g.Hits[:min(3, len(g.Hits))], sc.first)
				case !g.Snippet:
					t.Errorf("searching %q: no snippet with the words marked", sc.Query)
				}
			}
			if c.collection == "" && !c.generated {
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
				dom = string(browse(t, chrome, "--virtual-time-budget=10000", "--dump-dom", "file://"+one+"#search=dk-1vo"))
				if hits := hitRE.FindAllStringSubmatch(dom, -1); len(hits) == 0 || hits[0][1] != "D84" {
					t.Errorf("the single file's search for dk-1vo: %v", hits)
				}
			}
			// The graph of 100 decisions fits in 2 screens of 1,000 px.
			if c.generated {
				g := readPage(t, site, "graph.html")
				m := regexp.MustCompile(`<svg id="graph-svg"[^>]* width="(\d+)"`).FindStringSubmatch(g)
				if n := strings.Count(g, `<a class="n `); m == nil || n < 100 {
					t.Errorf("the generated graph has %d boxes", n)
				} else if w, _ := strconv.Atoi(m[1]); w > 2000 {
					t.Errorf("the graph of %d boxes is %d px wide, more than 2 screens", n, w)
				}
			}
			// Screenshots: this repository's pages, and the graph of a
			// collection and of the generated register.
			out := t.TempDir()
			docs := filepath.Join("..", "..", "docs", "report")
			shots := map[string]string{"index": "index", c.page: "decision", "code-1": "code", "frame-index@390": "index-390"}
			if c.collection != "" || c.generated {
				shots = map[string]string{"graph": "graph-" + c.name}
			}
			if c.generated {
				shots["index"] = "index-" + c.name
			}
			if *update && (c.collection == "" || c.name == "bbc__tams") {
				out = docs
				if err := os.MkdirAll(out, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for p, name := range shots {
				size := []string{"--window-size=1100,800"}
				if q, ok := strings.CutSuffix(p, "@390"); ok {
					p, size = q, []string{"--window-size=500,844", "--allow-file-access-from-files", "--virtual-time-budget=120000"}
				}
				if _, err := os.Stat(filepath.Join(site, p+".html")); err != nil {
					continue
				}
				png := filepath.Join(out, name+".png")
				browse(t, chrome, append(size, "--screenshot="+png, "file://"+filepath.Join(site, p+".html"))...)
				b, err := os.ReadFile(png)
				if err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) || len(b) < 5_000 {
					t.Errorf("screenshot of %s is not a rendered page (%d bytes, %v)", p, len(b), err)
				}
				if strings.HasPrefix(p, "frame-") {
					cropTo(t, png, 390)
				}
			}
		})
	}
}

// cropTo cuts the screenshot at file to its left width pixels: the iframe.
func cropTo(t *testing.T, file string, width int) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	r := img.Bounds()
	r.Max.X = min(r.Max.X, r.Min.X+width)
	sub, ok := img.(interface {
		SubImage(image.Rectangle) image.Image
	})
	if !ok {
		t.Fatalf("%s: cannot crop a %T", file, img)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, sub.SubImage(r)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func htmlUnescape(s string) string {
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#39;", "'", "&amp;", "&").Replace(s)
}

package report

import (
	"bytes"
	"fmt"
	"html/template"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/claimslint/claimslint/internal/author"
	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/format"
	"github.com/claimslint/claimslint/internal/register"
)

// fixture is a repository made by init, plus a decision whose claim fails.
func fixture(t *testing.T) string {
	dir := t.TempDir()
	plan, err := author.Init(author.InitOptions{Dir: dir, Date: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if err := plan.Apply(dir); err != nil {
		t.Fatal(err)
	}
	plan, err = author.New(author.NewOptions{Dir: dir, Title: "Reject batches", Status: "accepted", Date: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if err := plan.Apply(dir); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, plan.File)
	b, _ := os.ReadFile(p)
	b = append(b, []byte("| C1 | present | `src/*.go` | `return errBatch` | | a batch is refused |\n")...)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	os.WriteFile(filepath.Join(dir, "src", "wire.go"), []byte("package wire\n\n// TODO: return errBatch\n"), 0o644)
	return dir
}

func render(t *testing.T, dir, url string) string {
	var buf bytes.Buffer
	if err := Write(&buf, Options{Dir: dir, RepoURL: url, Now: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestReportContent(t *testing.T) {
	t.Parallel()
	dir := fixture(t)
	html := render(t, dir, "https://example.invalid/org/repo")
	// Needs attention is exactly what check prints, line for line.
	res, err := check.Run(check.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := format.Text(&out, res.Findings); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) == 0 || lines[0] == "" {
		t.Fatal("the fixture should have a check finding")
	}
	for _, l := range lines {
		if !strings.Contains(html, "<code>"+template.HTMLEscapeString(l)+"</code>") {
			t.Errorf("report lacks check's line %q", l)
		}
	}
	if n := strings.Count(html, `<li class="finding" `); n != len(lines) {
		t.Errorf("report lists %d findings, check prints %d", n, len(lines))
	}
	for _, want := range []string{
		`<ul class="findings" id="findings">`,
		`id="D2"`, `<span class="badge accepted">accepted</span>`,
		`claims: 2 ok, 1 failed`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	for _, banned := range []string{"<script src", "<link ", "http://", "@import"} {
		if strings.Contains(html, banned) {
			t.Errorf("report is not self-contained: it has %q", banned)
		}
	}
}

// TestReportInBrowser renders the page in headless Chromium (Debian's
// chromium package), asserts the DOM it built and takes a screenshot. .ci/run
// installs chromium where it can; elsewhere the test is skipped.
func TestReportInBrowser(t *testing.T) {
	t.Parallel()
	chrome, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed (apt-get install chromium); the HTML is still checked by TestReportContent")
	}
	dir := fixture(t)
	page := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(page, []byte(render(t, dir, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	flags := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
		"--disable-sync", "--no-first-run", "--user-data-dir=" + t.TempDir()}
	dom, err := exec.Command(chrome, append(flags, "--dump-dom", "file://"+page)...).Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v", err)
	}
	if n := strings.Count(string(dom), `<article class="claim`); n != 3 {
		t.Errorf("the browser's DOM has %d claims, want 3", n)
	}
	if !strings.Contains(string(dom), `id="findings"`) {
		t.Error("the browser's DOM has no findings list")
	}
	shot := filepath.Join(t.TempDir(), "report.png")
	if out, err := exec.Command(chrome, append(flags, "--screenshot="+shot, "--window-size=1200,900", "file://"+page)...).CombinedOutput(); err != nil {
		t.Fatalf("chromium --screenshot: %v\n%s", err, out)
	}
	png, err := os.ReadFile(shot)
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) || len(png) < 10_000 {
		t.Errorf("screenshot is not a rendered page (%d bytes, %v)", len(png), err)
	}
}

// badgeStates is every class a badge can carry: the five statuses and an
// unknown one, claim states, audit problems, tracker statuses (known and
// not), and finding severities.
var badgeStates = []string{
	"proposed", "accepted", "rejected", "deprecated", "superseded", "parked",
	"ok", "failed", "pending", "retired", "vacuous",
	"dangling", "placeholder", "closed-residual", "no-backlink", "unknown-decision",
	"open", "in_progress", "closed", "tombstone", "missing", "blocked",
	"error", "warning", "note",
}

// TestBadgeContrast renders one badge of every state with the report's own
// stylesheet in headless Chromium, reads each badge's background from the
// screenshot, and requires white text on it to reach WCAG's 4.5:1.
func TestBadgeContrast(t *testing.T) {
	t.Parallel()
	chrome, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed (apt-get install chromium)")
	}
	html := render(t, fixture(t), "")
	i, j := strings.Index(html, "<style>"), strings.Index(html, "</style>")
	if i < 0 || j < i {
		t.Fatal("report has no stylesheet")
	}
	const rowH = 28
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><html><head><meta charset=\"utf-8\">" + html[i:j+len("</style>")] + "</head><body style=\"margin:0\">")
	for k, s := range badgeStates {
		fmt.Fprintf(&b, `<div style="position:absolute;left:10px;top:%dpx"><span class="badge %s">%s</span></div>`, 4+k*rowH, s, s)
	}
	b.WriteString("</body></html>")
	dir := t.TempDir()
	page := filepath.Join(dir, "badges.html")
	if err := os.WriteFile(page, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "badges.png")
	flags := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
		"--disable-sync", "--no-first-run", "--hide-scrollbars", "--force-device-scale-factor=1", "--user-data-dir=" + t.TempDir(),
		"--screenshot=" + shot, fmt.Sprintf("--window-size=300,%d", len(badgeStates)*rowH+20), "file://" + page}
	if out, err := exec.Command(chrome, flags...).CombinedOutput(); err != nil {
		t.Fatalf("chromium --screenshot: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	for k, s := range badgeStates {
		top := 4 + k*rowH
		counts := map[[3]uint8]int{}
		for y := top + 4; y < top+12; y++ {
			for x := 14; x < 44; x++ {
				r, g, bl, _ := img.At(x, y).RGBA()
				counts[[3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8)}]++
			}
		}
		var bg [3]uint8
		best := -1
		for c, n := range counts {
			if n > best || n == best && fmt.Sprint(c) < fmt.Sprint(bg) {
				bg, best = c, n
			}
		}
		if ratio := contrast(bg, [3]uint8{255, 255, 255}); ratio < 4.5 {
			t.Errorf("badge %q: white text on rgb%v has contrast %.2f:1, want at least 4.5:1", s, bg, ratio)
		}
	}
}

// contrast is WCAG 2's contrast ratio of two sRGB colours.
func contrast(a, b [3]uint8) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func luminance(c [3]uint8) float64 {
	ch := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*ch(c[0]) + 0.7152*ch(c[1]) + 0.0722*ch(c[2])
}

func TestContrastFormula(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		a, b [3]uint8
		want float64
	}{
		{[3]uint8{0, 0, 0}, [3]uint8{255, 255, 255}, 21},
		{[3]uint8{255, 255, 255}, [3]uint8{255, 255, 255}, 1},
		{[3]uint8{0x76, 0x76, 0x76}, [3]uint8{255, 255, 255}, 4.54},
	} {
		if got := contrast(c.a, c.b); math.Abs(got-c.want) > 0.01 {
			t.Errorf("contrast(%v, %v) = %.3f, want %.2f", c.a, c.b, got, c.want)
		}
	}
}

// TestLineLinksOnlyOnCleanTree: code lines link to the commit only while
// the work tree matches it; with an uncommitted change they are not linked.
func TestLineLinksOnlyOnCleanTree(t *testing.T) {
	t.Parallel()
	dir := fixture(t)
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.invalid"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "x")
	if html := render(t, dir, "https://example.invalid/org/repo"); !strings.Contains(html, `href="https://example.invalid/org/repo/blob/`) {
		t.Error("clean tree: code lines are not linked to the commit")
	}
	if err := os.WriteFile(filepath.Join(dir, "src", "wire.go"), []byte("package wire\n\n// TODO: return errBatch\n\nvar x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	html := render(t, dir, "https://example.invalid/org/repo")
	if strings.Contains(html, "/blob/") {
		t.Error("dirty tree: code lines still link to a commit that does not have them")
	}
	if !strings.Contains(html, "(uncommitted changes: lines are not linked)") {
		t.Error("dirty tree: the page does not say why lines are not linked")
	}
}

// TestHostileText: a decision's text, title and claim cells are hostile
// input. Raw HTML is omitted, a javascript: link is not written, an image
// becomes a link (a page fetches nothing when viewed), and every cell is
// escaped, in the directory's pages and in the single file.
func TestHostileText(t *testing.T) {
	t.Parallel()
	dir := fixture(t)
	p := filepath.Join(dir, "docs", "decisions")
	ents, _ := os.ReadDir(p)
	var file string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "D2-") {
			file = filepath.Join(p, e.Name())
		}
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	prose := "PWNED-TEXT <script>alert(1)</script> <img src=x onerror=alert(2)>\n\n" +
		"<div onclick=\"alert(3)\">raw</div>\n\n[click](javascript:alert(4)) ![pic](https://evil.example/p.png)\n\n## Confirmation\n"
	row := "| C2 | present | `src/*.go` | `package wire` | | <script>alert(5)</script> |\n"
	if !bytes.Contains(b, []byte("## Confirmation\n")) {
		t.Fatalf("the fixture's decision has no Confirmation:\n%s", b)
	}
	b = append(bytes.Replace(b, []byte("## Confirmation\n"), []byte(prose), 1), row...)
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := Site(Options{Dir: dir, Now: time.Unix(0, 0)})
	if err != nil {
		t.Fatal(err)
	}
	var single bytes.Buffer
	if err := Write(&single, Options{Dir: dir, Now: time.Unix(0, 0)}); err != nil {
		t.Fatal(err)
	}
	pages := map[string]string{"single": single.String()}
	for _, f := range files {
		pages[f.Name] = string(f.Data)
	}
	if !strings.Contains(pages["D2.html"], "PWNED-TEXT") || !strings.Contains(pages["single"], "PWNED-TEXT") {
		t.Fatal("the decision's text is not on its page")
	}
	// The search index carries the text as written, as data: a JSON
	// string whose <, > and & are escaped, which the script writes with
	// textContent only (D99). Outside it, nothing of the text is markup.
	indexRE := regexp.MustCompile(`window\.CLAIMSLINT_INDEX=\[.*?\];\n`)
	if strings.Contains(searchJS, "innerHTML") || strings.Contains(searchJS, "insertAdjacentHTML") || strings.Contains(searchJS, "document.write") {
		t.Error("the search script writes HTML")
	}
	for name, s := range pages {
		data := strings.Join(indexRE.FindAllString(s, -1), "")
		s = indexRE.ReplaceAllString(s, "")
		for _, bad := range []string{"<script>alert", "onerror=", "onclick=", "javascript:", "<img", `src="https://evil`, "<div onclick"} {
			if strings.Contains(s, bad) {
				t.Errorf("%s holds %q", name, bad)
			}
		}
		for _, bad := range []string{"<script", "<img", "<div", "</script"} {
			if strings.Contains(data, bad) {
				t.Errorf("%s's search index holds %q unescaped", name, bad)
			}
		}
	}
	if !strings.Contains(pages["D2.html"], `<a href="https://evil.example/p.png">pic</a>`) {
		t.Error("the image is not a link to what it shows")
	}
	if !strings.Contains(pages["D2.html"], `<dd class="why">&lt;script&gt;alert(5)&lt;/script&gt;</dd>`) {
		t.Error("the claim's Why is not escaped text")
	}
}

// TestSingleFile: --single (and --html) is the whole site in one file:
// every decision a section, every link a fragment that names a section.
func TestSingleFile(t *testing.T) {
	t.Parallel()
	html := render(t, fixture(t), "")
	for _, id := range []string{`id="D1"`, `id="D2"`, `id="graph"`, `id="code"`, `id="code-1"`, `id="D2-C1"`} {
		if !strings.Contains(html, id) {
			t.Errorf("the single file has no section %s", id)
		}
	}
	for _, m := range regexp.MustCompile(`href="([^"]*)"`).FindAllStringSubmatch(html, -1) {
		if !strings.HasPrefix(m[1], "#") || !strings.Contains(html, `id="`+m[1][1:]+`"`) {
			t.Errorf("link %q is not a fragment of the file", m[1])
		}
	}
	if strings.Contains(html, `<script src=`) || !strings.Contains(html, "window.CLAIMSLINT_INDEX=") {
		t.Error("the single file's search index is not inline")
	}
}

// TestGraphLayout: the layout is layered (the older decision above the one
// that supersedes it), has no two boxes on one spot, survives a cycle, and
// is the same on every run.
func TestGraphLayout(t *testing.T) {
	t.Parallel()
	d := map[string]*dview{}
	for _, id := range []string{"D1", "D2", "D3", "D4", "D5", "D6"} {
		d[id] = &dview{ID: id, Key: id}
	}
	edges := []relEdge{
		{d["D2"], d["D1"], "supersedes"}, {d["D3"], d["D2"], "supersedes"}, {d["D4"], d["D1"], "amends"},
		{d["D5"], d["D6"], "supersedes"}, {d["D6"], d["D5"], "supersedes"}, // a cycle
	}
	g := layout(edges)
	pos := map[string]*gnode{}
	spots := map[[2]int]string{}
	for _, n := range g.Nodes {
		pos[n.D.ID] = n
		if o, ok := spots[[2]int{n.X, n.Y}]; ok {
			t.Errorf("%s and %s share a spot", o, n.D.ID)
		}
		spots[[2]int{n.X, n.Y}] = n.D.ID
		if n.X < 0 || n.Y < 0 || n.X+nodeW > g.Width || n.Y+nodeH > g.Height {
			t.Errorf("%s at %d,%d is outside the %dx%d drawing", n.D.ID, n.X, n.Y, g.Width, g.Height)
		}
	}
	if len(g.Nodes) != 6 || len(g.Edges) != 5 {
		t.Fatalf("%d nodes, %d edges", len(g.Nodes), len(g.Edges))
	}
	if !(pos["D1"].Y < pos["D2"].Y && pos["D2"].Y < pos["D3"].Y && pos["D1"].Y < pos["D4"].Y) {
		t.Errorf("not layered: D1 %d, D2 %d, D3 %d, D4 %d", pos["D1"].Y, pos["D2"].Y, pos["D3"].Y, pos["D4"].Y)
	}
	again := layout(edges)
	for i, n := range again.Nodes {
		if g.Nodes[i].D.ID != n.D.ID || g.Nodes[i].X != n.X || g.Nodes[i].Y != n.Y || g.Edges[min(i, 4)].Path != again.Edges[min(i, 4)].Path {
			t.Fatalf("two layouts differ at %s", n.D.ID)
		}
	}
	if g := layout(nil); len(g.Nodes) != 0 || g.Width != 0 {
		t.Error("no relation draws something")
	}
}

// TestPagesBounded: a claim resting on many lines shows 3 excerpts and a
// count, and a file with 2,560 pinned lines lists 1,000 of them and a
// count: no page grows with the lines claims pin (D83).
func TestPagesBounded(t *testing.T) {
	t.Parallel()
	dir := fixture(t)
	var src strings.Builder
	src.WriteString("package wire\n\n")
	for i := range 5000 {
		fmt.Fprintf(&src, "const k%d = %d\n", i, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "src", "many.go"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(filepath.Join(dir, "docs", "decisions"))
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "D2-") {
			p := filepath.Join(dir, "docs", "decisions", e.Name())
			b, _ := os.ReadFile(p)
			// 40 claims, each on 100 constants (check keeps 64 hits of
			// each): 2,560 pinned lines of one file.
			for j := 10; j < 50; j++ {
				b = append(b, fmt.Sprintf("| C%d | anchored-every | `src/many.go` | `^const k%d[0-9]{2} =` | `= [0-9]+$` | every constant is a number |\n", j, j)...)
			}
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	files, err := Site(Options{Dir: dir, Now: time.Unix(0, 0)})
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]string{}
	for _, f := range files {
		pages[f.Name] = string(f.Data)
		if len(f.Data) >= 200<<10 {
			t.Errorf("%s is %d bytes", f.Name, len(f.Data))
		}
	}
	d2 := pages["D2.html"]
	if n := strings.Count(d2, `<figure class="excerpt"`); n != 40*3 {
		t.Errorf("D2.html has %d excerpts, want 3 of each of the 40 claims", n)
	}
	if n := strings.Count(d2, "and 61 more lines"); n != 40 {
		t.Errorf("D2.html counts the other lines of %d claims, want 40", n)
	}
	var many string
	for name, s := range pages {
		if strings.Contains(s, "<h1>src/many.go</h1>") {
			many = name
		}
	}
	if n := len(regexp.MustCompile(`<tr id="code-\d+-L\d+"(?: class="failed")?><td>`).FindAllString(pages[many], -1)); n != maxPinnedRows || !strings.Contains(pages[many], "and 1560 more pinned lines") {
		t.Errorf("src/many.go's page (%q) lists %d pinned lines", many, n)
	}
}

// TestGraphNoEdgeCrossesABox: on registers whose relations span many
// layers (long edges, cycles), no segment of any edge's path enters a box,
// and 100 decisions in 50 pairs (the budget case's shape) fit in
// 2 screens of 1,000 px (D99).
func TestGraphNoEdgeCrossesABox(t *testing.T) {
	t.Parallel()
	for seed := range uint64(30) {
		rng := rand.New(rand.NewPCG(seed, 99))
		n := 10 + rng.IntN(90)
		d := make([]*dview, n)
		for i := range d {
			d[i] = &dview{ID: "D" + strconv.Itoa(i+1), Key: "D" + strconv.Itoa(i+1), Title: strings.Repeat("a long title ", 1+rng.IntN(4))}
		}
		var edges []relEdge
		for i := 1; i < n; i++ {
			for range rng.IntN(3) {
				edges = append(edges, relEdge{d[i], d[rng.IntN(i)], []string{"supersedes", "amends"}[rng.IntN(2)]})
			}
		}
		if seed%3 == 0 { // a cycle
			edges = append(edges, relEdge{d[0], d[n-1], "supersedes"})
		}
		g := layout(edges)
		longEdges := 0
		for _, e := range g.Edges {
			pts := pathPoints(t, e.Path)
			if len(pts) > 2 {
				longEdges++
			}
			for i := 1; i < len(pts); i++ {
				for _, b := range g.Nodes {
					if segmentEntersBox(pts[i-1], pts[i], b) {
						t.Fatalf("seed %d: the edge %s %s %s (%s) crosses the box of %s", seed, e.From.D.ID, e.Verb, e.To.D.ID, e.Path, b.D.ID)
					}
				}
			}
		}
		if longEdges == 0 && n > 30 {
			t.Errorf("seed %d: no edge spans layers: the case tests nothing", seed)
		}
	}
	d := make([]*dview, 100)
	var edges []relEdge
	for i := range d {
		d[i] = &dview{ID: "D" + strconv.Itoa(i+1), Key: "D" + strconv.Itoa(i+1), Title: "Limit holds"}
		if i%2 == 1 {
			edges = append(edges, relEdge{d[i], d[i-1], "supersedes"})
		}
	}
	if g := layout(edges); len(g.Nodes) != 100 || g.Width > 2*1000 {
		t.Errorf("100 decisions in pairs: %d boxes, %d px wide, more than 2 screens of 1,000 px", len(g.Nodes), g.Width)
	}
}

func pathPoints(t *testing.T, p string) [][2]float64 {
	t.Helper()
	var pts [][2]float64
	for _, f := range strings.Split(strings.TrimPrefix(p, "M"), " L") {
		var x, y float64
		if _, err := fmt.Sscanf(f, "%g %g", &x, &y); err != nil {
			t.Fatalf("path %q: %v", p, err)
		}
		pts = append(pts, [2]float64{x, y})
	}
	return pts
}

// segmentEntersBox reports whether the segment a-b passes through the
// inside of n's box (touching its border is not entering), by clipping
// the segment to the box (Liang-Barsky).
func segmentEntersBox(a, b [2]float64, n *gnode) bool {
	const e = 0.5
	x0, y0, x1, y1 := float64(n.X)+e, float64(n.Y)+e, float64(n.X+nodeW)-e, float64(n.Y+nodeH)-e
	t0, t1 := 0.0, 1.0
	dx, dy := b[0]-a[0], b[1]-a[1]
	for _, c := range [][2]float64{{-dx, a[0] - x0}, {dx, x1 - a[0]}, {-dy, a[1] - y0}, {dy, y1 - a[1]}} {
		p, q := c[0], c[1]
		if p == 0 {
			if q < 0 {
				return false
			}
			continue
		}
		r := q / p
		if p < 0 {
			t0 = max(t0, r)
		} else {
			t1 = min(t1, r)
		}
	}
	return t0 < t1
}

// TestRefusedFileNotRendered: a decision file check refuses before
// goldmark (here a list nested 40 levels on one line, over D40's 32) is not
// rendered by report either: its page has no body, and check's CL008
// finding is in Needs attention (D90). Before, report rendered the 16 MB
// files check refuses (26.5 s, 5.0 GB).
func TestRefusedFileNotRendered(t *testing.T) {
	t.Parallel()
	dir := fixture(t)
	p := filepath.Join(dir, "docs", "decisions")
	ents, _ := os.ReadDir(p)
	var file string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "D2-") {
			file = filepath.Join(p, e.Name())
		}
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, []byte("\nREFUSED-TEXT\n\n"+strings.Repeat("> ", 40)+"deep\n")...)
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	html := render(t, dir, "")
	if strings.Contains(html, "REFUSED-TEXT") {
		t.Error("the refused file's text was rendered")
	}
	if !strings.Contains(html, "(CL008)") {
		t.Error("check's CL008 finding is not on the page")
	}
	if _, err := register.RenderHTML(b, 0); err == nil || !strings.Contains(err.Error(), "not rendered") {
		t.Errorf("RenderHTML of a refused file: %v", err)
	}
}

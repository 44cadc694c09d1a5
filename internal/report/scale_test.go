package report

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/report/scale"
)

// TestScalePages builds the budget case's site: check is clean on it, it
// has a page per decision showing every claim, and every page is under
// 200 KB (D83).
func TestScalePages(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := scale.Write(dir); err != nil {
		t.Fatal(err)
	}
	res, err := check.Run(check.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 0 {
		t.Fatalf("the budget case is not clean: %d findings, first %v", len(res.Findings), res.Findings[0])
	}
	start := time.Now()
	files, err := Site(Options{Dir: dir, Now: time.Unix(0, 0)})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("built %d files in %v", len(files), time.Since(start))
	pages, claims, total, largest := 0, 0, 0, File{}
	for _, f := range files {
		total += len(f.Data)
		if len(f.Data) > len(largest.Data) && strings.HasSuffix(f.Name, ".html") {
			largest = f
		}
		if len(f.Data) >= 200<<10 && strings.HasSuffix(f.Name, ".html") {
			t.Errorf("%s is %d bytes, over 200 KB", f.Name, len(f.Data))
		}
		if strings.HasPrefix(f.Name, "D") {
			pages++
			claims += strings.Count(string(f.Data), `<article class="claim`)
		}
	}
	if pages != scale.Decisions || claims != scale.Decisions*scale.Claims {
		t.Errorf("%d decision pages with %d claims, want %d and %d", pages, claims, scale.Decisions, scale.Decisions*scale.Claims)
	}
	t.Logf("%d files, %d bytes; the largest page %s, %d bytes", len(files), total, largest.Name, len(largest.Data))
	// The graph of its 100 related decisions: at most 2 screens of 1,000
	// px wide, and no edge crosses a box (D99).
	for _, f := range files {
		if f.Name != "graph.html" {
			continue
		}
		g := string(f.Data)
		var boxes []*gnode
		for _, m := range rectRE.FindAllStringSubmatch(g, -1) {
			x, _ := strconv.Atoi(m[1])
			y, _ := strconv.Atoi(m[2])
			boxes = append(boxes, &gnode{X: x, Y: y})
		}
		w := svgWidthRE.FindStringSubmatch(g)
		if len(boxes) != 100 || w == nil {
			t.Fatalf("the graph has %d boxes, want 100", len(boxes))
		}
		if n, _ := strconv.Atoi(w[1]); n > 2*1000 {
			t.Errorf("the graph of 100 decisions is %d px wide", n)
		}
		for _, m := range edgeRE.FindAllStringSubmatch(g, -1) {
			pts := pathPoints(t, m[1])
			for i := 1; i < len(pts); i++ {
				for _, b := range boxes {
					if segmentEntersBox(pts[i-1], pts[i], b) {
						t.Errorf("the edge %s crosses the box at %d,%d", m[1], b.X, b.Y)
					}
				}
			}
		}
	}
}

var (
	rectRE     = regexp.MustCompile(`<rect x="(\d+)" y="(\d+)" width="168" height="40"`)
	svgWidthRE = regexp.MustCompile(`<svg id="graph-svg"[^>]* width="(\d+)"`)
	edgeRE     = regexp.MustCompile(`<path class="e[^"]*" d="([^"]*)"`)
)

// BenchmarkSite is the budget case, built as `claimslint report --out`
// builds it: check, prove and audit, then every page in memory.
func BenchmarkSite(b *testing.B) {
	dir := b.TempDir()
	if err := scale.Write(dir); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Site(Options{Dir: dir, Now: time.Unix(0, 0)}); err != nil {
			b.Fatal(err)
		}
	}
}

package report

import (
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
}

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

package check

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// regionRepo copies up to n files of GOROOT/src (production Go, each with
// a func line and a line of its body that occur once in it) into a
// repository, with one claim per file anchored on that body line: confined
// to the function with a Within cell when regions is set, over the whole
// file otherwise. The claims are the same either way, so the two runs
// differ only by the regions (D94).
func regionRepo(tb testing.TB, n int, regions bool) (string, int) {
	tb.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		tb.Skip("no go env GOROOT:", err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src")
	var files []string
	filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "vendor") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(rel, ".go") && !strings.HasSuffix(rel, "_test.go") {
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(files)
	dir := tb.TempDir()
	funcLine := regexp.MustCompile(`^func [A-Za-z_(].*\{$`)
	body := regexp.MustCompile(`^\t[a-z][A-Za-z0-9_.]* (:?=|\+=) .{8,}[^{]$`)
	type cand struct{ file, fn, in string }
	var cands []cand
	for _, f := range files {
		if len(cands) == n+n/5 {
			break
		}
		data, err := os.ReadFile(filepath.Join(src, f))
		if err != nil || len(data) > MaxFileSize {
			continue
		}
		lines := strings.Split(string(data), "\n")
		count := map[string]int{}
		for _, l := range lines {
			count[l]++
		}
		fn, in := "", ""
		for i, l := range lines {
			if funcLine.MatchString(l) && count[l] == 1 && !strings.Contains(l, "|") {
				for _, b := range lines[i+1:] {
					if b == "}" {
						break
					}
					if body.MatchString(b) && count[b] == 1 && !strings.ContainsAny(b, "`\"|") && !strings.Contains(b, "//") && !strings.Contains(b, "/*") {
						fn, in = l, b
						break
					}
				}
			}
			if in != "" {
				break
			}
		}
		if in == "" {
			continue
		}
		p := filepath.Join(dir, "src", f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, data, 0o644)
		cands = append(cands, cand{f, fn, in})
	}
	// write writes the register: one decision per ten claims.
	write := func(cs []cand, regions bool) {
		os.RemoveAll(filepath.Join(dir, "docs"))
		os.MkdirAll(filepath.Join(dir, "docs", "decisions"), 0o755)
		var prd strings.Builder
		nd := (len(cs) + 9) / 10
		fmt.Fprintf(&prd, "D1..D%d\n\n| ID | Decision | Status |\n|---|---|---|\n", nd)
		for d := 1; d <= nd; d++ {
			fmt.Fprintf(&prd, "| D%d | Regions | accepted |\n", d)
			var rows strings.Builder
			for k := (d - 1) * 10; k < min(d*10, len(cs)); k++ {
				within := ""
				if regions {
					within = "`^" + cell(cs[k].fn) + "$`"
				}
				fmt.Fprintf(&rows, "| C%d | anchored | `src/%s` | %s | `^%s$` | |\n", k-(d-1)*10+1, cs[k].file, within, cell(cs[k].in))
			}
			text := fmt.Sprintf("---\nid: D%d\nstatus: accepted\n---\n# D%d: Regions\n\n## Confirmation\n| Claim | Kind | Path | Within | Anchor | Require |\n|---|---|---|---|---|---|\n%s", d, d, rows.String())
			os.WriteFile(filepath.Join(dir, "docs", "decisions", fmt.Sprintf("D%d-r.md", d)), []byte(text), 0o644)
		}
		os.WriteFile(filepath.Join(dir, "docs", "PRD.md"), []byte(prd.String()), 0o644)
	}
	// Keep the claims that hold in both modes: a func line inside a
	// generator's template string opens no block (it is a string), and a
	// body line the file repeats elsewhere is ambiguous without a region.
	bad := map[string]bool{}
	for _, mode := range []bool{true, false} {
		write(cands, mode)
		res, err := Run(Options{Dir: dir})
		if err != nil {
			tb.Fatal(err)
		}
		for _, f := range res.Findings {
			bad[f.Decision+"/"+f.Claim] = true
		}
	}
	var keep []cand
	for k, c := range cands {
		if !bad[fmt.Sprintf("D%d/C%d", k/10+1, k%10+1)] && len(keep) < n {
			keep = append(keep, c)
		}
	}
	write(keep, regions)
	return dir, len(keep)
}

// cell writes a line (one without a |) as a literal pattern in a table
// cell.
func cell(l string) string { return regexp.QuoteMeta(l) }

// BenchmarkRegionClaims: check with 1,000 anchored claims on GOROOT's
// files, each confined to its function (regions) or over its whole file
// (plain): what a region costs (D94; docs/benchmarks.md).
func BenchmarkRegionClaims(b *testing.B) {
	for _, regions := range []bool{false, true} {
		name := "plain"
		if regions {
			name = "regions"
		}
		b.Run(name, func(b *testing.B) {
			dir, n := regionRepo(b, 1000, regions)
			res, err := Run(Options{Dir: dir})
			if err != nil {
				b.Fatal(err)
			}
			if len(res.Findings) != 0 {
				for _, f := range res.Findings {
					b.Log(f.Message)
				}
				b.Fatalf("%d findings on %d claims", len(res.Findings), n)
			}
			b.ResetTimer()
			cpu := processCPU()
			for i := 0; i < b.N; i++ {
				if _, err := Run(Options{Dir: dir}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(processCPU()-cpu)/1e6/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(n), "claims")
		})
	}
}

// TestRegionClaimsOnGOROOT guards the benchmark's premise: every claim
// holds with and without its region, and the region claims fail when
// their line leaves its function.
func TestRegionClaimsOnGOROOT(t *testing.T) {
	if testing.Short() {
		t.Skip("copies GOROOT files")
	}
	for _, regions := range []bool{false, true} {
		dir, n := regionRepo(t, 40, regions)
		res, err := Run(Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		if n < 40 || len(res.Findings) != 0 {
			t.Fatalf("regions=%v: %d claims, findings %+v", regions, n, res.Findings)
		}
	}
}

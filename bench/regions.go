package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// regionsResult is what a region costs (issue 34, D94): claimslint check
// with the same 1,000 anchored claims on GOROOT's files, each confined to
// its function by a Within cell (regions) or reading its whole file
// (plain), run interleaved on one machine.
type regionsResult struct {
	claims, files   int
	plain, regions  stats
	loadBefore, end string
}

// regionCand is one claim: the file, the func line that opens its
// region, and the body line it anchors on (each once in the file).
type regionCand struct{ file, fn, in string }

// regionCands copies up to n+n/5 files of src (production Go, each with a
// func line and a line of its body that occur once in it) under dir/src.
func regionCands(src, dir string, n int) ([]regionCand, error) {
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
	funcLine := regexp.MustCompile(`^func [A-Za-z_(].*\{$`)
	body := regexp.MustCompile(`^\t[a-z][A-Za-z0-9_.]* (:?=|\+=) .{8,}[^{]$`)
	var out []regionCand
	for _, f := range files {
		if len(out) == n+n/5 {
			break
		}
		data, err := os.ReadFile(filepath.Join(src, f))
		if err != nil || len(data) > 4<<20 {
			continue
		}
		fn, in := regionPick(strings.Split(string(data), "\n"), funcLine, body)
		if in == "" {
			continue
		}
		p := filepath.Join(dir, "src", filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return nil, err
		}
		out = append(out, regionCand{f, fn, in})
	}
	return out, nil
}

// regionPick finds the first func line (once in the file) with a body line
// (once in the file, no quote, comment or pipe) before its closing brace.
func regionPick(lines []string, funcLine, body *regexp.Regexp) (string, string) {
	count := map[string]int{}
	for _, l := range lines {
		count[l]++
	}
	for i, l := range lines {
		if !funcLine.MatchString(l) || count[l] != 1 || strings.Contains(l, "|") {
			continue
		}
		for _, b := range lines[i+1:] {
			if b == "}" {
				break
			}
			if body.MatchString(b) && count[b] == 1 && !strings.ContainsAny(b, "`\"|") && !strings.Contains(b, "//") && !strings.Contains(b, "/*") {
				return l, b
			}
		}
	}
	return "", ""
}

// writeRegionRegister writes the register of cs into dir: one decision per
// ten anchored claims, each with its func line as Within when regions.
func writeRegionRegister(dir string, cs []regionCand, regions bool) error {
	os.RemoveAll(filepath.Join(dir, "docs"))
	if err := os.MkdirAll(filepath.Join(dir, "docs", "decisions"), 0o755); err != nil {
		return err
	}
	var prd strings.Builder
	nd := (len(cs) + 9) / 10
	fmt.Fprintf(&prd, "D1..D%d\n\n| ID | Decision | Status |\n|---|---|---|\n", nd)
	for d := 1; d <= nd; d++ {
		fmt.Fprintf(&prd, "| D%d | Regions | accepted |\n", d)
		var rows strings.Builder
		for k := (d - 1) * 10; k < min(d*10, len(cs)); k++ {
			within := ""
			if regions {
				within = "`^" + regexp.QuoteMeta(cs[k].fn) + "$`"
			}
			fmt.Fprintf(&rows, "| C%d | anchored | `src/%s` | %s | `^%s$` | |\n", k-(d-1)*10+1, cs[k].file, within, regexp.QuoteMeta(cs[k].in))
		}
		text := fmt.Sprintf("---\nid: D%d\nstatus: accepted\n---\n# D%d: Regions\n\n## Confirmation\n| Claim | Kind | Path | Within | Anchor | Require |\n|---|---|---|---|---|---|\n%s", d, d, rows.String())
		if err := os.WriteFile(filepath.Join(dir, "docs", "decisions", fmt.Sprintf("D%d-r.md", d)), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, "docs", "PRD.md"), []byte(prd.String()), 0o644)
}

// regionsHolding lists, by D<n>/C<k>, the claims claimslint list finds
// holding in dir.
func regionsHolding(dir string) (map[string]bool, error) {
	out, err := exec.Command(bin["claimslint"], "list", "--format", "json", "--dir", dir).Output()
	if err != nil {
		return nil, fmt.Errorf("claimslint list: %v", err)
	}
	var states []struct{ Decision, Claim, State string }
	if err := json.Unmarshal(out, &states); err != nil {
		return nil, err
	}
	ok := map[string]bool{}
	for _, s := range states {
		ok[s.Decision+"/"+s.Claim] = s.State == "ok"
	}
	return ok, nil
}

// benchRegions builds the two trees (the same files, the same claims,
// with and without Within) and times check on each, interleaved.
func benchRegions(rep *report) error {
	goroot := strings.TrimSpace(must(exec.Command("go", "env", "GOROOT").Output()))
	n, runs := 1000, 7
	if *quick {
		n, runs = 100, 2
	}
	plain, regions := filepath.Join(workDir, "regions-plain"), filepath.Join(workDir, "regions-within")
	defer os.RemoveAll(plain)
	defer os.RemoveAll(regions)
	logf("regions: copying GOROOT files")
	cands, err := regionCands(filepath.Join(goroot, "src"), plain, n)
	if err != nil {
		return err
	}
	if b, err := exec.Command("cp", "-r", plain, regions).CombinedOutput(); err != nil {
		return fmt.Errorf("copy: %v %s", err, b)
	}
	// Keep the claims that hold both ways: a func line inside a template
	// string opens no block, and a body line repeated elsewhere is
	// ambiguous without its region.
	bad := map[string]bool{}
	for _, t := range []struct {
		dir     string
		regions bool
	}{{plain, false}, {regions, true}} {
		if err := writeRegionRegister(t.dir, cands, t.regions); err != nil {
			return err
		}
		if err := gitInit(t.dir); err != nil {
			return err
		}
		ok, err := regionsHolding(t.dir)
		if err != nil {
			return err
		}
		for k := range cands {
			if id := fmt.Sprintf("D%d/C%d", k/10+1, k%10+1); !ok[id] {
				bad[id] = true
			}
		}
	}
	var keep []regionCand
	for k, c := range cands {
		if !bad[fmt.Sprintf("D%d/C%d", k/10+1, k%10+1)] && len(keep) < n {
			keep = append(keep, c)
		}
	}
	for _, t := range []struct {
		dir     string
		regions bool
	}{{plain, false}, {regions, true}} {
		if err := writeRegionRegister(t.dir, keep, t.regions); err != nil {
			return err
		}
	}
	res := &regionsResult{claims: len(keep), files: len(cands)}
	if la, err := os.ReadFile("/proc/loadavg"); err == nil {
		res.loadBefore = strings.Join(strings.Fields(string(la))[:3], " ")
	}
	logf("regions: check on %d claims, plain and Within interleaved, %d runs each", len(keep), runs)
	var ps, rs []sample
	for k := 0; k <= runs; k++ {
		p, out, err := timeCmd(plain, nil, bin["claimslint"], "check")
		if err != nil {
			return fmt.Errorf("check (plain): %v\n%s", err, out)
		}
		r, out, err := timeCmd(regions, nil, bin["claimslint"], "check")
		if err != nil {
			return fmt.Errorf("check (regions): %v\n%s", err, out)
		}
		if k > 0 { // the first round warms the cache
			ps, rs = append(ps, p), append(rs, r)
		}
	}
	res.plain, res.regions = summarize(ps), summarize(rs)
	if la, err := os.ReadFile("/proc/loadavg"); err == nil {
		res.end = strings.Join(strings.Fields(string(la))[:3], " ")
	}
	rep.regions = res
	return nil
}

func (r *report) regionsSection(b *strings.Builder) {
	g := r.regions
	b.WriteString("## Regions: the same claims with and without a Within cell\n\n")
	fmt.Fprintf(b, "The Go standard library's production files (GOROOT/src, no tests, testdata or vendor): %d files copied, each with a `func` line and a line of its body that occur once in the file. Each claim is `anchored` on the body line; in one tree it reads its whole file, in the other a Within cell confines it to the function the `func` line opens (D94). The %d claims that hold both ways are kept; `claimslint check` runs on each tree in turn, %d times after one warm-up round. Target: regions within 1.3x (issue 34).\n\n", g.files, g.claims, g.plain.n)
	b.WriteString("| tree | wall median (min-max) | CPU median (user+sys) | peak memory |\n|---|---:|---:|---:|\n")
	for _, row := range []struct {
		name string
		s    stats
	}{{"plain (whole file)", g.plain}, {"regions (Within the function)", g.regions}} {
		fmt.Fprintf(b, "| %s | %s (%s-%s) | %s | %.1f MiB |\n", row.name, ms(row.s.median), ms(row.s.min), ms(row.s.max), ms(row.s.cpu), float64(row.s.rssKiB)/1024)
	}
	wall, cpu := ratio(g.regions.median, g.plain.median), ratio(g.regions.cpu, g.plain.cpu)
	fmt.Fprintf(b, "\nRegions / plain: wall %.2fx, CPU %.2fx (target 1.3x: %s). The load average (`/proc/loadavg`) was %s before the runs and %s after, on a 2-core machine other jobs share.\n\n", wall, cpu, met(wall <= 1.3 && cpu <= 1.3), g.loadBefore, g.end)
}

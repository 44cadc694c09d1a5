package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/claimslint/claimslint/internal/report/scale"
)

// The speed guard (D92): bench/run.sh --compare REV builds REV and the
// working tree, and runs the headline workloads with the two builds taking
// turns, run by run, so that whatever else the machine does falls on both
// alike. Each workload prints its medians, their spreads (min-max) and the
// ratio, of wall time and of CPU time (user + system: steadier on a shared
// machine, and it sees work a parallel phase hides); the guard fails when
// either median is more than guardSlack worse AND the two spreads do not
// overlap, in a second measurement as in the first (confirm), so one slow
// run, or one slow spell, on a noisy machine never fails it, and a
// slowdown every run shows does.
var (
	compareRev = flag.String("compare", "", "build this revision and the working tree, run the headline workloads interleaved, and fail when one is more than 15% slower with spreads that do not overlap, measured twice")
	compareTag = flag.String("compare-head-tags", "", "internal: build the working tree with these build tags (the guard's planted-slowdown test)")
	onlyLoads  = flag.String("compare-only", "", "with --compare: run only the workloads whose name contains this (check, prove, report, docket)")
	reps       = flag.Int("reps", 0, "with --compare: timed runs per build and workload (default 9, 7 with --quick)")
)

// guardSlack is how much slower a median may be before the guard looks at
// the spreads: 15%.
const guardSlack = 1.15

// side is one build of the two tools.
type side struct {
	name, claimslint, docket string
}

// workload is one headline workload: prepare once, then one timed run of
// a side, returning the measure (lower is better) and the CPU it cost.
type workload struct {
	name, unit string
	prepare    func() error
	run        func(s side) (value float64, cpu time.Duration, err error)
}

// verdict is one workload's comparison.
type verdict struct {
	name, unit   string
	base, head   []float64
	cpuA, cpuB   []time.Duration
	ratio        float64 // median head / median base
	worse        bool
	cpuRatio     float64 // the same of the CPU time (user + system)
	cpuWorse     bool
	skipped, err string
}

// judge is the guard's rule: head is worse when its median exceeds base's
// by more than guardSlack and the spreads do not overlap: head's spread
// lies wholly above base's. A spread is the runs but the fastest and the
// slowest (of five or more), so one stalled run on a loaded machine
// neither hides a slowdown every other run shows nor makes one; with
// seven runs a side, two spreads of the same build are apart by chance
// once in about 70 (by simulation), before the 15% is asked.
func judge(base, head []float64) (ratio float64, worse bool) {
	if len(base) == 0 || len(head) == 0 {
		return 0, false
	}
	mb, mh := median(base), median(head)
	if mb <= 0 {
		return 0, false
	}
	ratio = mh / mb
	return ratio, ratio > guardSlack && minOf(spread(head)) > maxOf(spread(base))
}

// spread is xs but for its fastest and slowest run, when it has five or
// more.
func spread(xs []float64) []float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s) >= 5 {
		s = s[1 : len(s)-1]
	}
	return s
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func minOf(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs {
		m = min(m, x)
	}
	return m
}

func maxOf(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// errGuard is returned when a workload is slower: the exit says so.
var errGuard = errors.New("speed guard: a headline workload is slower")

// runCompare is bench --compare REV.
func runCompare(w io.Writer) error {
	rev := *compareRev
	commit, err := gitOut(*root, "rev-parse", "--verify", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return fmt.Errorf("--compare %s: not a commit here: %v", rev, err)
	}
	commit = strings.TrimSpace(commit)
	base, err := buildRev(commit)
	if err != nil {
		return err
	}
	head := side{name: "HEAD (working tree)", claimslint: bin["claimslint"], docket: bin["docket"]}
	if *compareTag != "" {
		if head, err = buildTagged(*compareTag); err != nil {
			return err
		}
	}
	n := *reps
	if n == 0 {
		n = 9
		if *quick {
			n = 7
		}
	}
	var wls []workload
	for _, wl := range guardWorkloads() {
		if strings.Contains(wl.name, *onlyLoads) {
			wls = append(wls, wl)
		}
	}
	return guard(w, rev, base, head, wls, n)
}

// guard runs the workloads with base and head taking turns, prints a line
// for each and fails (errGuard) naming every workload judge finds slower.
func guard(w io.Writer, rev string, base, head side, wls []workload, n int) error {
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Fprintf(w, "speed guard: %s (%s) against %s, %d interleaved runs each after a warm-up; medians, and spreads without the fastest and slowest run; load average %s\n", rev, base.name, head.name, n, strings.Join(strings.Fields(string(load))[:3], " "))
	var worse []string
	for _, wl := range wls {
		start := time.Now()
		v := compareOne(wl, base, head, n)
		fmt.Fprintf(w, "%s  [%.0f s]\n", v.line(), time.Since(start).Seconds())
		if v.err == "" && (v.worse || v.cpuWorse) {
			v = confirm(w, wl, base, head, n, v)
		}
		if v.err != "" {
			return fmt.Errorf("%s: %s", v.name, v.err)
		}
		if v.worse {
			worse = append(worse, fmt.Sprintf("%s (%.2fx)", v.name, v.ratio))
		}
		if v.cpuWorse {
			worse = append(worse, fmt.Sprintf("%s, CPU time (%.2fx)", v.name, v.cpuRatio))
		}
	}
	if len(worse) > 0 {
		fmt.Fprintf(w, "FAIL: slower than %s by more than %.0f%%, with spreads that do not overlap: %s\n", rev, (guardSlack-1)*100, strings.Join(worse, ", "))
		return errGuard
	}
	fmt.Fprintf(w, "ok: no headline workload more than %.0f%% slower than %s with spreads that do not overlap\n", (guardSlack-1)*100, rev)
	return nil
}

func (v verdict) line() string {
	if v.skipped != "" {
		return fmt.Sprintf("  %-34s skipped: %s", v.name, v.skipped)
	}
	if v.err != "" {
		return fmt.Sprintf("  %-34s error: %s", v.name, v.err)
	}
	mark := "ok"
	if v.worse || v.cpuWorse {
		mark = "SLOWER"
	}
	f := func(xs []float64) string {
		return fmt.Sprintf("%.1f %s (%.1f-%.1f)", median(xs), v.unit, minOf(spread(xs)), maxOf(spread(xs)))
	}
	c := func(ds []time.Duration) string {
		xs := msOf(ds)
		return fmt.Sprintf("%.1f ms (%.1f-%.1f)", median(xs), minOf(spread(xs)), maxOf(spread(xs)))
	}
	return fmt.Sprintf("  %-34s base %s  head %s  head/base %.2fx;  CPU base %s  head %s  %.2fx  %s", v.name, f(v.base), f(v.head), v.ratio, c(v.cpuA), c(v.cpuB), v.cpuRatio, mark)
}

func msOf(ds []time.Duration) []float64 {
	xs := make([]float64, len(ds))
	for k, d := range ds {
		xs[k] = float64(d.Microseconds()) / 1000
	}
	return xs
}

// confirm measures a workload judged slower once more, n fresh rounds
// after a fresh warm-up, and keeps a measure (wall or CPU) slower only
// when the second judgement says so too. A slowdown in the build shows in
// every round of both; two builds alike are judged slower twice in a row
// by chance about as often as once squared (D92: docket mcp at 64 in
// flight, 1.19x in one CI run of a change that did not touch it).
func confirm(w io.Writer, wl workload, base, head side, n int, first verdict) verdict {
	start := time.Now()
	logf("compare: %s: judged slower; measuring it again", wl.name)
	again := measure(wl, base, head, n)
	again.name = wl.name + " (again)"
	fmt.Fprintf(w, "%s  [%.0f s]\n", again.line(), time.Since(start).Seconds())
	if again.err != "" {
		return again
	}
	v := first
	v.worse = first.worse && again.worse
	v.cpuWorse = first.cpuWorse && again.cpuWorse
	if !v.worse && !v.cpuWorse {
		fmt.Fprintf(w, "  %-34s not slower the second time: noise, not the build\n", wl.name)
	}
	return v
}

// compareOne prepares a workload and measures it.
func compareOne(wl workload, a, b side, n int) verdict {
	logf("compare: %s", wl.name)
	if wl.prepare != nil {
		if err := wl.prepare(); err != nil {
			return verdict{name: wl.name, unit: wl.unit, skipped: err.Error()}
		}
		settle()
	}
	return measure(wl, a, b, n)
}

// measure runs a prepared workload: a warm-up of each side, then n
// rounds, the side that goes first alternating.
func measure(wl workload, a, b side, n int) verdict {
	v := verdict{name: wl.name, unit: wl.unit}
	if _, _, err := wl.run(a); err != nil {
		v.skipped = "the base build cannot run it: " + firstLines([]byte(err.Error()), 3)
		return v
	}
	if _, _, err := wl.run(b); err != nil {
		v.err = "the working tree's build fails it: " + firstLines([]byte(err.Error()), 5)
		return v
	}
	for r := range n {
		order := []int{0, 1}
		if r%2 == 1 {
			order = []int{1, 0}
		}
		for _, k := range order {
			s := []side{a, b}[k]
			x, cpu, err := wl.run(s)
			if err != nil {
				v.err = err.Error()
				return v
			}
			if k == 0 {
				v.base, v.cpuA = append(v.base, x), append(v.cpuA, cpu)
			} else {
				v.head, v.cpuB = append(v.head, x), append(v.cpuB, cpu)
			}
		}
	}
	v.ratio, v.worse = judge(v.base, v.head)
	v.cpuRatio, v.cpuWorse = judge(msOf(v.cpuA), msOf(v.cpuB))
	return v
}

func gitOut(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok {
		err = fmt.Errorf("%v: %s", err, strings.TrimSpace(string(ee.Stderr)))
	}
	return string(out), err
}

// buildRev builds claimslint and docket at commit from its own tree
// (git archive), leaving the repository's worktrees alone.
func buildRev(commit string) (side, error) {
	src := filepath.Join(workDir, "rev-"+commit[:12])
	if err := os.MkdirAll(src, 0o755); err != nil {
		return side{}, err
	}
	arch := exec.Command("git", "archive", "--format=tar", commit)
	arch.Dir = *root
	tar := exec.Command("tar", "-x", "-C", src)
	pipe, err := arch.StdoutPipe()
	if err != nil {
		return side{}, err
	}
	tar.Stdin = pipe
	if err := tar.Start(); err != nil {
		return side{}, err
	}
	if err := arch.Run(); err != nil {
		return side{}, fmt.Errorf("git archive %s: %v", commit, err)
	}
	if err := tar.Wait(); err != nil {
		return side{}, fmt.Errorf("unpack %s: %v", commit, err)
	}
	s := side{name: commit[:12]}
	err = buildSide(&s, src, "")
	os.RemoveAll(src)
	return s, err
}

// buildTagged builds the working tree with build tags.
func buildTagged(tags string) (side, error) {
	s := side{name: "HEAD (working tree, -tags " + tags + ")"}
	return s, buildSide(&s, *root, tags)
}

func buildSide(s *side, src, tags string) error {
	dir := filepath.Join(workDir, "bin-"+strings.NewReplacer("/", "_", " ", "_", "(", "", ")", "", ",", "_").Replace(s.name))
	for _, t := range []struct {
		name string
		dst  *string
	}{{"claimslint", &s.claimslint}, {"docket", &s.docket}} {
		*t.dst = filepath.Join(dir, t.name)
		all := productTags // both sides are built as users' CI builds them
		if tags != "" {
			all += "," + tags
		}
		args := []string{"build", "-o", *t.dst, "-tags", all}
		cmd := exec.Command("go", append(args, "./cmd/"+t.name)...)
		cmd.Dir = src
		if b, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("build %s of %s: %v\n%s", t.name, s.name, err, b)
		}
	}
	return nil
}

// guardWorkloads are the headline workloads: check on a generated tree and
// on GOROOT when it is here, prove, the report on 500 decisions, docket
// mcp at 64 in flight, and docket list at 100k issues.
func guardWorkloads() []workload {
	files, claims := 10000, 1000
	calls, issues := 20000, 100000
	if *quick { // the fast form .ci/run runs: about two minutes on a quiet 2-core machine
		files, claims = 3000, 300
		calls, issues = 5000, 20000
	}
	gen := filepath.Join(workDir, "guard-gen")
	cmdRun := func(dir string, env func(side) []string, args func(side) []string) func(side) (float64, time.Duration, error) {
		return func(s side) (float64, time.Duration, error) {
			var e []string
			if env != nil {
				e = env(s)
			}
			a := args(s)
			smp, out, err := timeCmd(dir, e, a[0], a[1:]...)
			if err != nil {
				return 0, 0, fmt.Errorf("%s: %v\n%s", strings.Join(a, " "), err, firstLines(out, 5))
			}
			return float64(smp.d.Microseconds()) / 1000, smp.cpu, nil
		}
	}
	var wls []workload
	wls = append(wls, workload{
		name: fmt.Sprintf("check, %dk files, %d claims", files/1000, claims), unit: "ms",
		prepare: func() error { _, err := genRepo(gen, files, claims); return err },
		run:     cmdRun(gen, nil, func(s side) []string { return []string{s.claimslint, "check"} }),
	})
	goroot := filepath.Join(workDir, "guard-goroot")
	wls = append(wls, workload{
		name: "check, GOROOT, 1,000 claims", unit: "ms",
		prepare: func() error {
			t := goTree()
			if _, err := os.Stat(t.src); err != nil {
				return fmt.Errorf("no Go source tree at %s", t.src)
			}
			_, _, err := prepareReal(t, goroot)
			return err
		},
		run: cmdRun(goroot, nil, func(s side) []string { return []string{s.claimslint, "check"} }),
	})
	site := filepath.Join(workDir, "guard-site")
	siteOut := filepath.Join(workDir, "guard-site-out")
	wls = append(wls, workload{
		name: fmt.Sprintf("prove, %d decisions", scale.Decisions), unit: "ms",
		prepare: func() error {
			if err := scale.Write(site); err != nil {
				return err
			}
			return gitInit(site)
		},
		run: cmdRun(site, nil, func(s side) []string { return []string{s.claimslint, "prove"} }),
	})
	wls = append(wls, workload{
		name: fmt.Sprintf("report, %d decisions", scale.Decisions), unit: "ms",
		run: func(s side) (float64, time.Duration, error) {
			os.RemoveAll(siteOut)
			return cmdRun(site, nil, func(s side) []string { return []string{s.claimslint, "report", "--out", siteOut} })(s)
		},
	})
	var mcpExport string
	wls = append(wls, workload{
		name: "docket mcp, 64 in flight", unit: "µs/call",
		prepare: func() (err error) {
			_, mcpExport, err = seedMCPStore()
			return err
		},
		run: func(s side) (float64, time.Duration, error) {
			env := []string{"DOCKET_DB=" + sideDB(s, "mcp"), "DOCKET_EXPORT=" + mcpExport}
			res, err := loadMCP([]string{s.docket, "mcp"}, env, 64, time.Minute, calls, false)
			if err != nil {
				return 0, 0, err
			}
			if res.lost > 0 || res.dup > 0 || res.throughput <= 0 {
				return 0, 0, fmt.Errorf("%d lost, %d duplicated", res.lost, res.dup)
			}
			return 1e6 / res.throughput, res.cpuPerCall * time.Duration(res.calls), nil
		},
	})
	var listExport string
	wls = append(wls, workload{
		name: fmt.Sprintf("docket list, %dk issues", issues/1000), unit: "ms",
		prepare: func() (err error) {
			listExport, err = seedExport(filepath.Join(workDir, "guard-list"), issues)
			return err
		},
		run: cmdRun(workDir, func(s side) []string {
			return []string{"DOCKET_DB=" + sideDB(s, "list"), "DOCKET_EXPORT=" + listExport}
		}, func(s side) []string { return []string{s.docket, "list"} }),
	})
	return wls
}

// sideDB is a side's own index for a tracker: the two builds may lay the
// index out differently; each builds its own from the export, which is
// the truth (D67).
func sideDB(s side, what string) string {
	return filepath.Join(filepath.Dir(s.docket), what+"-index.db")
}

// seedExport writes a tracker of n issues (seedStore's: 80% open) in dir
// and returns its export; its index is dropped, so each build reads the
// export into its own.
func seedExport(dir string, n int) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	s, _, err := seedStore(dir, n, 0)
	if err != nil {
		return "", err
	}
	s.Close()
	return filepath.Join(dir, "issues.jsonl"), nil
}

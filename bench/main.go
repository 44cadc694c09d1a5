// Command bench runs the side-by-side benchmarks of issue 6 and writes
// docs/benchmarks.md: claimslint check against a shell gate, one ripgrep
// pass and a cat of the same files; docket mcp against go-sdk's stock stdio
// server and mcp-go's; and the docket store at 10k and 100k issues.
//
//	bench/run.sh            # full run, rewrites docs/benchmarks.md
//	bench/run.sh --quick    # under a minute, for CI smoke; writes to --out
//	bench/run.sh --only hostile --out -   # the hostile Markdown inputs of issue 16
//	bench/run.sh --only budget --out -    # the stalling inputs of issue 22, under --budget 10s
//	bench/run.sh --only site --out -      # claimslint report --out on 500 decisions, 5,000 claims (D83)
//
// It is its own module so the baselines' dependencies never enter the
// product's go.mod.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"
)

var (
	quick   = flag.Bool("quick", false, "small sizes and short runs (under a minute)")
	out     = flag.String("out", "", "where to write the report (default: docs/benchmarks.md, or stdout with --quick)")
	root    = flag.String("root", "..", "repository root")
	prepare = flag.String("prepare", "", "internal: write the real trees' benchmark repositories (real-src, real-library) under this directory and exit")
	seedTo  = flag.String("seed-tracker", "", "internal: write a tracker of 100,000 issues (the store benchmark's, 80% open) in this directory and exit")
	only    = flag.String("only", "", "run only this part: claims (generated and real trees), real, scale, mcp (stdio, http and rss), stdio, http, rss, attacks, store, hostile, budget, site or regions")
	_       = flag.Bool("worker", false, "internal: run as one writer process of the store benchmark")
	workDir string
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-worker" {
		os.Exit(storeWorker())
	}
	flag.Parse()
	if err := run(); err != nil {
		if !errors.Is(err, errGuard) {
			fmt.Fprintln(os.Stderr, "bench:", err)
		}
		os.Exit(1)
	}
}

func run() error {
	var err error
	*root, err = filepath.Abs(*root)
	if err != nil {
		return err
	}
	workDir, err = os.MkdirTemp("", "claimslint-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(workDir)
	logf("work dir %s", workDir)
	if *seedTo != "" {
		_, err := seedExport(*seedTo, 100000)
		return err
	}
	if *compareRev != "" {
		if err := buildProduct(); err != nil {
			return err
		}
		return runCompare(os.Stdout)
	}
	if err := buildAll(); err != nil {
		return err
	}
	if *prepare != "" {
		return prepareOnly(*prepare)
	}
	rep := &report{quick: *quick, started: time.Now()}
	if la, err := os.ReadFile("/proc/loadavg"); err == nil {
		rep.load = strings.Join(strings.Fields(string(la))[:3], " ")
	}
	rep.machine = machine()
	if part("real") || part("claims") { // claims: the generated trees and the real ones
		var trees []realTree
		if !*quick { // a copy of a whole tree is not a smoke test
			trees = append(trees, goTree())
		}
		for _, t := range trees {
			rc, err := benchReal(t)
			if err != nil {
				return fmt.Errorf("real trees: %w", err)
			}
			rep.real = append(rep.real, rc)
		}
		if !*quick {
			if rt, skip := rustTree(); skip != "" {
				logf("claims: skipping the Rust tree: %s", skip)
				rep.real = append(rep.real, realCase{name: "Rust standard library (Debian rust-src)", skipped: skip})
			} else {
				rc, err := benchReal(rt)
				if err != nil {
					return fmt.Errorf("real trees: %w", err)
				}
				rep.real = append(rep.real, rc)
			}
		}
	}
	if part("scale") {
		runs := 5
		if *quick {
			runs = 1
		}
		sc, err := benchScale(runs)
		if err != nil {
			return fmt.Errorf("scale: %w", err)
		}
		rep.scale = sc
	}
	if part("claims") {
		if err := benchClaims(rep); err != nil {
			return fmt.Errorf("claims: %w", err)
		}
	}
	settle()
	if part("mcp", "stdio") {
		if err := benchMCP(rep); err != nil {
			return fmt.Errorf("mcp: %w", err)
		}
		settle()
	}
	if part("mcp", "http") {
		if err := benchHTTP(rep); err != nil {
			return fmt.Errorf("http: %w", err)
		}
		settle()
	}
	if part("mcp", "rss") {
		if err := benchRSS(rep); err != nil {
			return fmt.Errorf("rss: %w", err)
		}
		settle()
	}
	if part("attacks") {
		if err := benchAttacks(rep); err != nil {
			return fmt.Errorf("attacks: %w", err)
		}
		settle()
	}
	if part("store") {
		if err := benchStore(rep); err != nil {
			return fmt.Errorf("store: %w", err)
		}
	}
	if part("hostile") {
		if err := benchHostile(rep); err != nil {
			return fmt.Errorf("hostile: %w", err)
		}
	}
	if part("budget") {
		if err := benchBudget(rep); err != nil {
			return fmt.Errorf("budget: %w", err)
		}
	}
	if part("site") {
		if err := benchSite(rep); err != nil {
			return fmt.Errorf("site: %w", err)
		}
	}
	if part("regions") {
		if err := benchRegions(rep); err != nil {
			return fmt.Errorf("regions: %w", err)
		}
	}
	text := rep.markdown()
	dest := *out
	if dest == "" && !*quick {
		dest = filepath.Join(*root, "docs", "benchmarks.md")
	}
	if dest == "" || dest == "-" {
		_, err := os.Stdout.WriteString(text)
		return err
	}
	// The page keeps what this run did not measure: a partial run
	// (--only) rewrites its own sections, and sections measured by hand
	// or by a Go test stay (splice).
	if old, err := os.ReadFile(dest); err == nil {
		text = splice(string(old), text, *only == "")
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	logf("writing %s", dest)
	return os.WriteFile(dest, []byte(text), 0o644)
}

// part reports whether --only asks for one of names: empty asks for every
// part, and a comma-separated list for each it names.
func part(names ...string) bool {
	if *only == "" {
		return true
	}
	for _, p := range strings.Split(*only, ",") {
		if slices.Contains(names, strings.TrimSpace(p)) {
			return true
		}
	}
	return false
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
}

// binaries built once per run.
var bin = map[string]string{}

// productTags are the build tags of the CI build users run, action.yml's
// and the workflow init writes (ciworkflow.BuildTags; D92's agree claim
// holds the three to one value): the bench times that binary.
const productTags = "urfave_cli_no_docs"

// buildProduct builds claimslint and docket from the working tree.
func buildProduct() error {
	for name, pkg := range map[string]string{
		"claimslint": "./cmd/claimslint",
		"docket":     "./cmd/docket",
	} {
		dst := filepath.Join(workDir, name)
		cmd := exec.Command("go", "build", "-tags", productTags, "-o", dst, pkg)
		cmd.Dir = *root
		if b, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("build %s: %v\n%s", name, err, b)
		}
		bin[name] = dst
	}
	return nil
}

func buildAll() error {
	if err := buildProduct(); err != nil {
		return err
	}
	for name, pkg := range map[string]string{
		"sdkstock": "./baselines/sdkstock",
		"sdkhttp":  "./baselines/sdkhttp",
		"mcpgo":    "./baselines/mcpgo",
		"floor":    "./floor",
	} {
		dst := filepath.Join(workDir, name)
		cmd := exec.Command("go", "build", "-o", dst, pkg)
		cmd.Dir = filepath.Join(*root, "bench")
		if b, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("build %s: %v\n%s", name, err, b)
		}
		bin[name] = dst
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	bin["self"] = self
	return nil
}

type machineInfo struct {
	nproc int
	cpu   string
	goVer string
	os    string
}

func machine() machineInfo {
	m := machineInfo{nproc: runtime.NumCPU(), goVer: runtime.Version(), os: runtime.GOOS + "/" + runtime.GOARCH}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "model name") {
				m.cpu = strings.TrimSpace(l[strings.Index(l, ":")+1:])
				break
			}
		}
	}
	return m
}

// sample is one timed run of a command.
type sample struct {
	d      time.Duration
	rssKiB int64
	cpu    time.Duration // user + system, the process and its waited-for children
}

// stats summarises samples.
type stats struct {
	median, min, max time.Duration
	rssKiB           int64 // peak over the samples
	n                int
	cpu              time.Duration // median CPU time (user + system)
}

func summarize(ss []sample) stats {
	if len(ss) == 0 {
		return stats{}
	}
	ds := make([]time.Duration, len(ss))
	cs := make([]time.Duration, len(ss))
	var rss int64
	for k, s := range ss {
		ds[k], cs[k] = s.d, s.cpu
		rss = max(rss, s.rssKiB)
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	sort.Slice(cs, func(i, j int) bool { return cs[i] < cs[j] })
	return stats{median: ds[len(ds)/2], min: ds[0], max: ds[len(ds)-1], rssKiB: rss, n: len(ds), cpu: cs[len(cs)/2]}
}

// timeCmd runs a command once and reports wall time and the peak RSS the
// kernel recorded for it and its waited-for children.
func timeCmd(dir string, env []string, name string, args ...string) (sample, []byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	var outb strings.Builder
	cmd.Stdout = &outb
	cmd.Stderr = &outb
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	var rss int64
	var cpu time.Duration
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru != nil {
		rss = ru.Maxrss
		cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return sample{d, rss, cpu}, []byte(outb.String()), err
}

// repeat runs fn once to warm up, then n times.
func repeat(n int, fn func() (sample, error)) (stats, error) {
	if _, err := fn(); err != nil {
		return stats{}, err
	}
	var ss []sample
	for range n {
		s, err := fn()
		if err != nil {
			return stats{}, err
		}
		ss = append(ss, s)
	}
	return summarize(ss), nil
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
}

func mib(kib int64) string {
	return fmt.Sprintf("%.0f MiB", float64(kib)/1024)
}

// settle flushes the file writes and deletions made so far to disk and
// pauses: called between the parts of a run, and between preparing a
// tree and timing it, so the kernel's writeback (of pages 30 s old) does
// not land in some timed runs and not in others (D92).
func settle() {
	exec.Command("sync").Run()
	time.Sleep(2 * time.Second)
}

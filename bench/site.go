package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/claimslint/claimslint/internal/report/scale"
)

// siteBefore is an earlier claimslint build to time beside this one on
// the same case, in the same run: a change to the report is timed before
// and after (D99).
var siteBefore = flag.String("site-before", "", "with site: also time an earlier claimslint build, as \"report --out (before)\"")

// siteResult is `claimslint report --out` on the report's budget case
// (D83): 500 decisions, 5,000 claims.
type siteResult struct {
	s            stats
	files        int
	bytes        int64
	largest      string
	largestBytes int64
	decisions    int
	claims       int
	load         string // /proc/loadavg before the runs: the machine is shared
	check, prove stats  // the same case's check and prove, which the report runs first
	before       *stats // the earlier build, with --site-before
}

// benchSite times `claimslint report --out DIR` on the budget case, which
// internal/report/scale writes (the same case TestScalePages checks).
func benchSite(rep *report) error {
	runs := 5
	if *quick {
		runs = 1
	}
	dir := filepath.Join(workDir, "site-scale")
	if err := scale.Write(dir); err != nil {
		return err
	}
	if err := gitInit(dir); err != nil {
		return err
	}
	load, _ := os.ReadFile("/proc/loadavg")
	out := filepath.Join(workDir, "site-out")
	build := func(exe string) func() (sample, error) {
		return func() (sample, error) {
			os.RemoveAll(out)
			s, o, err := timeCmd(dir, nil, exe, "report", "--out", out)
			if err != nil {
				return s, fmt.Errorf("%s report: %v\n%s", exe, err, o)
			}
			return s, nil
		}
	}
	var before *stats
	if *siteBefore != "" {
		b, err := repeat(runs, build(*siteBefore))
		if err != nil {
			return err
		}
		before = &b
	}
	st, err := repeat(runs, build(bin["claimslint"]))
	if err != nil {
		return err
	}
	r := &siteResult{s: st, before: before, decisions: scale.Decisions, claims: scale.Decisions * scale.Claims, load: strings.Join(strings.Fields(string(load))[:min(3, len(strings.Fields(string(load))))], " ")}
	ents, err := os.ReadDir(out)
	if err != nil {
		return err
	}
	for _, e := range ents {
		fi, err := e.Info()
		if err != nil {
			return err
		}
		r.files++
		r.bytes += fi.Size()
		if strings.HasSuffix(e.Name(), ".html") && fi.Size() > r.largestBytes {
			r.largest, r.largestBytes = e.Name(), fi.Size()
		}
	}
	for _, c := range []struct {
		s    *stats
		args []string
	}{{&r.check, []string{"check"}}, {&r.prove, []string{"prove"}}} {
		if *c.s, err = repeat(runs, func() (sample, error) {
			s, o, err := timeCmd(dir, nil, bin["claimslint"], c.args...)
			if err != nil {
				return s, fmt.Errorf("claimslint %s: %v\n%s", c.args[0], err, o)
			}
			return s, nil
		}); err != nil {
			return err
		}
	}
	rep.site = r
	os.RemoveAll(out)
	return nil
}

func (r *report) siteSection(b *strings.Builder) {
	s := r.site
	b.WriteString("## The report as a site (D83)\n\n")
	fmt.Fprintf(b, "`claimslint report --out DIR` on the budget case that `internal/report/scale` writes (%d decisions, %d claims anchored on 50 files, every tenth decision superseding the one before it), in a git repository: check, prove and audit, then every page. Reproduce this section alone with `bench/run.sh --only site --out -` (%d runs after a warm-up); `go test ./internal/report -run XXX -bench BenchmarkSite` times the same build in process.\n\n", s.decisions, s.claims, s.s.n)
	b.WriteString("| case | claimslint report --out | CPU (user + system) | peak memory | files | bytes | largest page |\n|---|---:|---:|---:|---:|---:|---|\n")
	fmt.Fprintf(b, "| %d decisions, %d claims | %s (%s-%s) | %s | %s | %d | %d | %s, %d bytes |\n", s.decisions, s.claims, ms(s.s.median), ms(s.s.min), ms(s.s.max), ms(s.s.cpu), mib(s.s.rssKiB), s.files, s.bytes, s.largest, s.largestBytes)
	if s.before != nil {
		fmt.Fprintf(b, "| the same, an earlier build (`--site-before`), timed first in this run | %s (%s-%s) | %s | %s | | | |\n", ms(s.before.median), ms(s.before.min), ms(s.before.max), ms(s.before.cpu), mib(s.before.rssKiB))
	}
	b.WriteString("\n")
	fmt.Fprintf(b, "On the same case, `claimslint check` takes %s (%s CPU) and `claimslint prove` %s (%s CPU): the report runs both, then writes the pages.\n\n", ms(s.check.median), ms(s.check.cpu), ms(s.prove.median), ms(s.prove.cpu))
	fmt.Fprintf(b, "The load average (`/proc/loadavg`) was %s when the runs began, on a machine other jobs share; the target is judged on the median.\n\n", s.load)
	fmt.Fprintf(b, "Targets: built in under 2 s: %s median, %s; every page under 200 KB: %d bytes, %s.\n\n", ms(s.s.median), met(s.s.median < 2*time.Second), s.largestBytes, met(s.largestBytes < 200<<10))
}

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/claimslint/claimslint/internal/report/scale"
)

// siteResult is `claimslint report --out` on the report's budget case
// (D83): 500 decisions, 5,000 claims.
type siteResult struct {
	s             stats
	files         int
	bytes         int64
	largest       string
	largestBytes  int64
	decisions     int
	claims, lines int
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
	out := filepath.Join(workDir, "site-out")
	st, err := repeat(runs, func() (sample, error) {
		os.RemoveAll(out)
		s, o, err := timeCmd(dir, nil, bin["claimslint"], "report", "--out", out)
		if err != nil {
			return s, fmt.Errorf("claimslint report: %v\n%s", err, o)
		}
		return s, nil
	})
	if err != nil {
		return err
	}
	r := &siteResult{s: st, decisions: scale.Decisions, claims: scale.Decisions * scale.Claims}
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
	rep.site = r
	os.RemoveAll(out)
	return nil
}

func (r *report) siteSection(b *strings.Builder) {
	s := r.site
	b.WriteString("## The report as a site (D83)\n\n")
	fmt.Fprintf(b, "`claimslint report --out DIR` on the budget case that `internal/report/scale` writes (%d decisions, %d claims anchored on 50 files, every tenth decision superseding the one before it), in a git repository: check, prove and audit, then every page. Reproduce this section alone with `bench/run.sh --only site --out -` (%d runs after a warm-up); `go test ./internal/report -run XXX -bench BenchmarkSite` times the same build in process.\n\n", s.decisions, s.claims, s.s.n)
	b.WriteString("| case | claimslint report --out | peak memory | files | bytes | largest page |\n|---|---:|---:|---:|---:|---|\n")
	fmt.Fprintf(b, "| %d decisions, %d claims | %s (%s-%s) | %s | %d | %d | %s, %d bytes |\n\n", s.decisions, s.claims, ms(s.s.median), ms(s.s.min), ms(s.s.max), mib(s.s.rssKiB), s.files, s.bytes, s.largest, s.largestBytes)
	fmt.Fprintf(b, "Targets: built in under 2 s: %s, %s; every page under 200 KB: %s, %s.\n\n", ms(s.s.max), met(s.s.max < 2*time.Second), fmt.Sprintf("%d bytes", s.largestBytes), met(s.largestBytes < 200<<10))
}

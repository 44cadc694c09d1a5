package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// hostileCase is one hostile Markdown input of issue 16, prepended to this
// repository's docs/PRD.md, and how claimslint check fared on it.
type hostileCase struct {
	name   string
	size   int // bytes prepended
	s      stats
	exit   int
	answer string // the first line claimslint printed
}

// hostileInputs are the inputs of issue 16, plus the ones found while
// measuring them (images, ordered lists).
func hostileInputs() []struct{ name, text string } {
	const n = 50_000
	table := "| ID | Decision | Status |" + strings.Repeat(" x |", 20_000) + "\n|---|---|---|" + strings.Repeat("---|", 20_000) + "\n"
	return []struct{ name, text string }{
		{"none (the register as it is)", ""},
		{"`*a_ ` x 50,000", strings.Repeat("*a_ ", n)},
		{"`[a](<b` x 50,000", strings.Repeat("[a](<b", n)},
		{"`> ` x 50,000", strings.Repeat("> ", n)},
		{"a 20,000-column table", table},
		{"`![a](` x 50,000", strings.Repeat("![a](", n)},
		{"`1. ` x 50,000", strings.Repeat("1. ", n)},
	}
}

// benchHostile copies the repository's tracked files (git archive), then
// for each input prepends it to docs/PRD.md and times claimslint check.
func benchHostile(rep *report) error {
	runs := 3
	if *quick {
		runs = 1
	}
	dir := filepath.Join(workDir, "hostile")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	arch := exec.Command("sh", "-c", `git -C "$1" archive --format=tar HEAD | tar -x -C "$2"`, "sh", *root, dir)
	if b, err := arch.CombinedOutput(); err != nil {
		return fmt.Errorf("copy the repository: %v\n%s", err, b)
	}
	prd := filepath.Join(dir, "docs", "PRD.md")
	orig, err := os.ReadFile(prd)
	if err != nil {
		return err
	}
	for _, in := range hostileInputs() {
		logf("hostile: %s", in.name)
		src := orig
		if in.text != "" {
			src = append([]byte(in.text+"\n\n"), orig...)
		}
		if err := os.WriteFile(prd, src, 0o644); err != nil {
			return err
		}
		hc := hostileCase{name: in.name, size: len(in.text)}
		hc.s, hc.exit, hc.answer, err = checkRuns(dir, runs)
		if err != nil {
			return fmt.Errorf("%s: %w", in.name, err)
		}
		rep.hostile = append(rep.hostile, hc)
	}
	return os.WriteFile(prd, orig, 0o644)
}

func firstLine(b []byte) string {
	l, _, _ := bytes.Cut(bytes.TrimSpace(b), []byte("\n"))
	s := string(l)
	if len(s) > 160 {
		s = s[:160] + "..."
	}
	return s
}

func (r *report) hostileSection(b *strings.Builder) {
	b.WriteString("## Hostile Markdown (issue 16)\n\n")
	b.WriteString("Each input is prepended to a copy of this repository's `docs/PRD.md` (the tracked files, from `git archive HEAD`), and `claimslint check` runs on the copy. Before the limits of D40 the issue measured 52 s for `*a_ `, 39 s for `[a](<b`, 10 s for `> ` and 20 s and 3.3 GB for the wide table. The target: each under 1 s, or refused with a clear error. Reproduce this section alone with `bench/run.sh --only hostile --out -` (3 runs each after a warm-up).\n\n")
	b.WriteString("| input | bytes | claimslint check | peak memory | exit | first line of output |\n|---|---:|---:|---:|---:|---|\n")
	for _, c := range r.hostile {
		fmt.Fprintf(b, "| %s | %d | %s (%s-%s) | %s | %d | %s |\n", c.name, c.size, ms(c.s.median), ms(c.s.min), ms(c.s.max), mib(c.s.rssKiB), c.exit, strings.ReplaceAll(c.answer, "|", `\|`))
	}
	b.WriteString("\nTargets:\n\n")
	for _, c := range r.hostile {
		fmt.Fprintf(b, "- %s: %s, %s.\n", c.name, ms(c.s.median), met(c.s.median < time.Second))
	}
	b.WriteString("\n")
}

// checkRuns times `claimslint check` with args in dir, runs times: the
// samples, the exit code of the last run (a failing check is a result, not
// an error) and the first line it printed.
func checkRuns(dir string, runs int, args ...string) (st stats, exit int, answer string, err error) {
	var out []byte
	st, err = repeat(runs, func() (sample, error) {
		s, o, err := timeCmd(dir, nil, bin["claimslint"], append([]string{"check"}, args...)...)
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			exit, err = ee.ExitCode(), nil
		} else if err == nil {
			exit = 0
		}
		out = o
		return s, err
	})
	return st, exit, firstLine(out), err
}

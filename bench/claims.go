package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// claim is one generated claim, in the register and in the shell gate.
type claim struct {
	kind, path, anchor, require string
	dir                         string // the directory a grep reads
	file                        string // for exec and tracker
}

type claimsCase struct {
	name          string
	files, claims int
	checkS        stats
	gateS         stats
	rgS           stats
	catS          stats
	rg            bool
	gateRuns      int
}

const filesPerDir = 100

// genRepo writes a repository of n files (Go, shell and Markdown in turn,
// 40 lines each, 100 per directory) and a register of m claims of every
// kind, 10 claims per decision. Anchors land on generated code lines; every
// token also appears in a comment, so a comment-blind grep would pass too.
func genRepo(dir string, n, m int) ([]claim, error) {
	exts := []string{".go", ".sh", ".md"}
	write := func(rel, s string, mode os.FileMode) error {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, []byte(s), mode)
	}
	for f := range n {
		ext := exts[f%3]
		var b strings.Builder
		switch ext {
		case ".go":
			b.WriteString("package gen\n\n")
		case ".sh":
			b.WriteString("#!/bin/sh\n\n")
		default:
			b.WriteString("# Notes\n\n")
		}
		for l := range 38 {
			switch ext {
			case ".go":
				if l%4 == 3 {
					fmt.Fprintf(&b, "// see t%dx%d above\n", f, l-1)
				} else {
					fmt.Fprintf(&b, "var t%dx%d = %d\n", f, l, l)
				}
			case ".sh":
				if l%4 == 3 {
					fmt.Fprintf(&b, "# see t%dx%d above\n", f, l-1)
				} else {
					fmt.Fprintf(&b, "t%dx%d=%d\n", f, l, l)
				}
			default:
				fmt.Fprintf(&b, "Line t%dx%d of the notes.\n", f, l)
			}
		}
		if err := write(fmt.Sprintf("src/d%04d/f%06d%s", f/filesPerDir, f, ext), b.String(), 0o644); err != nil {
			return nil, err
		}
	}
	var claims []claim
	var tracker, workflow strings.Builder
	workflow.WriteString("name: ci\non: push\njobs:\n  checks:\n    runs-on: ubuntu-latest\n    steps:\n")
	r := rand.New(rand.NewPCG(1, uint64(n*7+m)))
	for j := range m {
		c := claim{}
		switch {
		case j%20 == 18: // 5% exec
			c.kind = "exec"
			c.file = fmt.Sprintf("checks/s%05d.sh", j)
			c.path = c.file
			if err := write(c.file, "#!/bin/sh\nexit 0\n", 0o755); err != nil {
				return nil, err
			}
			fmt.Fprintf(&workflow, "      - run: %s\n", c.file)
		case j%20 == 19: // 5% tracker
			c.kind = "tracker"
			c.anchor = fmt.Sprintf("dk-%s", base36(j))
			c.require = "open"
			fmt.Fprintf(&tracker, "{\"id\":%q,\"title\":\"issue %d\",\"status\":\"open\",\"decisions\":[]}\n", c.anchor, j)
		default:
			// A Go or shell file, and a code line of it.
			f := (j*n/m + r.IntN(max(1, n/m))) % n
			if f%3 == 2 {
				f-- // Markdown has no code lines to anchor on
			}
			l := r.IntN(38)
			if l%4 == 3 {
				l--
			}
			c.dir = fmt.Sprintf("src/d%04d", f/filesPerDir)
			c.path = c.dir + "/*"
			c.anchor = fmt.Sprintf(`\bt%dx%d\b`, f, l)
			if j%10 < 6 {
				c.kind = "present"
			} else {
				c.kind = "anchored"
				c.require = fmt.Sprintf(`%d$`, l)
			}
		}
		claims = append(claims, c)
	}
	var prd strings.Builder
	nd := (m + 9) / 10
	fmt.Fprintf(&prd, "# Register\n\nLive range: D1..D%d.\n\n| ID | Decision | Status |\n|---|---|---|\n", nd)
	for d := 1; d <= nd; d++ {
		fmt.Fprintf(&prd, "| D%d | [Decision %d](decisions/D%d-gen.md) | accepted |\n", d, d, d)
		var dec strings.Builder
		fmt.Fprintf(&dec, "---\nid: D%d\nstatus: accepted\n---\n# D%d: Decision %d\n\n## Confirmation\n\n| Claim | Kind | Path | Anchor | Require |\n|---|---|---|---|---|\n", d, d, d)
		for k := (d - 1) * 10; k < min(d*10, m); k++ {
			c := claims[k]
			p := c.path
			if p != "" {
				p = "`" + p + "`"
			}
			a := c.anchor
			if a != "" {
				a = "`" + a + "`"
			}
			q := c.require
			if q != "" {
				q = "`" + q + "`"
			}
			fmt.Fprintf(&dec, "| C%d | %s | %s | %s | %s |\n", k-(d-1)*10+1, c.kind, p, a, q)
		}
		if err := write(fmt.Sprintf("docs/decisions/D%d-gen.md", d), dec.String(), 0o644); err != nil {
			return nil, err
		}
	}
	if err := write("docs/PRD.md", prd.String(), 0o644); err != nil {
		return nil, err
	}
	if err := write(".knowledge/tracker/issues.jsonl", tracker.String(), 0o644); err != nil {
		return nil, err
	}
	if err := write(".github/workflows/ci.yml", workflow.String(), 0o644); err != nil {
		return nil, err
	}
	if err := write("gate.sh", shellGate(claims), 0o755); err != nil {
		return nil, err
	}
	var pats []string
	for _, c := range claims {
		if c.kind == "present" || c.kind == "anchored" {
			pats = append(pats, c.anchor)
		}
	}
	if err := write("patterns.txt", strings.Join(pats, "\n")+"\n", 0o644); err != nil {
		return nil, err
	}
	return claims, gitInit(dir)
}

func base36(n int) string {
	const digits = "0123456789abcdefghijklmnopqrstuvwxyz"
	s := ""
	for n += 36 * 36; n > 0; n /= 36 {
		s = string(digits[n%36]) + s
	}
	return s
}

func gitInit(dir string) error {
	for _, args := range [][]string{
		{"init", "-q"},
		{"add", "-A"},
		{"-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "commit", "-q", "-m", "generated"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if b, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %v\n%s", args[0], err, b)
		}
	}
	return nil
}

// shellGate is the gate written the way the seed's team wrote theirs: one
// grep per presence row, grep -n piped to a requirement grep per anchored
// row, git ls-files -s for exec bits, grep of the export per tracker id.
func shellGate(claims []claim) string {
	var b strings.Builder
	b.WriteString("#!/usr/bin/env bash\n# generated: one command per claim\nfail=0\n")
	for i, c := range claims {
		anchor := strings.ReplaceAll(c.anchor, `'`, `'\''`)
		switch c.kind {
		case "present":
			fmt.Fprintf(&b, "grep -rqE '%s' %s/ || { echo 'claim %d: missing'; fail=1; }\n", anchor, c.dir, i)
		case "anchored":
			fmt.Fprintf(&b, "[ \"$(grep -rnE '%s' %s/ | grep -cE '%s')\" = 1 ] || { echo 'claim %d: anchor'; fail=1; }\n", anchor, c.dir, c.require, i)
		case "exec":
			fmt.Fprintf(&b, "git ls-files -s %s | grep -q '^100755' || { echo 'claim %d: exec'; fail=1; }\n", c.file, i)
		case "tracker":
			fmt.Fprintf(&b, "grep -q '\"id\":\"%s\"' .knowledge/tracker/issues.jsonl || { echo 'claim %d: tracker'; fail=1; }\n", c.anchor, i)
		}
	}
	b.WriteString("exit $fail\n")
	return b.String()
}

// claimDirs lists the directories the present and anchored claims read.
func claimDirs(claims []claim) []string {
	seen := map[string]bool{}
	var dirs []string
	for _, c := range claims {
		if c.dir != "" && !seen[c.dir] {
			seen[c.dir] = true
			dirs = append(dirs, c.dir)
		}
	}
	return dirs
}

func benchClaims(rep *report) error {
	sizes := [][2]int{{1000, 100}, {10000, 1000}, {50000, 5000}}
	runs := 5
	if *quick {
		sizes = [][2]int{{1000, 100}}
		runs = 3
	}
	_, rgErr := exec.LookPath("rg")
	for _, sz := range sizes {
		n, m := sz[0], sz[1]
		name := fmt.Sprintf("%d files, %d claims", n, m)
		logf("claims: generating %s", name)
		dir := filepath.Join(workDir, fmt.Sprintf("repo-%d-%d", n, m))
		claims, err := genRepo(dir, n, m)
		if err != nil {
			return err
		}
		settle()
		cs, err := compare(dir, name, n, m, claims, runs, rgErr == nil)
		if err != nil {
			return err
		}
		rep.claims = append(rep.claims, cs)
		os.RemoveAll(dir)
	}
	return nil
}

func compare(dir, name string, n, m int, claims []claim, runs int, haveRG bool) (claimsCase, error) {
	cs := claimsCase{name: name, files: n, claims: m, rg: haveRG}
	// Both gates must pass on the generated tree, or the timing means nothing.
	if _, out, err := timeCmd(dir, nil, bin["claimslint"], "check"); err != nil {
		return cs, fmt.Errorf("claimslint check on %s: %v\n%s", name, err, firstLines(out, 10))
	}
	if _, out, err := timeCmd(dir, nil, "bash", "gate.sh"); err != nil {
		return cs, fmt.Errorf("shell gate on %s: %v\n%s", name, err, firstLines(out, 10))
	}
	var err error
	logf("claims: %s: claimslint check", name)
	if cs.checkS, err = repeat(runs, func() (sample, error) {
		s, _, err := timeCmd(dir, nil, bin["claimslint"], "check")
		return s, err
	}); err != nil {
		return cs, err
	}
	cs.gateRuns = runs
	if m >= 5000 {
		cs.gateRuns = 3 // each run takes tens of seconds
	}
	logf("claims: %s: shell gate", name)
	if cs.gateS, err = repeat(cs.gateRuns, func() (sample, error) {
		s, _, err := timeCmd(dir, nil, "bash", "gate.sh")
		return s, err
	}); err != nil {
		return cs, err
	}
	dirs := claimDirs(claims)
	if haveRG {
		logf("claims: %s: rg", name)
		args := append([]string{"-c", "--no-messages", "-f", "patterns.txt"}, dirs...)
		if cs.rgS, err = repeat(runs, func() (sample, error) {
			s, _, err := timeCmd(dir, nil, "rg", args...)
			return s, err
		}); err != nil {
			return cs, err
		}
	}
	logf("claims: %s: cat", name)
	script := "find " + strings.Join(dirs, " ") + " -type f -print0 | xargs -0 cat > /dev/null"
	cs.catS, err = repeat(runs, func() (sample, error) {
		s, _, err := timeCmd(dir, nil, "sh", "-c", script)
		return s, err
	})
	return cs, err
}

func must(b []byte, err error) string {
	if err != nil {
		panic(err)
	}
	return string(b)
}

func firstLines(b []byte, n int) string {
	ls := strings.SplitN(string(b), "\n", n+1)
	if len(ls) > n {
		ls = ls[:n]
	}
	return strings.Join(ls, "\n")
}

var _ = runtime.NumCPU

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// budgetCase is one stalling input of issue 22 and how claimslint check
// --budget 10s fared on it.
type budgetCase struct {
	name   string
	size   int64  // bytes of the hostile files
	before string // what the issue measured
	s      stats
	exit   int
	answer string // the first line claimslint printed
}

// budgetInput builds one input in dir, a fresh directory; check runs on it
// once it is committed.
type budgetInput struct {
	name, before string
	build        func(dir string) (int64, error)
	// args, when set, is the claimslint command run instead of check
	// --budget 10s.
	args []string
}

// budgetRegister writes a register of one decision per entry of claims
// (claim rows, or "" for a decision whose file build writes itself).
func budgetRegister(dir string, rows ...string) error {
	if err := os.MkdirAll(filepath.Join(dir, "docs", "decisions"), 0o755); err != nil {
		return err
	}
	var prd strings.Builder
	fmt.Fprintf(&prd, "# Register\n\nLive range: D1..D%d.\n\n| ID | Decision | Status |\n|---|---|---|\n", len(rows))
	for i, r := range rows {
		fmt.Fprintf(&prd, "| D%d | [Decision %d](decisions/D%d-x.md) | accepted |\n", i+1, i+1, i+1)
		if r == "" {
			continue
		}
		dec := fmt.Sprintf("---\nid: D%d\nstatus: accepted\n---\n# D%d: x\n\n## Confirmation\n\n| Claim | Kind | Path | Anchor | Require |\n|---|---|---|---|---|\n%s", i+1, i+1, r)
		if err := os.WriteFile(filepath.Join(dir, "docs", "decisions", fmt.Sprintf("D%d-x.md", i+1)), []byte(dec), 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, "docs", "PRD.md"), []byte(prd.String()), 0o644)
}

func writeFile(dir, rel, s string) (int64, error) {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return 0, err
	}
	return int64(len(s)), os.WriteFile(p, []byte(s), 0o644)
}

// decisionFile is a decision file with no claims (it says why) and body.
func decisionFile(id int, body string) string {
	return fmt.Sprintf("---\nid: D%d\nstatus: accepted\nclaims: none, a hostile input\n---\n# D%d: x\n\n%s", id, id, body)
}

// wideTable is a 64-column table filling about 16 MiB.
func wideTable() string {
	row := "|" + strings.Repeat(" c |", 64) + "\n"
	return "|" + strings.Repeat(" h |", 64) + "\n|" + strings.Repeat("---|", 64) + "\n" + strings.Repeat(row, (16<<20-4096)/len(row))
}

// budgetInputs are the stalling inputs of issue 22 (item 4), and two that
// show the budget itself holding: work the limits let through, past it.
func budgetInputs() []budgetInput {
	return []budgetInput{
		{"Path `{**/a,a}/` x 30 then `b`, one file 30 directories deep", "still running at 120 s", func(dir string) (int64, error) {
			glob := strings.Repeat("{**/a,a}/", 30) + "b"
			if err := budgetRegister(dir, fmt.Sprintf("| C1 | present | `%s` | `const deep` | |\n", glob)); err != nil {
				return 0, err
			}
			return writeFile(dir, strings.Repeat("a/", 30)+"b", "package a\n\nconst deep = 30\n")
		}, nil},
		{"five `[a-y]{500}[A-P]` (no literal) on one 4 MB file of 1,000-byte lines", "about 100 s, exit 0", func(dir string) (int64, error) {
			var rows strings.Builder
			for i := 1; i <= 5; i++ {
				fmt.Fprintf(&rows, "| C%d | absent | `big.txt` | `[a-y]{500}[A-P]` | |\n", i)
			}
			if err := budgetRegister(dir, rows.String()); err != nil {
				return 0, err
			}
			return writeFile(dir, "big.txt", strings.Repeat(strings.Repeat("a", 999)+"\n", 4000))
		}, nil},
		{"`a[a-y]{500}[A-P]` (a literal prefix) on one 4 MB line", "minutes (the prefix exempted it from D56's bound)", func(dir string) (int64, error) {
			if err := budgetRegister(dir, "| C1 | absent | `long.txt` | `a[a-y]{500}[A-P]` | |\n"); err != nil {
				return 0, err
			}
			return writeFile(dir, "long.txt", strings.Repeat("a", 4_000_000)+"\n")
		}, nil},
		{"twenty anchors each just under the per-file bound on one 500 KB file", "(new: the budget itself; 62 s with `--budget 10m`)", func(dir string) (int64, error) {
			var rows strings.Builder
			for i := 1; i <= 20; i++ {
				fmt.Fprintf(&rows, "| C%d | absent | `big.txt` | `[a-y]{%d}[A-P]` | |\n", i, 470+i)
			}
			if err := budgetRegister(dir, rows.String()); err != nil {
				return 0, err
			}
			return writeFile(dir, "big.txt", strings.Repeat(strings.Repeat("a", 999)+"\n", 500))
		}, nil},
		{"a 16 MiB decision file holding a 64-column table", "15 s, 3.3 GB", func(dir string) (int64, error) {
			if err := budgetRegister(dir, ""); err != nil {
				return 0, err
			}
			return writeFile(dir, "docs/decisions/D1-x.md", decisionFile(1, wideTable()))
		}, nil},
		{"four such files", "44 s, 12.3 GB", func(dir string) (int64, error) {
			if err := budgetRegister(dir, "", "", "", ""); err != nil {
				return 0, err
			}
			var n int64
			for i := 1; i <= 4; i++ {
				k, err := writeFile(dir, fmt.Sprintf("docs/decisions/D%d-x.md", i), decisionFile(i, wideTable()))
				if err != nil {
					return 0, err
				}
				n += k
			}
			return n, nil
		}, nil},
		{"a list nested 4,000 levels by indentation", "68 s, 0.95 GB", func(dir string) (int64, error) {
			if err := budgetRegister(dir, ""); err != nil {
				return 0, err
			}
			var b strings.Builder
			for i := range 4000 {
				b.WriteString(strings.Repeat("  ", i) + "- a\n")
			}
			return writeFile(dir, "docs/decisions/D1-x.md", decisionFile(1, b.String()))
		}, nil},
		{"a 16 MiB decision file of 4 million headings", "(new: 9.5 s, 2.7 GB of goldmark allocations)", func(dir string) (int64, error) {
			if err := budgetRegister(dir, ""); err != nil {
				return 0, err
			}
			return writeFile(dir, "docs/decisions/D1-x.md", decisionFile(1, strings.Repeat("# h\n", (16<<20-4096)/4)))
		}, nil},
		{"nine 16 MiB decision files of long prose lines (144 MiB of Markdown that each pass the per-file limits)", "(new: the total)", func(dir string) (int64, error) {
			rows := make([]string, 9)
			if err := budgetRegister(dir, rows...); err != nil {
				return 0, err
			}
			line := strings.Repeat("word ", 200) + "\n"
			var n int64
			for i := 1; i <= 9; i++ {
				k, err := writeFile(dir, fmt.Sprintf("docs/decisions/D%d-x.md", i), decisionFile(i, strings.Repeat(line, (16<<20-4096)/len(line))))
				if err != nil {
					return 0, err
				}
				n += k
			}
			return n, nil
		}, nil},
		{"ten claims whose 4,060-byte anchors each compile to 580,000 instructions (issue 31)", "1.14 GB under --budget 10s", func(dir string) (int64, error) {
			return hugeAnchors(dir, 10)
		}, nil},
		{"sixty such claims (issue 31)", "out of memory", func(dir string) (int64, error) {
			return hugeAnchors(dir, 60)
		}, nil},
		{"120 inline.markers of 580,000 instructions each (issue 31)", "43 s, 3.5 GB", func(dir string) (int64, error) {
			var b strings.Builder
			b.WriteString("register: docs/PRD.md\ninline:\n  claims: docs/claims\n  markers:\n")
			for i := range 120 {
				fmt.Fprintf(&b, "    - {pattern: '%s', status: accepted}\n", hugePattern(i))
			}
			if err := budgetRegister(dir, ""); err != nil {
				return 0, err
			}
			return writeFile(dir, ".claimslint.yml", b.String())
		}, nil},
		{"69 MB of claim tables: 90 decision files of 19,000 rows, each file within its limits (issue 31)", "49.8 s, 5.0 GB", func(dir string) (int64, error) {
			var rows strings.Builder
			for i := 1; i <= 19_000; i++ {
				fmt.Fprintf(&rows, "| C%d | present | `x.go` | `var a` | |\n", i)
			}
			decisions := make([]string, 90)
			for i := range decisions {
				decisions[i] = rows.String()
			}
			if err := budgetRegister(dir, decisions...); err != nil {
				return 0, err
			}
			if _, err := writeFile(dir, "x.go", "package x\n\nvar a = 1\n"); err != nil {
				return 0, err
			}
			return int64(90 * rows.Len()), nil
		}, nil},
		{"31 MB naming an unknown tracker id 4.4 million times (issue 31)", "28.8 s, 3.7 GB, 4.56 million findings", func(dir string) (int64, error) {
			if err := budgetRegister(dir, "", ""); err != nil {
				return 0, err
			}
			if _, err := writeFile(dir, ".claimslint.yml", "tracker:\n  export: .knowledge/tracker/issues.jsonl\n  prefixes: [dk]\n"); err != nil {
				return 0, err
			}
			if _, err := writeFile(dir, ".knowledge/tracker/issues.jsonl", `{"id":"dk-1","title":"t","status":"open"}`+"\n"); err != nil {
				return 0, err
			}
			body := strings.Repeat("dk-zzz ", 15_500_000/7) + "\n"
			var n int64
			for i := 1; i <= 2; i++ {
				k, err := writeFile(dir, fmt.Sprintf("docs/decisions/D%d-x.md", i), decisionFile(i, body))
				if err != nil {
					return 0, err
				}
				n += k
			}
			return n, nil
		}, nil},
		{"claimslint report on a 16 MiB decision file of 4 million headings, which check refuses (issue 31)", "26.5 s, 5.0 GB (report rendered it)", func(dir string) (int64, error) {
			if err := budgetRegister(dir, ""); err != nil {
				return 0, err
			}
			return writeFile(dir, "docs/decisions/D1-x.md", decisionFile(1, strings.Repeat("# h\n", (16<<20-4096)/4)))
		}, []string{"report", "--single", "-"}},
		{"a 4 MiB Go file nested as deep as it is long (381,294 ifs in one function) under two region claims, one read through each `{` > each `{` (issue 34)", "(new in issue 34)", func(dir string) (int64, error) {
			if err := budgetRegister(dir, ""); err != nil {
				return 0, err
			}
			rows := "| Claim | Kind | Path | Within | Anchor | Require |\n|---|---|---|---|---|---|\n" +
				"| C1 | absent | `x.go` | each `\\{` > each `\\{` | `forbidden` | |\n| C2 | present | `x.go` | `^func f\\(` | `if x` | |\n"
			if _, err := writeFile(dir, "docs/decisions/D1-x.md", "---\nid: D1\nstatus: accepted\n---\n# D1: x\n\n## Confirmation\n\n"+rows); err != nil {
				return 0, err
			}
			n := (4<<20 - 64) / 11
			return writeFile(dir, "x.go", "package a\n\nfunc f() {\n"+strings.Repeat("\tif x {\n", n)+strings.Repeat("\t}\n", n)+"}\n")
		}, nil},
		{"a 64 MiB tracker export, claimslint's limit (262,000 records of 256 bytes)", "(the limit of D9)", func(dir string) (int64, error) {
			if err := budgetRegister(dir, "| C1 | tracker | | `dk-1` | |\n"); err != nil {
				return 0, err
			}
			if _, err := writeFile(dir, ".claimslint.yml", "tracker:\n  export: .knowledge/tracker/issues.jsonl\n  prefixes: [dk]\n"); err != nil {
				return 0, err
			}
			var b strings.Builder
			for i := 1; b.Len() < 64<<20-300; i++ {
				rec := fmt.Sprintf(`{"id":"dk-%d","title":"%s","status":"open"}`, i, strings.Repeat("t", 200))
				b.WriteString(rec + "\n")
			}
			return writeFile(dir, ".knowledge/tracker/issues.jsonl", b.String())
		}, nil},
	}
}

// hugePattern is a pattern of 4,060 bytes that compiles to about 580,000
// instructions (issue 31), different for each i.
func hugePattern(i int) string {
	var b strings.Builder
	for b.Len() < 4050 {
		fmt.Fprintf(&b, "%c{1000}", 'a'+b.Len()%26)
	}
	return fmt.Sprintf("%s%d", b.String(), i)
}

// hugeAnchors writes a register of n claims anchored on hugePattern.
func hugeAnchors(dir string, n int) (int64, error) {
	var rows strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&rows, "| C%d | absent | `x.go` | `%s` | |\n", i, hugePattern(i))
	}
	if err := budgetRegister(dir, rows.String()); err != nil {
		return 0, err
	}
	if _, err := writeFile(dir, "x.go", "package x\n\nvar a = 1\n"); err != nil {
		return 0, err
	}
	return int64(rows.Len()), nil
}

// toolRuns times claimslint args in dir, as checkRuns times check.
func toolRuns(dir string, runs int, args ...string) (st stats, exit int, answer string, err error) {
	var out []byte
	st, err = repeat(runs, func() (sample, error) {
		s, o, err := timeCmd(dir, nil, bin["claimslint"], args...)
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

// benchBudget builds each input of issue 22 in a git repository of its own
// and times claimslint check --budget 10s on it: the target is done within
// 15 s and under 1 GiB of peak memory, refused or not.
func benchBudget(rep *report) error {
	runs := 3
	if *quick {
		runs = 1
	}
	for k, in := range budgetInputs() {
		logf("budget: %s", in.name)
		dir := filepath.Join(workDir, fmt.Sprintf("budget-%d", k))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		size, err := in.build(dir)
		if err != nil {
			return fmt.Errorf("%s: %w", in.name, err)
		}
		if err := gitInit(dir); err != nil {
			return fmt.Errorf("%s: %w", in.name, err)
		}
		bc := budgetCase{name: in.name, size: size, before: in.before}
		if in.args != nil {
			bc.s, bc.exit, bc.answer, err = toolRuns(dir, runs, in.args...)
		} else {
			bc.s, bc.exit, bc.answer, err = checkRuns(dir, runs, "--budget", "10s")
		}
		if err != nil {
			return fmt.Errorf("%s: %w", in.name, err)
		}
		rep.budget = append(rep.budget, bc)
		os.RemoveAll(dir)
		settle()
	}
	return nil
}

func (r *report) budgetSection(b *strings.Builder) {
	b.WriteString("## Stalling inputs and the budget (issues 22 and 31)\n\n")
	b.WriteString("Each input is built in a git repository of its own and `claimslint check --budget 10s` runs on it (D70). The target: done, refused or stopped by the budget, within 15 s and under 1 GiB of peak memory. Reproduce this section alone with `bench/run.sh --only budget --out -` (3 runs each after a warm-up).\n\n")
	b.WriteString("| input | bytes | before | claimslint check --budget 10s (or the command the input names) | peak memory | exit | first line of output |\n|---|---:|---|---:|---:|---:|---|\n")
	for _, c := range r.budget {
		fmt.Fprintf(b, "| %s | %d | %s | %s (%s-%s) | %s | %d | %s |\n", c.name, c.size, c.before, ms(c.s.median), ms(c.s.min), ms(c.s.max), mib(c.s.rssKiB), c.exit, strings.ReplaceAll(c.answer, "|", `\|`))
	}
	b.WriteString("\nTargets:\n\n")
	for _, c := range r.budget {
		fmt.Fprintf(b, "- %s: %s, %s, %s.\n", c.name, ms(c.s.max), mib(c.s.rssKiB), met(c.s.max < 15*time.Second && c.s.rssKiB < 1<<20))
	}
	b.WriteString("\n")
}

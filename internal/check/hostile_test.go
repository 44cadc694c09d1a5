package check_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
	"time"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/ruleid"
	"github.com/claimslint/claimslint/internal/snapshot"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, s := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const register1 = "| ID | Decision | Status |\n|---|---|---|\n| D1 | [x](decisions/D1-x.md) | accepted |\n\nD1..D1\n"

func decision1(rows string) string {
	return "---\nid: D1\nstatus: accepted\n---\n# D1: x\n\n## Confirmation\n\n| Claim | Kind | Path | Anchor | Require |\n|---|---|---|---|---|\n" + rows
}

// An anchor whose matcher would track a thousand states at every byte of a
// 4 MB line is not run on it: the claim fails at once, saying why, where
// the match would take minutes.
func TestHostileAnchorIsNotRun(t *testing.T) {
	line := strings.Repeat(strings.Repeat("a", 500)+"z", 8000)[:4000000]
	dir := writeTree(t, map[string]string{
		"docs/PRD.md":            register1,
		"docs/decisions/D1-x.md": decision1("| C1 | present | `src/long.txt` | `[a-y]{999}z` | |\n| C2 | present | `src/long.txt` | `[yz]{3}` | |\n"),
		"src/long.txt":           line + "\nzzz\n",
	})
	start := time.Now()
	res, err := check.Run(check.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the run took %s", d)
	}
	var msgs []string
	for _, f := range res.Findings {
		msgs = append(msgs, f.Message)
	}
	got := strings.Join(msgs, "\n")
	if !strings.Contains(got, "Anchor `[a-y]{999}z` was not run on src/long.txt:1: a 4000000-byte line times the anchor's") {
		t.Errorf("findings:\n%s", got)
	}
	// A small anchor still runs on the long line, and on the next one.
	for _, st := range res.Claims {
		if st.Claim == "C2" && st.State != check.StateOK {
			t.Errorf("C2 %s: %s", st.State, st.Message)
		}
	}
}

// A run over its budget stops, and one finding names the claim it had
// reached; the claims it did not evaluate fail, whatever their status
// (D70). Before issue 22 the overrun was an error (exit 2), checked only
// between files.
func TestBudget(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"docs/PRD.md":            register1,
		"docs/decisions/D1-x.md": decision1("| C1 | present | `src/a.go` | `func a\\(` | |\n"),
		"src/a.go":               "package src\n\nfunc a() {}\n",
	})
	snap, err := snapshot.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	res, err := check.RunRules(snap, check.Options{Dir: dir, Budget: time.Nanosecond}, check.Rules...)
	if err != nil {
		t.Fatalf("err = %v, want a finding", err)
	}
	var got []diag.Finding
	for _, f := range res.Findings {
		if strings.Contains(f.Message, "budget") {
			got = append(got, f)
		}
	}
	if len(got) != 1 || got[0].Check != ruleid.Claim || got[0].Severity != diag.SeverityError || got[0].Decision != "D1" || got[0].Claim != "C1" ||
		!strings.Contains(got[0].Message, "the run took longer than its budget of 1ns: it stopped preparing the claims, at D1 C1, with 1 claim not evaluated") {
		t.Fatalf("budget findings = %+v", got)
	}
	if len(res.Claims) != 1 || res.Claims[0].State != check.StateFailed || !strings.Contains(res.Claims[0].Message, "not evaluated") {
		t.Fatalf("claims = %+v", res.Claims)
	}
	res, err = check.RunRules(snap, check.Options{Dir: dir}, check.Rules...)
	if err != nil || len(res.Findings) != 0 {
		t.Fatalf("default budget: %v, %+v", err, res.Findings)
	}
}

// TestBudgetInsideAFile: the budget is asked between the lines of one
// file, not only between files (D70): twenty claims that may each spend
// just under maxFileCost on one file (a minute in all) stop within a
// second of a 1 s budget, and the finding names the file, a line of it,
// and the claim being matched. Before issue 22 the run read the file to
// its end.
func TestBudgetInsideAFile(t *testing.T) {
	var rows strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&rows, "| C%d | absent | `src/big.txt` | `[a-y]{%d}[A-P]` | |\n", i, 470+i)
	}
	dir := writeTree(t, map[string]string{
		"docs/PRD.md":            register1,
		"docs/decisions/D1-x.md": decision1(rows.String()),
		"src/big.txt":            strings.Repeat(strings.Repeat("a", 999)+"\n", 500),
	})
	start := time.Now()
	res, err := check.Run(check.Options{Dir: dir, Budget: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 6*time.Second {
		t.Errorf("the run took %v under a budget of 1s", d)
	}
	var got []diag.Finding
	for _, f := range res.Findings {
		if strings.Contains(f.Message, "budget of 1s") {
			got = append(got, f)
		}
	}
	if len(got) != 1 || got[0].Pos.Filename != "src/big.txt" || got[0].Pos.Line < 1 || got[0].Claim == "" ||
		!strings.Contains(got[0].Message, "it stopped matching the Anchor, at D1 "+got[0].Claim+" on src/big.txt line ") {
		t.Fatalf("budget findings = %+v\nall: %+v", got, res.Findings)
	}
}

// The second stall: five anchors without a literal on one 4 MB
// file ran about 100 s under --budget 10s and passed. Each would cost the
// file's bytes times its 503 states, over maxFileCost: each claim fails at
// once, saying so, and none passes unread (D70).
func TestRegexBoundedPerFile(t *testing.T) {
	var rows strings.Builder
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(&rows, "| C%d | absent | `big.txt` | `[a-y]{500}[A-P]` | |\n", i)
	}
	dir := writeTree(t, map[string]string{
		"docs/PRD.md":            register1,
		"docs/decisions/D1-x.md": decision1(rows.String()),
		"big.txt":                strings.Repeat(strings.Repeat("a", 999)+"\n", 4000),
	})
	start := time.Now()
	res, err := check.Run(check.Options{Dir: dir, Budget: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the run took %v", d)
	}
	n := 0
	for _, f := range res.Findings {
		if f.Severity == diag.SeverityError && strings.Contains(f.Message, "Anchor `[a-y]{500}[A-P]` was not run on big.txt: its 4000000 bytes times the anchor's 503 states are over the budget of 268435456 steps for one file") {
			n++
		}
	}
	if n != 5 {
		t.Fatalf("%d not-run findings, want 5: %+v", n, res.Findings)
	}
}

// A literal prefix does not make an anchor cheap: `a[a-y]{500}[A-P]` on a
// 4 MB line of a's costs as much as the same anchor without the a, and is
// not run on it (D70; D56 bounded only anchors without a prefix).
func TestPrefixedAnchorIsBounded(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"docs/PRD.md":            register1,
		"docs/decisions/D1-x.md": decision1("| C1 | absent | `long.txt` | `a[a-y]{500}[A-P]` | |\n| C2 | present | `long.txt` | `a[a-y]{500}[A-P]` | |\n"),
		"long.txt":               strings.Repeat("a", 4_000_000) + "\n",
	})
	start := time.Now()
	res, err := check.Run(check.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the run took %v", d)
	}
	for _, st := range res.Claims {
		if st.State != check.StateFailed || !strings.Contains(st.Message, "was not run on long.txt:1: a 4000000-byte line times the anchor's 504 states") {
			t.Errorf("%s: %s %q", st.Claim, st.State, st.Message)
		}
	}
}

// TestBudgetBase: with --base, the budget is asked between the decisions
// read at the base revision and between the rows compared; a spent budget
// is CL011's finding when CL011 is the rule asked for (the claims rule it
// requires reports nothing), never a silent pass of the rows not compared.
func TestBudgetBase(t *testing.T) {
	dir := fixtureDir(t, "base-changed")
	snap, err := snapshot.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var base *check.Rule
	for _, r := range check.Rules {
		if r.ID == ruleid.Base {
			base = r
		}
	}
	res, err := check.RunRules(snap, check.Options{Dir: dir, Base: "base", Budget: time.Nanosecond}, base)
	if err != nil {
		t.Fatal(err)
	}
	// The finding says where the budget ran out first (preparing the
	// claims CL011 requires) and what CL011 left undone.
	if len(res.Findings) != 1 || res.Findings[0].Check != ruleid.Base || !strings.Contains(res.Findings[0].Message, "the run took longer than its budget of 1ns: it stopped preparing the claims, at D1 C1, with 1 decision not compared with base") {
		t.Fatalf("findings = %+v", res.Findings)
	}
}

// BenchmarkStepCost measures what one step of D70's cost model takes: the
// bytes of a line of a's times the instructions of an anchor's compiled
// program, for anchors of 11 to 1,002 instructions (go test
// ./internal/check -run '^$' -bench StepCost). maxMatchCost and
// maxFileCost are in steps.
func BenchmarkStepCost(b *testing.B) {
	line := []byte(strings.Repeat("a", 100_000))
	for _, pat := range []string{`\w+\s*=\s*\d+`, `x*y*z*[ab]{1,30}Q`, `[a-y]{100}[A-P]`, `[a-y]{500}[A-P]`, `a[a-y]{500}[A-P]`, `[a-y]{999}z`} {
		re := regexp.MustCompile(pat)
		sre, _ := syntax.Parse(pat, syntax.Perl)
		prog, _ := syntax.Compile(sre.Simplify())
		steps := float64(len(line) * len(prog.Inst))
		b.Run(pat, func(b *testing.B) {
			for b.Loop() {
				re.Match(line)
			}
			b.ReportMetric(steps*float64(b.N)/b.Elapsed().Seconds()/1e6, "Msteps/s")
		})
	}
}

package check_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/format"
	"github.com/claimslint/claimslint/internal/relimit"
	"github.com/claimslint/claimslint/internal/ruleid"
)

// hugeAnchor is under the 4,096-byte cell limit and compiles to about
// 583,000 instructions: ten of them took 1.14 GB under --budget 10s
// before D90, sixty ran out of memory.
func hugeAnchor(i int) string {
	var b strings.Builder
	for b.Len() < check.MaxPattern-16 {
		fmt.Fprintf(&b, "%c{1000}", 'a'+b.Len()%26)
	}
	return fmt.Sprintf("%s%d", b.String(), i)
}

// A pattern whose compiled program passes relimit.MaxInsts is refused at
// its cell (CL006), whatever its byte length, and the claim is not
// evaluated; so are the patterns past the run's account, in row order
// (D90).
func TestPatternProgramSizeIsBounded(t *testing.T) {
	t.Parallel()
	near := func(i int) string { // about 9,000 instructions
		return fmt.Sprintf("[a-i]{1000}[j-r]{1000}[s-z]{1000}a{1000}b{1000}c{1000}d{1000}e{1000}f{1000}%d", i)
	}
	perRun := relimit.MaxRunInsts/9005 + 1 // the first row past the account
	tests := []struct {
		name, rows string
		want       map[string]string // claim -> what its CL006 finding says
	}{
		{"one huge anchor", "| C1 | present | `x.go` | `" + hugeAnchor(1) + "` | |\n| C2 | present | `x.go` | `var a` | |\n",
			map[string]string{"C1": "Anchor compiles to about 583005 instructions, over the 10000"}},
		{"a huge require", "| C1 | present | `x.go` | `var a` | `!" + hugeAnchor(1) + "` |\n",
			map[string]string{"C1": "Require compiles to about 583005 instructions, over the 10000"}},
		{"a require over the limit, exactly counted", "| C1 | present | `x.go` | `var a` | `[a-z]{1000}[a-z]{1000}[a-z]{1000}[a-z]{1000}[a-z]{1000}[a-z]{1000}[a-z]{1000}[a-z]{1000}[a-z]{1000}[a-z]{1000}[a-z]{1000}` |\n",
			map[string]string{"C1": "Require compiles to 11002 instructions, over the 10000"}},
		{"the run's account", func() string {
			var b strings.Builder
			for i := 1; i <= perRun+1; i++ {
				fmt.Fprintf(&b, "| C%d | absent | `x.go` | `%s` | |\n", i, near(i))
			}
			return b.String()
		}(), map[string]string{fmt.Sprint("C", perRun): "a run compiles at most 1000000 (D90)", fmt.Sprint("C", perRun+1): "a run compiles at most 1000000"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := writeTree(t, map[string]string{
				"docs/PRD.md":            register1,
				"docs/decisions/D1-x.md": decision1(tt.rows),
				"x.go":                   "package x\n\nvar a = 1\n",
			})
			res, err := check.Run(check.Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, f := range res.Findings {
				if f.Check == ruleid.Claims {
					id := strings.SplitN(strings.TrimPrefix(f.Message, "D1 "), ":", 2)[0]
					got[id] = f.Message
				}
			}
			if len(got) != len(tt.want) {
				t.Errorf("CL006 on %d rows, want %d: %v", len(got), len(tt.want), got)
			}
			for id, want := range tt.want {
				if !strings.Contains(got[id], want) {
					t.Errorf("%s: got %q, want it to contain %q", id, got[id], want)
				}
			}
			for _, st := range res.Claims {
				if _, refused := tt.want[st.Claim]; refused && st.State == check.StateOK {
					t.Errorf("%s was evaluated (%s) though its pattern was refused", st.Claim, st.State)
				}
			}
		})
	}
}

// Claim rows past check.MaxClaims are one CL006 finding at the first of
// them, naming how many were left out, and are not evaluated (D90).
func TestClaimsPerRunAreBounded(t *testing.T) {
	t.Parallel()
	const perFile = 17_000 // under the 100,000 table cells of a file
	files := map[string]string{"x.go": "package x\n\nvar a = 1\n"}
	var prd strings.Builder
	prd.WriteString("| ID | Decision | Status |\n|---|---|---|\n")
	for d := 1; d <= 3; d++ {
		fmt.Fprintf(&prd, "| D%d | [x](decisions/D%d-x.md) | accepted |\n", d, d)
		var rows strings.Builder
		fmt.Fprintf(&rows, "---\nid: D%d\nstatus: accepted\n---\n# D%d: x\n\n## Confirmation\n\n| Claim | Kind | Path | Anchor | Require |\n|---|---|---|---|---|\n", d, d)
		for i := 1; i <= perFile; i++ {
			fmt.Fprintf(&rows, "| C%d | present | `x.go` | `var a` | |\n", i)
		}
		files[fmt.Sprintf("docs/decisions/D%d-x.md", d)] = rows.String()
	}
	prd.WriteString("\nD1..D3\n")
	files["docs/PRD.md"] = prd.String()
	res, err := check.Run(check.Options{Dir: writeTree(t, files)})
	if err != nil {
		t.Fatal(err)
	}
	var cut []string
	for _, f := range res.Findings {
		if f.Check == ruleid.Claims {
			cut = append(cut, fmt.Sprintf("%s:%d: %s", f.Pos.Filename, f.Pos.Line, f.Message))
		}
	}
	first := check.MaxClaims - 2*perFile + 1 // the first row of D3 past the bound
	want := fmt.Sprintf("docs/decisions/D3-x.md:%d: D3 C%d and the %d claim rows after it are not evaluated: a run evaluates at most %d claims (D90)", 10+first, first, 3*perFile-check.MaxClaims-1, check.MaxClaims)
	if len(cut) != 1 || !strings.HasPrefix(cut[0], want) {
		t.Errorf("CL006 findings %q, want one starting %q", cut, want)
	}
	if len(res.Claims) != check.MaxClaims {
		t.Errorf("%d claims evaluated, want %d", len(res.Claims), check.MaxClaims)
	}
}

// Past check.MaxFindings a run keeps counting what it finds, keeps none of
// it, and ends with one finding per rule saying how many were cut, which
// every output format prints (D90). Before, 31 MB naming an unknown id
// made 4.56 million findings.
func TestFindingsAreCapped(t *testing.T) {
	t.Parallel()
	const extra = 2_345
	dir := writeTree(t, map[string]string{
		".claimslint.yml":                 "tracker:\n  export: .knowledge/tracker/issues.jsonl\n  prefixes: [dk]\n",
		".knowledge/tracker/issues.jsonl": "{\"id\":\"dk-1\",\"title\":\"t\",\"status\":\"open\"}\n",
		"docs/PRD.md":                     register1,
		"docs/decisions/D1-x.md":          "---\nid: D1\nstatus: accepted\nclaims: none, a test\n---\n# D1: x\n\n" + strings.Repeat("dk-zzz dk-zzz dk-zzz dk-zzz dk-zzz\n", (check.MaxFindings+extra)/5),
	})
	res, err := check.Run(check.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != check.MaxFindings+1 {
		t.Fatalf("%d findings, want %d and the one that counts the rest", len(res.Findings), check.MaxFindings)
	}
	last := res.Findings[len(res.Findings)-1]
	want := fmt.Sprintf("%d more CL004 findings were cut, this one first: a run reports at most %d findings (D90)", extra, check.MaxFindings)
	if last.Check != ruleid.Tracker || !strings.HasPrefix(last.Message, want) || last.Pos.Line != 8+check.MaxFindings/5 || last.Pos.Column != 1 {
		t.Errorf("last finding %+v, want %q at line %d", last, want, 8+check.MaxFindings/5)
	}
	for _, name := range format.Names {
		var out strings.Builder
		if err := format.Write(&out, name, res.Findings, nil, "test"); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), fmt.Sprintf("%d more CL004 findings were cut", extra)) {
			t.Errorf("format %s does not report the cut", name)
		}
	}
}

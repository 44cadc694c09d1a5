package register

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claimslint/claimslint/internal/ruleid"
)

const smallRegister = "| ID | Decision | Status |\n|---|---|---|\n| D1 | [One](decisions/D1-one.md) | accepted |\n"

// hostile are the inputs of issue 16 and their relatives found while
// measuring: each is a unit repeated 50,000 times, prepended to a register.
var hostile = []struct{ name, unit, sep, want string }{
	{"emphasis", "*a_ ", "", "inline openers"},
	{"emphasis across lines", "*a_\n", "", "inline openers"},
	{"link destination", "[a](<b", "", "inline openers"},
	{"image", "![a](", "", "inline openers"},
	{"block quotes", "> ", "", "block quotes or list items opened on one line"},
	{"ordered lists", "1. ", "", "block quotes or list items opened on one line"},
	{"quotes and lists", "> - ", "", "block quotes or list items opened on one line"},
}

func TestHostileMarkdownRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range hostile {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte("# Register\n\n" + strings.Repeat(tc.unit, 50_000) + "\n\n" + smallRegister)
			r := ParseRegister("docs/PRD.md", src)
			if len(r.Findings) != 1 || r.Findings[0].Check != ruleid.Markdown || !strings.Contains(r.Findings[0].Message, tc.want) {
				t.Fatalf("findings = %+v, want one %s finding about %q", r.Findings, ruleid.Markdown, tc.want)
			}
			if p := r.Findings[0].Pos; p.Line != 3 {
				t.Errorf("finding at line %d, want 3 (where the run starts)", p.Line)
			}
			d := ParseDecision("docs/decisions/D1-x.md", append([]byte("---\nid: D1\nstatus: accepted\n---\n"), src...))
			if len(d.Findings) != 1 || !strings.Contains(d.Findings[0].Message, tc.want) {
				t.Errorf("decision file: findings = %+v", d.Findings)
			}
			// A claims file of an inline register (D35) is screened too.
			cf := ParseClaims("docs/claims/D1.md", "D1", src)
			if len(cf.Findings) != 1 || !strings.Contains(cf.Findings[0].Message, tc.want) || cf.Parsed {
				t.Errorf("claims file: findings = %+v, parsed %v", cf.Findings, cf.Parsed)
			}
		})
	}
	t.Run("wide table", func(t *testing.T) {
		const cols = 20_000
		src := "| ID | Decision | Status |" + strings.Repeat(" x |", cols) + "\n|---|---|---|" + strings.Repeat("---|", cols) + "\n| D1 | a | accepted |\n"
		r := ParseRegister("docs/PRD.md", []byte(src))
		if len(r.Findings) != 1 || !strings.Contains(r.Findings[0].Message, "a table row with about 20003 cells (limit 64)") || r.Findings[0].Pos.Line != 2 {
			t.Fatalf("findings = %+v", r.Findings)
		}
	})
	t.Run("wide row under a narrow header", func(t *testing.T) {
		src := "| ID | Decision | Status |\n|---|---|---|\n| D1 | a | accepted |" + strings.Repeat(" x |", 20_000) + "\n"
		r := ParseRegister("docs/PRD.md", []byte(src))
		if len(r.Findings) != 1 || !strings.Contains(r.Findings[0].Message, "table row") || r.Findings[0].Pos.Line != 3 {
			t.Fatalf("findings = %+v", r.Findings)
		}
	})
}

// TestBenignMarkdownAccepted: this repository's register and decisions, a
// register of 5,000 rows each full of links and code, and prose with code
// identifiers and fenced hostile text all stay under the limits.
func TestBenignMarkdownAccepted(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../../docs/decisions/*.md")
	files = append(files, "../../docs/PRD.md", "../../README.md")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if off, msg := screen(src); msg != "" {
			t.Errorf("%s at offset %d: %s", f, off, msg)
		}
	}
	var b strings.Builder
	b.WriteString("| ID | Decision | Status | Why |\n|---|---|---|---|\n")
	for k := 1; k <= 5000; k++ {
		b.WriteString("| D1 | [A `snake_case` *title* (with `x_y`)](decisions/D1-a_b.md) | accepted | see [D2](x.md), [D3](y.md) <br> ~ok~ ! |\n")
	}
	b.WriteString("\nSome prose with snake_case_identifiers_ and a_b_c_d and (parens) [links](x) ![img](y).\n")
	b.WriteString("\n```\n" + strings.Repeat("*a_ [a](<b ", 20_000) + "\n```\n")
	if off, msg := screen([]byte(b.String())); msg != "" {
		t.Errorf("benign register refused at offset %d: %s", off, msg)
	}
	if r := ParseRegister("docs/PRD.md", []byte(b.String())); len(r.Rows) != 5000 {
		t.Errorf("%d rows, want 5000", len(r.Rows))
	}
}

// TestBOMBeforeFrontMatter: a byte order mark before the front matter (as
// some Windows editors write it) is not "no YAML front matter".
func TestBOMBeforeFrontMatter(t *testing.T) {
	t.Parallel()
	d := ParseDecision("docs/decisions/D1-x.md", []byte("\xEF\xBB\xBF---\nid: D1\nstatus: accepted\n---\n# D1: X\n"))
	if !d.Parsed || d.ID != "D1" || len(d.Findings) != 0 {
		t.Fatalf("parsed %v, id %q, findings %+v", d.Parsed, d.ID, d.Findings)
	}
	r := ParseRegister("docs/PRD.md", []byte("\xEF\xBB\xBF"+smallRegister))
	if len(r.Rows) != 1 || len(r.Findings) != 0 {
		t.Fatalf("register after a BOM: rows %v, findings %+v", r.Rows, r.Findings)
	}
}

// FuzzHostileRegister takes the fuzzer's input as a unit, repeats it to
// about 100 KB (the shape of every slow input found so far), and parses it
// as a register and as a decision: each must finish within a time budget,
// whether it is parsed or refused by the limits. The budget is generous
// for a loaded machine; under the race detector it is not enforced.
func FuzzHostileRegister(f *testing.F) {
	for _, tc := range hostile {
		f.Add(tc.unit)
	}
	f.Add("| a |")
	f.Add("`a ")
	f.Add("- ")
	f.Fuzz(func(t *testing.T, unit string) {
		if unit == "" || len(unit) > 64 {
			return
		}
		src := []byte(strings.Repeat(unit, 100_000/len(unit)) + "\n\n" + smallRegister)
		start := time.Now()
		ParseRegister("docs/PRD.md", src)
		ParseDecision("docs/decisions/D1-x.md", append([]byte("---\nid: D1\nstatus: accepted\n---\n"), src...))
		CountedLists("docs/PRD.md", src)
		if d := time.Since(start); !raceEnabled && d > 2*time.Second {
			t.Fatalf("unit %q repeated to %d bytes took %v (budget 2s)", unit, len(src), d)
		}
	})
}

// BenchmarkHostileRegister parses each hostile input of issue 16 (50,000
// units prepended to a small register) as the register: the cost of
// refusing it, without the rest of a check run. "benign" is a 5,000-row
// register for scale.
func BenchmarkHostileRegister(b *testing.B) {
	inputs := []struct{ name, src string }{}
	for _, tc := range hostile {
		inputs = append(inputs, struct{ name, src string }{tc.name, strings.Repeat(tc.unit, 50_000) + "\n\n" + smallRegister})
	}
	inputs = append(inputs, struct{ name, src string }{"wide table", "| ID | Decision | Status |" + strings.Repeat(" x |", 20_000) + "\n|---|---|---|" + strings.Repeat("---|", 20_000) + "\n| D1 | a | accepted |\n"})
	var reg strings.Builder
	reg.WriteString("| ID | Decision | Status |\n|---|---|---|\n")
	for k := 1; k <= 5000; k++ {
		reg.WriteString("| D1 | [A `snake_case` *title*](decisions/D1-a.md) | accepted |\n")
	}
	inputs = append(inputs, struct{ name, src string }{"benign 5000 rows", reg.String()})
	for _, in := range inputs {
		src := []byte(in.src)
		b.Run(strings.ReplaceAll(in.name, " ", "_"), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				ParseRegister("docs/PRD.md", src)
			}
		})
	}
}

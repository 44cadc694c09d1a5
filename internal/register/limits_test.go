package register

import (
	"os"
	"path/filepath"
	"runtime"
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

// TestMarkdownLimitsOfIssue22 (D70): nesting built up line by line, table
// cells over a file and estimated syntax nodes are refused at the line
// that passes the limit, however the limit is reached; just under each,
// the file parses.
func TestMarkdownLimitsOfIssue22(t *testing.T) {
	t.Parallel()
	indented := func(n int, unit string) string {
		step := strings.Repeat(" ", strings.IndexByte(unit, ' ')+1) // one level: the marker and its space
		var b strings.Builder
		for i := range n {
			b.WriteString(strings.Repeat(step, i) + unit)
		}
		return b.String()
	}
	row := "|" + strings.Repeat(" c |", 64) + "\n"
	table := "|" + strings.Repeat(" h |", 64) + "\n|" + strings.Repeat("---|", 64) + "\n"
	tests := []struct {
		name, src, want string
		line            int
	}{
		{"list by indentation", indented(4000, "- a\n"), "33 list items and block quotes open at this line (limit 32)", 33},
		{"ordered list by indentation", indented(100, "1. a\n"), "33 list items and block quotes open at this line (limit 32)", 33},
		{"items nested inside a quote", quoted(40), "list items and block quotes open at this line (limit 32)", 32},
		{"tabs", indented(3, "- a\n") + tabbed(40), "list items and block quotes open at this line (limit 32)", 36},
		{"two spaces do not nest 1.", indented(3, "- a\n") + strings.Repeat("  1. a\n", 40), "", 0},
		{"lazy lines close nothing", lazy(40), "list items and block quotes open at this line (limit 32)", 65},
		// 64 header cells, 64 delimiter cells, then 64 a row: row 1561
		// (line 1563) passes 100,000.
		{"64-column table", table + strings.Repeat(row, 2000), "more than 100000 table cells in the file", 1563},
		// 2,000 cells a table of 1,001 lines: the 51st table's header
		// and delimiter rows pass the limit, at its delimiter row.
		{"cells over several tables", strings.Repeat("| a | b |\n|---|---|\n"+strings.Repeat("| c | d |\n", 998)+"\n", 60), "more than 100000 table cells in the file", 50052},
		// The 4 lines of front matter count: heading 199,997 is node 200,001.
		{"headings", strings.Repeat("# h\n", 300_000), "more than 200000 lines, table cells and inline openers in the file", 199997},
		// 3 nodes a paragraph (its line, two openers): the 66,666th passes.
		{"short emphasis paragraphs", strings.Repeat("*a*\n\n", 300_000), "more than 200000 lines, table cells and inline openers in the file", 133331},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := ParseDecision("docs/decisions/D1-x.md", []byte("---\nid: D1\nstatus: accepted\n---\n"+tc.src))
			if tc.want == "" {
				if len(d.Findings) != 0 {
					t.Fatalf("refused: %+v", d.Findings)
				}
				return
			}
			if len(d.Findings) != 1 || d.Findings[0].Check != ruleid.Markdown || !strings.Contains(d.Findings[0].Message, tc.want) {
				t.Fatalf("findings = %+v, want one about %q", d.Findings, tc.want)
			}
			if got := d.Findings[0].Pos.Line - 4; got != tc.line {
				t.Errorf("refused at line %d of the body, want %d", got, tc.line)
			}
		})
	}
	// Just under each limit, the file parses.
	for name, src := range map[string]string{
		"32 open":           indented(32, "- a\n"),
		"32 open, then out": indented(32, "- a\n") + "\ntext\n" + indented(32, "- b\n"),
		"siblings":          strings.Repeat("- a\n  - b\n", 50_000),
		"99,968 cells":      table + strings.Repeat(row, 1560),
		"ordered, nested":   indented(32, "1. a\n"),
		"199,000 lines":     strings.Repeat("a\n", 199_000),
	} {
		d := ParseDecision("docs/decisions/D1-x.md", []byte("---\nid: D1\nstatus: accepted\n---\n"+src))
		if len(d.Findings) != 0 || !d.Parsed {
			t.Errorf("%s: refused: %+v", name, d.Findings)
		}
	}
}

// quoted nests list items two spaces deeper a line inside a block quote.
func quoted(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("> " + strings.Repeat("  ", i) + "- a\n")
	}
	return b.String()
}

// tabbed nests list items one tab deeper a line.
func tabbed(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat("\t", i) + "- a\n")
	}
	return b.String()
}

// lazy nests list items with a line of text between them that is not
// indented: a lazy continuation, which closes none of them.
func lazy(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat("  ", i) + "- a\nlazy\n")
	}
	return b.String()
}

// TestParseGate: parses in flight hold at most MaxNodes estimated nodes,
// granted in arrival order; a parse larger than the gate is clamped to it,
// so it runs alone rather than never (D70).
func TestParseGate(t *testing.T) {
	t.Parallel()
	g := &parseGate{size: 10}
	r1 := g.acquire(6)
	got := make(chan int, 3)
	go func() { r := g.acquire(50); got <- 2; r() }() // clamped to 10: waits for r1
	waitWaiters(t, g, 1)
	go func() { r := g.acquire(1); got <- 3; r() }() // fits, but arrived after the large one
	waitWaiters(t, g, 2)
	select {
	case n := <-got:
		t.Fatalf("parse %d ran while 6 of 10 were held and an earlier one waited", n)
	case <-time.After(20 * time.Millisecond):
	}
	r1()
	if a, b := <-got, <-got; a != 2 || b != 3 {
		t.Fatalf("order %d, %d; want 2, 3", a, b)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.used != 0 || len(g.waiters) != 0 {
		t.Fatalf("left used %d, waiters %d", g.used, len(g.waiters))
	}
}

func waitWaiters(t *testing.T, g *parseGate, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		g.mu.Lock()
		k := len(g.waiters)
		g.mu.Unlock()
		if k == n {
			return
		}
	}
	t.Fatalf("never %d waiters", n)
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

// FuzzHostileRegister takes the fuzzer's input as a unit and builds three
// files of it: the unit repeated to about 100 KB (the shape of every slow
// input of issue 16), each repetition on a line of its own indented two
// spaces more than the last (depth: a list nested 4,000 levels that way
// took 68 s, issue 22), and the unit repeated to 2 MiB (size: a 16 MiB
// table took 15 s and 3.3 GB; the largest file within the limits, 200,000
// list items, parses in about 0.3 s a MiB). It parses each as a register, a decision,
// its counted lists and its prose units: each must finish within a time
// budget, whether it is parsed or refused by the limits. The budget is
// generous for a loaded machine; under the race detector it is not
// enforced.
func FuzzHostileRegister(f *testing.F) {
	for _, tc := range hostile {
		f.Add(tc.unit)
	}
	f.Add("| a |")
	f.Add("`a ")
	f.Add("- ")
	f.Add("- a\n")
	f.Add("> 1. a\n")
	f.Add("| c | c | c | c |\n")
	f.Add("# h\n")
	f.Fuzz(func(t *testing.T, unit string) {
		if unit == "" || len(unit) > 64 {
			return
		}
		var deep strings.Builder
		for i := 0; deep.Len() < 200_000 && i < 4000; i++ {
			deep.WriteString(strings.Repeat("  ", i) + strings.TrimRight(unit, "\n") + "\n")
		}
		for _, in := range []struct {
			shape string
			src   []byte
		}{
			{"repeated", []byte(strings.Repeat(unit, 100_000/len(unit)) + "\n\n" + smallRegister)},
			{"nested", []byte(deep.String() + "\n" + smallRegister)},
			{"large", []byte(smallRegister + "\n" + strings.Repeat(unit, (2<<20)/len(unit)))},
		} {
			// The budget is the parsing thread's CPU time, not wall time:
			// on a loaded machine a wall clock measures the neighbours.
			runtime.LockOSThread()
			start, ok := threadCPU()
			wall := time.Now()
			ParseRegister("docs/PRD.md", in.src)
			ParseDecision("docs/decisions/D1-x.md", append([]byte("---\nid: D1\nstatus: accepted\n---\n"), in.src...))
			CountedLists("docs/PRD.md", in.src)
			ProseUnits("docs/notes.md", in.src)
			end, _ := threadCPU()
			runtime.UnlockOSThread()
			d := end - start
			if !ok {
				d = time.Since(wall)
			}
			if !raceEnabled && d > 4*time.Second {
				t.Fatalf("unit %q %s to %d bytes took %v of CPU (budget 4s)", unit, in.shape, len(in.src), d)
			}
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

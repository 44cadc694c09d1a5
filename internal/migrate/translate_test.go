package migrate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, s := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func kindsOf(tr *Translation) []string {
	var out []string
	for _, c := range tr.Claims {
		out = append(out, c.ID+" "+c.Kind)
	}
	return out
}

func TestTranslateScopes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"src/a.rs": "// the residual is ub-7qx\nfn main() { run(); }\n// run( in a comment\n" +
			"#[cfg(test)]\nmod tests {\n    fn cell_is_declared() {}\n}\n",
		"t.jsonl":       `{"id":"ub-7qx","title":"x","status":"open"}` + "\n",
		"gate/other.sh": "#!/bin/sh\nROWS=\"\nP53@x@y@z\n\"\n",
	})
	g := &Gate{Script: "g.sh", Decision: "D9", Rows: []Row{
		{Code: "P1", Path: "src/a.rs", Anchor: "ub-7qx"},
		{Code: "P2", Path: "src/a.rs", Anchor: `run\(`},
		{Code: "Q1", Path: "src/a.rs", Anchor: `run\(`, Regex: "!panic"},
		{Code: "P3", Path: "t.jsonl", Anchor: `"id":"ub-7qx"`},
		{Code: "P4", Path: "src/a.rs", Anchor: "x*"},
		{Code: "Q2", Path: "src/a.rs", Anchor: "^ +fn cell_is_declared", Regex: `fn cell_is_declared\(\)`},
		{Code: "Q3", Path: "gate/other.sh", Anchor: "^P53", Regex: "z"},
		{Code: "Q4", Path: "src/a.rs", Anchor: "fn main", Regex: `:[0-9]+:fn main\(\)`},
		{Code: "Q5", Path: "src/a.rs", Anchor: "ub-7qx", Regex: `^[^:]+:[0-9]+:[[:space:]]*//`},
	}}
	tr := Translate(g, Options{Dir: dir, ClaimsDir: "docs/claims", TrackerExport: "t.jsonl", Prefixes: []string{"ub"}})
	want := []string{"P1 present:comment", "P2 present", "Q1 anchored-every:any", "P3 tracker",
		"Q2 anchored-every:test", "Q3 anchored-every:any", "Q4 anchored-every", "Q5 absent", "X1 exec"}
	if d := cmp.Diff(want, kindsOf(tr)); d != "" {
		t.Errorf("kinds (-want +got):\n%s", d)
	}
	if len(g.Skipped) != 1 || !strings.Contains(g.Skipped[0].Reason, "matches the empty string") {
		t.Errorf("P4 must be refused for matching every line: %+v", g.Skipped)
	}
	var b strings.Builder
	if err := tr.Render(&b); err != nil {
		t.Fatal(err)
	}
	for _, row := range []string{
		"| Q1 | anchored-every:any | `src/a.rs` | `run\\(` | `!panic` |  |\n",
		"| Q4 | anchored-every | `src/a.rs` | `fn main` | `^fn main\\(\\)` |  |\n",
		"| Q5 | absent | `src/a.rs` | `ub-7qx` |  |  |\n",
	} {
		if !strings.Contains(b.String(), row) {
			t.Errorf("rendered table lacks %q:\n%s", row, b.String())
		}
	}
	notes := map[string]string{}
	for _, c := range tr.Claims {
		notes[c.ID] = c.Note
	}
	for id, want := range map[string]string{
		"Q2": "matches only in tests today (src/a.rs:6)",
		"Q3": "matches no code line and no comment line today (gate/other.sh:3 is string content)",
		"Q4": "Require `:[0-9]+:fn main\\(\\)` was written for git grep -n output (path:lineno:text); as a line pattern it is `^fn main\\(\\)`",
		"Q5": "accepts only comment lines",
	} {
		if !strings.Contains(notes[id], want) {
			t.Errorf("%s note %q lacks %q", id, notes[id], want)
		}
	}
}

// TestNoReadOutside: a row that names a file outside the repository, by a
// climbing path or through a link, is never read to choose its scope (D9).
func TestNoReadOutside(t *testing.T) {
	t.Parallel()
	top := t.TempDir()
	dir := filepath.Join(top, "repo")
	writeTree(t, top, map[string]string{"secret.rs": "// run( only in a comment\n", "repo/src/a.rs": "fn a() {}\n"})
	if err := os.Symlink(filepath.Join(top, "secret.rs"), filepath.Join(dir, "src", "link.rs")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"../secret.rs", "src/link.rs"} {
		g := &Gate{Script: "g.sh", Decision: "D9", Rows: []Row{{Code: "P1", Path: p, Anchor: `run\(`}}}
		tr := Translate(g, Options{Dir: dir, ClaimsDir: "docs/claims"})
		c := tr.Claims[0]
		if c.Kind != "present" || strings.Contains(c.Note, "comment") {
			t.Errorf("%s: %s, note %q: want the default scope, chosen without reading the file", p, c.Kind, c.Note)
		}
	}
}

func TestLinePattern(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`:[0-9]+: +- run: scripts/checks/d55\.sh`: `^ +- run: scripts/checks/d55\.sh`,
		`^[^:]+:[0-9]+:[[:space:]]*//`:            `^[[:space:]]*//`,
		`^[^:]*:[[:digit:]]+:x`:                   `^x`,
		`:\d+:y`:                                  `^y`,
		`fn main`:                                 "",
		`^fn main`:                                "",
	} {
		got, ok := linePattern(in)
		if (want == "") == ok || ok && got != want {
			t.Errorf("%q: %q, %v; want %q", in, got, ok, want)
		}
	}
}

func TestCommentOnly(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		req, file string
		want      bool
	}{
		{`^[[:space:]]*//`, "a.rs", true},
		{`^\s*//`, "a.go", true},
		{`^ *#`, "a.sh", true},
		{`^[[:space:]]*#`, "a.rs", false}, // # opens no comment in Rust
		{`//`, "a.rs", false},             // not anchored: code may come first
		{`^[[:space:]]*x//`, "a.rs", false},
		{`!^[[:space:]]*//`, "a.rs", false},
		{`^[[:space:]]*/\*`, "a.c", false}, // a block comment may end on the line
	} {
		if got := commentOnly(tc.req, tc.file); got != tc.want {
			t.Errorf("commentOnly(%q, %s) = %v, want %v", tc.req, tc.file, got, tc.want)
		}
	}
}

func TestLiveRange(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{`D1\.\.D55`, `{{range}}`},
		{`Live range: D1\.\.D55\b`, `Live range: {{range}}\b`},
		{`D1\\\.\\\.D55`, `D1\\\.\\\.D{{n}}`},
		{`D1\\?\.\\?\.D55`, `D1\\?\.\\?\.D{{n}}`},
		{`D\(55\|54\|`, `D\({{n}}\|{{n-1}}\|`},
		{`D\\\(55\\\|54\\\|`, `D\\\({{n}}\\\|{{n-1}}\\\|`},
		{`D1\.\.D46`, `D1\.\.D46`},     // a frozen range stays
		{`D1\.\.D551`, `D1\.\.D551`},   // not the range
		{`D\(55\|53\|`, `D\(55\|53\|`}, // not the newest two
		{`\*\*D55\*\*`, `\*\*D55\*\*`}, // the decision's own id, not the range
	} {
		if got, _ := liveRange(tc.in, 55); got != tc.want {
			t.Errorf("liveRange(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestReadVerdicts(t *testing.T) {
	t.Parallel()
	codes := []string{"P1", "P2", "P3", "P10", "P4"}
	v := readVerdicts("ok   P1 fine\nFAIL P2 no line matches\nP3: anchor vanished\nok   P10 x\n", 1, codes)
	for code, want := range map[string]string{"P1": VerdictOK, "P2": VerdictFail, "P3": VerdictFail, "P10": VerdictOK, "P4": VerdictUnknown} {
		if got := v.verdict(code); got != want {
			t.Errorf("status column: %s: %s, want %s", code, got, want)
		}
	}
	if got := readVerdicts("", 0, codes).verdict("P4"); got != VerdictOK {
		t.Errorf("an unnamed row of a passing script: %s, want ok", got)
	}
	// The seed team's scripts print only failing rows, as path: [CODE] …,
	// with no failure word; the sweeps print … (CODE) at the end.
	out := "crates/ok/src/lib.rs: [P1] the D47 landing is GONE — no line matches /x/ (the helper is ok)\n" +
		"CLAUDE.md: [Q1] the anchored line(s) 5 do not match /D1\\.\\.D55/ (range)\n" +
		"docs/a.md:3: retired framing survived (F1)\n" +
		"d47-claims: BLOCKED — the sites above are missing. P2 is fine\n"
	codes = []string{"P1", "P2", "Q1", "Q10", "F1"}
	v = readVerdicts(out, 1, codes)
	for code, want := range map[string]string{"P1": VerdictFail, "Q1": VerdictFail, "F1": VerdictFail, "P2": VerdictOK, "Q10": VerdictOK} {
		if got := v.verdict(code); got != want {
			t.Errorf("[CODE] markers: %s: %s, want %s", code, got, want)
		}
	}
	if !strings.Contains(v.how(), "prints only its failing rows") {
		t.Errorf("how: %q", v.how())
	}
	// A script that stops before its rows (exit 2) names none: no row's
	// verdict can be told.
	v = readVerdicts("d55-claims: cannot find exactly one '^mod tests {' line\n", 2, codes)
	if got := v.verdict("P1"); got != VerdictUnknown || !strings.Contains(v.how(), "cannot be told") {
		t.Errorf("exit 2: %s, %q", got, v.how())
	}
}

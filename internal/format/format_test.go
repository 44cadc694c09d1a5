package format

import (
	"bytes"
	"encoding/json"
	"flag"
	"go/token"
	"os"
	"path/filepath"
	"testing"

	"github.com/claimslint/claimslint/internal/diag"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

var sample = []diag.Finding{
	{Pos: token.Position{Filename: "docs/decisions/D1-a.md", Line: 9, Column: 1}, Check: "CL007", Decision: "D1", Claim: "C1", Severity: diag.SeverityError, Message: "anchor vanished: no code line of `src/*.go` matches `func screen\\(`"},
	{Pos: token.Position{Filename: "docs/PRD.md", Line: 3, Column: 21}, Check: "CL001", Severity: diag.SeverityError, Message: "D1 is \"proposed\" in the register, 100% sure: a,b"},
	{Pos: token.Position{Filename: "src/wire.go", Line: 7, Column: 2}, Check: "CL007", Decision: "D2", Claim: "C3", Severity: diag.SeverityNote, Message: "pending: line one\nline two"},
}

var rules = []RuleDoc{
	{ID: "CL007", Name: "claims", Doc: "The claims of accepted decisions hold.\n\nMore."},
	{ID: "CL001", Name: "register-files", Doc: "Rows and files correspond."},
}

// TestGolden pins the exact bytes of every format; run with -update after a
// deliberate change and review the diff.
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, name := range Names {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			fs := append([]diag.Finding(nil), sample...)
			fs = diag.Dedupe(fs)
			if err := Write(&buf, name, fs, rules, "v0.0.0-test"); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", name+".golden")
			if *update {
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if diff := cmp.Diff(string(want), buf.String()); diff != "" {
				t.Errorf("%s output mismatch (-want +got):\n%s", name, diff)
			}
		})
	}
}

// TestSARIFShape checks what GitHub code scanning insists on: version
// 2.1.0, a non-null results array even when clean, and help on every rule.
func TestSARIFShape(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := SARIF(&buf, nil, rules, "v"); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID   string `json:"id"`
						Help struct {
							Text string `json:"text"`
						} `json:"help"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results json.RawMessage `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("version %q, %d runs", log.Version, len(log.Runs))
	}
	if got := string(log.Runs[0].Results); got != "[]" {
		t.Errorf("results = %s, want []", got)
	}
	for _, r := range log.Runs[0].Tool.Driver.Rules {
		if r.Help.Text == "" {
			t.Errorf("rule %s has no help", r.ID)
		}
	}
}

func TestEscapeProperty(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"a:b,c", "a%3Ab%2Cc"},
		{"100%\r\n", "100%25%0D%0A"},
		{"plain/path.go", "plain/path.go"},
	} {
		if got := escapeProperty(tc.in); got != tc.want {
			t.Errorf("escapeProperty(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestControlBytesEscaped: raw ESC, NUL, DEL, C1 and bidi-override runes
// from a claim cell or a file name never reach text or github output; they
// are printed as escapes. Tabs and the formats' own newline handling stay.
func TestControlBytesEscaped(t *testing.T) {
	t.Parallel()
	f := []diag.Finding{{
		Pos:   token.Position{Filename: "docs/\x1b[2Jevil.md", Line: 3, Column: 1},
		Check: "CL006", Severity: diag.SeverityError,
		Message: "anchor `a\x1b]0;pwned\x07b` holds \x00, \x7f, \u009b and \u202e\ttab",
	}}
	for _, tc := range []struct{ format, want string }{
		{"text", "docs/\\x1b[2Jevil.md:3:1: anchor `a\\x1b]0;pwned\\x07b` holds \\x00, \\x7f, \\x9b and \\u202e\ttab (CL006)\n"},
		{"github", "::error file=docs/\\x1b[2Jevil.md,line=3,col=1,title=claimslint CL006::anchor `a\\x1b]0;pwned\\x07b` holds \\x00, \\x7f, \\x9b and \\u202e\ttab (CL006)\n"},
	} {
		var buf bytes.Buffer
		if err := Write(&buf, tc.format, f, nil, "v"); err != nil {
			t.Fatal(err)
		}
		if buf.String() != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.format, buf.String(), tc.want)
		}
	}
}

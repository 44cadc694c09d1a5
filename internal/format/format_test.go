package format

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/claimslint/claimslint/internal/diag"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// sample is the one findings set every golden file is written from: an
// error with related positions, a warning at a file with no line whose
// name is hostile (a newline, a forged workflow command, XML markup, an
// ESC, a CDATA end, a noncharacter), a note whose message breaks a line,
// and an error with quotes, a percent sign and a comma.
var sample = []diag.Finding{
	{Pos: token.Position{Filename: "docs/decisions/D1-a.md", Line: 9, Column: 1}, Check: "CL007", Decision: "D1", Claim: "C1", Severity: diag.SeverityError,
		Message: "anchor is ambiguous: 2 code lines of `src/*.go` match `func screen\\(`",
		Related: []diag.Related{{Pos: token.Position{Filename: "src/a.go", Line: 3, Column: 1}, Message: "hit 1"}, {Pos: token.Position{Filename: "src/b.go", Line: 8, Column: 2}, Message: "hit 2 <&>"}}},
	{Pos: token.Position{Filename: "docs/PRD.md", Line: 3, Column: 21}, Check: "CL001", Severity: diag.SeverityError, Message: "D1 is \"proposed\" in the register, 100% sure: a,b"},
	{Pos: token.Position{Filename: "src/x\n::error file=a.go::forged <b a=\"1\">&amp;\x1b[2J]]>\uffff.go"}, Check: "CL007", Decision: "D2", Claim: "C2", Severity: diag.SeverityWarning, Message: "not read: a symbolic link ]]> <x/>"},
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
// are printed as escapes, and so are tabs and newlines in text (D69).
func TestControlBytesEscaped(t *testing.T) {
	t.Parallel()
	f := []diag.Finding{{
		Pos:   token.Position{Filename: "docs/\x1b[2Jevil.md", Line: 3, Column: 1},
		Check: "CL006", Severity: diag.SeverityError,
		Message: "anchor `a\x1b]0;pwned\x07b` holds \x00, \x7f, \u009b and \u202e\ttab",
	}}
	for _, tc := range []struct{ format, want string }{
		{"text", "docs/\\x1b[2Jevil.md:3:1: anchor `a\\x1b]0;pwned\\x07b` holds \\x00, \\x7f, \\x9b and \\u202e\\ttab (CL006)\n"},
		{"github", "::error file=docs/\\x1b[2Jevil.md,line=3,col=1,title=claimslint CL006::anchor `a\\x1b]0;pwned\\x07b` holds \\x00, \\x7f, \\x9b and \\u202e\\ttab (CL006)\n"},
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

// TestEscape pins the one escaping every writer uses (D69).
func TestEscape(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"plain `func a\\(` text", "plain `func a\\(` text"},
		{"caf\u00e9 \u4e16", "caf\u00e9 \u4e16"},
		{"a\nb\r\tc", `a\nb\r\tc`},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"\x00\x07\x7f", `\x00\x07\x7f`},
		{"\u0085\u009b", `\x85\x9b`},
		{"caf\xe9", `caf\xe9`},
		{"\xff\xfe", `\xff\xfe`},
		{"\u202eevil\u2066\u2028\u2029", `\u202eevil\u2066\u2028\u2029`},
	} {
		if got := Escape(tc.in); got != tc.want {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestNoForgedLines: a file name or a message holding a newline and a
// workflow command prints one line per finding in text and github output,
// and no line of it starts a command the runner would obey (D69).
func TestNoForgedLines(t *testing.T) {
	t.Parallel()
	forged := "src/x\n::error file=a.go::forged\r\n::warning::also.go"
	fs := []diag.Finding{
		{Pos: token.Position{Filename: forged, Line: 2, Column: 1}, Check: "CL007", Decision: "D1", Claim: "C1", Severity: diag.SeverityError, Message: "forbidden `x` is present"},
		{Pos: token.Position{Filename: "docs/PRD.md", Line: 1, Column: 1}, Check: "CL001", Severity: diag.SeverityError, Message: "title \"a\n::error file=b.go::forged\""},
	}
	for _, name := range []string{"text", "github"} {
		var buf bytes.Buffer
		if err := Write(&buf, name, fs, nil, "v"); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
		if len(lines) != len(fs) {
			t.Errorf("%s: %d lines for %d findings:\n%s", name, len(lines), len(fs), buf.String())
		}
		for i, l := range lines {
			if strings.ContainsRune(l, '\r') || name == "text" && strings.HasPrefix(l, "::") {
				t.Errorf("%s: line %d is forged or broken: %q", name, i+1, l)
			}
			if name != "github" {
				continue
			}
			// The properties of the one command on the line are ours:
			// a forged name adds none.
			props, _, ok := strings.Cut(strings.TrimPrefix(l, "::error "), "::")
			for _, p := range strings.Split(props, ",") {
				if k, _, _ := strings.Cut(p, "="); !ok || !strings.Contains(" file line col title ", " "+k+" ") {
					t.Errorf("github: line %d has property %q: %q", i+1, p, l)
				}
			}
		}
	}
}

// FuzzEscape: whatever the input, Escape's output is valid UTF-8 and holds
// no control byte and no rune hidden reports, so no writer that uses it
// can print a line break, an ESC or a bidi override it was given; and a
// string with none of them comes back as it was.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "plain", "a\nb", "\x1b[2J", "caf\xe9", "\u202e", "\u2028", "%0A::error", "\\x1b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Escape(s)
		if !utf8.ValidString(got) {
			t.Fatalf("Escape(%q) = %q: not UTF-8", s, got)
		}
		for _, r := range got {
			if hidden(r) {
				t.Fatalf("Escape(%q) = %q holds %U", s, got, r)
			}
		}
		clean := utf8.ValidString(s)
		for _, r := range s {
			clean = clean && !hidden(r)
		}
		if clean && got != s {
			t.Fatalf("Escape(%q) = %q, want it unchanged", s, got)
		}
		if gh := escapeData(s); strings.ContainsAny(gh, "\r\n") {
			t.Fatalf("escapeData(%q) = %q breaks the line", s, gh)
		}
	})
}

// TestCleanRun: a run with no findings is still one document in every
// machine format: an empty findings array in json, an empty array in
// code-climate, an empty testsuites and checkstyle; text and github print
// nothing (D75).
func TestCleanRun(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"text":         "",
		"github":       "",
		"json":         "{\"findings\":[]}\n",
		"code-climate": "[]\n",
		"junit-xml":    xml.Header + "<testsuites></testsuites>\n",
		"checkstyle":   xml.Header + "<checkstyle version=\"5.0\"></checkstyle>\n",
	} {
		var buf bytes.Buffer
		if err := Write(&buf, name, nil, nil, "v"); err != nil {
			t.Fatal(err)
		}
		if buf.String() != want {
			t.Errorf("%s, clean run:\n got %q\nwant %q", name, buf.String(), want)
		}
	}
}

// TestSeverityInEveryFormat: each format says, in its own words, which
// finding fails the run and which does not (D75).
func TestSeverityInEveryFormat(t *testing.T) {
	t.Parallel()
	at := func(sev diag.Severity) []diag.Finding {
		return []diag.Finding{{Pos: token.Position{Filename: "a.go", Line: 2, Column: 3}, Check: "CL007", Decision: "D1", Claim: "C1", Severity: sev, Message: "m"}}
	}
	for _, tc := range []struct {
		format string
		want   map[diag.Severity]string
	}{
		{"text", map[diag.Severity]string{diag.SeverityError: "a.go:2:3: m (D1/C1)\n", diag.SeverityWarning: "a.go:2:3: warning: m (D1/C1)\n", diag.SeverityNote: "a.go:2:3: note: m (D1/C1)\n"}},
		{"github", map[diag.Severity]string{diag.SeverityError: "::error ", diag.SeverityWarning: "::warning ", diag.SeverityNote: "::notice "}},
		{"sarif", map[diag.Severity]string{diag.SeverityError: `"level": "error"`, diag.SeverityWarning: `"level": "warning"`, diag.SeverityNote: `"level": "note"`}},
		{"json", map[diag.Severity]string{diag.SeverityError: `"severity":"error"`, diag.SeverityWarning: `"severity":"warning"`, diag.SeverityNote: `"severity":"note"`}},
		{"code-climate", map[diag.Severity]string{diag.SeverityError: `"severity":"critical"`, diag.SeverityWarning: `"severity":"minor"`, diag.SeverityNote: `"severity":"info"`}},
		{"junit-xml", map[diag.Severity]string{diag.SeverityError: `<failure message="a.go:2:3: m (D1/C1)" type="error">`, diag.SeverityWarning: `<skipped message="warning: a.go:2:3: m (D1/C1)">`, diag.SeverityNote: `<skipped message="note: a.go:2:3: m (D1/C1)">`}},
		{"checkstyle", map[diag.Severity]string{diag.SeverityError: `severity="error"`, diag.SeverityWarning: `severity="warning"`, diag.SeverityNote: `severity="info"`}},
	} {
		for sev, want := range tc.want {
			var buf bytes.Buffer
			if err := Write(&buf, tc.format, at(sev), rules, "v"); err != nil {
				t.Fatal(err)
			}
			if tc.format == "text" && buf.String() != want || !strings.Contains(buf.String(), want) {
				t.Errorf("%s, %s: want %q in\n%s", tc.format, sev, want, buf.String())
			}
		}
	}
}

// TestFingerprints: a code-climate fingerprint names the finding, not its
// line: the same finding moved down a file keeps it, and two equal
// findings at two lines of one file, or one finding in two files, differ.
func TestFingerprints(t *testing.T) {
	t.Parallel()
	prints := func(fs ...diag.Finding) []string {
		var buf bytes.Buffer
		if err := CodeClimate(&buf, fs); err != nil {
			t.Fatal(err)
		}
		var issues []struct {
			Fingerprint string `json:"fingerprint"`
		}
		if err := json.Unmarshal(buf.Bytes(), &issues); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, i := range issues {
			out = append(out, i.Fingerprint)
		}
		return out
	}
	f := diag.Finding{Pos: token.Position{Filename: "a.go", Line: 2, Column: 1}, Check: "CL007", Decision: "D1", Claim: "C1", Severity: diag.SeverityError, Message: "m"}
	moved := f
	moved.Pos.Line = 40
	other := f
	other.Pos.Filename = "b.go"
	if a, b := prints(f)[0], prints(moved)[0]; a != b {
		t.Errorf("a moved finding changed its fingerprint: %s, %s", a, b)
	}
	seen := map[string]bool{}
	for _, p := range prints(f, moved, other) {
		if seen[p] {
			t.Errorf("fingerprint %s twice", p)
		}
		seen[p] = true
	}
}

// wellFormed reports an error unless every output of the finding formats
// is what its reader parses: json and code-climate one JSON value, sarif
// too, junit-xml and checkstyle XML that encoding/xml reads to its end in
// strict mode, text and github one line per finding.
func wellFormed(fs []diag.Finding) error {
	for _, name := range Names {
		var buf bytes.Buffer
		if err := Write(&buf, name, fs, rules, "v"); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		out := buf.Bytes()
		switch name {
		case "json", "sarif", "code-climate":
			if !json.Valid(out) {
				return fmt.Errorf("%s: not JSON:\n%s", name, out)
			}
		case "junit-xml", "checkstyle":
			dec := xml.NewDecoder(bytes.NewReader(out))
			for {
				_, err := dec.Token()
				if err == io.EOF {
					break
				}
				if err != nil {
					return fmt.Errorf("%s: %v:\n%s", name, err, out)
				}
			}
			if !utf8.Valid(out) {
				return fmt.Errorf("%s: not UTF-8", name)
			}
		default:
			if n := bytes.Count(out, []byte("\n")); n != len(fs) || bytes.ContainsRune(out, '\r') {
				return fmt.Errorf("%s: %d lines for %d findings:\n%q", name, n, len(fs), out)
			}
		}
	}
	return nil
}

func TestWellFormed(t *testing.T) {
	t.Parallel()
	if err := wellFormed(sample); err != nil {
		t.Error(err)
	}
}

// FuzzFormats: whatever a path, a message or a related message holds, every
// format's output is well formed (wellFormed), so a hostile file name
// cannot break a CI's report reader or forge a line.
func FuzzFormats(f *testing.F) {
	for _, s := range []string{"", "plain.go", "a\nb", "\x1b[2J", "caf\xe9", "]]>", "<x a=\"&\">", "\uffff\ufffe", "\x00", "%0A::error file=x::y"} {
		f.Add(s, s, s)
	}
	f.Fuzz(func(t *testing.T, path, msg, rel string) {
		fs := []diag.Finding{
			{Pos: token.Position{Filename: path, Line: 1, Column: 2}, Check: "CL007", Decision: "D1", Claim: "C1", Severity: diag.SeverityError, Message: msg,
				Related: []diag.Related{{Pos: token.Position{Filename: rel, Line: 3}, Message: rel}}},
			{Pos: token.Position{Filename: path}, Check: "CL001", Severity: diag.SeverityWarning, Message: rel},
			{Pos: token.Position{Filename: rel, Line: 4}, Check: "CL007", Decision: "D2", Claim: "C1", Severity: diag.SeverityNote, Message: msg},
		}
		if err := wellFormed(fs); err != nil {
			t.Fatal(err)
		}
	})
}

// TestMarkdown: text from a repository put in a Markdown table or heading
// (impact's pull-request comment, D84) cannot end its cell, open a link,
// an image, a tag or a code span, mention anyone, or start a new line.
func TestMarkdown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"src/wire.go", "src/wire.go"},
		{"a | b", `a \| b`},
		{"![x](https://e.invalid/t.png)", `\!\[x\]\(https://e.invalid/t.png\)`},
		{"<img src=x onerror=alert(1)>", `\<img src\=x onerror\=alert\(1\)\>`},
		{"`code` *em* _em_ ~del~", "\\`code\\` \\*em\\* \\_em\\_ \\~del\\~"},
		{"@team &amp; #1", `\@team \&amp; \#1`},
		{"a\nb", `a\\nb`},
		{`back\slash`, `back\\slash`},
	} {
		if got := Markdown(tc.in); got != tc.want {
			t.Errorf("Markdown(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestPrintersOneFileEach: every output format is one file of this package
// that declares its Printer, listed once in Printers, with a golden file
// (D103); Names is derived from the list, and New finds each by name.
func TestPrintersOneFileEach(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]string{} // var name -> file
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, sp := range g.Specs {
				vs := sp.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if i < len(vs.Values) && strings.HasPrefix(types.ExprString(vs.Values[i]), "&Printer{") {
						file := filepath.Base(fset.Position(n.Pos()).Filename)
						for _, other := range declared {
							if other == file {
								t.Errorf("%s declares two printers", file)
							}
						}
						declared[n.Name] = file
					}
				}
			}
		}
	}
	if len(declared) != len(Printers) {
		t.Errorf("%d printers declared, %d listed in Printers", len(declared), len(Printers))
	}
	if got := strings.Join(Names, " "); got != strings.Join(printerNames(Printers), " ") {
		t.Errorf("Names %q is not the list's", got)
	}
	for _, p := range Printers {
		if f, err := New(p.Name, nil, "v"); err != nil || f == nil {
			t.Errorf("New(%q): %v", p.Name, err)
		}
		if _, err := os.Stat(filepath.Join("testdata", p.Name+".golden")); err != nil {
			t.Errorf("printer %s has no golden: %v", p.Name, err)
		}
	}
	if _, err := New("nope", nil, ""); err == nil || !strings.Contains(err.Error(), strings.Join(Names, ", ")) {
		t.Errorf("an unknown format: %v", err)
	}
}

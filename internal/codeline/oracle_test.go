package codeline

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The fuzz targets of this file compare the lexers with the languages'
// own toolchains (D89): gcc's preprocessor for C comments and line
// splices, dash and bash for here-documents, and Node.js's bundled acorn
// parser for JavaScript regular expressions, templates and comments. Each
// skips when its toolchain is missing, except under CI (CI=true), where
// .ci/run has them all and a skip would hide a comparison.

// needTool returns the path of a toolchain program, or skips the test
// (fails it under CI) when it is not installed.
func needTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed: CI compares the lexers with it", name)
		}
		t.Skipf("%s is not installed: no comparison", name)
	}
	return p
}

// run runs a toolchain program on stdin with a time limit.
func run(t *testing.T, stdin []byte, name string, args ...string) (stdout, stderr []byte, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	cmd.Dir = t.TempDir()
	err = cmd.Run()
	return o.Bytes(), e.Bytes(), err
}

// corpusFile reads a file of testdata/corpus (see its SOURCES).
func corpusFile(t testing.TB, name string) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", "corpus", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] == 0 {
			return false
		}
	}
	return true
}

// marked rewrites C source for the gcc comparison: each 'M' of src, and
// with lineMarks the start of every line, becomes a marker M<4 letters>,
// a word that gcc's output holds exactly when it is not in a comment. It
// returns the source and each marker's offset in it.
func marked(src string, lineMarks bool) (string, []int) {
	var b strings.Builder
	var offs []int
	mark := func() {
		k := len(offs)
		offs = append(offs, b.Len())
		fmt.Fprintf(&b, "M%c%c%c%c", 'a'+k/17576%26, 'a'+k/676%26, 'a'+k/26%26, 'a'+k%26)
	}
	for i := 0; i < len(src); i++ {
		if lineMarks && (i == 0 || src[i-1] == '\n') {
			mark()
			b.WriteByte(' ')
		}
		if src[i] == 'M' {
			mark()
			continue
		}
		b.WriteByte(src[i])
	}
	return b.String(), offs
}

// checkGCC compares the C lexer's comments with gcc's preprocessor on
// src: a marker survives `gcc -E` exactly when the lexer does not read it
// as a comment.
func checkGCC(t *testing.T, gcc, src string, lineMarks bool) {
	t.Helper()
	// What gcc reads otherwise than C17 without a preprocessor: directives,
	// trigraphs, digit separators (C23), carriage returns; and markers
	// past 26^4.
	if !isASCII(src) || strings.ContainsAny(src, "#\r") || strings.Contains(src, "??") || strings.Contains(src, "%:") ||
		strings.Count(src, "\n")+strings.Count(src, "M") > 400000 {
		t.Skip("input outside the comparison")
	}
	for i := 1; i+1 < len(src); i++ {
		if src[i] == '\'' && isHex(src[i-1]) && isHex(src[i+1]) {
			t.Skip("a digit separator: C17 has none")
		}
	}
	code, offs := marked(src, lineMarks)
	out, stderr, err := run(t, []byte(code), gcc, "-E", "-P", "-std=c17", "-undef", "-w", "-x", "c", "-")
	if err != nil {
		t.Skipf("gcc refuses the input (%v): %s", err, stderr)
	}
	var r Regions
	Scan("a.c", []byte(code), &r)
	for _, off := range offs {
		m := code[off : off+5]
		kept := bytes.Contains(out, []byte(m))
		if comment := r.KindAt(off) == Comment; comment == kept {
			t.Fatalf("%s at %d: the lexer reads a comment: %v, gcc keeps it: %v\nsource %q\ngcc: %q\nspans %q", m, off, comment, kept, code, out, spans(code, &r))
		}
	}
}

// FuzzGCCComments checks the C lexer's comments, line splices included,
// against gcc's preprocessor. Seeds: gcc's own tests of backslash-newline.
func FuzzGCCComments(f *testing.F) {
	f.Add("int M;\n// x \\\nM();\n", false)
	f.Add("/\\\n/ M\nM /* *\\\n/ M\n", false)
	f.Add("\"s\\\\\nM\" M // \\  \nM\n", false)
	f.Add("'\\\\\n' M /\\\n* M *\\\n\\\n/ M\n", false)
	f.Add("x = a //\\\\\nM\n", false)
	f.Add(string(corpusFile(f, "gcc-backslash.c")), true)
	f.Add(string(corpusFile(f, "gcc-backslash2.c")), true)
	f.Fuzz(func(t *testing.T, src string, lineMarks bool) {
		checkGCC(t, needTool(t, "gcc"), src, lineMarks)
	})
}

// shScript builds, from the fuzzer's bytes, a shell script of commands
// and here-documents, quoted and not, whose bodies hold substitutions
// that call m with a number: m K records K. It returns the script and the
// offset of each call's "m".
func shScript(prog []byte) (string, []int) {
	var b strings.Builder
	var offs []int
	b.WriteString("m() { echo \"$1\" >&2; }\n")
	call := func(before, after string) {
		b.WriteString(before)
		offs = append(offs, b.Len())
		fmt.Fprintf(&b, "m %d", len(offs)-1)
		b.WriteString(after)
	}
	body, tabs := false, false
	for _, c := range prog {
		if !body {
			switch c % 9 {
			case 0:
				call("", "\n")
			case 1:
				call("# ", "\n")
			case 2:
				call("echo '$(", ")' >/dev/null\n")
			case 3:
				call("echo \"$(", ")\" >/dev/null\n")
			case 4:
				b.WriteString("cat <<EOF >/dev/null\n")
				body, tabs = true, false
			case 5:
				b.WriteString("cat <<'EOF' >/dev/null\n")
				body, tabs = true, false
			case 6:
				b.WriteString("cat <<-EOF >/dev/null\n")
				body, tabs = true, true
			case 7:
				b.WriteString("cat <<\"EOF\" >/dev/null\n")
				body, tabs = true, false
			case 8:
				b.WriteString("cat <<\\EOF >/dev/null; cat <<-E2 >/dev/null\n")
				body, tabs = true, true
			}
			continue
		}
		if tabs && c&0x80 != 0 {
			b.WriteByte('\t')
		}
		switch c % 10 {
		case 0:
			call("$(", ")\n")
		case 1:
			call("`", "`\n")
		case 2:
			call("\\$(", ")\n")
		case 3:
			call("'$(", ")'\n")
		case 4:
			call("\"$(", ")\" # x\n")
		case 5:
			b.WriteString("# ' \" x\n")
		case 6:
			call("${x:-$(", ")}\n")
		case 7:
			b.WriteString("text $x\n")
		default:
			b.WriteString(closeBody(tabs, &b))
			body = false
		}
	}
	if body {
		b.WriteString(closeBody(tabs, &b))
	}
	return b.String(), offs
}

// closeBody returns the terminator lines of the open here-documents: the
// case-8 line opens two.
func closeBody(tabs bool, b *strings.Builder) string {
	s := b.String()
	open := s[strings.LastIndex(s, "cat <<"):]
	switch {
	case strings.HasPrefix(open, "cat <<\\EOF"):
		return "EOF\n\tE2\n"
	case tabs:
		return "\tEOF\n"
	}
	return "EOF\n"
}

// checkShell runs the script of prog with shell and compares the calls it
// made with the calls the shell lexer reads as code.
func checkShell(t *testing.T, shell string, prog []byte) {
	t.Helper()
	script, offs := shScript(prog)
	_, stderr, err := run(t, []byte(script), shell, "-s")
	if err != nil {
		t.Fatalf("%s failed on a script it must run (%v): %s\n%s", shell, err, stderr, script)
	}
	ran := map[string]bool{}
	for _, l := range strings.Split(string(stderr), "\n") {
		ran[l] = true
	}
	var r Regions
	Scan("a.sh", []byte(script), &r)
	for k, off := range offs {
		code := r.KindAt(off) == Code
		if code != ran[fmt.Sprint(k)] {
			t.Fatalf("m %d at %d: the lexer reads code: %v, %s ran it: %v\nscript:\n%s\nspans %q", k, off, code, shell, ran[fmt.Sprint(k)], script, spans(script, &r))
		}
	}
}

// FuzzHeredocShells checks the shell lexer's here-documents against dash
// and bash: a substitution the shell runs is code, one in a quoted
// here-document, a comment or single quotes is not.
func FuzzHeredocShells(f *testing.F) {
	f.Add([]byte{4, 0, 1, 2, 3, 4, 6, 7, 9, 0})
	f.Add([]byte{5, 0, 1, 9, 7, 0, 9, 8, 0, 1, 9})
	f.Add([]byte{6, 0x80, 0x81, 0x86, 9, 1, 2, 3})
	f.Add([]byte{8, 0x80, 1, 9, 4, 5, 6, 9})
	f.Fuzz(func(t *testing.T, prog []byte) {
		if len(prog) > 400 {
			t.Skip("long program")
		}
		for _, sh := range []string{"dash", "bash"} {
			checkShell(t, needTool(t, sh), prog)
		}
	})
}

// TestHeredocCorpus reads bash's own here-document tests (not run): no
// line inside a here-document's body is code unless it holds a
// substitution, and every line between is.
func TestHeredocCorpus(t *testing.T) {
	t.Parallel()
	src := corpusFile(t, "bash-heredoc.tests")
	var r Regions
	Scan("heredoc.sh", src, &r)
	masked := string(r.MaskTo(nil, src))
	lines := strings.Split(masked, "\n")
	// The bodies, by line number (1-based), from the file: what bash
	// reads as data.
	for _, ln := range []int{4, 6, 13, 14, 15, 17, 18, 19, 27, 28, 29, 35, 36, 37, 38, 45, 50, 56, 57, 58, 64, 67, 68, 78, 79, 80, 95, 96} {
		if strings.TrimSpace(lines[ln-1]) != "" {
			t.Errorf("line %d is data, read as code: %q", ln, lines[ln-1])
		}
	}
	for _, ln := range []int{3, 9, 10, 11, 12, 25, 26, 34, 40, 43, 44, 49, 55, 62, 63, 66, 70, 71, 75, 77, 82, 85, 86, 87, 89, 94} {
		if strings.TrimSpace(lines[ln-1]) == "" {
			t.Errorf("line %d is code, masked: %q", ln, strings.Split(string(src), "\n")[ln-1])
		}
	}
}

// acorn is a Node.js process that parses JavaScript with the acorn parser
// Node bundles, one JSON-quoted source a line, and answers with its
// tokens and comments.
type acorn struct {
	once sync.Once
	mu   sync.Mutex
	err  error
	in   io.WriteCloser
	out  *bufio.Reader
}

var nodeAcorn acorn

const acornScript = `
const acorn = require('internal/deps/acorn/acorn/dist/acorn');
const rl = require('readline').createInterface({input: process.stdin});
rl.on('line', l => {
  const src = JSON.parse(l), toks = [];
  try {
    acorn.parse(src, {ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true,
      onToken: t => toks.push([t.type.label, t.start, t.end]),
      onComment: (b, x, s, e) => toks.push(['comment', s, e])});
    process.stdout.write(JSON.stringify({ok: true, toks}) + '\n');
  } catch (e) {
    process.stdout.write(JSON.stringify({ok: false, toks: []}) + '\n');
  }
});`

type acornAnswer struct {
	OK   bool                 `json:"ok"`
	Toks [][3]json.RawMessage `json:"toks"`
}

// parse returns acorn's tokens of src as (label, start, end), and whether
// acorn parsed it.
func (a *acorn) parse(t *testing.T, src string) ([]acornTok, bool) {
	t.Helper()
	node := needTool(t, "node")
	a.once.Do(func() {
		cmd := exec.Command(node, "--expose-internals", "-e", acornScript)
		cmd.Stderr = os.Stderr
		if a.in, a.err = cmd.StdinPipe(); a.err != nil {
			return
		}
		var out io.ReadCloser
		if out, a.err = cmd.StdoutPipe(); a.err != nil {
			return
		}
		a.out = bufio.NewReader(out)
		a.err = cmd.Start()
	})
	if a.err != nil {
		t.Fatalf("node: %v", a.err)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	q, _ := json.Marshal(src)
	if _, err := a.in.Write(append(q, '\n')); err != nil {
		t.Fatalf("node: %v", err)
	}
	line, err := a.out.ReadBytes('\n')
	if err != nil {
		t.Fatalf("node did not answer (is its bundled acorn there?): %v", err)
	}
	var ans acornAnswer
	if err := json.Unmarshal(line, &ans); err != nil {
		t.Fatalf("node: %v: %s", err, line)
	}
	toks := make([]acornTok, 0, len(ans.Toks))
	for _, tk := range ans.Toks {
		var x acornTok
		json.Unmarshal(tk[0], &x.label)
		json.Unmarshal(tk[1], &x.start)
		json.Unmarshal(tk[2], &x.end)
		toks = append(toks, x)
	}
	return toks, ans.OK
}

type acornTok struct {
	label      string
	start, end int
}

// jsDiffers returns where the regions r disagree with acorn's tokens:
// a comment byte is a comment, a string, regular expression or template
// text byte is a string, any other token's byte is code ("" when they
// agree).
func jsDiffers(src string, r *Regions, toks []acornTok) string {
	for _, tk := range toks {
		want := Code
		switch tk.label {
		case "comment":
			want = Comment
		case "string", "regexp", "template", "`", "${", "invalidTemplate":
			want = String
		case "}", "eof":
			continue // a hole's closing brace is read with the template text
		}
		for b := tk.start; b < tk.end; b++ {
			if got := r.KindAt(b); got != want {
				return fmt.Sprintf("byte %d of %s token %q: %s, acorn: %s", b, tk.label, src[tk.start:tk.end], got, want)
			}
		}
	}
	return ""
}

// checkAcorn compares the JavaScript lexer with acorn on src: one of the
// lexer's readings (the first, or the second where it has one) must agree.
func checkAcorn(t *testing.T, src string) {
	t.Helper()
	if !isASCII(src) || strings.HasPrefix(src, "#!") {
		t.Skip("input outside the comparison (offsets are UTF-16 in acorn)")
	}
	if strings.Contains(src, "<!--") || strings.Contains(src, "-->") {
		t.Skip("HTML-like comments (Annex B, scripts only): not read by the lexer (dk-ofm)")
	}
	toks, ok := nodeAcorn.parse(t, src)
	if !ok {
		t.Skip("not JavaScript: acorn refuses it")
	}
	var r Regions
	Scan("a.js", []byte(src), &r)
	d := jsDiffers(src, &r, toks)
	if d == "" {
		return
	}
	if o := r.Other(); o != nil && jsDiffers(src, o, toks) == "" {
		return
	}
	t.Fatalf("%s\nsource %q\nspans %q", d, src, spans(src, &r))
}

// FuzzAcornRegex checks the JavaScript lexer's regular expressions,
// templates, strings and comments against acorn, the parser Node.js
// bundles. Seeds: esprima's tokenizer test of a comment before a
// division, and the constructs whose '/' the token before decides.
func FuzzAcornRegex(f *testing.F) {
	for _, s := range []string{
		string(corpusFile(f, "esprima-comment_division.js")),
		"if (ok) /`/.test(s)\nneedle()\nlet t = `x`\n",
		"while (f(x)) /'/g.exec(s)\n",
		"let q = f(a) / 2 // `\n",
		"x = a++ / 2 / 1\n",
		"x = o.return / 2\n",
		"function f(){}\n/`/.test(s)\n",
		"x = {} / 1\n",
		"for (;;) /a/g\nreturn /b/\ntypeof /c/\n",
		"let t = `a ${ b /* c */ + `d ${e}` } f` // g\n",
		"a = b\n/c/g\n",
		"x = y / z /* / */ / 2\n",
		"if (a) { } /re/.test(b)\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		checkAcorn(t, src)
	})
}

// TestCorpus reads files of the languages' own test suites
// (testdata/corpus/SOURCES) and checks what their authors state of them:
// in Swift's raw-string test every `// CHECK` line, and no other, is a
// comment, whatever the raw strings around it hold; in Kotlin's
// multi-dollar test only $$x and $${x} are code; in prism's dstring
// fixture the #{bar} of a string that spans lines is code.
func TestCorpus(t *testing.T) {
	t.Parallel()
	swift := corpusFile(t, "swift-raw_string.swift")
	var r Regions
	Scan("raw_string.swift", swift, &r)
	commentLines := map[int]bool{}
	for _, s := range r.Spans {
		if s.Kind == Comment {
			ln := bytes.Count(swift[:s.Start], []byte{'\n'}) + 1
			if s.Start > 0 && swift[s.Start-1] != '\n' {
				t.Errorf("raw_string.swift:%d: a comment that does not start its line: %q", ln, swift[s.Start:s.End])
			}
			commentLines[ln] = true
		}
	}
	for ln, line := range strings.Split(string(swift), "\n") {
		if want := strings.HasPrefix(line, "//"); want != commentLines[ln+1] {
			t.Errorf("raw_string.swift:%d: comment %v, want %v: %q", ln+1, commentLines[ln+1], want, line)
		}
	}

	for _, tc := range []struct {
		file, name, word, want string
	}{
		{"kotlin-MultiDollarInterpolation.kt", "a.kt", "x", "[6 7]"},
		{"prism-dstring.rb", "a.rb", "bar", "[5]"},
	} {
		src := string(corpusFile(t, tc.file))
		var r Regions
		Scan(tc.name, []byte(src), &r)
		// The lines on which word is code: outside every span.
		var got []int
		for ln, line := range strings.Split(src, "\n") {
			off := strings.Index(src, line) // lines are distinct in these files
			if k := strings.Index(line, tc.word); k >= 0 && r.KindAt(off+k) == Code {
				got = append(got, ln+1)
			}
		}
		if fmt.Sprint(got) != tc.want {
			t.Errorf("%s: %s is code on lines %v, want %s; spans %q", tc.file, tc.word, got, tc.want, spans(src, &r))
		}
	}
}

package codeline

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// codeLines returns the 1-based numbers of the lines on which word is
// code as a claim reads it (Regions.MaskLine): not in a comment, not on a
// line wholly inside a string.
func codeLines(r *Regions, src, word string) []int {
	var out []int
	start := 0
	for ln, line := range strings.SplitAfter(src, "\n") {
		end := start + len(strings.TrimSuffix(line, "\n"))
		if strings.Contains(string(r.MaskLine(nil, []byte(src), start, end)), word) {
			out = append(out, ln+1)
		}
		start += len(line)
	}
	return out
}

// TestReadAsTheLanguage holds the constructs of issue 31 (L1) that the
// lexers read otherwise than the language before D89: the lines on which
// `needle` is code, in the first reading and, for a file read two ways,
// in the second ("-" when there is none).
func TestReadAsTheLanguage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src   string
		want, other string
	}{
		// C, C++: a line comment ending in a backslash goes on.
		{"a.c", "// note \\\nneedle();\nneedle();\n", "[3]", "-"},
		{"a.cpp", "// note \\  \nneedle();\n", "[]", "-"},
		{"a.c", "/\\\n/ needle();\nneedle();\n", "[3]", "-"},
		{"a.c", "/* x *\\\n/ needle();\n", "[2]", "-"},
		{"a.c", "char *s = \"a\\\\\n\"; needle();\n", "[2]", "-"},
		{"a.c", "x = 1; \\\nneedle();\n", "[2]", "-"},
		{"A.java", "// note \\\nneedle();\n", "[2]", "-"},
		// shell: an unquoted here-document runs its substitutions.
		{"a.sh", "cat <<EOF\n$(needle)\n`needle`\n\\$(needle)\nEOF\n", "[2 3]", "-"},
		{"a.sh", "cat <<'EOF'\n$(needle)\nEOF\ncat <<\"E\"\n$(needle)\nE\ncat <<\\E\n`needle`\nE\n", "[]", "-"},
		{"a.sh", "cat <<-EOF\n\t$(needle)\n\tEOF\nneedle\n", "[2 4]", "-"},
		{"a.sh", "cat <<EOF\n$(echo ')'\n  needle)\nEOF\n", "[3]", "-"},
		// JavaScript: a regular expression after the ) of if (…).
		{"a.js", "if (ok) /`/.test(s)\nneedle()\nlet t = `x`\n", "[2]", "-"},
		{"a.js", "while (f(x)) /'/g.exec(s)\nneedle()\n", "[2]", "-"},
		{"a.ts", "let q = f(a) / 2 // `\nneedle()\n", "[2]", "-"},
		{"a.js", "x = a++ / 2 / `\nneedle()\n`\n", "[]", "-"},
		{"a.js", "x = o.return / 2 / `\nneedle()\n`\n", "[]", "-"},
		{"a.js", "}\n/`/.test(s)\nneedle()\n// `\n", "[3]", "[]"},
		{"a.js", "x = {} / 2 / `\nneedle()\n`\n", "[]", "-"},
		{"a.js", "if (a) {}\n/`/.test(s)\nneedle()\n// `\n", "[3]", "-"},
		// A lone CR, U+2028 and U+2029 end a JavaScript line comment.
		{"a.js", "// x\rneedle()\n// y\u2028needle()\n// z\r\n", "[1 2]", "-"},
		// Kotlin: ${…} and $name in strings are code.
		{"a.kt", "val s = \"\"\"\n${ needle(\"}\") }\n$needle\n\"\"\"\n", "[2 3]", "-"},
		{"a.kt", "val s = \"${ \"\\\"\" }\" // \"\nneedle()\n", "[2]", "-"},
		{"a.kt", "val s = $$\"\"\"\n$needle ${needle}\n$$needle\n$${needle}\n\"\"\"\n", "[3 4]", "-"},
		// Swift: \(…) in strings is code; in #"…"# only \#(…).
		{"a.swift", "let s = \"\"\"\n\\(needle(\")\"))\n\"\"\"\n", "[2]", "-"},
		{"a.swift", "let s = #\"\"\"\n\\(needle)\n\\#(needle)\n\"\"\"#\n", "[3]", "-"},
		// C#: {…} in $"…" is code, @"…" has no escapes, raw """ strings.
		{"a.cs", "var s = $@\"\n{needle()}\n{{needle}}\n\";\n", "[2]", "-"},
		{"a.cs", "var p = @\"C:\\\"; needle();\nvar s = \"\"; needle();\n", "[1 2]", "-"},
		{"a.cs", "var s = $$\"\"\"\n{needle}\n{{needle()}}\n\"\"\";\n", "[3]", "-"},
		{"a.cs", "var s = \"\"\"\n{needle}\n\"\"\";\n", "[]", "-"},
		{"a.cs", "var q = @\"\"\"\";\nneedle();\nvar r = 1;\n", "[2]", "-"},
		// Ruby: #{…} in "…", `…`, %Q and here-documents is code.
		{"a.rb", "s = \"a\n#{needle}\nb\"\n", "[2]", "-"},
		{"a.rb", "s = <<~EOS\n  #{needle(\"}\")}\n  needle\nEOS\nt = <<~'EOS'\n  #{needle}\nEOS\n", "[2]", "-"},
		{"a.rb", "s = %Q(\n(#{needle})\n)\nt = %w(\nneedle\n)\n", "[2]", "-"},
		{"a.rb", "x = y ? 1 : 2 # needle\n=begin\nneedle\n=end\nneedle\n", "[5]", "-"},
		{"a.rb", "puts /#/\nneedle\n", "[2]", "-"},
		{"a.rb", "n = x %(\nneedle\n)\n", "[]", "[2]"},
	} {
		var r Regions
		Scan(tc.name, []byte(tc.src), &r)
		got, other := fmt.Sprint(codeLines(&r, tc.src, "needle")), "-"
		if o := r.Other(); o != nil {
			other = fmt.Sprint(codeLines(o, tc.src, "needle"))
		}
		if got != tc.want || other != tc.other {
			t.Errorf("%s %q: needle is code on lines %s (other reading %s), want %s (%s)\nspans %q", tc.name, tc.src, got, other, tc.want, tc.other, spans(tc.src, &r))
		}
	}
}

// TestHeredocJoinLinear: a here-document body of backslash-newline
// lines is read in time linear in its size.
func TestHeredocJoinLinear(t *testing.T) {
	t.Parallel()
	src := []byte("cat <<EOF\n" + strings.Repeat("0123456789\\\n", 200000) + "EOF\n")
	var r Regions
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0, ok := threadCPU()
	Scan("a.sh", src, &r)
	cpu1, _ := threadCPU()
	if ok && (cpu1-cpu0).Seconds() > 2 {
		t.Errorf("a 2.4 MB joined here-document took %s of CPU", cpu1-cpu0)
	}
	if len(r.Spans) != 1 || r.Spans[0].End != len(src) {
		t.Errorf("spans %v, want one string to the end", r.Spans)
	}
}

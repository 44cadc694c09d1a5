package codeline

import (
	"fmt"
	"strings"
	"testing"
)

// testLines returns the 1-based numbers of the lines that start in a test
// region or hold one.
func testLines(src string, r *Regions) []int {
	var out []int
	start := 0
	for ln, line := range strings.SplitAfter(src, "\n") {
		end := start + len(line)
		for _, t := range r.Tests {
			if t.Start < end && t.End > start {
				out = append(out, ln+1)
				break
			}
		}
		start = end
	}
	return out
}

// spans lists the spans of src as "c:text" (comment) or "s:text"
// (string), in order.
func spans(src string, r *Regions) []string {
	var out []string
	for _, s := range r.Spans {
		out = append(out, s.Kind.String()[:1]+":"+src[s.Start:s.End])
	}
	return out
}

func TestLexers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		// Go
		{"a.go", "x := 1 // c\n", []string{"c:// c"}},
		{"a.go", "s := \"// no\" + `/* raw\n*/` // c\n", []string{`s:"// no"`, "s:`/* raw\n*/`", "c:// c"}},
		{"a.go", "r := '\\'' /* c */\n", []string{`s:'\''`, "c:/* c */"}},
		{"a.go", "//go:embed x\nvar b string\n", []string{"c://go:embed x"}},
		{"a.go", "s := \"unterminated\nx // c", []string{`s:"unterminated`, "c:// c"}},
		// Rust
		{"lib.rs", "/// doc\n//! inner\nfn f() {}\n", []string{"c:/// doc", "c://! inner"}},
		{"lib.rs", "/* a /* b */ still */ x", []string{"c:/* a /* b */ still */"}},
		{"lib.rs", `let s = r#"a "quoted" // b"#; x`, []string{`s:r#"a "quoted" // b"#`}},
		{"lib.rs", `let s = r##"a "# b"##; x`, []string{`s:r##"a "# b"##`}},
		{"lib.rs", `let b = br"x\"; c = b"y";`, []string{`s:br"x\"`, `s:b"y"`}},
		{"lib.rs", "fn f<'a>(x: &'a str) -> char { 'a' } // c", []string{"s:'a'", "c:// c"}},
		{"lib.rs", `let c = '\''; let d = '"'; "x"`, []string{`s:'\''`, `s:'"'`, `s:"x"`}},
		{"lib.rs", "'outer: loop { break 'outer; } // c", []string{"c:// c"}},
		{"lib.rs", "let r#type = 1; // c", []string{"c:// c"}},
		{"lib.rs", "let s = \"a\nb\\\"\"; x", []string{"s:\"a\nb\\\"\""}},
		// C family
		{"a.c", `char c = '"'; /* x */ int y = 1'000;`, []string{`s:'"'`, "c:/* x */"}},
		{"a.cpp", `auto s = R"x(a )" // b)x"; // c`, []string{`s:R"x(a )" // b)x"`, "c:// c"}},
		{"a.cpp", `auto c = u8'x';`, []string{`s:'x'`}},
		{"A.java", "String s = \"\"\"\n  a // b\n  \"\"\"; // c\n", []string{"s:\"\"\"\n  a // b\n  \"\"\"", "c:// c"}},
		{"a.js", "let t = `a ${ b /* c */ + `d ${e}` } f` // g\n", []string{"s:`a ${", "c:/* c */", "s:`d ${", "s:}`", "s:} f`", "c:// g"}},
		{"a.js", "let r = /[/]\"/g; // c\nx = a / b / c\n", []string{`s:/[/]"/g`, "c:// c"}},
		{"a.js", "return /x/.test(s) // c", []string{"s:/x/", "c:// c"}},
		{"a.ts", "let u = 'http://x' // c\n", []string{"s:'http://x'", "c:// c"}},
		// Python
		{"a.py", "SQL = \"\"\"\nSELECT 1\n\"\"\"  # TODO: call needle() here\n", []string{"s:\"\"\"\nSELECT 1\n\"\"\"", "c:# TODO: call needle() here"}},
		{"a.py", "def f():\n    \"\"\"Doc needle().\"\"\"\n    return 1\n", []string{`c:"""Doc needle()."""`}},
		{"a.py", "x = f'{a[\"k\"]} # {b}' # c\n", []string{"s:f'{", `s:"k"`, "s:} # {", "s:}'", "c:# c"}},
		{"a.py", "x = (\n  'not a doc'\n)\n", []string{"s:'not a doc'"}},
		{"a.py", "x = f'{id(a):#x}' # c\n", []string{"s:f'{", "s:}'", "c:# c"}},
		{"a.py", `x = rb'\'' + u"y"`, []string{`s:rb'\''`, `s:u"y"`}},
		// shell
		{"a.sh", "echo $# ${#x} # note\n", []string{"c:# note"}},
		{"a.sh", "echo \"a $(date # c\n) b\" 'q#'\n", []string{`s:"a `, "c:# c", `s: b"`, "s:'q#'"}},
		{"a.sh", "cat <<-'EOF' # c\n\tbody # no\n\tEOF\necho # c\n", []string{"c:# c", "s:\n\tbody # no\n", "c:# c"}},
		{"a.sh", "cat <<<'x' # c\n", []string{"s:'x'", "c:# c"}},
		// data and markup
		{"ci.yml", "run: echo don't # c\nk: 'a # b' # c\n", []string{"c:# c", "s:'a # b'", "c:# c"}},
		{"ci.yml", "steps:\n  - run: |\n      # off\n      go test # c\n  - x: 1\n", []string{"c:# off", "c:# c"}},
		{"ci.yml", "a: |  # c\n  x\nb: 1\n", []string{"c:# c"}},
		{"a.toml", "a = \"#x\" # c\nb = '''\n#'''\n", []string{`s:"#x"`, "c:# c", "s:'''\n#'''"}},
		{"a.sql", "select '--x''y' -- c\n/* d */ 1", []string{"s:'--x''y'", "c:-- c", "c:/* d */"}},
		{"a.sql", "do $$ x := 'a'; -- c\n$$;", []string{"s:'a'", "c:-- c"}},
		{"a.md", "text <!-- hidden --> `<!-- no -->`\n```\n<!-- no -->\n```\n<!-- c -->", []string{"c:<!-- hidden -->", "c:<!-- c -->"}},
		{"a.html", "<p><!-- c --></p><![CDATA[<!--]]>", []string{"c:<!-- c -->", "s:<![CDATA[<!--]]>"}},
		{"data.bin", "# all code", nil},
	} {
		var r Regions
		Scan(tc.name, []byte(tc.src), &r)
		if got := spans(tc.src, &r); strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s %q:\n got %q\nwant %q", tc.name, tc.src, got, tc.want)
		}
	}
}

func TestRustTestRegions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		src  string
		want []int // the lines in a test region
	}{
		{"fn a() {}\n#[cfg(test)]\nmod tests {\n    fn b() { let s = \"}\"; }\n}\nfn c() {}\n", []int{2, 3, 4, 5}},
		{"#[cfg(test)]\nuse std::{a, b};\nfn c() {}\n", []int{1, 2}},
		{"#[cfg(all(unix, test))]\nfn t() {}\n#[cfg(any(unix, test))]\nfn u() {}\n", []int{1, 2}},
		{"#[cfg(not(test))]\nfn a() {}\n", nil},
		{"#[cfg(test)] // why\n#[derive(Debug)]\npub(crate) struct S { a: u8 }\nfn c() {}\n", []int{1, 2, 3}},
		{"struct S {\n    #[cfg(test)]\n    probe: u8,\n    real: u32,\n}\n", []int{2, 3}},
		{"struct S {\n    real: u32,\n    #[cfg(test)]\n    probe: u8\n}\n", []int{3, 4}},
		{"#![cfg(test)]\nfn a() {}\n", []int{1, 2}},
		{"fn a() {}\nmod m {\n    #![cfg(test)]\n    fn b() {}\n}\nfn c() {}\n", []int{2, 3, 4, 5}},
		{"/* #[cfg(test)] */\nfn a() {}\n", nil},
		{"#[cfg(test)]\nconst X: [u8; 2] = [1, 2];\nfn c() {}\n", []int{1, 2}},
		{"#[cfg(test)]\nmod tests;\nfn c() {}\n", []int{1, 2}},
		{"#[cfg(test)]\nimpl<A, B> T for S<A, B> where A: X, B: Y {\n}\nfn c() {}\n", []int{1, 2, 3}},
	} {
		var r Regions
		Scan("lib.rs", []byte(tc.src), &r)
		if got := testLines(tc.src, &r); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%q: test lines %v, want %v", tc.src, got, tc.want)
		}
	}
	var r Regions
	Scan("a_test.go", []byte("package a\n"), &r)
	if !r.InTest(0) || r.InTest(10) {
		t.Errorf("a_test.go: tests %v, want the whole file", r.Tests)
	}
}

func TestMaskStrings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src, want string
	}{
		// A line wholly inside a string is not code, except in Go.
		{"lib.rs", "let s = r#\"\nneedle()\n\"#;\n", "let s = r#\"\n        \n\"#;\n"},
		{"a.go", "s := `\nneedle()\n`\n", "s := `\nneedle()\n`\n"},
		{"a.py", "SQL = \"\"\"\nSELECT 1\n\"\"\"  # c\n", "SQL = \"\"\"\n        \n\"\"\"     \n"},
		// A docstring is a comment.
		{"a.py", "def f():\n    \"doc\"\n", "def f():\n         \n"},
	} {
		if got := string(Mask(tc.name, []byte(tc.src))); got != tc.want {
			t.Errorf("Mask(%s, %q)\n got %q\nwant %q", tc.name, tc.src, got, tc.want)
		}
	}
}

func TestShebang(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]string{
		"#!/bin/sh\n":                 "shell",
		"#! /usr/bin/env bash\n":      "shell",
		"#!/usr/bin/env -S bash -e\n": "shell",
		"#!/usr/bin/env python3\n":    "python",
		"#!/usr/bin/python3.11 -u\n":  "python",
		"#!/usr/bin/perl -w\n":        "hash",
		"#!\n":                        "hash",
		"no shebang\n":                "none",
	} {
		if got := Name("bin/tool", []byte(src)); got != want {
			t.Errorf("Name(bin/tool, %q) = %s, want %s", src, got, want)
		}
	}
	if got := Name("tool.txt", []byte("#!/bin/sh\n")); got != "none" {
		t.Errorf("a file with an extension is not read by its shebang: got %s", got)
	}
}

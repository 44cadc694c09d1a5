package region

import (
	"fmt"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/claimslint/claimslint/internal/codeline"
)

// open finds the block the first line matching pat opens in src (a file
// called name), as "first-last" (1-based), or "none".
func open(name, src, pat string) string {
	var r codeline.Regions
	codeline.Scan(name, []byte(src), &r)
	x := New([]byte(src), &r)
	loc := regexp.MustCompile("(?m)" + pat).FindStringIndex(src)
	if loc == nil {
		return "no match"
	}
	b, ok := x.Open(loc[0])
	// A braces file is scanned lazily; the index built in one pass must
	// find the same block.
	full := New([]byte(src), &r)
	full.build()
	if fb, fok := full.Open(loc[0]); fok != ok || ok && fb != b {
		return fmt.Sprintf("lazy %v %v, built %v %v", b, ok, fb, fok)
	}
	if !ok {
		return "none"
	}
	return fmt.Sprintf("%d-%d", b.First, b.Last)
}

func TestOpen(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, file, src, pat, want string
	}{
		{"go switch", "a.go", "func f() {\n\tswitch m.(type) {\n\tcase int:\n\tdefault:\n\t}\n}\n", `switch`, "3-4"},
		{"go brace in string and comment", "a.go", "func f() {\n\ts := \"}\" // }\n\tg()\n}\n", `func f`, "2-3"},
		{"go multi-line signature", "a.go", "func f(\n\ta int,\n) error {\n\treturn nil\n}\n", `func f`, "4-4"},
		{"go if with init", "a.go", "if err := f(); err != nil {\n\treturn err\n}\n", `if err`, "2-2"},
		{"go type without block", "a.go", "type State int\n\nconst (\n\ta State = iota\n)\n\ntype T struct {\n\tx int\n}\n", `type State`, "none"},
		{"go const group", "a.go", "const (\n\ta = iota\n\tb\n)\n\nfunc f() {\n}\n", `^const`, "2-3"},
		{"go signature is no group", "a.go", "func f(\n\ta int,\n) {\n\tx()\n}\n", `func f`, "4-4"},
		{"go braces in parameters", "a.go", "func f(x interface{ M() }, m map[int]struct{}) *T {\n\tx.M()\n}\n", `func f`, "2-2"},
		{"c declaration", "a.c", "void f(void);\nint g(void) {\n\treturn 0;\n}\n", `void f`, "none"},
		{"c allman", "a.c", "int g(void)\n{\n\treturn 0;\n}\n", `int g`, "3-3"},
		{"c for header", "a.c", "for (i = 0; i < n; i++) {\n\tx();\n}\n", `for`, "2-2"},
		{"one line", "a.go", "func f() { return }\n", `func f`, "1-1"},
		{"closer after code", "a.go", "func f() {\n\tg() }\n", `func f`, "2-2"},
		{"empty", "a.go", "func f() {\n}\n", `func f`, "2-1"},
		{"rust nested", "a.rs", "impl T {\n    fn a(&self) {\n        x();\n    }\n    fn b() {}\n}\n", `fn a`, "3-3"},
		{"rust char brace", "a.rs", "fn a() {\n    let c = '}';\n    y();\n}\n", `fn a`, "2-3"},
		{"kotlin", "a.kt", "class A {\n  fun m() {\n    x()\n  }\n}\n", `fun m`, "3-3"},
		{"swift", "a.swift", "struct A {\n  func m() {\n    x()\n  }\n}\n", `func m`, "3-3"},
		{"csharp", "A.cs", "class A {\n  void M() {\n    X();\n  }\n}\n", `void M`, "3-3"},
		{"java", "A.java", "class A {\n  void m() {\n    x();\n  }\n}\n", `class A`, "2-4"},
		{"unclosed", "a.go", "func f() {\n\tx()\n", `func f`, "2-3"},
		{"python def", "a.py", "def f(a,\n      b):\n    x = 1\n\n    return x\n\ny = 2\n", `def f`, "3-5"},
		{"python class", "a.py", "class A:\n    def m(self):\n        pass\n    z = 1\nq = 1\n", `def m`, "3-3"},
		{"python backslash join", "a.py", "def f():\n    x = 1 + \\\n2\n    y = 3\nz = 4\n", `def f`, "2-4"},
		{"python backslash in a comment", "a.py", "def f():\n    x = 1 # \\\nz = 4\n", `def f`, "2-2"},
		{"python string", "a.py", "def f():\n    s = \"\"\"\nnot code\n\"\"\"\n    return s\nx = 1\n", `def f`, "2-5"},
		{"yaml", "a.yml", "jobs:\n  build:\n    steps:\n      - run: x\n  test:\n    y: 1\n", `build:`, "3-4"},
		{"yaml list", "a.yml", "steps:\n  - name: a\n    run: b\n  - name: c\n", `name: a`, "3-3"},
		{"yaml nested", "a.yml", "steps:\n  - name: a\n    with:\n      x: 1\n    run: b\n", `with:`, "4-4"},
		{"shell if", "a.sh", "if [ -n \"$x\" ]; then\n  echo a\nfi\necho b\n", `^if`, "2-2"},
		{"shell case", "a.sh", "case $1 in\n  a) echo a ;;\n  *) echo b ;;\nesac\n", `^case`, "2-3"},
		{"shell while do on next line", "a.sh", "while read x\ndo\n  echo $x\ndone\n", `^while`, "3-3"},
		{"shell function", "a.sh", "f() {\n  if true; then\n    echo\n  fi\n}\n", `^f\(\)`, "2-4"},
		{"shell braces in expansion", "a.sh", "f() {\n  echo ${x}\n}\n", `^f\(\)`, "2-2"},
		{"shell no block", "a.sh", "echo a\necho b\necho c\nif x; then\n  y\nfi\n", `^echo a`, "none"},
		{"markdown section", "a.md", "# A\ntext\n## B\nmore\n```\n# not a heading\n```\n## C\nc\n# D\n", `^## B`, "4-7"},
		{"markdown no heading", "a.md", "# A\ntext\n", `^text`, "none"},
		{"unknown", "a.toml", "[a]\nx = 1\n", `\[a\]`, "none"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := open(tc.file, tc.src, tc.pat); got != tc.want {
				t.Errorf("block of %q in %s: got %s, want %s", tc.pat, tc.file, got, tc.want)
			}
		})
	}
}

// hostile builds inputs that nest as deep as they are long.
func hostile(n int) map[string]string {
	return map[string]string{
		"a.go": strings.Repeat("{\n", n) + strings.Repeat("}\n", n),
		"b.go": strings.Repeat("f(\n", n) + "{\n",
		"a.py": func() string {
			var b strings.Builder
			for i := 0; i < n; i++ {
				b.WriteString(strings.Repeat(" ", i%256) + "if x:\n")
			}
			return b.String()
		}(),
		"b.py": strings.Repeat("f(\n", n) + "x\n",
		"a.sh": strings.Repeat("if x; then\n", n) + strings.Repeat("done\n", n) + strings.Repeat("fi\n", n),
		"a.md": strings.Repeat("# h\n", n),
	}
}

// TestHostileNestingIsLinear: indexing a file and opening the block of
// every line of it costs about as much for 8x the lines as for the
// original lines 8 times: no nesting makes region matching superlinear
// (quadratic would be 8x; the bound, 3x, leaves room for the caches). CPU
// time of the thread, not wall time: on a shared machine the wall clock
// measures the neighbours; and the small input is read 8 times per
// sample, so neither side is below the clock's tick.
func TestHostileNestingIsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("times 160,000-line inputs")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if _, ok := threadCPU(); !ok {
		t.Skip("no thread CPU time here")
	}
	runtime.GC()
	cost := func(n, reps int) map[string]time.Duration {
		out := map[string]time.Duration{}
		for name, src := range hostile(n) {
			best := time.Duration(1 << 62)
			for k := 0; k < 3; k++ {
				start, _ := threadCPU()
				for range reps {
					var r codeline.Regions
					codeline.Scan(name, []byte(src), &r)
					x := New([]byte(src), &r)
					for l := 1; l <= x.Lines(); l++ {
						s, _ := x.LineBounds(l)
						x.Open(s)
					}
				}
				end, _ := threadCPU()
				best = min(best, end-start)
			}
			out[name] = best
		}
		return out
	}
	small, large := cost(20000, 8), cost(160000, 1)
	for name := range small {
		if r := float64(large[name]) / float64(max(small[name], 10*time.Millisecond)); r > 3 {
			t.Errorf("%s: 8x the lines cost %.1fx the CPU time of the lines read 8 times (%v -> %v): superlinear", name, r, small[name], large[name])
		}
	}
}

// FuzzBlocks: any file, any language: indexing never panics, every block
// lies within the file and opens after the line that opened it, and a
// braces file scanned lazily finds the blocks the built index finds.
func FuzzBlocks(f *testing.F) {
	f.Add("a.go", "func f() {\n\tswitch x {\n\tdefault:\n\t}\n}\n")
	f.Add("a.py", "def f(a,\n b):\n    return 1\n")
	f.Add("a.sh", "if x; then\n  case y in\n  a) ;;\n  esac\nfi\n")
	f.Add("a.md", "# a\n```\n# b\n```\n## c\n")
	f.Add("a.yml", "a:\n  - b: 1\n    c: 2\n")
	f.Add("a.rs", "fn a() { let c = '{'; r#\"}\"#; }\n")
	f.Fuzz(func(t *testing.T, name, src string) {
		if len(src) > 1<<16 {
			return
		}
		var r codeline.Regions
		codeline.Scan(name, []byte(src), &r)
		x := New([]byte(src), &r)
		full := New([]byte(src), &r)
		full.build()
		// Lexed only as far as its first line (codeline.ScanPrefix), the
		// rest lexed when a scan reaches it: the same blocks.
		keep := strings.IndexByte(src, '\n') + 1
		var rp codeline.Regions
		codeline.ScanPrefix(name, []byte(src), keep, &rp)
		more := 0
		px := NewPrefix([]byte(src), &rp, keep, func() { more++; codeline.Scan(name, []byte(src), &rp) })
		for l := 1; l <= x.Lines(); l++ {
			s, e := x.LineBounds(l)
			if s > e || e > len(src) {
				t.Fatalf("line %d bounds %d..%d in %d bytes", l, s, e, len(src))
			}
			b, ok := x.Open(s)
			if fb, fok := full.Open(s); fok != ok || ok && fb != b {
				t.Fatalf("line %d: scanned %+v %v, built %+v %v", l, b, ok, fb, fok)
			}
			if pb, pok := px.Open(s); pok != ok || ok && pb != b || more > 1 {
				t.Fatalf("line %d: lexed from a prefix %+v %v (%d relexes), whole %+v %v", l, pb, pok, more, b, ok)
			}
			if !ok {
				continue
			}
			if b.Open != l || b.First < l || b.Last > x.Lines() || b.Last < b.First-1 {
				t.Fatalf("line %d opens %+v in a file of %d lines", l, b, x.Lines())
			}
		}
	})
}

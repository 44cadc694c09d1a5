package codeline

import (
	"strings"
	"testing"
)

func TestMask(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src, want string
	}{
		{"a.go", "x := 1 // recoverID\n", "x := 1             \n"},
		{"a.go", "/* a\nb */ y\n", "    \n     y\n"},
		{"a.go", "s := \"// not a comment\"\n", "s := \"// not a comment\"\n"},
		{"a.go", "s := `/* raw */`\n", "s := `/* raw */`\n"},
		{"a.sh", "echo $# ${#x} # note\n", "echo $# ${#x}       \n"},
		{"a.sh", "echo '# quoted' \"# too\"\n", "echo '# quoted' \"# too\"\n"},
		{"run", "#!/bin/sh\nfoo # c\n", "         \nfoo    \n"},
		{"a.py", "x = 1  # c\n", "x = 1     \n"},
		{"a.sql", "select 1 -- c\n", "select 1     \n"},
		{"a.md", "text <!-- hidden --> shown\n", "text                 shown\n"},
		{"a.js", "let u = 'http://x' // c\n", "let u = 'http://x'     \n"},
		{"a.c", "a /* x */ b\n", "a         b\n"},
		{"a.yml", "run: checks/a.sh # checks/b.sh\n", "run: checks/a.sh " + strings.Repeat(" ", 13) + "\n"},
		{"data.txt", "# not a comment here\n", "# not a comment here\n"},
		{"a.go", "unterminated /* comment", "unterminated " + strings.Repeat(" ", 10)},
	} {
		got := string(Mask(tc.name, []byte(tc.src)))
		if got != tc.want {
			t.Errorf("Mask(%s, %q)\n got %q\nwant %q", tc.name, tc.src, got, tc.want)
		}
	}
}

func TestLanguage(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"a.go": "go", "x/Makefile": "hash", "b.TS": "ts", "c.sql": "sql", "d.md": "markdown", "e.bin": "none",
		"lib.rs": "rust", "a.py": "python", "a.sh": "shell", "ci.yml": "yaml", "Cargo.toml": "toml", "x.html": "html",
	} {
		if got := Language(name); got != want {
			t.Errorf("Language(%s) = %s, want %s", name, got, want)
		}
	}
}

// FuzzMask checks the invariants every claim relies on: the mask keeps the
// length and every newline, so positions stay valid, and only turns bytes
// into spaces.
func FuzzMask(f *testing.F) {
	for _, s := range []string{"a // b\n", "/* x */", "'#' # c", "<!-- a -->", "`a` // x", "\"\\\"#\" #"} {
		f.Add("a.go", s)
		f.Add("a.sh", s)
		f.Add("a.md", s)
		f.Add("a.sql", s)
	}
	f.Fuzz(func(t *testing.T, name, src string) {
		got := Mask(name, []byte(src))
		if len(got) != len(src) {
			t.Fatalf("length %d, want %d", len(got), len(src))
		}
		for i := range got {
			if got[i] != src[i] && got[i] != ' ' {
				t.Fatalf("byte %d changed to %q", i, got[i])
			}
			if (src[i] == '\n') != (got[i] == '\n') {
				t.Fatalf("newline changed at %d", i)
			}
		}
		if strings.Count(string(got), "\n") != strings.Count(src, "\n") {
			t.Fatal("line count changed")
		}
	})
}

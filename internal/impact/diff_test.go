package impact

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// seen is what a patchVisitor saw, one string per call.
func visitAll(t *testing.T, patch string) ([]string, error) {
	t.Helper()
	var got []string
	err := parsePatch(strings.NewReader(patch), patchVisitor{
		hunk: func(old, new string, h hunk) {
			got = append(got, fmt.Sprintf("hunk %q %q -%d,%d +%d,%d", old, new, h.OldStart, h.OldLines, h.NewStart, h.NewLines))
		},
		line: func(old, new string, deleted bool, n int, text []byte) {
			side := "+"
			if deleted {
				side = "-"
			}
			got = append(got, fmt.Sprintf("%s%d %q", side, n, text))
		},
	})
	return got, err
}

func TestParsePatch(t *testing.T) {
	for _, tc := range []struct {
		name, patch string
		want        []string
		err         string
	}{
		{
			name: "edit",
			patch: "diff --git a/src/wire.go b/src/wire.go\nindex 1..2 100644\n--- a/src/wire.go\n+++ b/src/wire.go\n" +
				"@@ -4 +4 @@ const x\n-const maxFrame = 16 << 20\n+const maxFrame = 16 << 20 // bytes\n",
			want: []string{`hunk "src/wire.go" "src/wire.go" -4,1 +4,1`, `-4 "const maxFrame = 16 << 20"`, `+4 "const maxFrame = 16 << 20 // bytes"`},
		},
		{
			name: "a removed line that reads like a file header is a line",
			patch: "diff --git a/a.md b/a.md\n--- a/a.md\n+++ b/a.md\n@@ -2,2 +1,0 @@\n--- a/evil.go\n-+++ b/evil.go\n" +
				"@@ -9,0 +8,2 @@\n+@@ -1 +1 @@\n++x\n",
			want: []string{`hunk "a.md" "a.md" -2,2 +1,0`, `-2 "-- a/evil.go"`, `-3 "+++ b/evil.go"`,
				`hunk "a.md" "a.md" -9,0 +8,2`, `+8 "@@ -1 +1 @@"`, `+9 "+x"`},
		},
		{
			name: "new and deleted files",
			patch: "diff --git a/n.go b/n.go\nnew file mode 100644\n--- /dev/null\n+++ b/n.go\n@@ -0,0 +1 @@\n+package n\n" +
				"diff --git a/d.go b/d.go\ndeleted file mode 100644\n--- a/d.go\n+++ /dev/null\n@@ -1 +0,0 @@\n-package d\n\\ No newline at end of file\n",
			want: []string{`hunk "" "n.go" -0,0 +1,1`, `+1 "package n"`, `hunk "d.go" "" -1,1 +0,0`, `-1 "package d"`},
		},
		{
			name:  "renamed with edits",
			patch: "diff --git a/old.go b/new.go\nsimilarity index 90%\nrename from old.go\nrename to new.go\n--- a/old.go\n+++ b/new.go\n@@ -3 +3 @@\n-a\n+b\n",
			want:  []string{`hunk "old.go" "new.go" -3,1 +3,1`, `-3 "a"`, `+3 "b"`},
		},
		{
			name:  "pure rename and binary have no hunks",
			patch: "diff --git a/x b/y\nsimilarity index 100%\nrename from x\nrename to y\ndiff --git a/p.png b/p.png\nBinary files a/p.png and b/p.png differ\n",
		},
		{
			name: "quoted paths: newline, tab, quote, UTF-8 as octal; a space ends with a tab",
			patch: "diff --git \"a/a\\nb\" \"b/a\\nb\"\n--- \"a/a\\nb\\t\\\"q\\303\\251\"\n+++ \"b/a\\nb\\t\\\"q\\303\\251\"\n@@ -1 +1 @@\n-x\n+y\n" +
				"diff --git a/s p b/s p\n--- a/s p\t\n+++ b/s p\t\n@@ -1 +1 @@\n-x\n+y\n",
			want: []string{`hunk "a\nb\t\"qé" "a\nb\t\"qé" -1,1 +1,1`, `-1 "x"`, `+1 "y"`, `hunk "s p" "s p" -1,1 +1,1`, `-1 "x"`, `+1 "y"`},
		},
		{
			name:  "context lines count on both sides",
			patch: "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n",
			want:  []string{`hunk "f" "f" -1,3 +1,3`, `-2 "b"`, `+2 "B"`},
		},
		{name: "a hunk before its file", patch: "@@ -1 +1 @@\n-a\n+b\n", err: "a hunk before the file it belongs to"},
		{name: "ends inside a hunk", patch: "--- a/f\n+++ b/f\n@@ -1,2 +1 @@\n-a\n", err: "ended inside a hunk"},
		{name: "a bad header", patch: "--- a/f\n+++ b/f\n@@ -x +1 @@\n", err: "hunk header claimslint cannot read"},
		{name: "a count too large", patch: "--- a/f\n+++ b/f\n@@ -1,4294967296 +1 @@\n", err: "hunk header claimslint cannot read"},
		{name: "more added lines than counted", patch: "--- a/f\n+++ b/f\n@@ -1,0 +1,0 @@\n", want: []string{`hunk "f" "f" -1,0 +1,0`}},
		{name: "a stray line in a hunk", patch: "--- a/f\n+++ b/f\n@@ -1 +1 @@\n*a\n", err: "inside a hunk"},
		{name: "a path without its prefix", patch: "--- x/f\n", err: "without its a/ prefix"},
		{name: "a bad quoted path", patch: "--- \"a/f\\q\"\n", err: "unknown escape"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := visitAll(t, tc.patch)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("visits (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseRaw(t *testing.T) {
	raw := ":100644 100644 aaa bbb M\x00src/a.go\x00" +
		":100644 000000 aaa 000 D\x00gone.go\x00" +
		":000000 100755 000 bbb A\x00new\nline.sh\x00" +
		":100644 100644 aaa bbb R087\x00old.go\x00new.go\x00" +
		":100644 120000 aaa bbb T\x00link\x00"
	got, err := parseRaw([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	want := []*fileDiff{
		{Status: 'M', Old: "src/a.go", New: "src/a.go", OldMode: "100644", NewMode: "100644"},
		{Status: 'D', Old: "gone.go", OldMode: "100644", NewMode: "000000"},
		{Status: 'A', New: "new\nline.sh", OldMode: "000000", NewMode: "100755"},
		{Status: 'R', Old: "old.go", New: "new.go", OldMode: "100644", NewMode: "100644"},
		{Status: 'T', Old: "link", New: "link", OldMode: "100644", NewMode: "120000"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parseRaw (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"M\x00x\x00", ":100644 100644 a b\x00x\x00", ":100644 100644 a b R100\x00only-one\x00"} {
		if _, err := parseRaw([]byte(bad)); err == nil {
			t.Errorf("parseRaw(%q) = nil error, want one", bad)
		}
	}
}

// quoteC quotes s as git's quote_c_style does (core.quotepath on).
func quoteC(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&b, "\\%03o", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func FuzzUnquoteC(f *testing.F) {
	for _, s := range []string{"a", "a\nb", "\"", "\\", "é", "\x00\xff", "a\tb c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := unquoteC(quoteC(s))
		if err != nil || got != s {
			t.Fatalf("unquoteC(quoteC(%q)) = %q, %v", s, got, err)
		}
		_, _ = unquoteC(s) // any input: an error or a string, never a panic
	})
}

// FuzzParsePatch: any bytes are read without a panic, and every line a
// visitor is handed lies inside the hunk that was announced before it.
func FuzzParsePatch(f *testing.F) {
	f.Add("--- a/f\n+++ b/f\n@@ -1,2 +1 @@\n-a\n-b\n+c\n")
	f.Add("diff --git a/x b/y\n--- \"a/x\\n\"\n+++ b/y\t\n@@ -0,0 +1,2 @@\n+a\n+b\n\\ No newline at end of file\n")
	f.Add("--- a/f\n+++ b/f\n@@ -3,3 +3,3 @@\n a\n-b\n+B\n c\n")
	f.Fuzz(func(t *testing.T, patch string) {
		var cur hunk
		_ = parsePatch(strings.NewReader(patch), patchVisitor{
			hunk: func(_, _ string, h hunk) { cur = h },
			line: func(_, _ string, deleted bool, n int, _ []byte) {
				if deleted && !cur.OldHas(n) || !deleted && !cur.NewHas(n) {
					t.Fatalf("line %d (deleted %v) outside its hunk %+v", n, deleted, cur)
				}
			},
		})
	})
}

func FuzzParseRaw(f *testing.F) {
	f.Add([]byte(":100644 100644 a b M\x00x\x00:100644 100644 a b R100\x00x\x00y\x00"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		files, err := parseRaw(raw)
		if err != nil {
			return
		}
		// Each file is a record and at least one path, each ended by NUL.
		if nul := bytes.Count(raw, []byte{0}); 2*len(files) > nul+1 {
			t.Fatalf("%d files from %d fields", len(files), nul)
		}
	})
}

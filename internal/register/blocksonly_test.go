package register

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	meta "github.com/yuin/goldmark-meta"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// sameParse fails t when parsing src as a decision file or a claims file
// with blocksOnly (what ParseDecision and ParseClaims use) differs in any
// field, finding or position from parsing it with the full configuration,
// markdown (D92).
func sameParse(t *testing.T, name string, src []byte) {
	t.Helper()
	full := parseDecision(markdown, "docs/decisions/D1-x.md", src)
	blocks := parseDecision(blocksOnly, "docs/decisions/D1-x.md", src)
	if diff := cmp.Diff(full, blocks, cmp.AllowUnexported(Claim{}, cellPositions{}, CellSpans{})); diff != "" {
		t.Fatalf("%s: ParseDecision without inline parsers differs (-full +blocks):\n%s", name, diff)
	}
	full = parseClaims(markdown, "docs/claims/D1.md", "D1", src)
	blocks = parseClaims(blocksOnly, "docs/claims/D1.md", "D1", src)
	if diff := cmp.Diff(full, blocks, cmp.AllowUnexported(Claim{}, cellPositions{}, CellSpans{})); diff != "" {
		t.Fatalf("%s: ParseClaims without inline parsers differs (-full +blocks):\n%s", name, diff)
	}
}

// TestBlocksOnlySame parses every Markdown file of the repository's own
// register and of the test data (decision files, claims files, adopted
// records, hostile inputs) both ways: the results must be identical.
func TestBlocksOnlySame(t *testing.T) {
	t.Parallel()
	var files []string
	for _, root := range []string{"../../docs", "../../internal", "../../cmd", "testdata"} {
		err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !e.IsDir() && (strings.HasSuffix(p, ".md") || strings.HasSuffix(p, ".txtar")) {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 100 {
		t.Fatalf("found %d Markdown files, want the register's and the test data's", len(files))
	}
	decisions := 0
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(p, "docs/decisions/D") {
			decisions++
		}
		sameParse(t, p, src)
		// A txtar holds decision files after its "-- name --" lines:
		// each file on its own, front matter first.
		for _, part := range strings.Split(string(src), "\n-- ")[1:] {
			if _, body, ok := strings.Cut(part, " --\n"); ok {
				sameParse(t, p+": "+part[:min(len(part), 60)], []byte(body))
			}
		}
	}
	if decisions < 50 {
		t.Fatalf("read %d of docs/decisions' files, want them all", decisions)
	}
	for _, tc := range hostile {
		sameParse(t, "hostile "+tc.name, []byte(strings.Repeat(tc.unit, 2000)+"\n\n"+smallRegister))
	}
}

// FuzzBlocksOnly: on any input, the decision and claims parses without
// inline parsers equal those with them.
func FuzzBlocksOnly(f *testing.F) {
	for _, s := range []string{
		"---\nid: D1\nstatus: accepted\n---\n# D1: `x` *y*\n\n## Confirmation\n\n| Claim | Kind | Path | Anchor | Require |\n|---|---|---|---|---|\n| C1 | present | `a\\|b` | `b` | |\n",
		"---\nid: D1\nstatus: accepted\n---\n## `Confirmation`\n| Claim | Kind | Path | Anchor | Require | Why |\n|---|---|---|---|---|---|\n| C1 | present | `a` | ``b|c`` | | [x](y) <!-- z --> |\n",
		"---\nid: D2\nstatus: proposed\n---\n# [T](x)\n\nThree things stay:\n\n- a\n- b\n\n## Confirmation\n\n[ref]: http://x\n| Claim | Kind |\n|---|---|\n| C1 |\n",
		"---\nid: [\n---\n",
		"# Setext\n===\n\n<div>\n| a |\n</div>\n\n> | Claim | Kind |\n> |---|---|\n",
		// quickDoc's shape and its edges.
		quickSample,
		"--- \nid: D3\nstatus: accepted\n -- \n## D3\n# T\n### Confirmation\n|Claim|Kind|Path|Anchor|Require|Within|\n|:-|-:|:-:|-|---|--|\n|C1|x|`p`|a\\|b| |\n|C2\n|\n||||||||\n## Next\n| a |\n|---|",
		"---\nid: D4\n---\n## Confirmation\n| Claim | Kind |\n| --- |\n| C1 | x |\n\n| Claim | Kind | Path | Anchor | Require |\n|---|---|---|---|---|\n#5\n",
		"---\nid: D5\nstatus: accepted\n---\n#  Two spaces\n# A #\n####### Seven\n## Confirmation\n|---|---|\n| a | b |\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		sameParse(t, "input", src)
	})
}

// TestEstimateCounts: estimate counts a file's lines and, of all 256 byte
// values, exactly the inline openers and the cell separator.
func TestEstimateCounts(t *testing.T) {
	t.Parallel()
	for b := range 256 {
		want := int64(1)
		switch b {
		case '\n':
			want = 2
		case '*', '_', '[', '(', '<', '`', '~', '!', '|':
			want = 2
		}
		if got := estimate([]byte{byte(b)}); got != want {
			t.Errorf("estimate(%q) = %d, want %d", byte(b), got, want)
		}
	}
	if got := estimate([]byte("| a | `b` |\n**c** [d](e)\n")); got != 3+5+6 {
		t.Errorf("estimate of a row and a line = %d, want 14", got)
	}
}

// quickSample is a decision file in the shape bench -prepare writes.
const quickSample = "---\nid: D2\nstatus: accepted\n---\n# D2: Decision 2\n\n## Confirmation\n\n" +
	"| Claim | Kind | Path | Anchor | Require |\n|---|---|---|---|---|\n" +
	"| C1 | anchored | `src/a.go` | `^func F\\(x \\*T\\) \\{$` | |\n| C2 | present | `src/b.go` | `x \\| y` | `z` |\n"

// TestQuickDocTaken: quickDoc reads the files of its shape (else the parse
// time it saves is silently gone) and declines the others, goldmark
// parsing those; that its tree is goldmark's is TestBlocksOnlySame's and
// FuzzBlocksOnly's to hold.
func TestQuickDocTaken(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src string
		quick     bool
	}{
		{"claims only", quickSample, true},
		{"no body", "---\nid: D1\nstatus: accepted\n---\n", true},
		{"no trailing newline", "---\nid: D1\n---\n# T\n| a |\n|---|", true},
		{"a paragraph", "---\nid: D1\n---\n# T\n\nWhy we chose it.\n", false},
		{"a list", "---\nid: D1\n---\n- a\n", false},
		{"CRLF", "---\r\nid: D1\r\n---\r\n# T\r\n", false},
		{"a tab", "---\nid: D1\n---\n# T\n|\ta|\n|---|\n", false},
		{"open front matter", "---\nid: D1\n# T\n", false},
		{"bad YAML (quickParse reads it, parseDecisionDoc does not)", "---\nid: [\n---\n# T\n", true},
		{"heading with #", "---\nid: D1\n---\n# T #\n", false},
		{"one-line table", "---\nid: D1\n---\n| a |\n", false},
		{"header wider than delimiter", "---\nid: D1\n---\n| a | b |\n|---|\n", false},
		{"setext underline", "---\nid: D1\n---\n| a |\n---\n", false},
	} {
		_, _, _, release := quickParse([]byte(tc.src), parser.NewContext())
		got := release != nil
		if got {
			release()
		}
		if got != tc.quick {
			t.Errorf("%s: quickDoc read it = %v, want %v", tc.name, got, tc.quick)
		}
		sameParse(t, tc.name, []byte(tc.src))
	}
}

// FuzzQuickDoc is FuzzBlocksOnly aimed at quickDoc's shape: the input is
// the body after a valid front matter, control characters made spaces and
// each line that starts with neither # nor | given a leading |, so that
// most inputs are read by quickDoc and compared with goldmark's parse.
func FuzzQuickDoc(f *testing.F) {
	_, body, _ := strings.Cut(quickSample, "---\n# ")
	f.Add([]byte("# " + body))
	f.Add([]byte("## Confirmation\n|Claim|Kind|Path|Anchor|Require|Within|\n|:-|-:|:-:|-|---|--|\n|C1|x|`p`|a\\|b| |\n|C2\n|\n||||||||\n# T\n| a |\n|---|"))
	f.Add([]byte("### Confirmation\n| Claim | Kind | Path | Anchor | Require |\n| --- | --- | --- | --- | --- |\n| C1 | x |  |   |\n|  C1  | y | ` a ` | \\| | | | extra |\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		src := []byte("---\nid: D1\nstatus: accepted\n---\n")
		for i, c := range body {
			if c < 0x20 && c != '\n' {
				c = ' '
			}
			if (i == 0 || body[i-1] == '\n') && c != '\n' && c != '#' && c != '|' {
				src = append(src, '|')
			}
			src = append(src, c)
		}
		sameParse(t, "input", src)
	})
}

// frontMatterByMeta is goldmark-meta's reading of the front matter that
// opens src: the map quickFrontMatter must equal when it reads src.
func frontMatterByMeta(src []byte) (map[string]any, error) {
	ctx := parser.NewContext()
	markdown.Parser().Parse(text.NewReader(src), parser.WithContext(ctx))
	return meta.TryGet(ctx)
}

// TestQuickFrontMatter pins which front matters are read without YAML:
// plain `key: value` lines alone; a word YAML 1.1 reads as a boolean or
// null, a quote, a colon, a comment, a list, a key twice or an indented
// line is left to goldmark-meta. What it reads must be what goldmark-meta
// reads (a test that fails when a boolean word is taken as a string).
func TestQuickFrontMatter(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src string
		quick     bool
	}{
		{"id and status", "---\nid: D1\nstatus: accepted\n---\n", true},
		{"words with spaces and dots", "---\ntitle: Use SQLite v3.45 for the index\nstatus: superseded-by-D2\n---\n", true},
		{"empty", "---\n---\n", true},
		{"closing line of more dashes", "---\nid: D1\n-----\n", true},
		{"no newline after closing", "---\nid: D1\n---", true},
		{"a boolean word", "---\nid: D1\naccepted: yes\n---\n", false},
		{"a boolean key", "---\non: D1\n---\n", false},
		{"null", "---\nid: D1\nstatus: Null\n---\n", false},
		{"a number", "---\nid: 12\n---\n", false},
		{"a date", "---\ndate: 2026-12-02\n---\n", false},
		{"quoted", "---\nid: \"D1\"\n---\n", false},
		{"a colon in the value", "---\ntitle: a: b\n---\n", false},
		{"a comment", "---\nid: D1 # the first\n---\n", false},
		{"a list", "---\ntracker: [dk-1]\n---\n", false},
		{"a key twice", "---\nid: D1\nid: D2\n---\n", false},
		{"indented", "---\nid: D1\n  status: accepted\n---\n", false},
		{"an empty value", "---\nid:\n---\n", false},
		{"two spaces", "---\ntitle: a  b\n---\n", false},
		{"a trailing space", "---\nid: D1 \n---\n", false},
		{"a blank line", "---\nid: D1\n\nstatus: accepted\n---\n", false},
		{"non-ASCII", "---\ntitle: Café\n---\n", false},
	} {
		src := []byte(tc.src)
		got := quickFrontMatter(src[:frontMatterEnd(src)])
		if (got != nil) != tc.quick {
			t.Errorf("%s: read without YAML = %v, want %v", tc.name, got != nil, tc.quick)
			continue
		}
		if got == nil {
			continue
		}
		want, err := frontMatterByMeta(src)
		if err != nil {
			t.Errorf("%s: goldmark-meta: %v", tc.name, err)
		} else if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: front matter differs from goldmark-meta's (-meta +quick):\n%s", tc.name, diff)
		}
	}
}

// FuzzQuickFrontMatter holds quickFrontMatter to goldmark-meta: whatever
// lines it reads, the map is the one YAML gives.
func FuzzQuickFrontMatter(f *testing.F) {
	f.Add([]byte("id: D1\nstatus: accepted"))
	f.Add([]byte("title: Use v1.2 of it\nOn: x\nkey: no"))
	f.Add([]byte("a: b\na: c\nY: y"))
	f.Fuzz(func(t *testing.T, lines []byte) {
		src := append(append([]byte("---\n"), lines...), "\n---\n# T\n"...)
		end := frontMatterEnd(src)
		if end < 0 {
			return
		}
		got := quickFrontMatter(src[:end])
		if got == nil {
			return
		}
		want, err := frontMatterByMeta(src)
		if err != nil {
			t.Fatalf("read without YAML, but goldmark-meta says: %v\n%q", err, src)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("front matter differs from goldmark-meta's (-meta +quick):\n%s\n%q", diff, src)
		}
	})
}

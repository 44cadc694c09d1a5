package register

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sameParse fails t when parsing src as a decision file or a claims file
// with blocksOnly (what ParseDecision and ParseClaims use) differs in any
// field, finding or position from parsing it with the full configuration,
// markdown (D92).
func sameParse(t *testing.T, name string, src []byte) {
	t.Helper()
	full := parseDecision(markdown, "docs/decisions/D1-x.md", src)
	blocks := parseDecision(blocksOnly, "docs/decisions/D1-x.md", src)
	if diff := cmp.Diff(full, blocks, cmp.AllowUnexported(Claim{}, cellPositions{})); diff != "" {
		t.Fatalf("%s: ParseDecision without inline parsers differs (-full +blocks):\n%s", name, diff)
	}
	full = parseClaims(markdown, "docs/claims/D1.md", "D1", src)
	blocks = parseClaims(blocksOnly, "docs/claims/D1.md", "D1", src)
	if diff := cmp.Diff(full, blocks, cmp.AllowUnexported(Claim{}, cellPositions{})); diff != "" {
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

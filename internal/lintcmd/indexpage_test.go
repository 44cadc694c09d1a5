package lintcmd

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestIndexPageByContent runs the folder-index rule (register.IndexPage,
// D97) end to end on a real collection of one folder per record:
// OpenUSD's unpublished proposals (SOURCES). multiple-animations/README.md
// states no status and links two Markdown files of its own folder, its
// parts: it is a proposal, not an index, and its parts are no records.
func TestIndexPageByContent(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "author", "testdata", "collections", "PixarAnimationStudios__OpenUSD-proposals"))); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "c"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	var out, errb bytes.Buffer
	if code := Main([]string{"claimslint", "init", "--dir", dir, "--adopt", "proposals/_notPublished", "--dry-run", "--date", "2026-12-01"}, &out, &errb); code != 0 {
		t.Fatalf("init --adopt --dry-run: exit %d\n%s%s", code, out.String(), errb.String())
	}
	got := out.String() + errb.String()
	for _, want := range []string{
		"found 5 records in proposals/_notPublished ",
		"adopted proposals/_notPublished/draft/multiple-animations/README.md is D4, proposed (draft)\n",
		"skipped proposals/_notPublished/draft/multiple-animations/general.md: no record name",
		"skipped proposals/_notPublished/draft/multiple-animations/usdskel.md: no record name",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("init --adopt says no %q\n%s", want, got)
		}
	}
	if strings.Contains(got, "the folder's index") {
		t.Errorf("a record's README read as its folder's index\n%s", got)
	}
}

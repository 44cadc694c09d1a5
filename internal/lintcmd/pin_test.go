package lintcmd

import (
	"strings"
	"testing"
)

// TestPinWords: init says plainly that it cannot know a commit it read
// from the binary is published at the source, says when no commit is
// known, and when the tree it was read from had changes (D85). Test
// binaries report no commit, so the words are tested here.
func TestPinWords(t *testing.T) {
	t.Parallel()
	const url, commit = "https://github.com/me/fork", "0123456789abcdef0123456789abcdef01234567"
	for _, c := range []struct {
		name     string
		commit   string
		modified bool
		want     []string // a part of each note, in order
	}{
		{"no commit", "", false, []string{"builds claimslint at main, which is not pinned"}},
		{"a clean commit", commit, false, []string{"fetches commit " + commit + " from " + url + "; init cannot know that it is published there (it was read from the build)"}},
		{"a modified tree", commit, true, []string{"had uncommitted changes", "init cannot know that it is published there"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := pinWords(url, c.commit, c.modified, "the build")
			if len(got) != len(c.want) {
				t.Fatalf("%d notes, want %d: %q", len(got), len(c.want), got)
			}
			for i, w := range c.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("note %d %q does not say %q", i+1, got[i], w)
				}
			}
		})
	}
}

package config

import (
	"strings"
	"testing"
)

// inGitDirSplit is InGitDir as it was written first: split, then compare.
func inGitDirSplit(p string) bool {
	for _, seg := range strings.Split(strings.ReplaceAll(p, `\`, "/"), "/") {
		if strings.EqualFold(seg, ".git") {
			return true
		}
	}
	return false
}

// FuzzInGitDir holds InGitDir, which reads the segments without splitting
// the path, to the split.
func FuzzInGitDir(f *testing.F) {
	for _, s := range []string{"", ".git", "a/.git/config", `a\.GIT\x`, "a/.gitignore", ".git/", "/.Git", "a//b", "src/x.go", ".git\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if got, want := InGitDir(p), inGitDirSplit(p); got != want {
			t.Fatalf("InGitDir(%q) = %v, the split says %v", p, got, want)
		}
	})
}

package repo

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/gitindex"
)

// lsFiles is `git ls-files -z -s` in dir, as index entries.
func lsFiles(t *testing.T, dir string) []gitindex.Entry {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z", "-s")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files -s: %v", err)
	}
	var es []gitindex.Entry
	for rec := range strings.SplitSeq(string(out), "\x00") {
		if rec == "" {
			continue
		}
		meta, path, _ := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		mode, _ := strconv.ParseUint(f[0], 8, 32)
		stage, _ := strconv.Atoi(f[2])
		es = append(es, gitindex.Entry{Path: path, Mode: uint32(mode), Stage: uint8(stage)})
	}
	return es
}

// TestReadIndexIsLsFiles: in every state of the index git writes that
// gitindex reads (versions 2, 3 and 4, conflicts, intent-to-add,
// skip-worktree, gitlinks, links, a name over 4,095 bytes, optional
// extensions, a linked work tree), readIndex returns exactly the entries
// `git ls-files -s` prints, in its order; in the forms it does not read
// (a split or sparse index, SHA-256, core.worktree, a repository with no
// index) it declines, and OpenListing's universe is git's all the same
// (D9).
func TestReadIndexIsLsFiles(t *testing.T) {
	t.Parallel()
	base := func(t *testing.T, dir string) {
		gitIn(t, dir, "init", "-q")
		files := map[string]string{"a.go": "package a\n", "docs/D1-x.md": "# D1\n", "b/c/d.go": "package d\n", "sp ace/é.go": "package e\n", "run.sh": "#!/bin/sh\n"}
		for i := range 40 {
			files["pkg/sub/deep/file"+strconv.Itoa(i)+".go"] = "package deep\n"
		}
		writeFiles(t, dir, files)
		if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("a.go", filepath.Join(dir, "link")); err != nil {
			t.Fatal(err)
		}
		gitIn(t, dir, "add", "-A")
		gitIn(t, dir, "commit", "-qm", "one")
	}
	for _, tc := range []struct {
		name     string
		setup    func(t *testing.T, dir string) string // returns the directory to open
		declined bool
		version  byte // the index version the case must have made, 0 for any
	}{
		{"version 2", func(t *testing.T, dir string) string { base(t, dir); return dir }, false, 2},
		{"conflict stages", func(t *testing.T, dir string) string {
			base(t, dir)
			gitIn(t, dir, "checkout", "-qb", "other")
			writeFiles(t, dir, map[string]string{"a.go": "package other\n"})
			gitIn(t, dir, "commit", "-qam", "other")
			gitIn(t, dir, "checkout", "-q", "main")
			writeFiles(t, dir, map[string]string{"a.go": "package mine\n"})
			gitIn(t, dir, "commit", "-qam", "mine")
			cmd := exec.Command("git", "merge", "-q", "other")
			cmd.Dir = dir
			cmd.Run() // conflicts, as meant
			return dir
		}, false, 0},
		{"intent to add (version 3)", func(t *testing.T, dir string) string {
			base(t, dir)
			writeFiles(t, dir, map[string]string{"new.go": "package n\n"})
			gitIn(t, dir, "add", "-N", "new.go")
			return dir
		}, false, 3},
		{"skip-worktree (version 3)", func(t *testing.T, dir string) string {
			base(t, dir)
			gitIn(t, dir, "update-index", "--skip-worktree", "b/c/d.go")
			return dir
		}, false, 3},
		{"version 4", func(t *testing.T, dir string) string {
			base(t, dir)
			gitIn(t, dir, "update-index", "--index-version", "4")
			gitIn(t, dir, "add", "-N", "a.go")
			return dir
		}, false, 4},
		{"gitlink and a name over 4,095 bytes", func(t *testing.T, dir string) string {
			base(t, dir)
			head := gitIn(t, dir, "rev-parse", "HEAD")
			gitIn(t, dir, "update-index", "--add", "--cacheinfo", "160000,"+head+",vendor/sub")
			blob := gitIn(t, dir, "hash-object", "-w", "a.go")
			long := strings.Repeat("d/", 2100) + "long.go"
			gitIn(t, dir, "update-index", "--add", "--cacheinfo", "100644,"+blob+","+long)
			return dir
		}, false, 0},
		{"optional extensions", func(t *testing.T, dir string) string {
			base(t, dir)
			gitIn(t, dir, "update-index", "--untracked-cache")
			gitIn(t, dir, "status", "--porcelain")
			writeFiles(t, dir, map[string]string{"z.go": "package z\n"})
			gitIn(t, dir, "-c", "index.recordEndOfIndexEntries=true", "-c", "index.recordOffsetTable=true", "-c", "index.threads=2", "add", "z.go")
			return dir
		}, false, 0},
		{"linked work tree", func(t *testing.T, dir string) string {
			base(t, dir)
			wt := filepath.Join(dir, "wt")
			gitIn(t, dir, "worktree", "add", "-q", wt)
			return wt
		}, false, 0},
		{"split index", func(t *testing.T, dir string) string {
			base(t, dir)
			gitIn(t, dir, "update-index", "--split-index")
			return dir
		}, true, 0},
		{"sparse index", func(t *testing.T, dir string) string {
			base(t, dir)
			gitIn(t, dir, "sparse-checkout", "init", "--cone", "--sparse-index")
			gitIn(t, dir, "sparse-checkout", "set", "b")
			return dir
		}, true, 0},
		{"SHA-256", func(t *testing.T, dir string) string {
			gitIn(t, dir, "init", "-q", "--object-format=sha256")
			writeFiles(t, dir, map[string]string{"a.go": "package a\n"})
			gitIn(t, dir, "add", "a.go")
			return dir
		}, true, 0},
		{"core.worktree", func(t *testing.T, dir string) string {
			base(t, dir)
			gitIn(t, dir, "config", "core.worktree", dir)
			return dir
		}, true, 0},
		{"no index yet", func(t *testing.T, dir string) string {
			gitIn(t, dir, "init", "-q")
			return dir
		}, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := tc.setup(t, t.TempDir())
			want := lsFiles(t, dir)
			if tc.version != 0 {
				gd, _ := findGitDir(dir)
				if b, err := os.ReadFile(filepath.Join(gd, "index")); err != nil || len(b) < 8 || b[7] != tc.version {
					t.Fatalf("the setup did not write a version %d index (%v)", tc.version, err)
				}
			}
			if strings.HasPrefix(tc.name, "conflict") && !slices.ContainsFunc(want, func(e gitindex.Entry) bool { return e.Stage == 3 }) {
				t.Fatal("the setup made no conflict")
			}
			got, ok := readIndex(dir)
			if ok == tc.declined {
				t.Fatalf("readIndex read it: %v, want %v", ok, !tc.declined)
			}
			if ok && !slices.Equal(got, want) {
				t.Fatalf("readIndex:\n%v\ngit ls-files -s:\n%v", got, want)
			}
			r, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			var paths []string
			for _, e := range want {
				if len(paths) == 0 || paths[len(paths)-1] != e.Path {
					paths = append(paths, e.Path)
				}
			}
			slices.Sort(paths)
			if !slices.Equal(r.Files, paths) {
				t.Errorf("universe %q, want git's %q", r.Files, paths)
			}
			for _, e := range want {
				if got := r.IndexMode(e.Path); got != modeText(want[lastStage(want, e.Path)].Mode) {
					t.Errorf("IndexMode(%q) = %q", e.Path, got)
				}
			}
		})
	}
}

// lastStage is the index in es of path's last entry.
func lastStage(es []gitindex.Entry, path string) int {
	k := -1
	for i, e := range es {
		if e.Path == path {
			k = i
		}
	}
	return k
}

// TestReadIndexDeclinesOverrides: a variable that points git elsewhere
// makes readIndex decline (not parallel: it sets the environment).
func TestReadIndexDeclinesOverrides(t *testing.T) {
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q")
	writeFiles(t, dir, map[string]string{"a.go": "package a\n"})
	gitIn(t, dir, "add", "a.go")
	if _, ok := readIndex(dir); !ok {
		t.Fatal("readIndex declined a plain repository")
	}
	for _, v := range gitEnv {
		t.Run(v, func(t *testing.T) {
			t.Setenv(v, "")
			if _, ok := readIndex(dir); ok {
				t.Errorf("readIndex read the index with %s set", v)
			}
		})
	}
	if _, ok := readIndex(filepath.Join(dir, "sub")); ok {
		t.Error("readIndex read from a directory that is not the top of the work tree")
	}
}

// TestReadIndexOnTrees holds readIndex to `git ls-files -s` on the work
// trees CLAIMSLINT_INDEX_TREES names (colon-separated): real
// repositories nobody here wrote, e.g. clones with feature.manyFiles
// (index version 4 and the untracked cache) or a sparse checkout. A tree
// whose index readIndex declines is reported, not failed: git is then
// asked, which is right by construction.
func TestReadIndexOnTrees(t *testing.T) {
	trees := os.Getenv("CLAIMSLINT_INDEX_TREES")
	if trees == "" {
		t.Skip("CLAIMSLINT_INDEX_TREES names no work tree")
	}
	for _, dir := range filepath.SplitList(trees) {
		if dir == "" {
			continue
		}
		want := lsFiles(t, dir)
		got, ok := readIndex(dir)
		if !ok {
			t.Logf("%s: declined (git is asked); %d entries by git", dir, len(want))
			continue
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: readIndex's %d entries differ from git ls-files -s's %d", dir, len(got), len(want))
			continue
		}
		t.Logf("%s: %d entries, as git ls-files -s", dir, len(got))
	}
}

// TestAllTrackedFollowsNoLink: a directory prefix that is, or passes
// through, a symbolic link is not listed by allTracked (nothing outside
// the repository is listed, D9): git is asked, and lists the link as the
// untracked file it is.
func TestAllTrackedFollowsNoLink(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{"secret.md": "x\n"})
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q")
	writeFiles(t, dir, map[string]string{"docs/a.md": "a\n"})
	gitIn(t, dir, "add", "-A")
	if err := os.Symlink(outside, filepath.Join(dir, "linked")); err != nil {
		t.Fatal(err)
	}
	r, err := OpenListing(dir, []string{"docs/", "linked/"})
	if err != nil {
		t.Fatal(err)
	}
	if !r.listed["docs/"] || r.gitRuns.Load() != 1 {
		t.Errorf("listed %v after %d git runs, want docs/ without git and linked/ by git", r.listed, r.gitRuns.Load())
	}
	budget := maxTrackedWalk
	if r.allTracked("linked/", &budget) || budget != maxTrackedWalk {
		t.Errorf("allTracked listed a linked directory (budget %d left)", budget)
	}
	if slices.Contains(r.Files, "linked/secret.md") {
		t.Errorf("a file outside the repository joined the universe: %q", r.Files)
	}
}

package repo

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/claimslint/claimslint/internal/gitindex"
)

// maxIndex is the largest index file read without git: about two million
// entries. A larger one is listed by git.
const maxIndex = 256 << 20

// gitEnv are the variables that make git read another index, work tree
// or configuration than the ones beneath the directory: with any set,
// git is asked.
var gitEnv = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT"}

// readIndex reads the index of the work tree whose top is dir, without
// running git (D9): what `git ls-files -s` would print, read from
// .git/index by package gitindex. It reports false, and git is asked,
// whenever git might see something else: dir is not the top of a work
// tree (no .git in it), an environment variable or the repository's
// configuration names another work tree, hash or included file, the
// repository or the directory belongs to another user (git's
// safe.directory check), or the index is absent, too large or in a form
// gitindex does not read (a split or sparse index). A wrong guess here
// would change the universe, so every doubt costs a git run instead.
func readIndex(dir string) ([]gitindex.Entry, bool) {
	for _, v := range gitEnv {
		if _, set := os.LookupEnv(v); set {
			return nil, false
		}
	}
	gitDir, ok := findGitDir(dir)
	if !ok || !ownedByUs(dir) || !ownedByUs(gitDir) {
		return nil, false
	}
	configs := []string{filepath.Join(gitDir, "config")}
	if common, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(common))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		configs = append(configs, filepath.Join(c, "config"))
	} else if !os.IsNotExist(err) {
		return nil, false
	}
	for _, c := range configs {
		if !plainConfig(c) {
			return nil, false
		}
	}
	st, err := os.Lstat(filepath.Join(gitDir, "index"))
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxIndex {
		return nil, false
	}
	data, err := os.ReadFile(filepath.Join(gitDir, "index"))
	if err != nil {
		return nil, false
	}
	entries, err := gitindex.Parse(data)
	if err != nil {
		return nil, false
	}
	return entries, true
}

// findGitDir returns the git directory of the work tree whose top is dir:
// dir/.git, or the directory a .git file names ("gitdir: ..."), as a
// linked work tree or a submodule has.
func findGitDir(dir string) (string, bool) {
	dotGit := filepath.Join(dir, ".git")
	st, err := os.Lstat(dotGit)
	switch {
	case err != nil:
		return "", false
	case st.IsDir():
		return dotGit, true
	case !st.Mode().IsRegular() || st.Size() > 4096:
		return "", false
	}
	b, err := os.ReadFile(dotGit)
	if err != nil {
		return "", false
	}
	line, _, _ := strings.Cut(string(b), "\n")
	target, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), "gitdir: ")
	if !ok || target == "" {
		return "", false
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(dir, target)
	}
	if st, err := os.Stat(target); err != nil || !st.IsDir() {
		return "", false
	}
	return target, true
}

// plainConfig reports whether the configuration file at path (absent is
// plain) says nothing that changes what the index is or where the work
// tree is: no core.worktree, no extensions.worktreeConfig or objectFormat
// (an index of SHA-256 names), no include. It reads the words, not the
// syntax: a comment that names one of them costs a git run, never a
// wrong universe.
func plainConfig(path string) bool {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return true
	}
	if err != nil || len(b) > 1<<20 {
		return false
	}
	low := strings.ToLower(string(b))
	for _, w := range []string{"worktree", "objectformat", "include"} {
		if strings.Contains(low, w) {
			return false
		}
	}
	return true
}

// indexEntries makes the index's entries the tracked files and their
// modes, as listIndex does with git's output.
func (r *Repo) indexEntries(entries []gitindex.Entry) {
	setIndex(r, entries, func(e gitindex.Entry) string { return e.Path }, func(e gitindex.Entry) string { return modeText(e.Mode) })
}

// modeText is a mode as ls-files -s prints it: six octal digits.
func modeText(m uint32) string {
	switch m {
	case 0o100644:
		return "100644"
	case 0o100755:
		return "100755"
	case 0o120000:
		return "120000"
	case 0o160000:
		return "160000"
	}
	s := strconv.FormatUint(uint64(m), 8)
	if len(s) < 6 {
		s = strings.Repeat("0", 6-len(s)) + s
	}
	return s
}

// allTracked reports whether every file beneath the directory prefix dir
// (ending in '/') is in the index, walking at most *budget entries
// without following links: then git has no untracked file to list there
// and is not asked. Anything else (an untracked or ignored file, a
// nested repository, an entry it cannot read, a walk over budget) is
// false, and git lists the directory.
func (r *Repo) allTracked(dir string, budget *int) bool {
	if !r.plainDir(dir) {
		return false // a link on the way: git decides, and nothing outside is listed here (D9)
	}
	return r.tracksAll(dir, budget)
}

// tracksAll is allTracked beneath a directory known to be reached through
// no link: its sub-directories are too (ReadDir says a link is not one),
// so their paths are not checked again.
func (r *Repo) tracksAll(dir string, budget *int) bool {
	ents, err := os.ReadDir(r.Abs(dir))
	if err != nil {
		return false
	}
	for _, e := range ents {
		if *budget--; *budget < 0 {
			return false
		}
		rel := dir + e.Name()
		if e.Type()&fs.ModeDir != 0 {
			if e.Name() == ".git" || !r.tracksAll(rel+"/", budget) {
				return false
			}
			continue
		}
		if r.IndexMode(rel) == "" {
			return false
		}
	}
	return true
}

// maxTrackedWalk is how many directory entries allTracked reads under one
// prefix before it leaves the question to git.
const maxTrackedWalk = 4096

// plainDir reports whether every component of the directory prefix dir
// (ending in '/') is a directory, not a symbolic link: only then does
// allTracked list it.
func (r *Repo) plainDir(dir string) bool {
	parts := strings.Split(strings.TrimSuffix(dir, "/"), "/")
	for k := range parts {
		st, err := os.Lstat(r.Abs(strings.Join(parts[:k+1], "/")))
		if err != nil || !st.IsDir() {
			return false
		}
	}
	return true
}

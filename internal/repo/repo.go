// Package repo lists the file universe claimslint checks and reads the git
// index modes that exec claims and the script rule inspect.
//
// Inside a git work tree the universe is `git ls-files -co --exclude-standard`
// (tracked plus untracked-but-not-ignored files), so build output and vendored
// junk that .gitignore hides never produce findings. Outside git it is a plain
// walk of the tree that does not follow symbolic links.
package repo

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// Repo is a snapshot of the files under a root directory.
type Repo struct {
	// Root is the absolute directory the universe is relative to.
	Root string
	// Git reports whether Root is inside a git work tree; only then is
	// IndexMode meaningful.
	Git bool
	// Files is the sorted universe, repository-relative with '/'.
	Files []string
	// tracked are the index's paths, sorted, and modes their modes (the
	// same index): one string of git's output holds them all (D92).
	tracked, modes []string
	// listed are the prefixes whose untracked files are in Files.
	listed  map[string]bool
	present sync.Map     // rel -> bool
	gitRuns atomic.Int64 // git commands run

	rootOnce sync.Once
	root     int // descriptor of Root (Linux reads)
	rootErr  error
}

// Open lists the universe of dir. It fails when dir does not exist or git
// cannot list a work tree it reports as one.
//
// Inside git it runs `git ls-files -s` once: the tracked files and their
// index modes. Untracked files (not ignored) join the universe through
// ListUntracked, for the directories a caller names, so a tree whose
// claims name a few directories is not walked whole (D56).
func Open(dir string) (*Repo, error) { return OpenListing(dir, nil) }

// OpenListing is Open followed by ListUntracked(untracked), with the two
// git runs at once when the prefixes are directories: a check lists the
// untracked files of its decisions directory while git lists the index,
// not after it (D92).
func OpenListing(dir string, untracked []string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("resolve %s: %w", dir, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("open repository: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("open repository: %s is not a directory", dir)
	}
	r := &Repo{Root: abs, listed: map[string]bool{}}
	// The index read without git (D9): then only untracked files may
	// need a git run, and most often none does (untrackedSpecs).
	if entries, ok := readIndex(abs); ok {
		r.Git = true
		r.indexEntries(entries)
		if err := r.ListUntracked(untracked); err != nil {
			return nil, err
		}
		return r, nil
	}
	// The untracked files of directory prefixes are listed beside the
	// index: which to list does not depend on it (untrackedSpecs).
	var early <-chan listing
	if !slices.ContainsFunc(untracked, isFilePrefix) {
		if specs := r.untrackedSpecs(untracked); len(specs) > 0 {
			ch := make(chan listing, 1)
			go func() {
				out, err := r.listUntracked(specs)
				ch <- listing{out, err}
			}()
			early = ch
		}
	}
	if out, err := r.git("ls-files", "-z", "-s"); err == nil {
		r.Git = true
		r.listIndex(out)
	} else if isGitWorkTree(abs) {
		return nil, err // a work tree git cannot list
	} else if err := r.walk(); err != nil {
		return nil, err
	}
	sort.Strings(r.Files)
	if early != nil {
		l := <-early
		if !r.Git {
			return r, nil // the walk listed every file
		}
		if l.err != nil {
			return nil, l.err
		}
		r.addUntracked(untracked, l.out)
		return r, nil
	}
	if err := r.ListUntracked(untracked); err != nil {
		return nil, err
	}
	return r, nil
}

// listing is the output of a git run, or its error.
type listing struct {
	out string
	err error
}

// isFilePrefix reports whether a ListUntracked prefix names a file (not
// "" for the tree, nor a directory ending in '/').
func isFilePrefix(p string) bool { return p != "" && !strings.HasSuffix(p, "/") }

// isGitWorkTree reports whether dir is inside a git work tree. git lists
// paths relative to the directory it runs in, so a sub-directory of a
// repository is checked with the paths claims name relative to it.
func isGitWorkTree(dir string) bool {
	cmd := exec.Command("git", "rev-parse", "--is-inside-work-tree")
	cmd.Dir = dir
	out, err := cmd.Output()
	return err == nil && strings.TrimSpace(string(out)) == "true"
}

// UserName is git's user.name for the repository at dir, "" when none is
// set or git cannot say: the author new writes in an adopted collection's
// author field (D96).
func UserName(dir string) string {
	cmd := exec.Command("git", "config", "--get", "user.name")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// git runs git in Root and returns its output as one string, which
// the paths listed are slices of: the output is not copied (D92).
func (r *Repo) git(args ...string) (string, error) {
	r.gitRuns.Add(1)
	cmd := exec.Command("git", args...)
	cmd.Dir = r.Root
	var stdout doubling
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// doubling is a strings.Builder that at least doubles when it grows
// (append grows a large slice by a quarter: a listing of 1 MB was
// copied a dozen times).
type doubling struct{ strings.Builder }

func (d *doubling) Write(p []byte) (int, error) {
	if d.Cap()-d.Len() < len(p) {
		d.Grow(len(p)) // to twice the capacity, and p
	}
	return d.Builder.Write(p)
}

// listIndex reads `git ls-files -z -s`: "<mode> <object> <stage>\t<path>".
// A path in conflict has several stages and is listed once, with the mode
// of its last stage.
func (r *Repo) listIndex(out string) {
	type entry struct{ path, mode string }
	var idx []entry
	for rec := range strings.SplitSeq(out, "\x00") {
		tab := strings.IndexByte(rec, '\t')
		if tab < 0 {
			continue
		}
		mode, _, _ := strings.Cut(rec[:tab], " ")
		idx = append(idx, entry{rec[tab+1:], mode})
	}
	setIndex(r, idx, func(e entry) string { return e.path }, func(e entry) string { return e.mode })
}

// setIndex makes the index's entries es the tracked files, their modes
// and the universe, whether git listed them (listIndex) or the index file
// was read (indexEntries). git lists the index in path order, stages in
// turn; should es not be, the stable sort keeps a path's stages in their
// order. A path in conflict is listed once, with its last stage's mode.
func setIndex[E any](r *Repo, es []E, path, mode func(E) string) {
	byPath := func(a, b E) int { return strings.Compare(path(a), path(b)) }
	if !slices.IsSortedFunc(es, byPath) {
		slices.SortStableFunc(es, byPath)
	}
	r.tracked, r.modes = make([]string, 0, len(es)), make([]string, 0, len(es))
	for _, e := range es {
		if n := len(r.tracked); n > 0 && r.tracked[n-1] == path(e) {
			r.modes[n-1] = mode(e) // a later stage
			continue
		}
		r.tracked, r.modes = append(r.tracked, path(e)), append(r.modes, mode(e))
	}
	r.Files = slices.Clip(slices.Clone(r.tracked))
}

// ListUntracked adds to the universe the untracked files git does not
// ignore (`git ls-files -co --exclude-standard` semantics) under each of
// prefixes: a directory ending in '/', a file path, or "" for the whole
// tree. Prefixes listed before are not listed again. Outside git it does
// nothing: the walk listed every file.
func (r *Repo) ListUntracked(prefixes []string) error {
	if !r.Git {
		return nil
	}
	specs := r.untrackedSpecs(prefixes)
	if len(specs) == 0 {
		return nil
	}
	out, err := r.listUntracked(specs)
	if err != nil {
		return err
	}
	r.addUntracked(prefixes, out)
	return nil
}

// untrackedSpecs returns the pathspecs git must list for ListUntracked
// (prefixes), none when there is nothing to list.
func (r *Repo) untrackedSpecs(prefixes []string) []string {
	if r.listed[""] {
		return nil
	}
	var specs []string
	for _, p := range prefixes {
		if p == "" {
			specs = []string{"."}
			break
		}
		if r.listed[p] || !strings.HasSuffix(p, "/") && r.IndexMode(p) != "" {
			continue // listed, or a tracked file: it cannot be untracked
		}
		if _, err := os.Lstat(r.Abs(p)); errors.Is(err, fs.ErrNotExist) {
			continue // no such directory or file: nothing untracked there, and no git run to say so
		}
		if budget := maxTrackedWalk; strings.HasSuffix(p, "/") && len(r.tracked) > 0 && r.allTracked(p, &budget) {
			r.listed[p] = true
			continue // every file there is tracked: nothing for git to list
		}
		specs = append(specs, p)
	}
	return specs
}

// listUntracked runs git for the untracked files under specs.
func (r *Repo) listUntracked(specs []string) (string, error) {
	return r.git(append([]string{"--literal-pathspecs", "ls-files", "-z", "-o", "--exclude-standard", "--"}, specs...)...)
}

// addUntracked adds git's list of untracked files (out) under prefixes
// to the universe.
func (r *Repo) addUntracked(prefixes []string, out string) {
	for _, p := range prefixes {
		r.listed[p] = true
	}
	known := len(r.Files) // sorted, so searched while git's list is added
	for p := range strings.SplitSeq(out, "\x00") {
		if p == "" || has(r.Files[:known], p) {
			continue
		}
		r.Files = append(r.Files, p) // git lists each once
	}
	if len(r.Files) > known {
		sort.Strings(r.Files)
	}
}

// has reports whether the sorted files hold rel.
func has(files []string, rel string) bool {
	_, ok := slices.BinarySearch(files, rel)
	return ok
}

// Present reports whether rel exists in the work tree (a file deleted but
// still in the index is not part of what the code says now). Results are
// cached.
func (r *Repo) Present(rel string) bool {
	if v, ok := r.present.Load(rel); ok {
		return v.(bool)
	}
	_, err := r.Lstat(rel)
	return err == nil
}

// Lstat is os.Lstat of rel in the work tree; whether it found rel is
// what Present says of it from then on.
func (r *Repo) Lstat(rel string) (fs.FileInfo, error) {
	fi, err := os.Lstat(r.Abs(rel))
	r.present.Store(rel, err == nil)
	return fi, err
}

func (r *Repo) walk() error {
	return filepath.WalkDir(r.Root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == r.Root {
				return fmt.Errorf("walk %s: %w", r.Root, err)
			}
			// An unreadable sub-directory is skipped, not fatal: the checks
			// that need its files report them as missing.
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if p != r.Root && (d.Name() == ".git" || d.Name() == ".docket") {
				return fs.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(r.Root, p)
		if err != nil {
			return nil
		}
		r.Files = append(r.Files, filepath.ToSlash(rel))
		return nil
	})
}

// Has reports whether rel is in the universe.
func (r *Repo) Has(rel string) bool { return has(r.Files, rel) }

// IndexMode returns the git index mode of rel ("100644", "100755",
// "120000"...), or "" when the file is not in the index or Root is not a git
// work tree.
func (r *Repo) IndexMode(rel string) string {
	if i, ok := slices.BinarySearch(r.tracked, rel); ok {
		return r.modes[i]
	}
	return ""
}

// Abs returns the absolute path of a repository-relative path.
func (r *Repo) Abs(rel string) string { return filepath.Join(r.Root, filepath.FromSlash(rel)) }

// ErrNotRegular is returned by ReadFile for symbolic links, devices and
// directories, which claimslint never reads as code.
var ErrNotRegular = errors.New("not a regular file")

// NotRegularError is an ErrNotRegular that says what the path is instead
// (a symbolic link, a directory, a named pipe), so a message can say it
// without reading the error's text (D101).
type NotRegularError struct{ What string }

func (e *NotRegularError) Error() string { return ErrNotRegular.Error() + ": " + e.What }

// Is makes errors.Is(err, ErrNotRegular) true.
func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

func notRegular(format string, args ...any) error {
	return &NotRegularError{What: fmt.Sprintf(format, args...)}
}

// ReadFile reads rel without following a symbolic link in any component of
// its path, so a link loop, or a link out of the repository at the file or
// at any parent directory, can never be read as code. Files over max bytes
// (when max > 0) are refused with ErrTooLarge.
func (r *Repo) ReadFile(rel string, max int64) ([]byte, error) {
	return r.read(rel, max, false, nil)
}

// ReadFileInto is ReadFile reading into buf's storage when it has room for
// the file: a scan that reads a thousand files one after the other
// allocates (and zeroes) one buffer, not one per file. The bytes of the
// previous call with the same buf are overwritten.
func (r *Repo) ReadFileInto(rel string, max int64, buf []byte) ([]byte, error) {
	return r.read(rel, max, false, buf)
}

// ReadDoc reads rel for documents the configuration names explicitly (the
// register, range sites, decision files, the tracker export). It follows
// symbolic links that stay inside the repository, since a linked register is
// a legitimate layout, and refuses with ErrOutside a path that any of its
// components leads out of the repository.
func (r *Repo) ReadDoc(rel string, max int64) ([]byte, error) {
	return r.read(rel, max, true, nil)
}

// ErrOutside is returned by ReadDoc for a path that resolves outside the
// repository through a symbolic link.
var ErrOutside = errors.New("outside the repository")

// read opens rel beneath Root with os.Root, which refuses any path that
// leaves Root, even one that a concurrent change turns into a link between
// the checks below and the open. Without follow, every component is first
// checked with Lstat and a symbolic link anywhere is refused.
func (r *Repo) read(rel string, max int64, follow bool, buf []byte) ([]byte, error) {
	name := filepath.FromSlash(rel)
	if !filepath.IsLocal(name) {
		return nil, fmt.Errorf("%w: %s is not a path inside the repository", ErrOutside, rel)
	}
	if !follow && fastRead {
		return r.readNoLinks(filepath.ToSlash(filepath.Clean(name)), max, buf)
	}
	root, err := os.OpenRoot(r.Root)
	if err != nil {
		return nil, fmt.Errorf("open repository root: %w", err)
	}
	defer root.Close()
	if follow {
		if err := r.inside(rel); err != nil {
			return nil, err
		}
	} else if err := noLinks(root, name); err != nil {
		return nil, err
	}
	data, err := ReadIn(root, name, max)
	if err != nil && !errors.Is(err, ErrNotRegular) && !errors.Is(err, ErrTooLarge) {
		// os.Root refuses a path that leaves it with an error it does not
		// export; ask the question again by resolving the links.
		if ierr := r.inside(rel); errors.Is(ierr, ErrOutside) {
			return nil, fmt.Errorf("%w: %s leads out through a symbolic link", ErrOutside, rel)
		}
	}
	return data, err
}

// ReadIn reads name beneath root, up to max bytes when max > 0. Only a
// regular file is read: a directory, a named pipe, a socket or a device is
// refused with ErrNotRegular, from a stat before the open and an fstat
// after it, and the open itself never blocks (O_NONBLOCK), so a FIFO put
// where a configuration or a register should be cannot hang a run. A file
// over max is refused with ErrTooLarge before a byte of it is read; one
// that grows past max while being read is refused too.
func ReadIn(root *os.Root, name string, max int64) ([]byte, error) {
	if st, err := root.Stat(name); err != nil {
		return nil, err
	} else if err := regular(st.Mode()); err != nil {
		return nil, err
	}
	f, err := root.OpenFile(name, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := regular(st.Mode()); err != nil {
		return nil, err
	}
	if max > 0 && st.Size() > max {
		return nil, fmt.Errorf("%w (%d bytes, limit %d)", ErrTooLarge, st.Size(), max)
	}
	var rd io.Reader = f
	if max > 0 {
		// The file may grow between the Stat and the read.
		rd = io.LimitReader(f, max+1)
	}
	data, err := io.ReadAll(rd)
	if err != nil {
		return nil, err
	}
	if max > 0 && int64(len(data)) > max {
		return nil, fmt.Errorf("%w (over %d bytes)", ErrTooLarge, max)
	}
	return data, nil
}

// regular refuses a file mode that is not a regular file's, naming what it
// is in the user's words.
func regular(m fs.FileMode) error {
	if m.IsRegular() {
		return nil
	}
	return notRegular("%s", kindName(m))
}

// kindName names a file type that is not a regular file, for messages.
func kindName(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// noLinks refuses name when any of its components, parents included, is a
// symbolic link.
func noLinks(root *os.Root, name string) error {
	parts := strings.Split(name, string(filepath.Separator))
	for k := range parts {
		p := filepath.Join(parts[:k+1]...)
		st, err := root.Lstat(p)
		if err != nil {
			return err
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			if k == len(parts)-1 {
				return notRegular("a symbolic link")
			}
			return notRegular("a symbolic link at %s", filepath.ToSlash(p))
		}
	}
	return nil
}

// inside resolves every link in rel and refuses a target outside Root.
func (r *Repo) inside(rel string) error {
	base, err := filepath.EvalSymlinks(r.Root)
	if err != nil {
		return fmt.Errorf("resolve repository root: %w", err)
	}
	real, err := filepath.EvalSymlinks(r.Abs(rel))
	if err != nil {
		if _, serr := os.Stat(r.Abs(rel)); errors.Is(serr, syscall.ELOOP) {
			// EvalSymlinks words a loop its own way; report it as open does.
			return &fs.PathError{Op: "open", Path: rel, Err: syscall.ELOOP}
		}
		return err
	}
	if in, err := filepath.Rel(base, real); err != nil || !filepath.IsLocal(in) {
		return fmt.Errorf("%w: %s resolves to %s through a symbolic link", ErrOutside, rel, real)
	} else if inGitDir(in) {
		return fmt.Errorf("%w: %s resolves into .git, git's own directory, through a symbolic link", ErrOutside, rel)
	}
	return nil
}

// inGitDir reports whether the relative path p has a .git component (in
// any case): git's own files are not the repository's documents.
func inGitDir(p string) bool {
	for _, seg := range strings.Split(filepath.ToSlash(p), "/") {
		if strings.EqualFold(seg, ".git") {
			return true
		}
	}
	return false
}

// ErrTooLarge is returned by ReadFile for a file over the size limit.
var ErrTooLarge = errors.New("file too large")

// Executable reports whether rel has an execute bit on disk.
func (r *Repo) Executable(rel string) bool {
	root, err := os.OpenRoot(r.Root)
	if err != nil {
		return false
	}
	defer root.Close()
	name := filepath.FromSlash(rel)
	if !filepath.IsLocal(name) || noLinks(root, name) != nil {
		return false // not even the mode of a file outside is read
	}
	st, err := root.Lstat(name)
	return err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0
}

// ShowAt returns the content of rel at a commit Commit resolved (git
// show commit:rel), and whether it existed there: one git run, no check
// of the revision.
func ShowAt(dir, commit, rel string) ([]byte, bool) {
	r := &Repo{Root: dir}
	out, err := r.git("show", commit+":./"+rel)
	if err != nil {
		return nil, false
	}
	return []byte(out), true
}

// ChangedLines returns, for rel, the line numbers of the working tree that
// differ from revision rev (added or modified lines), and whether the
// file is new since rev.
func ChangedLines(dir, rev, rel string) (map[int]bool, error) {
	cmd := exec.Command("git", "diff", "-U0", "--no-color", "--no-ext-diff", rev, "--", rel)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		// git's words, never its command line (issue 36)
		why, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		return nil, fmt.Errorf("git could not list the lines of %q changed since %s: %s", rel, rev, why)
	}
	changed := map[int]bool{}
	for _, l := range strings.Split(string(out), "\n") {
		// With -U0 a hunk's own lines begin with '-' or '+', so a line
		// that begins "@@ " is a header.
		if !strings.HasPrefix(l, "@@ ") {
			continue
		}
		h, err := ParseHunk(l)
		if err != nil {
			return nil, err
		}
		// Lines c..c+d-1 of the new file changed.
		for k := h.NewStart; k < h.NewStart+h.NewLines; k++ {
			changed[k] = true
		}
	}
	return changed, nil
}

// FindRoot returns the repository root that contains start: the nearest
// directory, start itself or above it, that holds .claimslint.yml or .git
// (D43). With neither anywhere above, it returns start, so a plain
// directory is checked as it is.
func FindRoot(start string) (string, error) {
	abs, err := filepath.Abs(start)
	if err != nil {
		return "", fmt.Errorf("resolve %s: %w", start, err)
	}
	dir, ok := FindUp(abs, ".claimslint.yml", ".git")
	if !ok || dir == abs {
		return start, nil
	}
	return dir, nil
}

// FindUp returns the nearest directory, dir itself or above it, that
// holds one of markers (a link counts), and false when none does up to
// the root of dir's path. It is the one walk both tools find their root
// with (D103): claimslint stops at .claimslint.yml or .git (FindRoot);
// docket at .git alone, since its index and lock (.docket/) are ignored
// files of a git work tree.
func FindUp(dir string, markers ...string) (string, bool) {
	for {
		for _, marker := range markers {
			if _, err := os.Lstat(filepath.Join(dir, marker)); err == nil {
				return dir, true
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// ErrNotGit is returned by Commit and Diff outside a git work tree.
var ErrNotGit = errors.New("not inside a git work tree")

// Commit resolves rev, a revision the user named (--base), to the 40-hex
// commit it names in the repository at dir. A rev that begins with '-'
// is refused before git sees it: git would read it as an option.
func Commit(dir, rev string) (string, error) {
	switch {
	case rev == "":
		return "", errors.New("no revision given")
	case strings.HasPrefix(rev, "-"):
		return "", fmt.Errorf("%q begins with '-', which git would read as an option: name a branch, a tag or a commit", rev)
	case strings.ContainsAny(rev, "\x00\n"):
		return "", fmt.Errorf("%q holds a newline or a NUL: name a branch, a tag or a commit", rev)
	}
	if !isGitWorkTree(dir) {
		return "", ErrNotGit
	}
	r := &Repo{Root: dir}
	out, err := r.git("rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("%s is not a commit here", rev)
	}
	return strings.TrimSpace(out), nil
}

// DiffArgs are the options of every diff Diff runs: no colour, no
// external diff or textconv driver a configuration names, renames found,
// paths relative to dir (so a sub-directory of a repository sees its own
// paths, and nothing outside it), and git's own a/ and b/ prefixes
// whatever diff.noprefix or diff.mnemonicPrefix say.
var DiffArgs = []string{"-c", "core.quotepath=on", "diff", "--no-color", "--no-ext-diff", "--no-textconv", "--relative", "-M", "--src-prefix=a/", "--dst-prefix=b/"}

// Diff runs git diff from commit (a 40-hex commit Commit resolved) to the
// working tree, with DiffArgs and extra, and hands its output to read as
// a stream, so a diff of any size is read in bounded memory.
func Diff(dir, commit string, extra []string, read func(io.Reader) error) error {
	args := append(append(append([]string{}, DiffArgs...), extra...), commit, "--")
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("git diff: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git diff: %w", err)
	}
	if rerr := read(out); rerr != nil {
		_ = cmd.Process.Kill() // the reader gave up: git need not finish
		_ = cmd.Wait()
		return rerr
	}
	if werr := cmd.Wait(); werr != nil {
		// git's words, never its command line (issue 36)
		why, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		return fmt.Errorf("git could not compare the working tree with %s: %v: %s", commit, werr, why)
	}
	return nil
}

// Clean reports whether no tracked file of the work tree at dir differs
// from the checked-out commit.
func Clean(dir string) (bool, error) {
	cmd := exec.Command("git", "diff", "--quiet", "--no-ext-diff", "HEAD", "--")
	cmd.Dir = dir
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &ee) && ee.ExitCode() == 1:
		return false, nil
	default:
		return false, fmt.Errorf("git diff --quiet HEAD: %w", err)
	}
}

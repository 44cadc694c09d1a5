package repo

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrTreeTooLarge is returned by Extract when the files it would write
// hold more than its total.
var ErrTreeTooLarge = errors.New("too much to read at the revision")

// Extract writes, beneath dir (an empty directory), the regular files of
// commit (a 40-hex commit Commit resolved) under the repository paths
// roots (a file or a directory each; paths taken literally, never as
// pathspec magic), as they are in that commit: what a reader of the tree
// at that revision sees. A root absent there is skipped. A file over max
// bytes, a symbolic link and a submodule are not written; more than total
// bytes in all is ErrTreeTooLarge. Two git runs, whatever the number of
// files: ls-tree lists them, cat-file --batch streams their contents.
func Extract(repoDir, commit string, roots []string, dir string, max, total int64) error {
	if len(roots) == 0 {
		return nil
	}
	want, err := listTree(repoDir, commit, roots, max, total)
	if err != nil || len(want) == 0 {
		return err
	}
	cat := exec.Command("git", "cat-file", "--batch")
	cat.Dir = repoDir
	var catErr bytes.Buffer
	cat.Stderr = &catErr
	var in bytes.Buffer
	for _, e := range want {
		in.WriteString(e.oid + "\n")
	}
	cat.Stdin = &in
	pipe, err := cat.StdoutPipe()
	if err != nil {
		return fmt.Errorf("git cat-file: %w", err)
	}
	if err := cat.Start(); err != nil {
		return fmt.Errorf("git cat-file: %w", err)
	}
	if rerr := writeObjects(bufio.NewReader(pipe), want, dir); rerr != nil {
		_ = cat.Process.Kill()
		_ = cat.Wait()
		return rerr
	}
	if err := cat.Wait(); err != nil {
		return fmt.Errorf("git cat-file: %v: %s", err, strings.TrimSpace(catErr.String()))
	}
	return nil
}

// listTree lists the regular files of commit under roots that Extract
// writes: none over max bytes, at most total bytes in all.
func listTree(repoDir, commit string, roots []string, max, total int64) ([]treeEntry, error) {
	args := append([]string{"--literal-pathspecs", "ls-tree", "-r", "-z", "-l", commit, "--"}, roots...)
	cmd := exec.Command("git", args...)
	cmd.Dir = repoDir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("list the files of %s: git ls-tree: %v: %s", commit, err, strings.TrimSpace(stderr.String()))
	}
	var want []treeEntry
	sum := int64(0)
	for _, rec := range bytes.Split(out, []byte{0}) {
		e, ok := parseTreeEntry(rec)
		if !ok || e.size > max {
			continue // a link, a submodule, a file over max
		}
		if sum += e.size; sum > total {
			return nil, fmt.Errorf("%w: more than %d MiB under %s", ErrTreeTooLarge, total>>20, strings.Join(roots, ", "))
		}
		want = append(want, e)
	}
	return want, nil
}

// writeObjects writes beneath dir each of want as git cat-file --batch
// prints it on r.
func writeObjects(r *bufio.Reader, want []treeEntry, dir string) error {
	for _, e := range want {
		head, err := r.ReadString('\n')
		if err != nil {
			return fmt.Errorf("git cat-file: %w", err)
		}
		f := strings.Fields(head)
		if len(f) != 3 || f[0] != e.oid || f[1] != "blob" {
			return fmt.Errorf("git cat-file printed %q for %s", strings.TrimSpace(head), e.oid)
		}
		n, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil || n != e.size {
			return fmt.Errorf("git cat-file printed size %q for %s, ls-tree %d", f[2], e.oid, e.size)
		}
		if err := writeObject(r, filepath.Join(dir, e.path), n); err != nil {
			return err
		}
		if _, err := r.Discard(1); err != nil { // the newline after each object
			return fmt.Errorf("git cat-file: %w", err)
		}
	}
	return nil
}

// writeObject writes the next n bytes of r to the new file dst.
func writeObject(r io.Reader, dst string, n int64) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	w, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = io.CopyN(w, r, n)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("git cat-file: %w", err)
	}
	return nil
}

// treeEntry is one regular file git ls-tree -l listed.
type treeEntry struct {
	oid, path string // path in the OS's form, local
	size      int64
}

// parseTreeEntry reads one record of `git ls-tree -r -z -l`: "<mode> SP
// <type> SP <object> SP+ <size> TAB <path>". Only a regular file (mode
// 100644 or 100755, a blob) whose path is local and outside .git is
// kept: a link, a submodule, a record it cannot read are not.
func parseTreeEntry(rec []byte) (treeEntry, bool) {
	meta, p, ok := bytes.Cut(rec, []byte{'\t'})
	if !ok || len(p) == 0 {
		return treeEntry{}, false
	}
	f := strings.Fields(string(meta))
	if len(f) != 4 || f[1] != "blob" || (f[0] != "100644" && f[0] != "100755") {
		return treeEntry{}, false
	}
	size, err := strconv.ParseInt(f[3], 10, 64)
	if err != nil || size < 0 {
		return treeEntry{}, false
	}
	name := filepath.FromSlash(string(p))
	if !filepath.IsLocal(name) || inGitDir(string(p)) || bytes.IndexByte(p, 0) >= 0 {
		return treeEntry{}, false
	}
	return treeEntry{oid: f[2], path: name, size: size}, true
}

package docket

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrUnsafePath is wrapped by every refusal to open a tracker file: a path
// that is not beneath the root, that goes through a symbolic link or a
// directory named .git, or that names something other than a regular file
// (D67).
var ErrUnsafePath = errors.New("refused")

// Files opens the tracker's files (D67): the export and the temp files of
// its rewrites, the index and every file beside it, the lock, the id log
// and the pending journal. Each lies beneath root and is reached through
// no symbolic link and no directory named .git below it; with root "",
// each file's own directory is its root (the caller named the directory),
// and the file and the files beside it are held to the same rules.
//
// Every operation checks the path again, right before it opens it (a
// checkout may have changed the tree since the last), and then opens it
// through os.Root, so that a link made between the check and the open can
// lead only to another file beneath the root, never outside it. SQLite
// opens the index by path: Check is what the index's wiring calls right
// before.
type Files struct {
	root string // absolute, or "" for each file's own directory
}

// NewFiles returns the opener of files beneath root ("" for each file's
// own directory).
func NewFiles(root string) (Files, error) {
	if root == "" {
		return Files{}, nil
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return Files{}, fmt.Errorf("repository root %s: %w", root, err)
	}
	return Files{root: abs}, nil
}

// locate returns the directory p is opened beneath and p relative to it.
func (f Files) locate(p string) (dir, rel string, err error) {
	if f.root == "" {
		return filepath.Dir(p), filepath.Base(p), nil
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", "", fmt.Errorf("%s: %w", p, err)
	}
	rel, err = filepath.Rel(f.root, abs)
	if err != nil || !filepath.IsLocal(rel) {
		return "", "", fmt.Errorf("%w: %s is not beneath the repository %s", ErrUnsafePath, p, f.root)
	}
	return f.root, rel, nil
}

// open locates p, opens its root and checks every component of p below
// it. The caller closes the root.
func (f Files) open(p string) (*os.Root, string, error) {
	dir, rel, err := f.locate(p)
	if err != nil {
		return nil, "", err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, "", err // a directory not yet made is fs.ErrNotExist
	}
	if err := checkBeneath(root, rel, f.name(p, rel)); err != nil {
		root.Close()
		return nil, "", err
	}
	return root, rel, nil
}

// name is p as messages name it: relative to the root, as a setting
// gives it, when there is a root.
func (f Files) name(p, rel string) string {
	if f.root == "" {
		return p
	}
	return filepath.ToSlash(rel)
}

// checkBeneath refuses rel when a component of it is a symbolic link, is
// named .git (in any case, for case-insensitive file systems), or is not
// a directory where one is needed. A component that does not exist ends
// the walk: what is missing is created by the caller beneath the root.
func checkBeneath(root *os.Root, rel, p string) error {
	parts := strings.Split(rel, string(filepath.Separator))
	for k, part := range parts {
		if strings.EqualFold(part, ".git") {
			return fmt.Errorf("%w: %s is inside a .git directory, which is git's", ErrUnsafePath, p)
		}
		sub := filepath.Join(parts[:k+1]...)
		st, err := root.Lstat(sub)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		last := k == len(parts)-1
		switch {
		case st.Mode()&fs.ModeSymlink != 0 && last:
			return fmt.Errorf("%w: %s is a symbolic link; docket follows no link to its files", ErrUnsafePath, p)
		case st.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("%w: %s goes through the symbolic link %s; docket follows no link to its files", ErrUnsafePath, p, filepath.ToSlash(sub))
		case !last && !st.IsDir():
			return fmt.Errorf("%w: %s: %s is not a directory", ErrUnsafePath, p, filepath.ToSlash(sub))
		}
	}
	return nil
}

// Check refuses p when it is not beneath the root, goes through a link,
// or is there as anything but a regular file: what the index's wiring
// runs on each file SQLite opens by path, right before it opens it. A
// missing file passes.
func (f Files) Check(p string) error {
	root, rel, err := f.open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer root.Close()
	st, err := root.Lstat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return regular(p, st)
}

// regular refuses anything but a regular file: a directory, a named pipe
// (whose open would block), a device or a socket.
func regular(p string, st fs.FileInfo) error {
	switch {
	case st.Mode().IsRegular():
		return nil
	case st.IsDir():
		return fmt.Errorf("%w: %s is a directory, not a file", ErrUnsafePath, p)
	}
	return fmt.Errorf("%w: %s is not a regular file (%s)", ErrUnsafePath, p, st.Mode().Type())
}

// Stat returns p's file information; p is never followed through a link.
func (f Files) Stat(p string) (fs.FileInfo, error) {
	root, rel, err := f.open(p)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	st, err := root.Lstat(rel)
	if err != nil {
		return nil, err
	}
	return st, regular(p, st)
}

// Walk is a path's components below its root, each as an absolute path
// (the last is the file's): what quickStat lstats. The names were checked
// when the path was first opened through Files; a link or a non-directory
// is what can appear since.
type Walk []string

// WalkOf returns p's Walk.
func (f Files) WalkOf(p string) (Walk, error) {
	dir, rel, err := f.locate(p)
	if err != nil {
		return nil, err
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	parts := strings.Split(rel, string(filepath.Separator))
	w := make(Walk, len(parts))
	for k := range parts {
		dir = filepath.Join(dir, parts[k])
		w[k] = dir
	}
	return w, nil
}

// quickStat is Stat for a path opened before: an lstat by absolute path of
// each component, with no root opened. It reports false when a directory
// component is a link or no directory, or the file is no regular file,
// and the caller then takes Stat's checked path.
func (w Walk) quickStat() (fs.FileInfo, bool) {
	if len(w) == 0 {
		return nil, false
	}
	for _, d := range w[:len(w)-1] {
		st, err := os.Lstat(d)
		if err != nil || !st.IsDir() {
			return nil, false
		}
	}
	st, err := os.Lstat(w[len(w)-1])
	if err != nil || !st.Mode().IsRegular() {
		return nil, false
	}
	return st, true
}

// ReadFile reads p, a regular file. A named pipe is refused before it is
// read, not waited on.
func (f Files) ReadFile(p string) ([]byte, error) {
	fd, err := f.openFile(p, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer fd.Close()
	// Sized by the file, as os.ReadFile is: the export is read whole by
	// every write, and growing a buffer to 37 MiB by doubling costs more
	// than the hash of it.
	size := 512
	if st, err := fd.Stat(); err == nil && st.Size() < 1<<40 {
		size = int(st.Size()) + 1
	}
	data := make([]byte, 0, size)
	for {
		n, err := fd.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}

// openFile opens p with flag (never blocking on a named pipe) and refuses
// it unless it is a regular file.
func (f Files) openFile(p string, flag int, perm fs.FileMode) (*os.File, error) {
	root, rel, err := f.open(p)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	fd, err := root.OpenFile(rel, flag|oNonblock, perm)
	if err != nil {
		return nil, err
	}
	st, err := fd.Stat()
	if err == nil {
		err = regular(p, st)
	}
	if err != nil {
		fd.Close()
		return nil, err
	}
	return fd, nil
}

// OpenFile opens p (a regular file, created with perm when flag says so).
func (f Files) OpenFile(p string, flag int, perm fs.FileMode) (*os.File, error) {
	return f.openFile(p, flag, perm)
}

// Append adds data to p, creating it, and syncs it when sync is set.
func (f Files) Append(p string, data []byte, sync bool) error {
	fd, err := f.openFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = fd.Write(data)
	if err == nil && sync {
		err = fd.Sync()
	}
	if cerr := fd.Close(); err == nil {
		err = cerr
	}
	return err
}

// MkdirAll makes the directory dir and its parents beneath the root.
func (f Files) MkdirAll(dir string) error {
	if f.root == "" {
		// The caller named the directory: it is made as given, and the
		// files in it are held to the rules.
		return os.MkdirAll(dir, 0o755)
	}
	root, rel, err := f.open(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	if rel == "." {
		return nil
	}
	if err := root.MkdirAll(rel, 0o755); err != nil {
		return err
	}
	// A link made in the meantime is refused, not used.
	return checkBeneath(root, rel, dir)
}

// Remove removes p, a file beneath the root; a missing p is no error.
func (f Files) Remove(p string) error {
	root, rel, err := f.open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer root.Close()
	if err := root.Remove(rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// WriteFile replaces p with data (not atomically: for files docket owns
// whole, such as .docket/.gitignore).
func (f Files) WriteFile(p string, data []byte) error {
	fd, err := f.openFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = fd.Write(data)
	if cerr := fd.Close(); err == nil {
		err = cerr
	}
	return err
}

// tempName returns a name beside p for a temp file: pattern and a random
// suffix.
func tempName(pattern string) string {
	var b [8]byte
	rand.Read(b[:])
	return pattern + hex.EncodeToString(b[:])
}

// writeAtomic replaces path with what write writes: temp file, fsync,
// rename, fsync of the directory, each beneath the root. It runs under
// the index's write lock, so any temp file of an earlier rewrite still
// there was left by a killed writer and is removed. The file keeps its
// permission bits (a read-only export stays read-only); a new one is
// 0644.
func (f Files) writeAtomic(path string, write func(io.Writer) error, pid int, step func(string)) error {
	dir := filepath.Dir(path)
	if err := f.MkdirAll(dir); err != nil {
		return fmt.Errorf("create export directory: %w", err)
	}
	root, rel, err := f.open(path)
	if err != nil {
		return err
	}
	defer root.Close()
	relDir := filepath.Dir(rel)
	pattern := "." + filepath.Base(path) + ".tmp-"
	if d, err := root.Open(relDir); err == nil {
		ents, _ := d.ReadDir(-1)
		d.Close()
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), pattern) {
				root.Remove(filepath.Join(relDir, e.Name()))
			}
		}
	}
	mode := fs.FileMode(0o644)
	if st, err := root.Lstat(rel); err == nil {
		if err := regular(path, st); err != nil {
			return err
		}
		mode = st.Mode().Perm()
	}
	tmp := filepath.Join(relDir, tempName(fmt.Sprintf("%s%d-", pattern, pid)))
	// O_EXCL: never an existing file, never through a link.
	fd, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("write export: %w", err)
	}
	defer root.Remove(tmp) // after a successful rename this is a no-op
	if err := write(fd); err != nil {
		fd.Close()
		return fmt.Errorf("write export: %w", err)
	}
	if err := fd.Sync(); err != nil {
		fd.Close()
		return fmt.Errorf("fsync export: %w", err)
	}
	if err := fd.Close(); err != nil {
		return fmt.Errorf("write export: %w", err)
	}
	if err := root.Chmod(tmp, mode); err != nil {
		return fmt.Errorf("write export: %w", err)
	}
	step("temp")
	// Checked again: the rename replaces whatever is at rel, and must not
	// replace a link someone put there since.
	if err := checkBeneath(root, rel, path); err != nil {
		return err
	}
	if err := root.Rename(tmp, rel); err != nil {
		return fmt.Errorf("replace export: %w", err)
	}
	step("renamed")
	// The rename is durable only once the directory entry is on disk.
	if df, err := root.Open(relDir); err == nil {
		df.Sync()
		df.Close()
	}
	return nil
}

package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/claimslint/claimslint/internal/format"
)

// ErrLink is the error of a write refused because the name written, or a
// directory in the path to it below the working directory (or below the
// nearest of its ancestors that holds it), is a symbolic link: report writes no
// file through a link (D98).
var ErrLink = errors.New("report writes no file through a symbolic link")

// openOut opens the directory that holds the output named p (the file of
// --single, the directory of --out) as an os.Root, and returns it with the
// output's name in it. The path is taken beneath the working directory, or
// beneath the nearest of its ancestors that holds it (outBase): those are
// the user's own, where they stand, and are opened as they are. Every
// directory below, where a clone's committed links are (whether the path
// was typed relative or absolute, as $PWD/build/site), is looked at with
// Lstat and a link is refused, and a missing one is made when mkdir is
// set. The output's own name is refused when it is a link. Everything
// written afterwards goes through the returned Root, which refuses any
// path that leaves it (D98).
func openOut(p string, mkdir bool) (*os.Root, string, error) {
	clean := filepath.Clean(p)
	dir, name := filepath.Split(clean)
	dir = filepath.Clean(dir)
	if name == "" || name == "." || name == ".." {
		return nil, "", fmt.Errorf("%s names a directory, not a file: give a file name, such as report.html", format.Escape(p))
	}
	base, rel, err := outBase(dir)
	if err != nil {
		return nil, "", err
	}
	top, err := os.OpenRoot(base)
	if err != nil {
		return nil, "", fmt.Errorf("open %s: %w", format.Escape(base), err)
	}
	root := top
	if rel != "." {
		defer top.Close()
		if err := walkBeneath(top, base, rel, p, mkdir); err != nil {
			return nil, "", err
		}
		if root, err = openSame(top, rel); err != nil {
			return nil, "", err
		}
	}
	if st, err := root.Lstat(name); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		root.Close()
		return nil, "", linkErr(p, p)
	}
	return root, name, nil
}

// outBase splits dir, the directory of an output, into base, the working
// directory or the nearest of its ancestors that holds dir ("." for a
// relative path that stays beneath it), and rel, dir's path beneath base.
func outBase(dir string) (base, rel string, err error) {
	if !filepath.IsAbs(dir) && filepath.IsLocal(dir) {
		return ".", dir, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", "", fmt.Errorf("find the working directory: %w", err)
	}
	abs := dir
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(wd, dir)
	}
	for b := wd; ; b = filepath.Dir(b) {
		if r, err := filepath.Rel(b, abs); err == nil && filepath.IsLocal(r) {
			return b, r, nil
		}
		if filepath.Dir(b) == b {
			// Another volume: from its root, every directory is checked.
			vol := filepath.VolumeName(abs) + string(filepath.Separator)
			r, err := filepath.Rel(vol, abs)
			if err != nil {
				return "", "", fmt.Errorf("%s: %w", format.Escape(dir), err)
			}
			return vol, r, nil
		}
	}
}

// walkBeneath looks at every directory of rel beneath top (base's Root)
// with Lstat, refusing a link or a file and making a missing one when
// mkdir is set; p is the output named, for messages.
func walkBeneath(top *os.Root, base, rel, p string, mkdir bool) error {
	parts := strings.Split(rel, string(filepath.Separator))
	for k := range parts {
		prefix := filepath.Join(parts[:k+1]...)
		shown := filepath.Join(base, prefix)
		st, err := top.Lstat(prefix)
		if errors.Is(err, fs.ErrNotExist) && mkdir {
			if err = top.Mkdir(prefix, 0o755); err == nil {
				st, err = top.Lstat(prefix)
			}
		}
		if err != nil {
			return fmt.Errorf("%s: %w", format.Escape(shown), err)
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			return linkErr(p, shown)
		}
		if !st.IsDir() {
			return fmt.Errorf("%s is not a directory: give a path of directories to write %s in", format.Escape(shown), format.Escape(p))
		}
	}
	return nil
}

// openSame opens the directory rel beneath root, and refuses it when the
// directory opened is not the one Lstat saw (a link put there since).
func openSame(root *os.Root, rel string) (*os.Root, error) {
	before, err := root.Lstat(rel)
	if err != nil {
		return nil, err
	}
	if before.Mode()&fs.ModeSymlink != 0 {
		return nil, linkErr(rel, rel)
	}
	sub, err := root.OpenRoot(rel)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", format.Escape(rel), err)
	}
	after, err := sub.Stat(".")
	if err != nil || !os.SameFile(before, after) {
		sub.Close()
		return nil, fmt.Errorf("%s changed while report opened it: run report again", format.Escape(rel))
	}
	return sub, nil
}

// linkErr words the refusal of a write through the link at link, a
// component of p (or p itself).
func linkErr(p, link string) error {
	if filepath.Clean(p) == filepath.Clean(link) {
		return fmt.Errorf("refused: %s is a symbolic link: %w (D98); remove the link, or give another name", format.Escape(p), ErrLink)
	}
	return fmt.Errorf("refused: %s goes through the symbolic link %s: %w (D98); give a path without links", format.Escape(p), format.Escape(link), ErrLink)
}

// createIn writes data as name in root through a new temporary file
// (O_EXCL, so never through a link) renamed over it: a link put at name
// since it was looked at is replaced, never followed.
func createIn(root *os.Root, name string, data []byte, perm os.FileMode) error {
	var f *os.File
	var tmp string
	var err error
	for i := 0; ; i++ {
		tmp = fmt.Sprintf(".claimslint-report-%d-%d", os.Getpid(), i)
		f, err = root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) || i > 100 {
			break
		}
	}
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = root.Chmod(tmp, perm)
	}
	if err == nil {
		err = root.Rename(tmp, name)
	}
	if err != nil {
		root.Remove(tmp)
	}
	return err
}

// WriteSingle writes the one-file site to the file named p, beneath its
// directory and through no link (D98); "-" is stdout's business, not this.
func WriteSingle(p string, o Options) error {
	var b strings.Builder
	if err := Write(&b, o); err != nil {
		return err
	}
	root, name, err := openOut(p, false)
	if err != nil {
		return err
	}
	defer root.Close()
	if st, err := root.Lstat(name); err == nil && !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file (%s): give a file name", format.Escape(p), st.Mode().Type())
	}
	if err := createIn(root, name, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", format.Escape(p), err)
	}
	return nil
}

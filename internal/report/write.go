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
// directory in a relative path to it, is a symbolic link: report writes no
// file through a link (D98).
var ErrLink = errors.New("report writes no file through a symbolic link")

// openOut opens the directory that holds the output named p (the file of
// --single, the directory of --out) as an os.Root, and returns it with the
// output's name in it. Every component of a relative path lies under the
// working directory, where a clone's committed links are: each is
// looked at with Lstat and a link is refused, and a missing one is made
// when mkdir is set. An absolute path's directory is the user's word and
// opened as given. The output's own name is refused when it is a link.
// Everything written afterwards goes through the returned Root, which
// refuses any path that leaves it (D98).
func openOut(p string, mkdir bool) (*os.Root, string, error) {
	clean := filepath.Clean(p)
	dir, name := filepath.Split(clean)
	dir = filepath.Clean(dir)
	if name == "" || name == "." || name == ".." {
		return nil, "", fmt.Errorf("%s names a directory, not a file: give a file name, such as report.html", format.Escape(p))
	}
	var root *os.Root
	if !filepath.IsAbs(clean) && filepath.IsLocal(clean) {
		wd, err := os.OpenRoot(".")
		if err != nil {
			return nil, "", fmt.Errorf("open the working directory: %w", err)
		}
		if dir == "." {
			root = wd
		} else {
			defer wd.Close()
			parts := strings.Split(dir, string(filepath.Separator))
			for k := range parts {
				prefix := filepath.Join(parts[:k+1]...)
				st, err := wd.Lstat(prefix)
				if errors.Is(err, fs.ErrNotExist) && mkdir {
					if err = wd.Mkdir(prefix, 0o755); err == nil {
						st, err = wd.Lstat(prefix)
					}
				}
				if err != nil {
					return nil, "", fmt.Errorf("%s: %w", format.Escape(prefix), err)
				}
				if st.Mode()&fs.ModeSymlink != 0 {
					return nil, "", linkErr(p, prefix)
				}
				if !st.IsDir() {
					return nil, "", fmt.Errorf("%s is not a directory: give a path of directories to write %s in", format.Escape(prefix), format.Escape(p))
				}
			}
			if root, err = openSame(wd, dir); err != nil {
				return nil, "", err
			}
		}
	} else {
		if mkdir {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, "", fmt.Errorf("create %s: %w", format.Escape(dir), err)
			}
		}
		r, err := os.OpenRoot(dir)
		if err != nil {
			return nil, "", fmt.Errorf("open %s: %w", format.Escape(dir), err)
		}
		root = r
	}
	if st, err := root.Lstat(name); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		root.Close()
		return nil, "", linkErr(p, p)
	}
	return root, name, nil
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

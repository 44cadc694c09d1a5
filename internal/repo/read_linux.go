//go:build linux

package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"
)

// readNoLinks reads rel beneath Root with one openat per path component,
// each with O_NOFOLLOW: a symbolic link at any component, parents included,
// makes the open fail instead of being followed, and no component can be
// "..", so nothing outside Root is ever opened (D9). It costs one system
// call per component, where a Lstat of every prefix costs one per prefix
// and component (D49).
func (r *Repo) readNoLinks(rel string, max int64) ([]byte, error) {
	dirfd, err := syscall.Open(r.Root, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("open repository root: %w", err)
	}
	parts := strings.Split(rel, "/")
	for k, comp := range parts[:len(parts)-1] {
		fd, err := openat(dirfd, comp, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC)
		if err != nil {
			err = r.linkOr(strings.Join(parts[:k+1], "/"), true, rel, err)
			syscall.Close(dirfd)
			return nil, err
		}
		syscall.Close(dirfd)
		dirfd = fd
	}
	base := parts[len(parts)-1]
	// O_NONBLOCK: a FIFO is refused below instead of blocking the open.
	fd, err := openat(dirfd, base, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC)
	if err != nil {
		err = r.linkOr(rel, false, rel, err)
		syscall.Close(dirfd)
		return nil, err
	}
	syscall.Close(dirfd)
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "fstat", Path: rel, Err: err}
	}
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFREG:
	case syscall.S_IFDIR:
		return nil, fmt.Errorf("%w: a directory", ErrNotRegular)
	default:
		return nil, fmt.Errorf("%w: %s", ErrNotRegular, fs.FileMode(0).Type()|modeType(st.Mode))
	}
	if max > 0 && st.Size > max {
		return nil, fmt.Errorf("%w (%d bytes, limit %d)", ErrTooLarge, st.Size, max)
	}
	// The file may grow between the Fstat and the read: read one byte
	// more than it had, and keep reading while there is room.
	buf := make([]byte, 0, st.Size+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR || err == syscall.EAGAIN {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: rel, Err: err}
		}
		if n == 0 {
			break
		}
		buf = buf[:len(buf)+n]
		if max > 0 && int64(len(buf)) > max {
			return nil, fmt.Errorf("%w (over %d bytes)", ErrTooLarge, max)
		}
	}
	return buf, nil
}

func openat(dirfd int, name string, flags int) (int, error) {
	for {
		fd, err := syscall.Openat(dirfd, name, flags, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// linkOr turns a failed open of prefix (a parent directory of rel, or rel
// itself) into the error a user reads: a symbolic link (at prefix, for a
// parent), or the open's own error. It runs only when an open failed.
func (r *Repo) linkOr(prefix string, parent bool, rel string, err error) error {
	if errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.ENOTDIR) {
		if st, lerr := os.Lstat(r.Abs(prefix)); lerr == nil && st.Mode()&fs.ModeSymlink != 0 {
			if !parent {
				return fmt.Errorf("%w: a symbolic link", ErrNotRegular)
			}
			return fmt.Errorf("%w: a symbolic link at %s", ErrNotRegular, prefix)
		}
	}
	return &fs.PathError{Op: "open", Path: rel, Err: err}
}

// modeType maps a stat mode's file type to fs.FileMode's.
func modeType(m uint32) fs.FileMode {
	switch m & syscall.S_IFMT {
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		return fs.ModeDevice
	case syscall.S_IFLNK:
		return fs.ModeSymlink
	}
	return fs.ModeIrregular
}

const fastRead = true

//go:build linux

package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// readNoLinks reads rel beneath Root with one openat per path component,
// each with O_NOFOLLOW: a symbolic link at any component, parents included,
// makes the open fail instead of being followed, and no component can be
// "..", so nothing outside Root is ever opened (D9). It costs one system
// call per component, where a Lstat of every prefix costs one per prefix
// and component (D56).
func (r *Repo) readNoLinks(rel string, limit int64, buf []byte) ([]byte, error) {
	fd, err := r.openNoLinks(rel)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "fstat", Path: rel, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, regular(modeType(st.Mode))
	}
	if limit > 0 && st.Size > limit {
		return nil, fmt.Errorf("%w (%d bytes, limit %d)", ErrTooLarge, st.Size, limit)
	}
	// The file may grow between the Fstat and the read: read one byte
	// more than it had, and keep reading while there is room.
	switch {
	case int64(cap(buf)) > st.Size:
		buf = buf[:0] // the caller's storage (ReadFileInto)
	case buf != nil:
		// A reused buffer grows at least twofold, so a scan of files of
		// rising sizes allocates a few times, not once per file.
		n := 2 * int64(cap(buf))
		if limit > 0 && n > limit+1 {
			n = limit + 1
		}
		if n < st.Size+1 {
			n = st.Size + 1
		}
		buf = make([]byte, 0, n)
	default:
		buf = make([]byte, 0, st.Size+1)
	}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		room := cap(buf) - len(buf)
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
		if limit > 0 && int64(len(buf)) > limit {
			return nil, fmt.Errorf("%w (over %d bytes)", ErrTooLarge, limit)
		}
		if n < room && int64(len(buf)) == st.Size {
			break // a regular file read short at the size fstat gave is at its end: no read of 0 bytes to say so (D56)
		}
	}
	return buf, nil
}

// openNoLinks opens rel for reading. Where the kernel has openat2, one
// call with RESOLVE_NO_SYMLINKS and RESOLVE_BENEATH refuses a link at any
// component and any escape from Root; elsewhere each component is opened
// with O_NOFOLLOW in turn.
func (r *Repo) openNoLinks(rel string) (int, error) {
	root, err := r.rootFD()
	if err != nil {
		return -1, err
	}
	if !noOpenat2.Load() {
		fd, err := openat2(root, rel, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, resolveNoSymlinks|resolveBeneath)
		switch {
		case err == nil:
			return fd, nil
		case err == syscall.ENOSYS || err == syscall.EPERM:
			noOpenat2.Store(true) // old kernel or a seccomp filter: walk
		case err == syscall.ELOOP || err == syscall.ENOTDIR || err == syscall.EXDEV:
			return -1, r.whichLink(rel, err)
		default:
			return -1, &fs.PathError{Op: "open", Path: rel, Err: err}
		}
	}
	dirfd, err := syscall.Dup(root)
	if err != nil {
		return -1, fmt.Errorf("open repository root: %w", err)
	}
	parts := strings.Split(rel, "/")
	for k, comp := range parts[:len(parts)-1] {
		fd, err := openat(dirfd, comp, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC)
		syscall.Close(dirfd)
		if err != nil {
			return -1, r.linkOr(strings.Join(parts[:k+1], "/"), true, rel, err)
		}
		dirfd = fd
	}
	// O_NONBLOCK: a FIFO is refused after the open instead of blocking it.
	fd, err := openat(dirfd, parts[len(parts)-1], syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC)
	syscall.Close(dirfd)
	if err != nil {
		return -1, r.linkOr(rel, false, rel, err)
	}
	return fd, nil
}

// whichLink names the component of rel that is a symbolic link, after an
// open refused one.
func (r *Repo) whichLink(rel string, err error) error {
	parts := strings.Split(rel, "/")
	for k := range parts {
		prefix := strings.Join(parts[:k+1], "/")
		if st, lerr := os.Lstat(r.Abs(prefix)); lerr == nil && st.Mode()&fs.ModeSymlink != 0 {
			if k == len(parts)-1 {
				return notRegular("a symbolic link")
			}
			return notRegular("a symbolic link at %s", prefix)
		}
	}
	return &fs.PathError{Op: "open", Path: rel, Err: err}
}

// rootFD is a descriptor of Root, opened once per Repo and closed when
// the Repo is collected.
func (r *Repo) rootFD() (int, error) {
	r.rootOnce.Do(func() {
		fd, err := syscall.Open(r.Root, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
		if err != nil {
			r.rootErr = fmt.Errorf("open repository root: %w", err)
			return
		}
		r.root = fd
		runtime.AddCleanup(r, func(fd int) { syscall.Close(fd) }, fd)
	})
	return r.root, r.rootErr
}

var noOpenat2 atomic.Bool

const (
	sysOpenat2        = 437 // the same number on every Linux architecture
	resolveNoSymlinks = 0x04
	resolveBeneath    = 0x08
)

type openHow struct {
	flags   uint64
	mode    uint64
	resolve uint64
}

func openat2(dirfd int, path string, flags int, resolve uint64) (int, error) {
	p, err := syscall.BytePtrFromString(path)
	if err != nil {
		return -1, err
	}
	how := openHow{flags: uint64(flags), resolve: resolve}
	for {
		fd, _, errno := syscall.Syscall6(sysOpenat2, uintptr(dirfd), uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(&how)), unsafe.Sizeof(how), 0, 0)
		if errno == syscall.EINTR || errno == syscall.EAGAIN {
			continue
		}
		if errno != 0 {
			return -1, errno
		}
		return int(fd), nil
	}
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
				return notRegular("a symbolic link")
			}
			return notRegular("a symbolic link at %s", prefix)
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
	case syscall.S_IFDIR:
		return fs.ModeDir
	}
	return fs.ModeIrregular
}

const fastRead = true

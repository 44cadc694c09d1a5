//go:build unix

package docket

import (
	"errors"
	"os"
	"syscall"
)

// lockPath takes an advisory lock on path (created if missing, beneath the
// root and through no link, D67): shared, or exclusive. The returned function releases it. When the lock file
// cannot be created (a read-only directory, a full disk) nothing is
// locked: the caller goes on as it did before there was a lock.
func lockPath(files Files, path string, exclusive bool) func() {
	f, err := files.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return func() {}
	}
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	for {
		err = syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return func() {}
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}
}

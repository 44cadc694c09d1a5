//go:build unix

package repo

import (
	"os"
	"syscall"
)

// ownedByUs reports whether path belongs to the user running us, as git's
// safe.directory check wants of a repository before it reads it; when
// not, git is asked and applies its own rule.
func ownedByUs(path string) bool {
	st, err := os.Stat(path)
	if err != nil {
		return false
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	return ok && int(sys.Uid) == os.Geteuid()
}

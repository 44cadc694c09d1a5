//go:build unix

package repo

import "syscall"

// openNonblock opens without waiting: a named pipe with no writer opens at
// once (and is then refused as not a regular file) instead of blocking.
const openNonblock = syscall.O_NONBLOCK

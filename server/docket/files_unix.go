//go:build unix

package docket

import "syscall"

// oNonblock keeps an open of a named pipe from waiting for a writer: the
// file is then refused as not regular instead of hanging the command.
const oNonblock = syscall.O_NONBLOCK

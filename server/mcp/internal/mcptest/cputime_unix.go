//go:build unix

package mcptest

import (
	"syscall"
	"time"
)

// ProcessCPU is this process's user + system time so far, for the
// benchmarks' cpu-µs/op.
func ProcessCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

package register

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time the calling OS thread has used
// (RUSAGE_THREAD), so a benchmark on a shared machine can report its
// speed per CPU second as well as per wall second.
func threadCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

package region

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time the calling OS thread has used
// (RUSAGE_THREAD): on a shared machine, wall time measures the other
// processes as much as this one. The caller locks its OS thread.
func threadCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

package lintcmd

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
)

// gcFirst is the memory a claimslint process fills before its first
// garbage collection (D92).
const gcFirst = 64 << 20

// TuneGC lets a short run skip the garbage collector. A check of 1,000
// claims over the Go tree allocates about 20 MB and keeps most of it;
// Go's default (a collection each time the heap doubles, from 4 MiB)
// collected seven times in that run, a tenth of its CPU time. So a process
// starts with no collection until it holds gcFirst, and from its first
// collection on it collects as Go does by default: a larger run's memory
// is bounded as before, a small one's by gcFirst. GOGC or GOMEMLIMIT in
// the environment win: TuneGC then changes nothing. cmd/claimslint calls
// it; a test that runs Main in process keeps Go's default.
func TuneGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(gcFirst)
	// The first collection frees the sentinel, and its cleanup restores
	// the default.
	runtime.AddCleanup(new([64]byte), func(struct{}) {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	}, struct{}{})
}

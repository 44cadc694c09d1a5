package wire

import (
	"runtime/debug"
	"testing"
)

// TestGCPercent: docket mcp leaves the collector's target to the runtime
// (GOGC, 100 by default); D82's GOGC 400 is withdrawn.
func TestGCPercent(t *testing.T) {
	was := debug.SetGCPercent(137)
	defer debug.SetGCPercent(was)
	t.Setenv("GOMEMLIMIT", "1GiB") // leave the test binary's memory limit alone
	t.Setenv("GOGC", "")
	TuneMemory()
	if got := debug.SetGCPercent(137); got != 137 {
		t.Errorf("GC percent after TuneMemory: %d, want the one set before (137)", got)
	}
}

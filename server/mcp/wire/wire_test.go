package wire

import (
	"runtime/debug"
	"testing"
)

// TestGCPercent: docket mcp runs with GOGC 400 unless GOGC is set (D82).
func TestGCPercent(t *testing.T) {
	was := debug.SetGCPercent(100)
	defer debug.SetGCPercent(was)
	t.Setenv("GOMEMLIMIT", "1GiB") // leave the test binary's memory limit alone
	t.Setenv("GOGC", "")
	TuneMemory()
	if got := debug.SetGCPercent(100); got != GCPercent || GCPercent != 400 {
		t.Errorf("GC percent after TuneMemory: %d, want 400", got)
	}
	t.Setenv("GOGC", "50")
	TuneMemory()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent with GOGC set: %d, want the one the runtime took (100 here)", got)
	}
}

package lintcmd

import (
	"math"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"strconv"
	"testing"
)

// gcSettings reads the process's GOGC and memory limit.
func gcSettings() (percent, limit uint64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

// TestTuneGC runs TuneGC in a child process (it changes the process's
// collector): no collection until gcFirst, Go's default from the first
// collection on, and nothing changed when GOGC or GOMEMLIMIT is set.
func TestTuneGC(t *testing.T) {
	if env := os.Getenv("LINTCMD_TUNEGC_CHILD"); env != "" {
		tuneGCChild(t, env)
		return
	}
	t.Parallel()
	for _, env := range []string{"default", "GOGC=50", "GOMEMLIMIT=1GiB"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestTuneGC$", "-test.count=1")
		cmd.Env = append(os.Environ(), "LINTCMD_TUNEGC_CHILD="+env, "GOGC=", "GOMEMLIMIT=")
		if env != "default" {
			cmd.Env = append(cmd.Env, env)
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", env, err, out)
		}
	}
}

func tuneGCChild(t *testing.T, env string) {
	before, beforeLimit := gcSettings()
	TuneGC()
	percent, limit := gcSettings()
	if env != "default" {
		if percent != before || limit != beforeLimit {
			t.Fatalf("with %s, TuneGC changed GOGC %d -> %d, limit %d -> %d", env, before, percent, beforeLimit, limit)
		}
		return
	}
	if percent != math.MaxUint64 || limit != gcFirst {
		t.Fatalf("after TuneGC: GOGC %d, limit %d; want off (%d) and %d", percent, limit, uint64(math.MaxUint64), gcFirst)
	}
	// The first collection's cleanup restores the default; it runs on
	// its own goroutine, after the collection.
	for i := 0; i < 10000 && percent != 100; i++ {
		runtime.GC()
		runtime.Gosched()
		percent, limit = gcSettings()
	}
	if percent != 100 || limit != math.MaxInt64 {
		t.Fatalf("after a collection: GOGC %d, limit %s; want 100 and none", percent, strconv.FormatUint(limit, 10))
	}
}

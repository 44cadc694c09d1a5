package check

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/claimslint/claimslint/internal/snapshot"
)

// countdownCtx is a context that is not done for its first left calls of
// Err and cancelled from then on: a cancellation at a known point of a run,
// whatever the scheduling.
type countdownCtx struct {
	context.Context
	left atomic.Int64
}

func (c *countdownCtx) Err() error {
	if c.left.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestRunContextStops: a run whose context is done returns its error and no
// result, whether it was done before the run or while loading.
func TestRunContextStops(t *testing.T) {
	dir := genRepo(t, 30, 12)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res, err := RunContext(ctx, Options{Dir: dir}); !errors.Is(err, context.Canceled) || res != nil {
		t.Fatalf("cancelled: got %v, %v; want context.Canceled and no result", res, err)
	}
	ctx, cancel = context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	if _, err := RunContext(ctx, Options{Dir: dir}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("past its deadline: got %v, want context.DeadlineExceeded", err)
	}
	if res, err := RunContext(context.Background(), Options{Dir: dir}); err != nil || len(res.Claims) != 12 {
		t.Fatalf("not cancelled: %v, %d claims; want 12", err, len(res.Claims))
	}
}

// TestScanStopsBetweenFiles: a context cancelled while the claims' files
// are read stops the scan at the next file: the run reads a few of the
// files its claims name, not all, and returns context.Canceled.
func TestScanStopsBetweenFiles(t *testing.T) {
	const claims = 12
	dir := genRepo(t, 300, claims)
	snap, err := snapshot.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	full, err := RunRules(snap, Options{Dir: dir}, claimRule)
	if err != nil {
		t.Fatal(err)
	}
	total := full.scanned.Load()
	if total < 100 {
		t.Fatalf("the claims read %d files; the test needs many", total)
	}
	// Err is asked once per claim while preparing, once before the scan,
	// then once per file: three files are read, then the run stops.
	ctx := &countdownCtx{Context: context.Background()}
	ctx.left.Store(claims + 1 + 3)
	res := &Result{Snapshot: snap, ctx: ctx, budget: newBudget(time.Hour)}
	err = claimRule.Run(&Pass{Rule: claimRule, Snap: snap, Opts: Options{Dir: dir}, res: res})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if n := res.scanned.Load(); n == 0 || n >= total {
		t.Fatalf("read %d of %d files after the cancellation point; want a few", n, total)
	}
}

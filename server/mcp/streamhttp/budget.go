package streamhttp

import (
	"context"
	"sync"
)

// byteBudget is a weighted semaphore over bytes, first come first served:
// the HTTP front reserves a request body's bytes before reading it, so the
// bodies read and not yet answered stay under a fixed total however many
// requests wait for a handling slot. A reservation larger than the whole
// budget is clamped to it, so one maximal body can always be read.
type byteBudget struct {
	mu      sync.Mutex
	size    int64
	used    int64
	waiters []*budgetWaiter // in arrival order
}

type budgetWaiter struct {
	n     int64
	ready chan struct{} // closed once the bytes are granted
}

func newByteBudget(size int64) *byteBudget {
	return &byteBudget{size: size}
}

// acquire reserves n bytes, waiting while they do not fit or while earlier
// reservations wait (so a large body is not starved by small ones). It
// returns the bytes reserved, for release, or the context's error, having
// reserved nothing.
func (b *byteBudget) acquire(ctx context.Context, n int64) (int64, error) {
	n = min(max(n, 0), b.size)
	b.mu.Lock()
	if b.takeLocked(n) {
		b.mu.Unlock()
		return n, nil
	}
	w := &budgetWaiter{n: n, ready: make(chan struct{})}
	b.waiters = append(b.waiters, w)
	b.mu.Unlock()
	select {
	case <-w.ready:
		return n, nil
	case <-ctx.Done():
		b.mu.Lock()
		select {
		case <-w.ready:
			// Granted while the context ended: give the bytes back.
			b.used -= n
			b.grant()
		default:
			for k, o := range b.waiters {
				if o == w {
					b.waiters = append(b.waiters[:k], b.waiters[k+1:]...)
					break
				}
			}
			// The first waiter may fit now that this one is gone.
			b.grant()
		}
		b.mu.Unlock()
		return 0, ctx.Err()
	}
}

// tryAcquire reserves n bytes only if acquire would without waiting:
// they fit and no earlier reservation waits. It returns the bytes
// reserved, for release, and whether it reserved them.
func (b *byteBudget) tryAcquire(n int64) (int64, bool) {
	n = min(max(n, 0), b.size)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.takeLocked(n) {
		return n, true
	}
	return 0, false
}

// takeLocked reserves n bytes if they fit and no earlier reservation
// waits (first come, first served); b.mu is held.
func (b *byteBudget) takeLocked(n int64) bool {
	if len(b.waiters) == 0 && b.used+n <= b.size {
		b.used += n
		return true
	}
	return false
}

// release returns n reserved bytes and wakes the waiters that now fit.
func (b *byteBudget) release(n int64) {
	b.mu.Lock()
	b.used -= n
	b.grant()
	b.mu.Unlock()
}

// grant hands bytes to waiters in order while the first one fits.
func (b *byteBudget) grant() {
	for len(b.waiters) > 0 {
		w := b.waiters[0]
		if b.used+w.n > b.size {
			return
		}
		b.used += w.n
		b.waiters = b.waiters[1:]
		close(w.ready)
	}
}

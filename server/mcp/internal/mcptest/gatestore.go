package mcptest

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/claimslint/claimslint/server/docket"
)

// GateStore holds every Get until Open, counting the Gets running at once:
// the cap tests of both transports (TestInFlightCap, TestHTTPHandlingCap)
// see how many requests the server lets in. It is built inside a
// testing/synctest bubble when the test runs in one, so that a Get held at
// the gate is durably blocked.
type GateStore struct {
	docket.Store
	release   chan struct{}
	once      sync.Once
	now, most atomic.Int32
}

// NewGateStore wraps s with its Gets held.
func NewGateStore(s docket.Store) *GateStore {
	return &GateStore{Store: s, release: make(chan struct{})}
}

// Open lets every Get through; calling it again does nothing, so a test's
// cleanup can call it too and a failed test leaves no handler waiting.
func (s *GateStore) Open() { s.once.Do(func() { close(s.release) }) }

// Now is how many Gets are waiting or running; Most the largest Now seen.
func (s *GateStore) Now() int32  { return s.now.Load() }
func (s *GateStore) Most() int32 { return s.most.Load() }

func (s *GateStore) Get(ctx context.Context, id string) (docket.Issue, error) {
	n := s.now.Add(1)
	for {
		m := s.most.Load()
		if n <= m || s.most.CompareAndSwap(m, n) {
			break
		}
	}
	<-s.release
	s.now.Add(-1)
	return s.Store.Get(ctx, id)
}

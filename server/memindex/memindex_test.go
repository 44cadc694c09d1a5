package memindex_test

import (
	"sync"
	"testing"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/memindex"
	"github.com/claimslint/claimslint/server/storetest"
)

// TestStore runs the shared store suite on the in-memory index. Indexes
// are kept by key for the test's life, so reopening a key finds its state.
func TestStore(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex // the suite's cases run in parallel
	byKey := map[string]*memindex.Index{}
	storetest.Run(t, func(tb testing.TB, key string) docket.Index {
		mu.Lock()
		defer mu.Unlock()
		x, ok := byKey[key]
		if !ok {
			x = memindex.New()
			byKey[key] = x
		}
		return x
	})
}

package memindex_test

import (
	"testing"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/memindex"
	"github.com/claimslint/claimslint/server/storetest"
)

// TestStore runs the shared store suite on the in-memory index. Indexes
// are kept by key for the test's life, so reopening a key finds its state.
func TestStore(t *testing.T) {
	storetest.Run(t, func(tb testing.TB, key string) docket.Index {
		return open(key)
	})
}

var byKey = map[string]*memindex.Index{}

func open(key string) *memindex.Index {
	if x, ok := byKey[key]; ok {
		return x
	}
	x := memindex.New()
	byKey[key] = x
	return x
}

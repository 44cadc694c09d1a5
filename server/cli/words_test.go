package cli

import (
	"testing"

	"github.com/claimslint/claimslint/server/docket"
)

// TestEveryHintWorded: the command line words every hint the domain can
// give, and no hint it cannot (D101).
func TestEveryHintWorded(t *testing.T) {
	t.Parallel()
	for _, h := range docket.Hints {
		if hints[h] == "" {
			t.Errorf("hint %d has no words on the command line", h)
		}
	}
	if len(hints) != len(docket.Hints) {
		t.Errorf("the command line words %d hints, the domain has %d", len(hints), len(docket.Hints))
	}
}

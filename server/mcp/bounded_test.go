package mcp

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestBoundedHandsItsContextToTheCheck: a claims_check abandoned by its
// caller is told so through its context, stops, and frees the one check
// slot; it does not run to its end in the background (dk-pjz).
func TestBoundedHandsItsContextToTheCheck(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := make(chan struct{})
	ended := make(chan error, 1)
	go func() {
		<-started
		cancel() // the client cancels the request
	}()
	_, err := bounded(ctx, func(ctx context.Context) (int, error) {
		close(started)
		<-ctx.Done() // what check.RunContext polls between files and claims
		ended <- ctx.Err()
		return 0, ctx.Err()
	})
	if err == nil || err.Error() != "claims_check was cancelled" {
		t.Fatalf("bounded returned %v, want the cancellation", err)
	}
	select {
	case got := <-ended:
		if !errors.Is(got, context.Canceled) {
			t.Fatalf("the check saw %v, want context.Canceled", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the check was never told it was cancelled")
	}
	select {
	case claimsSlot <- struct{}{}:
		<-claimsSlot
	case <-time.After(10 * time.Second):
		t.Fatal("the stopped check still holds the slot")
	}
}

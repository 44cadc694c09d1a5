package mcp

import (
	"context"
	"errors"
	"strings"
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
	if err == nil || err.Error() != "cancelled" {
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

// TestDecisionToolErrorsNameTheTool: the register tools' errors start with
// the tool's name, as the issue tools' do, whatever went wrong: no
// register, a malformed id, an id the register does not have.
func TestDecisionToolErrorsNameTheTool(t *testing.T) {
	empty := &tools{dir: t.TempDir()}
	ctx := context.Background()
	for _, c := range []struct {
		name string
		call func() error
		want string
	}{
		{"claims_check, no register", func() error { _, _, err := empty.claimsCheck(ctx, nil, CheckIn{}); return err },
			"claims_check: register: read docs/PRD.md: no such file"},
		{"claims_check, bad id", func() error { _, _, err := empty.claimsCheck(ctx, nil, CheckIn{Decision: "X1"}); return err },
			"claims_check: "},
		{"decision_list, no register", func() error { _, _, err := empty.decisionList(ctx, nil, NoIn{}); return err },
			"decision_list: register: read docs/PRD.md: no such file"},
		{"decision_show, bad id", func() error { _, _, err := empty.decisionShow(ctx, nil, DecisionIn{ID: "X1"}); return err },
			"decision_show: "},
	} {
		err := c.call()
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %v; want it to start with %q", c.name, err, c.want)
		}
	}
}

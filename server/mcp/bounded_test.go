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
	t.Parallel()
	g := newCheckGate(0)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := make(chan struct{})
	ended := make(chan error, 1)
	go func() {
		<-started
		cancel() // the client cancels the request
	}()
	_, err := bounded(ctx, g, func(ctx context.Context) (int, error) {
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
	case g.slot <- struct{}{}:
		<-g.slot
	case <-time.After(10 * time.Second):
		t.Fatal("the stopped check still holds the slot")
	}
}

// TestBoundedTimeout: a check that outlives the gate's timeout
// (Options.ClaimsCheckTimeout) is told its deadline passed, and the error
// names the timeout; the default is DefaultClaimsCheckTimeout.
func TestBoundedTimeout(t *testing.T) {
	t.Parallel()
	if got := newCheckGate(0).timeout; got != DefaultClaimsCheckTimeout {
		t.Errorf("the default timeout is %s, want %s", got, DefaultClaimsCheckTimeout)
	}
	g := newCheckGate(50 * time.Millisecond)
	seen := make(chan error, 1)
	_, err := bounded(context.Background(), g, func(ctx context.Context) (int, error) {
		<-ctx.Done()
		seen <- ctx.Err()
		return 0, ctx.Err()
	})
	if want := "did not finish within 50ms: check one decision at a time (the decision argument)"; err == nil || err.Error() != want {
		t.Fatalf("bounded returned %v, want %q", err, want)
	}
	if got := <-seen; !errors.Is(got, context.DeadlineExceeded) {
		t.Errorf("the check saw %v, want context.DeadlineExceeded", got)
	}
	select {
	case g.slot <- struct{}{}:
		<-g.slot
	case <-time.After(10 * time.Second):
		t.Fatal("the timed-out check still holds the slot")
	}
}

// TestDecisionToolErrorsNameTheTool: the register tools' errors start with
// the tool's name, as the issue tools' do, whatever went wrong: no
// register, a malformed id, an id the register does not have.
func TestDecisionToolErrorsNameTheTool(t *testing.T) {
	t.Parallel()
	empty := newTools(Options{Dir: t.TempDir()})
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

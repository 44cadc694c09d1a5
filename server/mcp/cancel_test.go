package mcp_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/mcp/internal/mcptest"
)

// live is a session driven line by line over a real pipe.
type live struct {
	t    *testing.T
	w    *io.PipeWriter
	out  *syncBuffer
	done chan error
}

func startLive(t *testing.T, store docket.Store, o serveOptions) *live {
	t.Helper()
	r, w := io.Pipe()
	l := &live{t: t, w: w, out: &syncBuffer{}, done: make(chan error, 1)}
	o.Store, o.In, o.Out = store, r, l.out
	if o.Dir == "" {
		o.Dir = t.TempDir()
	}
	go func() { l.done <- serveStdio(context.Background(), o) }()
	return l
}

func (l *live) send(lines ...string) {
	for _, s := range lines {
		if _, err := io.WriteString(l.w, s+"\n"); err != nil {
			l.t.Fatal(err)
		}
	}
}

// await waits until stdout holds text.
func (l *live) await(text string) {
	l.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !bytes.Contains(l.out.Bytes(), []byte(text)) {
		if time.Now().After(deadline) {
			l.t.Fatalf("stdout never held %q:\n%s", text, l.out.Bytes())
		}
		time.Sleep(time.Millisecond)
	}
}

// close ends input and waits for Serve to return.
func (l *live) close() []byte {
	l.t.Helper()
	l.w.Close()
	select {
	case err := <-l.done:
		if err != nil {
			l.t.Fatalf("Serve: %v", err)
		}
	case <-time.After(60 * time.Second):
		l.t.Fatal("Serve did not return after stdin closed")
	}
	return l.out.Bytes()
}

// holdStore blocks Create: titles starting "before" block before anything
// is written and give up when their context ends (a rolled-back write);
// titles starting "after" commit first and then block until their context
// ends (a write whose commit is done when the cancel comes).
type holdStore struct {
	docket.Store
	entered chan string
}

func (s *holdStore) Create(ctx context.Context, n docket.NewIssue) (docket.Issue, error) {
	if strings.HasPrefix(n.Title, "before") {
		s.entered <- n.Title
		<-ctx.Done()
		return docket.Issue{}, ctx.Err()
	}
	i, err := s.Store.Create(ctx, n)
	if strings.HasPrefix(n.Title, "after") {
		s.entered <- n.Title
		<-ctx.Done()
	}
	return i, err
}

func titles(t *testing.T, s docket.Store) string {
	t.Helper()
	is, err := s.List(context.Background(), docket.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	var ts []string
	for _, i := range is {
		ts = append(ts, i.Title)
	}
	return strings.Join(ts, ",")
}

// TestCancelByClientID: a cancel names the client's id; the cancelled
// write that had not committed changes nothing, the one that had stays
// committed and shows in the next read, and neither is answered. Another
// request whose internal counter equals a cancelled id is untouched.
func TestCancelByClientID(t *testing.T) {
	t.Parallel()
	base, _ := newStore(t)
	s := &holdStore{Store: base, entered: make(chan string, 4)}
	l := startLive(t, s, serveOptions{})
	l.send(strings.TrimSpace(initLines))
	l.await(`"id":"init-0"`)
	// internal ids: init-0 is 1, so "x" is 2 and 18446744073709551616 is 3.
	l.send(create(`"x"`, "before: rolled back"))
	<-s.entered
	l.send(create(`18446744073709551616`, "after: committed"))
	<-s.entered
	l.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"x"}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":18446744073709551616}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`,
		`{"jsonrpc":"2.0","id":"ping","method":"ping"}`)
	l.await(`"id":"ping"`)
	out := l.close()
	for _, r := range replies(t, out) {
		switch string(r.ID) {
		case `"x"`, `18446744073709551616`:
			t.Errorf("cancelled request %s was answered: %s", r.ID, out)
		}
	}
	if got := titles(t, base); !strings.Contains(got, "after: committed") || strings.Contains(got, "before") {
		t.Errorf("tracker holds %q; want the committed write and not the rolled-back one", got)
	}
}

// TestDrainWithPendingWrites: input ends while two writes run past
// DrainTimeout. Both are cancelled: the one that had committed is answered
// with its result, the other with an error saying nothing changed, and the
// tracker agrees with both answers.
func TestDrainWithPendingWrites(t *testing.T) {
	t.Parallel()
	base, _ := newStore(t)
	s := &holdStore{Store: base, entered: make(chan string, 4)}
	l := startLive(t, s, serveOptions{DrainTimeout: 100 * time.Millisecond, DrainGrace: 10 * time.Second})
	l.send(strings.TrimSpace(initLines), create(`"b"`, "before: rolled back"), create(`"a"`, "after: committed"))
	<-s.entered
	<-s.entered
	out := l.close()
	got := map[string]reply{}
	for _, r := range replies(t, out) {
		got[string(r.ID)] = r
	}
	if r, ok := got[`"a"`]; !ok || r.Error != nil || bytes.Contains(r.Result, []byte(`"isError":true`)) {
		t.Errorf("the committed write was not answered with its result: %s", out)
	}
	if r, ok := got[`"b"`]; !ok || r.Error == nil || r.Error.Code != -32603 || !strings.Contains(r.Error.Message, "nothing was changed") {
		t.Errorf("the rolled-back write was not answered as rolled back: %s", out)
	}
	if got := titles(t, base); !strings.Contains(got, "after: committed") || strings.Contains(got, "before") {
		t.Errorf("tracker holds %q; want the committed write and not the rolled-back one", got)
	}
}

// TestEOFEndsListensAtOnce: with a listen open, end of input ends it at
// once; the drain timeout (an hour here) is not waited for.
func TestEOFEndsListensAtOnce(t *testing.T) {
	t.Parallel()
	base, _ := newStore(t)
	// The server declares tools.listChanged (a test hook), so the listen
	// stays open: docket mcp itself declares nothing a listen waits for.
	l := startLive(t, base, withListChanged(serveOptions{DrainTimeout: time.Hour}))
	l.send(`{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`)
	l.await(`"io.modelcontextprotocol/subscriptionId":"L"`)
	out := l.close()
	if !bytes.Contains(out, []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"L","reason":"the server's input ended"}}`)) {
		t.Errorf("no cancel on the listen's id at end of input:\n%s", out)
	}
}

// TestInFlightCap: with MaxInFlight 3 and 40 requests written at once, no
// more than 3 run at a time, and all 40 are answered once. It runs in a
// synctest bubble: once every goroutine of the server is blocked (three
// requests hold their slots in the store, the rest wait in the queue), a
// fourth that the cap let through would be running, so the count is read
// then, with no sleep.
func TestInFlightCap(t *testing.T) {
	t.Parallel()
	base, _ := newStore(t)
	synctest.Test(t, func(t *testing.T) {
		s := mcptest.NewGateStore(base)
		t.Cleanup(s.Open)
		l := startLive(t, s, serveOptions{MaxInFlight: 3})
		go func() {
			var b strings.Builder
			b.WriteString(initLines)
			for k := 1; k <= 40; k++ {
				b.WriteString(`{"jsonrpc":"2.0","id":` + itoa(k) + `,"method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-aaa"}}}` + "\n")
			}
			io.WriteString(l.w, b.String())
			l.w.Close()
		}()
		synctest.Wait()
		if n := s.Now(); n != 3 {
			t.Errorf("%d requests run once the server is idle; the cap is 3", n)
		}
		s.Open()
		if err := <-l.done; err != nil {
			t.Fatal(err)
		}
		if m := s.Most(); m != 3 {
			t.Errorf("%d requests ran at once; the cap is 3", m)
		}
		seen := map[string]int{}
		for _, r := range replies(t, l.out.Bytes()) {
			seen[string(r.ID)]++
		}
		for k := 1; k <= 40; k++ {
			if seen[itoa(k)] != 1 {
				t.Errorf("id %d answered %d times", k, seen[itoa(k)])
			}
		}
	})
}

// TestReplyTooLarge: a reply over MaxReply is replaced by an error on the
// same id that says the request was done.
func TestReplyTooLarge(t *testing.T) {
	t.Parallel()
	base, _ := newStore(t)
	l := startLive(t, base, serveOptions{MaxReply: 400})
	l.send(strings.TrimSpace(initLines), `{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-aaa"}}}`)
	l.await(`"id":"big"`)
	out := l.close()
	var found bool
	for _, r := range replies(t, out) {
		if string(r.ID) == `"big"` {
			found = true
			if r.Error == nil || !strings.Contains(r.Error.Message, "over this server's 400-byte limit") {
				t.Errorf("big reply: %s", out)
			}
		}
	}
	if !found {
		t.Errorf("no reply for big: %s", out)
	}
}

package mcp_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/mcp/stdio"
	"github.com/claimslint/claimslint/server/mcp/streamhttp"
	"github.com/claimslint/claimslint/server/mcp/wire"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// lockedStore is a store whose write lock another writer holds: every
// Create waits until the lock is released, or gives up, writing nothing,
// when its context ends (a write rolled back before it committed).
type lockedStore struct {
	docket.Store
	release chan struct{}
	once    sync.Once
	entered chan string
	waiting atomic.Int32
}

func newLockedStore(s docket.Store) *lockedStore {
	return &lockedStore{Store: s, release: make(chan struct{}), entered: make(chan string, 256)}
}

func (s *lockedStore) unlock() { s.once.Do(func() { close(s.release) }) }

func (s *lockedStore) Create(ctx context.Context, n docket.NewIssue) (docket.Issue, error) {
	s.waiting.Add(1)
	defer s.waiting.Add(-1)
	s.entered <- n.Title
	select {
	case <-s.release:
	case <-ctx.Done():
		return docket.Issue{}, ctx.Err()
	}
	if ctx.Err() != nil {
		return docket.Issue{}, ctx.Err()
	}
	return s.Store.Create(ctx, n)
}

// TestCancelAtCap is the attack of issue 25: six issue_create calls, four
// of them (the cap) blocked on a locked store and two read past it, all
// cancelled while blocked. The cancels are read although the cap is
// reached, a ping is answered meanwhile, and once the lock is released
// none of the six has committed and none is answered.
func TestCancelAtCap(t *testing.T) {
	t.Parallel()
	base, _ := newStore(t)
	s := newLockedStore(base)
	t.Cleanup(s.unlock)
	l := startLive(t, s, serveOptions{})
	l.send(strings.TrimSpace(initLines))
	l.await(`"id":"init-0"`)
	// Written aside: a transport that stops reading at the cap blocks
	// these writes, and the test fails on the ping's answer instead of
	// hanging.
	var creates, cancels strings.Builder
	for k := 1; k <= 6; k++ {
		creates.WriteString(create(fmt.Sprintf(`"c%d"`, k), fmt.Sprintf("locked %d", k)) + "\n")
		fmt.Fprintf(&cancels, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c%d","reason":"test"}}`+"\n", k)
	}
	cancels.WriteString(`{"jsonrpc":"2.0","id":"alive","method":"ping"}` + "\n")
	running := make(chan struct{})
	go func() {
		if _, err := io.WriteString(l.w, creates.String()); err != nil {
			return
		}
		<-running
		io.WriteString(l.w, cancels.String())
	}()
	for range wire.DefaultMaxInFlight {
		<-s.entered
	}
	close(running)
	l.await(`{"jsonrpc":"2.0","id":"alive","result":{}}`)
	// The four running see their cancel before the lock is released.
	deadline := time.Now().Add(20 * time.Second)
	for s.waiting.Load() > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d creates still wait on the lock after their cancel", s.waiting.Load())
		}
		time.Sleep(time.Millisecond)
	}
	s.unlock()
	l.send(`{"jsonrpc":"2.0","id":"after","method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-aaa"}}}`)
	l.await(`"id":"after"`)
	out := l.close()
	for _, r := range replies(t, out) {
		if strings.HasPrefix(string(r.ID), `"c`) {
			t.Errorf("cancelled request %s was answered:\n%s", r.ID, out)
		}
	}
	if got := titles(t, base); strings.Contains(got, "locked") {
		t.Errorf("tracker holds %q; no cancelled write may commit", got)
	}
}

// TestCancelQueued: a request cancelled while it waits behind the cap is
// dropped without running and is not answered; the one running is not
// touched and commits once the lock is released.
func TestCancelQueued(t *testing.T) {
	t.Parallel()
	base, _ := newStore(t)
	s := newLockedStore(base)
	t.Cleanup(s.unlock)
	l := startLive(t, s, serveOptions{MaxInFlight: 1})
	l.send(strings.TrimSpace(initLines))
	l.await(`"id":"init-0"`)
	running := make(chan struct{})
	go func() { // aside, as in TestCancelAtCap
		if _, err := io.WriteString(l.w, create(`"run"`, "running")+"\n"+create(`"wait"`, "queued")+"\n"); err != nil {
			return
		}
		<-running
		io.WriteString(l.w, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"wait"}}`+"\n"+`{"jsonrpc":"2.0","id":"alive","method":"ping"}`+"\n")
	}()
	<-s.entered
	close(running)
	l.await(`"id":"alive"`)
	s.unlock()
	l.await(`"id":"run"`)
	out := l.close()
	for _, r := range replies(t, out) {
		if string(r.ID) == `"wait"` {
			t.Errorf("the cancelled queued request was answered:\n%s", out)
		}
	}
	if got := titles(t, base); !strings.Contains(got, "running") || strings.Contains(got, "queued") {
		t.Errorf("tracker holds %q; want the running write and not the cancelled queued one", got)
	}
	if n := len(s.entered); n != 0 {
		t.Errorf("%d cancelled queued creates ran", n)
	}
}

// TestCancelAtCapGoSDKClient: the go-sdk's client, over pipes, calls
// issue_create six times against a locked store and cancels each call's
// context. The ping it sends meanwhile is answered, no create commits, and
// the session goes on serving.
func TestCancelAtCapGoSDKClient(t *testing.T) {
	t.Parallel()
	base, _ := newStore(t)
	s := newLockedStore(base)
	t.Cleanup(s.unlock)
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- serveStdio(context.Background(), serveOptions{Store: s, Dir: t.TempDir(), In: sr, Out: sw})
		sw.Close()
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "go-sdk-client", Version: "1"}, nil)
	session, err := client.Connect(ctx, &sdk.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	callCtx, cancelCalls := context.WithCancel(ctx)
	errs := make(chan error, 6)
	for k := 1; k <= 6; k++ {
		go func() {
			_, err := session.CallTool(callCtx, &sdk.CallToolParams{Name: "issue_create", Arguments: map[string]any{"title": fmt.Sprintf("locked %d", k)}})
			errs <- err
		}()
	}
	for range wire.DefaultMaxInFlight {
		<-s.entered
	}
	cancelCalls()
	for range 6 {
		if err := <-errs; !errors.Is(err, context.Canceled) {
			t.Errorf("a cancelled call ended with %v, want its cancellation", err)
		}
	}
	pingCtx, pingDone := context.WithTimeout(ctx, 20*time.Second)
	defer pingDone()
	if err := session.Ping(pingCtx, nil); err != nil {
		t.Fatalf("ping at the cap: %v", err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for s.waiting.Load() > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d creates still wait on the lock after their cancel", s.waiting.Load())
		}
		time.Sleep(time.Millisecond)
	}
	s.unlock()
	res, err := session.CallTool(ctx, &sdk.CallToolParams{Name: "issue_show", Arguments: map[string]any{"id": "dk-aaa"}})
	if err != nil || res.IsError {
		t.Fatalf("issue_show after the cancels: %v %+v", err, res)
	}
	session.Close()
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if got := titles(t, base); strings.Contains(got, "locked") {
		t.Errorf("tracker holds %q; no cancelled write may commit", got)
	}
}

// TestQueueBounded: past the cap the transport reads on, but only until
// MaxQueued requests (or MaxQueuedBytes of them) wait; then it stops
// reading and the client's writes block. Every request is answered once
// when the store frees.
func TestQueueBounded(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		pad     int // bytes of padding per request
		most    int // requests the transport may have taken
		atLeast int
		total   int // requests written
	}{
		// 70 KiB frames: the 64 KiB read buffer holds less than one.
		{"count", 70 << 10, 1 + stdio.MaxQueued + 3, 1 + stdio.MaxQueued, 2 * stdio.MaxQueued},
		{"bytes", 1 << 20, 1 + stdio.MaxQueuedBytes/(1<<20) + 3, 1 + stdio.MaxQueuedBytes/(1<<20) - 1, 2*stdio.MaxQueuedBytes/(1<<20) + 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			base, _ := newStore(t)
			s := newLockedStore(base)
			t.Cleanup(s.unlock)
			l := startLive(t, s, serveOptions{MaxInFlight: 1})
			l.send(strings.TrimSpace(initLines))
			l.await(`"id":"init-0"`)
			total := tc.total
			var written atomic.Int32
			go func() {
				for k := 1; k <= total; k++ {
					// The first blocks on the lock; the rest read an issue.
					f := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-aaa"},"_meta":{"pad":%q}}}`+"\n", k, strings.Repeat("x", tc.pad))
					if k == 1 {
						f = create("1", "q 1") + "\n"
					}
					if _, err := io.WriteString(l.w, f); err != nil {
						return
					}
					written.Add(1)
				}
			}()
			<-s.entered
			// The transport must take at least atLeast requests: wait for
			// them (a loaded machine may not schedule the writer for a
			// while, which the stillness below would take for a stop).
			for deadline := time.Now().Add(time.Minute); int(written.Load()) < tc.atLeast && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond)
			}
			// Then wait until the writer has stood still for a while: the
			// transport stopped reading.
			last, still := int32(-1), 0
			for still < 50 {
				time.Sleep(2 * time.Millisecond)
				if n := written.Load(); n == last {
					still++
				} else {
					last, still = n, 0
				}
			}
			if n := int(written.Load()); n > tc.most || n < tc.atLeast {
				t.Errorf("the transport took %d requests with 1 running; want %d to %d", n, tc.atLeast, tc.most)
			}
			s.unlock()
			for int(written.Load()) < total {
				time.Sleep(time.Millisecond)
			}
			out := l.close()
			seen := map[string]int{}
			for _, r := range replies(t, out) {
				seen[string(r.ID)]++
			}
			for k := 1; k <= total; k++ {
				if seen[itoa(k)] != 1 {
					t.Errorf("id %d answered %d times", k, seen[itoa(k)])
				}
			}
		})
	}
}

// TestCancelledPOSTHasABody: over HTTP, an issue_create blocked on a
// locked store and cancelled by the client is rolled back, and its POST is
// answered with a JSON-RPC error on its own id that says so, in a
// 2025-11-25 session and in a 2026-07-28 request alike: never 200 with an
// empty body, which clients fail to parse.
func TestCancelledPOSTHasABody(t *testing.T) {
	t.Parallel()
	for _, modern := range []bool{false, true} {
		t.Run(map[bool]string{false: "session", true: "stateless"}[modern], func(t *testing.T) {
			t.Parallel()
			base, _ := newStore(t)
			s := newLockedStore(base)
			t.Cleanup(s.unlock)
			srv := httptest.NewServer(newHTTPHandler(serveOptions{Store: s, Dir: t.TempDir()}, streamhttp.HTTPOptions{}))
			defer srv.Close()
			c := &mcpClient{t: t, url: srv.URL + "/mcp", modern: modern}
			if !modern {
				c.initialize()
			}
			type answer struct {
				status int
				body   string
			}
			done := make(chan answer, 1)
			go func() {
				status, body := c.post(`{"jsonrpc":"2.0","id":"w","method":"tools/call","params":{"name":"issue_create","arguments":{"title":"locked"}` + c.meta() + `}}`)
				done <- answer{status, body}
			}()
			<-s.entered
			if status, _ := c.post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"w"` + c.meta() + `}}`); status != http.StatusAccepted {
				t.Fatalf("cancel: status %d", status)
			}
			var a answer
			select {
			case a = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("the cancelled POST was never answered")
			}
			s.unlock()
			want := `{"jsonrpc":"2.0","id":"w","error":{"code":-32603,"message":"internal error: the request was cancelled by the client (notifications/cancelled) before it finished, and nothing was changed (a write was rolled back)"}}` + "\n"
			if a.status != http.StatusOK || a.body != want {
				t.Errorf("cancelled POST: %d %q, want 200 %q", a.status, a.body, want)
			}
			if got := titles(t, base); strings.Contains(got, "locked") {
				t.Errorf("tracker holds %q; the cancelled write must not commit", got)
			}
		})
	}
}

// TestGoSDKClientPingOverHTTP: go-sdk's client, speaking 2026-07-28 over
// HTTP, pings without _meta (the version only in its header): the ping is
// answered as stdio answers it, and a tool call works in the same
// connection.
func TestGoSDKClientPingOverHTTP(t *testing.T) {
	t.Parallel()
	base, _ := newStore(t)
	srv := httptest.NewServer(newHTTPHandler(serveOptions{Store: base, Dir: t.TempDir()}, streamhttp.HTTPOptions{}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "go-sdk-client", Version: "1"}, nil)
	session, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: srv.URL + "/mcp"}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer session.Close()
	if v := session.InitializeResult().ProtocolVersion; v != wire.ModernVersions[0] {
		t.Fatalf("the client speaks %s, not %s: this test is about its header-only ping", v, wire.ModernVersions[0])
	}
	if err := session.Ping(ctx, nil); err != nil {
		t.Errorf("ping: %v", err)
	}
	res, err := session.CallTool(ctx, &sdk.CallToolParams{Name: "issue_show", Arguments: map[string]any{"id": "dk-aaa"}})
	if err != nil || res.IsError {
		t.Errorf("issue_show: %v %+v", err, res)
	}
}

// TestDrainAnswersQueued: input ends with one write blocked on a locked
// store and one queued behind the cap. After the drain timeout both are
// answered as not done, the queued one without ever running, and neither
// commits.
func TestDrainAnswersQueued(t *testing.T) {
	t.Parallel()
	base, _ := newStore(t)
	s := newLockedStore(base)
	t.Cleanup(s.unlock)
	l := startLive(t, s, serveOptions{MaxInFlight: 1, DrainTimeout: 100 * time.Millisecond, DrainGrace: 10 * time.Second})
	l.send(strings.TrimSpace(initLines), create(`"run"`, "locked running"), create(`"wait"`, "locked queued"))
	<-s.entered
	out := l.close()
	got := map[string]reply{}
	for _, r := range replies(t, out) {
		got[string(r.ID)] = r
	}
	for _, id := range []string{`"run"`, `"wait"`} {
		if r, ok := got[id]; !ok || r.Error == nil || r.Error.Code != -32603 || !strings.Contains(r.Error.Message, "nothing was changed") {
			t.Errorf("%s was not answered as not done:\n%s", id, out)
		}
	}
	if n := len(s.entered); n != 0 {
		t.Errorf("the queued create ran during the drain")
	}
	if got := titles(t, base); strings.Contains(got, "locked") {
		t.Errorf("tracker holds %q; nothing may commit", got)
	}
}

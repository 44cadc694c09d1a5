package streamhttp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/mcp"
	"github.com/claimslint/claimslint/server/mcp/internal/mcptest"
	"github.com/claimslint/claimslint/server/sqlite"
)

func admissionStore(t *testing.T) *mcptest.GateStore {
	t.Helper()
	dir := t.TempDir()
	export := filepath.Join(dir, "issues.jsonl")
	if err := os.WriteFile(export, []byte(mcptest.SeedIssue), 0o644); err != nil {
		t.Fatal(err)
	}
	store, err := docket.Open(context.Background(), sqlite.Backend{DB: filepath.Join(dir, "index.db")}, docket.Options{Export: export})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	g := mcptest.NewGateStore(store)
	t.Cleanup(g.Open)
	return g
}

const admissionMeta = mcptest.ModernMeta

// showRequest is a stateless (2026-07-28) tools/call issue_show with id
// "r-k".
func showRequest(base string, k int) *http.Request {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":"r-%d","method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-aaa"},%s}}`, k, admissionMeta)
	r := httptest.NewRequest("POST", base+"/mcp", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set("MCP-Protocol-Version", "2026-07-28")
	r.Header.Set("Mcp-Method", "tools/call")
	r.Header.Set("Mcp-Name", "issue_show")
	return r
}

// waitFor polls cond for up to 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(end) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestHTTPHandlingCap: with MaxInFlight 2 and 12 requests at once, in each
// era, exactly 2 are handled at a time, every one is answered once on its
// own id, and afterwards no slot, call or body byte is left held.
func TestHTTPHandlingCap(t *testing.T) {
	t.Parallel()
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) { testHTTPHandlingCap(t, era) })
		})
	}
}

// testHTTPHandlingCap is one era of TestHTTPHandlingCap, in a bubble: the
// server and its client talk over in-memory pipes, so once every request
// has got as far as it can (synctest.Wait) the store and the slots show
// whether a third got in.
func testHTTPHandlingCap(t *testing.T, era string) {
	s := admissionStore(t)
	f := NewHTTPHandler(mcp.New(mcp.Options{Store: s, Dir: t.TempDir()}), HTTPOptions{MaxInFlight: 2})
	l := mcptest.NewPipeListener()
	srv := &http.Server{Handler: f}
	go srv.Serve(l)
	transport := &http.Transport{DialContext: l.DialContext, MaxIdleConnsPerHost: 16}
	client := &http.Client{Transport: transport}
	session := ""
	defer func() {
		s.Open()
		if session != "" {
			// The session ends with the test: its goroutines leave the
			// bubble.
			r, _ := http.NewRequest("DELETE", "http://pipe/mcp", nil)
			r.Header.Set("Mcp-Session-Id", session)
			r.Header.Set("MCP-Protocol-Version", era)
			if resp, err := client.Do(r); err != nil {
				t.Errorf("DELETE the session: %v", err)
			} else {
				resp.Body.Close()
			}
		}
		srv.Close()
		transport.CloseIdleConnections()
	}()
	post := func(session, version, body string) (*http.Response, string, error) {
		r, _ := http.NewRequest("POST", "http://pipe/mcp", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("MCP-Protocol-Version", version)
		if session != "" {
			r.Header.Set("Mcp-Session-Id", session)
		}
		if version == "2026-07-28" {
			r.Header.Set("Mcp-Method", "tools/call")
			r.Header.Set("Mcp-Name", "issue_show")
		}
		resp, err := client.Do(r)
		if err != nil {
			return nil, "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp, string(b), err
	}
	meta := "," + admissionMeta
	if era == "2025-11-25" {
		resp, body, err := post("", era, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("initialize: %v %s", err, body)
		}
		session, meta = resp.Header.Get("Mcp-Session-Id"), ""
		post(session, era, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	}
	const n = 12
	errs := make(chan error, n)
	for k := range n {
		go func() {
			id := fmt.Sprintf(`"r-%d"`, k)
			resp, body, err := post(session, era, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-aaa"}`+meta+`}}`)
			switch {
			case err != nil:
				errs <- err
			case resp.StatusCode != 200 || strings.Count(body, `"jsonrpc"`) != 1 || !strings.HasPrefix(body, `{"jsonrpc":"2.0","id":`+id+`,"result":`):
				errs <- fmt.Errorf("request %d: %d %s", k, resp.StatusCode, body)
			default:
				errs <- nil
			}
		}()
	}
	// Every request has got as far as it can: 2 in the store, the
	// others waiting for a slot. A cap that leaked lets a third in.
	synctest.Wait()
	if got := s.Now(); got != 2 {
		t.Errorf("%d requests in the store at once, want 2", got)
	}
	if got := len(f.slots); got != 2 {
		t.Errorf("%d handling slots taken, want 2", got)
	}
	// Both slots are the front's to release once the replies are
	// written: the middleware found each request by its header.
	held := 0
	f.mu.Lock()
	for _, c := range f.calls {
		if c.slot.Load() == callHeld {
			held++
		}
	}
	f.mu.Unlock()
	if held != 2 {
		t.Errorf("%d requests hold their slot for the front, want 2", held)
	}
	s.Open()
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if m := s.Most(); m != 2 {
		t.Errorf("%d requests handled at once; the cap is 2", m)
	}
	f.mu.Lock()
	calls := len(f.calls)
	f.mu.Unlock()
	f.bodies.mu.Lock()
	used := f.bodies.used
	f.bodies.mu.Unlock()
	if len(f.slots) != 0 || calls != 0 || used != 0 {
		t.Errorf("after every reply: %d slots, %d calls, %d body bytes still held", len(f.slots), calls, used)
	}
}

// blockingWriter is a ResponseWriter whose first body write blocks until
// release is closed, standing for a client that does not read its reply.
type blockingWriter struct {
	*httptest.ResponseRecorder
	writing chan struct{}
	release chan struct{}
	once    sync.Once
}

func (w *blockingWriter) Write(p []byte) (int, error) {
	w.once.Do(func() {
		close(w.writing)
		<-w.release
	})
	return w.ResponseRecorder.Write(p)
}

// TestHTTPSlotHeldUntilWritten: a request's handling slot is held while
// its reply is built, and while it is written only when the replies budget
// has no room for it; with room, a reply whole and ready gives its slot
// back before it is written and holds its bytes in that budget instead, so
// a client that does not read holds bytes, not the cap (D91, amending
// D61). Clients that never read a 7 MB reply had locked everyone out.
func TestHTTPSlotHeldUntilWritten(t *testing.T) {
	t.Parallel()
	for _, full := range []bool{false, true} {
		t.Run(fmt.Sprintf("replies budget full %v", full), func(t *testing.T) {
			t.Parallel()
			s := admissionStore(t)
			s.Open()
			f := NewHTTPHandler(mcp.New(mcp.Options{Store: s, Dir: t.TempDir()}), HTTPOptions{MaxInFlight: 1})
			if full {
				f.replies.acquire(context.Background(), f.replies.size)
			}
			w := &blockingWriter{ResponseRecorder: httptest.NewRecorder(), writing: make(chan struct{}), release: make(chan struct{})}
			first := make(chan struct{})
			go func() {
				f.ServeHTTP(w, showRequest("http://127.0.0.1", 1))
				close(first)
			}()
			<-w.writing
			want, wantBytes := 0, true
			if full {
				want, wantBytes = 1, false
			}
			f.replies.mu.Lock()
			held := f.replies.used
			f.replies.mu.Unlock()
			if got := len(f.slots); got != want || (held > 0 && !full) != wantBytes {
				t.Fatalf("while the reply is written %d slots are taken and %d reply bytes held; want %d slots, bytes held %v", got, held, want, wantBytes)
			}
			second := httptest.NewRecorder()
			done := make(chan struct{})
			go func() {
				f.ServeHTTP(second, showRequest("http://127.0.0.1", 2))
				close(done)
			}()
			if full {
				select {
				case <-done:
					t.Fatalf("a second request was handled while the first's reply held the slot: %s", second.Body)
				case <-time.After(100 * time.Millisecond):
				}
			} else {
				<-done // handled while the first reply waits for its client
			}
			close(w.release)
			<-first
			<-done
			for k, b := range []string{w.Body.String(), second.Body.String()} {
				if !strings.HasPrefix(b, fmt.Sprintf(`{"jsonrpc":"2.0","id":"r-%d","result":`, k+1)) {
					t.Errorf("reply %d: %s", k+1, b)
				}
			}
			if len(f.slots) != 0 {
				t.Errorf("%d slots still taken", len(f.slots))
			}
			if full {
				f.replies.release(f.replies.size)
			}
			f.replies.mu.Lock()
			defer f.replies.mu.Unlock()
			if f.replies.used != 0 {
				t.Errorf("%d reply bytes still held", f.replies.used)
			}
		})
	}
}

// TestByteBudget: reservations are granted in arrival order, a large one
// is not passed by later small ones, one larger than the budget is
// clamped, and a waiter whose context ends leaves and lets the next in.
func TestByteBudget(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := newByteBudget(100)
	if n, err := b.acquire(ctx, 500); n != 100 || err != nil {
		t.Fatalf("acquire 500 of 100: %d, %v; want clamped to 100", n, err)
	}
	b.release(100)
	a, _ := b.acquire(ctx, 60)
	order := make(chan string, 3)
	big := make(chan struct{})
	go func() {
		n, _ := b.acquire(ctx, 80)
		order <- "big"
		close(big)
		<-time.After(20 * time.Millisecond)
		b.release(n)
	}()
	waitFor(t, "the big reservation waits", func() bool { b.mu.Lock(); defer b.mu.Unlock(); return len(b.waiters) == 1 })
	cctx, cancel := context.WithCancel(ctx)
	gone := make(chan error, 1)
	go func() {
		_, err := b.acquire(cctx, 10)
		gone <- err
	}()
	waitFor(t, "the small reservation queues behind it", func() bool { b.mu.Lock(); defer b.mu.Unlock(); return len(b.waiters) == 2 })
	cancel()
	if err := <-gone; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled waiter: %v", err)
	}
	go func() {
		n, _ := b.acquire(ctx, 30)
		order <- "small"
		b.release(n)
	}()
	waitFor(t, "the later small reservation queues", func() bool { b.mu.Lock(); defer b.mu.Unlock(); return len(b.waiters) == 2 })
	b.release(a)
	<-big
	if first, second := <-order, <-order; first != "big" || second != "small" {
		t.Errorf("granted %s then %s; want big then small", first, second)
	}
	waitFor(t, "every byte is back", func() bool { b.mu.Lock(); defer b.mu.Unlock(); return b.used == 0 && len(b.waiters) == 0 })
}

package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/claimslint/claimslint/server/mcp/internal/mcptest"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/mcp/streamhttp"
)

// waitUntil polls cond until it holds, failing the test after 20 s.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	mcptest.WaitUntil(t, what, cond)
}

// slowBody opens a connection that sends a POST's headers declaring
// length bytes, then first, and nothing more.
func slowBody(t *testing.T, addr string, length int, first string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nContent-Length: %d\r\n\r\n%s", addr, length, first)
	return conn
}

// TestHTTPSlowBodiesLockNobodyOut is the slowloris attack of issue 22:
// four connections declare Content-Length 16777217 (the body budget of
// the default --max-in-flight 4 is four such bodies) and send one byte.
// Every other client is still served at once, and the four hold in the
// budget only the buffer for the bytes they sent, not their declared
// length (D71).
func TestHTTPSlowBodiesLockNobodyOut(t *testing.T) {
	t.Parallel()
	store, _ := newStore(t)
	h := newHTTPHandler(serveOptions{Store: store, Dir: t.TempDir()}, streamhttp.HTTPOptions{BodyTimeout: time.Minute})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close) // after the slow connections close
	for k := 0; k < 4; k++ {
		slowBody(t, srv.Listener.Addr().String(), 16<<20+1, "{")
	}
	waitUntil(t, "four bodies being read", func() bool { return h.Held().Receiving == 4 })
	if held := h.Held().BodyBytes; held > 4*4096 {
		t.Errorf("four bodies of one byte hold %d bytes of the body budget; want at most their 4 KiB buffers", held)
	}
	client := &http.Client{Timeout: 5 * time.Second}
	for k := 1; k <= 10; k++ {
		if err := httpCall(client, srv.URL, k); err != nil {
			t.Errorf("probe %d behind four slow bodies: %v", k, err)
		}
	}
}

// TestHTTPBodyTimeout: a body that has not arrived within BodyTimeout of
// its headers is answered 408 with a JSON-RPC error, and the connection
// closes; nothing was handed to the SDK.
func TestHTTPBodyTimeout(t *testing.T) {
	t.Parallel()
	store, _ := newStore(t)
	srv := httptest.NewServer(newHTTPHandler(serveOptions{Store: store, Dir: t.TempDir()}, streamhttp.HTTPOptions{BodyTimeout: 200 * time.Millisecond}))
	defer srv.Close()
	conn := slowBody(t, srv.Listener.Addr().String(), 100, `{"jsonrpc":"2.0",`)
	conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a stalled body: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	want := `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: the body did not arrive within 200ms of its headers (--body-timeout); nothing was done"}}` + "\n"
	if resp.StatusCode != http.StatusRequestTimeout || string(b) != want || !resp.Close {
		t.Errorf("stalled body: %d (close %v) %s; want 408, closed, %s", resp.StatusCode, resp.Close, b, want)
	}
}

// initialize opens a 2025-11-25 session on url and returns its status,
// body and minted session id.
func initialize(t *testing.T, url string) (int, string, string) {
	t.Helper()
	c := &mcpClient{t: t, url: url}
	status, body := c.post(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	return status, body, c.session
}

const capRefusal = `{"jsonrpc":"2.0","id":"init","error":{"code":-32603,"message":"internal error: this server holds %d sessions, its limit (--max-sessions): end one you no longer use with DELETE, wait for an idle one to close (after %s without a request), or send 2026-07-28 requests, which need no session"}}` + "\n"

// TestHTTPSessionCap: past MaxSessions an initialize is answered 503 with a
// JSON-RPC error on its id that says what to do, 2026-07-28 requests are
// still served, and a session ended with DELETE makes room.
func TestHTTPSessionCap(t *testing.T) {
	t.Parallel()
	store, _ := newStore(t)
	h := newHTTPHandler(serveOptions{Store: store, Dir: t.TempDir()}, streamhttp.HTTPOptions{MaxSessions: 3})
	srv := httptest.NewServer(h)
	defer srv.Close()
	var sessions []string
	for k := 0; k < 3; k++ {
		status, body, s := initialize(t, srv.URL+"/mcp")
		if status != http.StatusOK || s == "" {
			t.Fatalf("initialize %d under the cap: %d %s", k, status, body)
		}
		sessions = append(sessions, s)
	}
	status, body, s := initialize(t, srv.URL+"/mcp")
	if want := fmt.Sprintf(capRefusal, 3, "30m0s"); status != http.StatusServiceUnavailable || body != want || s != "" {
		t.Errorf("initialize at the cap: %d %q %s\nwant 503, no session, %s", status, s, body, want)
	}
	if err := httpCall(http.DefaultClient, srv.URL, 1); err != nil {
		t.Errorf("a 2026-07-28 request at the cap: %v", err)
	}
	if n := h.Held().Sessions; n != 3 {
		t.Errorf("%d sessions held, want 3", n)
	}
	r, _ := http.NewRequest(http.MethodDelete, srv.URL+"/mcp", nil)
	r.Header.Set("Mcp-Session-Id", sessions[0])
	resp, err := http.DefaultClient.Do(r)
	if err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %v %v", resp, err)
	}
	resp.Body.Close()
	if status, body, _ := initialize(t, srv.URL+"/mcp"); status != http.StatusOK {
		t.Errorf("initialize after a DELETE: %d %s", status, body)
	}
}

// TestHTTPSessionFlood is the session attack of issue 22 in small: 400
// initialize calls, 16 at a time, against MaxSessions 50 keep at most 50
// sessions; each refused one is told so, and once the flood is over,
// initialize calls are served up to exactly the cap.
func TestHTTPSessionFlood(t *testing.T) {
	t.Parallel()
	store, _ := newStore(t)
	h := newHTTPHandler(serveOptions{Store: store, Dir: t.TempDir()}, streamhttp.HTTPOptions{MaxSessions: 50})
	srv := httptest.NewServer(h)
	defer srv.Close()
	refusal := fmt.Sprintf(capRefusal, 50, "30m0s")
	var mu sync.Mutex
	served := 0
	var wg sync.WaitGroup
	work := make(chan int)
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range work {
				status, body, _ := initialize(t, srv.URL+"/mcp")
				switch {
				case status == http.StatusOK:
					mu.Lock()
					served++
					mu.Unlock()
				case status != http.StatusServiceUnavailable || body != refusal:
					t.Errorf("initialize in the flood: %d %s", status, body)
				}
			}
		}()
	}
	for k := 0; k < 400; k++ {
		work <- k
	}
	close(work)
	wg.Wait()
	if n := h.Held().Sessions; served > 50 || n != served {
		t.Errorf("%d initialize calls served, %d sessions held; want at most 50, one per call served", served, n)
	}
	for served < 50 {
		if status, body, _ := initialize(t, srv.URL+"/mcp"); status != http.StatusOK {
			t.Fatalf("initialize %d after the flood, under the cap: %d %s", served+1, status, body)
		}
		served++
	}
	if status, _, _ := initialize(t, srv.URL+"/mcp"); status != http.StatusServiceUnavailable {
		t.Errorf("initialize 51: %d, want 503", status)
	}
}

// TestHTTPSessionIdleExpiry: a session with no request for SessionIdle is
// closed, which makes room under the cap; a request on it then gets the
// SDK's 404 as a JSON-RPC error, which tells a client to initialize again.
func TestHTTPSessionIdleExpiry(t *testing.T) {
	t.Parallel()
	store, _ := newStore(t)
	h := newHTTPHandler(serveOptions{Store: store, Dir: t.TempDir()}, streamhttp.HTTPOptions{MaxSessions: 1, SessionIdle: 100 * time.Millisecond})
	srv := httptest.NewServer(h)
	defer srv.Close()
	status, body, first := initialize(t, srv.URL+"/mcp")
	if status != http.StatusOK {
		t.Fatalf("initialize: %d %s", status, body)
	}
	waitUntil(t, "the idle session to close", func() bool { return h.Held().Sessions == 0 })
	if status, body, _ := initialize(t, srv.URL+"/mcp"); status != http.StatusOK {
		t.Errorf("initialize once the idle session closed: %d %s", status, body)
	}
	c := &mcpClient{t: t, url: srv.URL + "/mcp", session: first}
	if status, body := c.post(`{"jsonrpc":"2.0","id":"p","method":"ping"}`); status != http.StatusNotFound || !strings.HasPrefix(body, `{"jsonrpc":"2.0","id":"p","error":{"code":-32600,"message":"invalid request: session not found: `) {
		t.Errorf("a request on the closed session: %d %s", status, body)
	}
}

// TestHTTPBearerSchemeAnyCase: the scheme of Authorization is matched in
// any case and may be followed by more than one space (RFC 7235 §2.1); the
// token itself is matched exactly.
func TestHTTPBearerSchemeAnyCase(t *testing.T) {
	t.Parallel()
	store, _ := newStore(t)
	srv := httptest.NewServer(newHTTPHandler(serveOptions{Store: store, Dir: t.TempDir()}, streamhttp.HTTPOptions{Token: "s3cret"}))
	defer srv.Close()
	for _, c := range []struct {
		header string
		want   int
	}{
		{"Bearer s3cret", http.StatusOK},
		{"bearer s3cret", http.StatusOK},
		{"BEARER s3cret", http.StatusOK},
		{"bEaReR  s3cret", http.StatusOK},
		{"Bearer S3CRET", http.StatusUnauthorized},
		{"Basic s3cret", http.StatusUnauthorized},
		{"Bearers3cret", http.StatusUnauthorized},
		{"Bearer", http.StatusUnauthorized},
		{"", http.StatusUnauthorized},
	} {
		r, _ := http.NewRequest("POST", srv.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{`+modernMeta+`}}`))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("MCP-Protocol-Version", "2026-07-28")
		r.Header.Set("Mcp-Method", "server/discover")
		if c.header != "" {
			r.Header.Set("Authorization", c.header)
		}
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("Authorization %q: %d %s, want %d", c.header, resp.StatusCode, b, c.want)
		}
	}
}

// drainStore holds creates at shutdown: "before" blocks until its context
// ends and changes nothing; "after" commits, then blocks until its context
// ends; "stuck" ignores its context until release is closed.
type drainStore struct {
	docket.Store
	entered chan string
	release chan struct{}
}

func (s *drainStore) Create(ctx context.Context, n docket.NewIssue) (docket.Issue, error) {
	switch {
	case strings.HasPrefix(n.Title, "before"):
		s.entered <- n.Title
		<-ctx.Done()
		return docket.Issue{}, ctx.Err()
	case strings.HasPrefix(n.Title, "after"):
		i, err := s.Store.Create(ctx, n)
		s.entered <- n.Title
		<-ctx.Done()
		return i, err
	case strings.HasPrefix(n.Title, "stuck"):
		s.entered <- n.Title
		<-s.release
		return docket.Issue{}, errors.New("released")
	}
	return s.Store.Create(ctx, n)
}

// TestHTTPDrainAnswersStragglers: SIGTERM with three writes running past
// DrainTimeout. Each gets an answer before ServeHTTP returns, as over
// stdio: the one that had committed its result, the one that had not an
// error saying nothing changed, and the one whose handler ignores its
// cancellation, after DrainGrace, a 503 saying its outcome is not known;
// no connection is cut without a reply. The tracker agrees.
func TestHTTPDrainAnswersStragglers(t *testing.T) {
	t.Parallel()
	base, _ := newStore(t)
	s := &drainStore{Store: base, entered: make(chan string, 3), release: make(chan struct{})}
	t.Cleanup(func() { close(s.release) })
	ctx, stop := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	served := make(chan error, 1)
	go func() {
		served <- serveHTTP(ctx, serveOptions{Store: s, Dir: t.TempDir(), DrainTimeout: 100 * time.Millisecond, DrainGrace: time.Second},
			streamhttp.HTTPOptions{Addr: "127.0.0.1:0", Ready: ready})
	}()
	url := "http://" + <-ready + "/mcp"
	legacy := &mcpClient{t: t, url: url}
	legacy.initialize()
	modern := &mcpClient{t: t, url: url, modern: true}
	type answer struct {
		status int
		body   string
	}
	answers := map[string]chan answer{}
	for _, c := range []struct {
		title string
		on    *mcpClient
	}{{"before: rolled back", legacy}, {"after: committed", modern}, {"stuck: ignores its cancellation", modern}} {
		id := strings.SplitN(c.title, ":", 2)[0]
		answers[id] = make(chan answer, 1)
		go func() {
			status, body := c.on.post(`{"jsonrpc":"2.0","id":"` + id + `","method":"tools/call","params":{"name":"issue_create","arguments":{"title":"` + c.title + `"}` + c.on.meta() + `}}`)
			answers[id] <- answer{status, body}
		}()
		<-s.entered
	}
	stop() // SIGTERM
	if err := <-served; err != nil {
		t.Errorf("ServeHTTP: %v", err)
	}
	got := map[string]answer{}
	for id, ch := range answers {
		got[id] = <-ch
	}
	if a := got["before"]; a.status != http.StatusOK || a.body != `{"jsonrpc":"2.0","id":"before","error":{"code":-32603,"message":"internal error: the server is shutting down; the request was cancelled before it finished and nothing was changed (a write was rolled back): retry it against a running server"}}`+"\n" {
		t.Errorf("the rolled-back write: %d %s", a.status, a.body)
	}
	var after struct {
		Result struct {
			IsError           bool `json:"isError"`
			StructuredContent struct {
				Issue struct{ Title string }
			}
		}
	}
	if a := got["after"]; a.status != http.StatusOK || json.Unmarshal([]byte(a.body), &after) != nil || after.Result.IsError || after.Result.StructuredContent.Issue.Title != "after: committed" {
		t.Errorf("the committed write was not answered with its result: %d %s", a.status, a.body)
	}
	if a := got["stuck"]; a.status != http.StatusServiceUnavailable || a.body != `{"jsonrpc":"2.0","id":"stuck","error":{"code":-32603,"message":"internal error: the server is shutting down and the request did not finish in time; it did not stop when cancelled, so whether it changed the tracker is not known: read before retrying"}}`+"\n" {
		t.Errorf("the write that ignored its cancellation: %d %s", a.status, a.body)
	}
	if got := titles(t, base); !strings.Contains(got, "after: committed") || strings.Contains(got, "before") {
		t.Errorf("tracker holds %q; want the committed write and not the rolled-back one", got)
	}
}

// mcpClient posts JSON-RPC frames to one endpoint, in one session (legacy)
// or none (modern).
type mcpClient struct {
	t       *testing.T
	url     string
	modern  bool
	session string
	token   string
}

// meta is the _meta member a modern request carries, with a leading comma.
func (c *mcpClient) meta() string {
	if !c.modern {
		return ""
	}
	return "," + modernMeta
}

func (c *mcpClient) initialize() {
	c.t.Helper()
	status, body := c.post(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if status != http.StatusOK || c.session == "" {
		c.t.Fatalf("initialize: %d %s", status, body)
	}
	c.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// post sends one frame and returns the status and body; an initialize's
// minted session is kept.
func (c *mcpClient) post(frame string) (int, string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, _ := http.NewRequestWithContext(ctx, "POST", c.url, strings.NewReader(frame))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	if c.modern {
		var m struct {
			Method string
			Params struct{ Name string }
		}
		json.Unmarshal([]byte(frame), &m)
		r.Header.Set("MCP-Protocol-Version", "2026-07-28")
		r.Header.Set("Mcp-Method", m.Method)
		if m.Params.Name != "" {
			r.Header.Set("Mcp-Name", m.Params.Name)
		}
	} else if c.session != "" {
		r.Header.Set("Mcp-Session-Id", c.session)
		r.Header.Set("MCP-Protocol-Version", "2025-11-25")
	}
	if c.token != "" {
		r.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		c.t.Errorf("POST %.60s: %v", frame, err)
		return 0, ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if s := resp.Header.Get("Mcp-Session-Id"); s != "" {
		c.session = s
	}
	return resp.StatusCode, string(b)
}

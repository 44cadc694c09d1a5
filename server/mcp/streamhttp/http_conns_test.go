package streamhttp_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/mcp"
	"github.com/claimslint/claimslint/server/mcp/internal/mcptest"
	"github.com/claimslint/claimslint/server/mcp/streamhttp"
)

// servePipes serves h on a pipe listener under its connection caps: a
// write over net.Pipe blocks until the other end reads it, with no kernel
// buffer between, so a client that does not read stalls the server's very
// first write to it.
func servePipes(t *testing.T, h *streamhttp.HTTPHandler) *mcptest.PipeListener {
	t.Helper()
	pl := mcptest.NewPipeListener()
	srv := &http.Server{Handler: h}
	ln := h.LimitConns(srv, pl)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return pl
}

// listRequest is a 2026-07-28 tools/list POST, as raw bytes, with the
// token when it is not empty. Its reply (every tool's schema) is far
// larger than the server's write buffers.
func listRequest(id, token string) string {
	body := `{"jsonrpc":"2.0","id":"` + id + `","method":"tools/list","params":{` + mcptest.ModernMeta + `}}`
	auth := ""
	if token != "" {
		auth = "Authorization: Bearer " + token + "\r\n"
	}
	return "POST /mcp HTTP/1.1\r\nHost: docket\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\n" + auth + fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

// listCall sends a tools/list on conn and reads its answer's status.
func listCall(t *testing.T, conn net.Conn, id, token string) int {
	t.Helper()
	conn.SetDeadline(time.Now().Add(20 * time.Second))
	if _, err := io.WriteString(conn, listRequest(id, token)); err != nil {
		t.Fatalf("%s: write: %v", id, err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("%s: no answer: %v", id, err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode == 200 && (!strings.HasPrefix(string(b), `{"jsonrpc":"2.0","id":"`+id+`","result":{`) || !strings.Contains(string(b), `"tools":[`) || len(b) < 16<<10) {
		t.Errorf("%s: 200 without its tools, or a reply that fits the server's buffers (%d bytes): %.200s", id, len(b), b)
	}
	return resp.StatusCode
}

// TestHTTPUnreadRepliesLockNobodyOut is issue 31's: clients that never
// read a large reply held every handling slot while their replies waited
// to be written, with no write deadline, and everyone else waited. Now a
// reply whole and ready gives its slot back before it is written (its
// bytes held in the reply budget), so with one slot, four clients that
// read nothing leave ten others served (D91).
func TestHTTPUnreadRepliesLockNobodyOut(t *testing.T) {
	t.Parallel()
	store, _ := mcptest.NewStore(t)
	h := newHTTPHandler(serveOptions{Store: store, Dir: t.TempDir(), MaxInFlight: 1}, streamhttp.HTTPOptions{WriteTimeout: time.Hour})
	pl := servePipes(t, h)
	for k := range 4 {
		c := pl.DialAs("192.0.2.1")
		t.Cleanup(func() { c.Close() })
		io.WriteString(c, listRequest(fmt.Sprint("stuck-", k), "")) // and never read
	}
	for k := range 10 {
		c := pl.DialAs("192.0.2.2")
		if got := listCall(t, c, fmt.Sprint("probe-", k), ""); got != 200 {
			t.Errorf("probe %d behind four unread replies: %d", k, got)
		}
		c.Close()
	}
}

// TestHTTPWriteTimeout: a write to a client that does not read is given
// up after the write timeout and the connection closed; nothing waits on
// it (D91).
func TestHTTPWriteTimeout(t *testing.T) {
	t.Parallel()
	store, _ := mcptest.NewStore(t)
	h := newHTTPHandler(serveOptions{Store: store, Dir: t.TempDir()}, streamhttp.HTTPOptions{WriteTimeout: 50 * time.Millisecond})
	pl := servePipes(t, h)
	c := pl.DialAs("192.0.2.1")
	defer c.Close()
	io.WriteString(c, listRequest("stuck", ""))
	mcptest.WaitUntil(t, "the stalled connection closed", func() bool { return h.Held().Conns == 0 })
}

// TestHTTPConnectionCap: past the caps a new connection closes the longest
// idle one that never presented the token, from its own address when that
// address is at its cap; the token holder's are never closed, so it is
// served whatever the others hold open; with nothing to close, the new
// connection is refused with 503 (D91). Before, 4,083 keep-alive
// connections that sent nothing locked the token holder out.
func TestHTTPConnectionCap(t *testing.T) {
	t.Parallel()
	const token = "s3cret"
	store, _ := mcptest.NewStore(t)
	h := newHTTPHandler(serveOptions{Store: store, Dir: t.TempDir()}, streamhttp.HTTPOptions{Token: token, MaxConns: 8, MaxConnsPerAddr: 4})
	pl := servePipes(t, h)

	// The token holder keeps two connections open, served.
	var holder []net.Conn
	for k := range 2 {
		c := pl.DialAs("192.0.2.1")
		defer c.Close()
		if got := listCall(t, c, fmt.Sprint("holder-", k), token); got != 200 {
			t.Fatalf("the token holder's call: %d", got)
		}
		holder = append(holder, c)
	}
	// A flood from two addresses of connections that send nothing, and
	// of ones that send no token: the caps hold.
	for k := range 40 {
		c := pl.DialAs(fmt.Sprint("198.51.100.", 1+k%2))
		defer c.Close()
		if k%4 == 0 {
			if got := listCall(t, c, fmt.Sprint("anon-", k), ""); got != 401 {
				t.Errorf("a call without the token: %d", got)
			}
		}
		if n := h.Held().Conns; n > 8 {
			t.Fatalf("%d connections open, over the cap of 8", n)
		}
	}
	// The token holder's kept-alive connections are still served, and a
	// new one of its gets in, the flood at the cap notwithstanding.
	for k, c := range holder {
		if got := listCall(t, c, fmt.Sprint("holder-again-", k), token); got != 200 {
			t.Errorf("the token holder's kept-alive connection %d: %d", k, got)
		}
	}
	c := pl.DialAs("198.51.100.1")
	defer c.Close()
	if got := listCall(t, c, "holder-new", token); got != 200 {
		t.Errorf("the token holder's new connection from a flooding address: %d", got)
	}
	// Every connection open now is the token holder's or one of the
	// newest: at most four from one address.
	if n := h.Held().Conns; n > 8 {
		t.Errorf("%d connections open, over the cap of 8", n)
	}

	// With every connection the token holder's, a newcomer is refused.
	h2 := newHTTPHandler(serveOptions{Store: store, Dir: t.TempDir()}, streamhttp.HTTPOptions{Token: token, MaxConns: 2, MaxConnsPerAddr: 2})
	pl2 := servePipes(t, h2)
	for k := range 2 {
		c := pl2.DialAs("192.0.2.1")
		defer c.Close()
		if got := listCall(t, c, fmt.Sprint("full-", k), token); got != 200 {
			t.Fatalf("call %d: %d", k, got)
		}
	}
	c = pl2.DialAs("192.0.2.9")
	defer c.Close()
	c.SetDeadline(time.Now().Add(20 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || resp.StatusCode != 503 {
		t.Fatalf("a connection past the caps with none to close: %v %v", resp, err)
	}
	b, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(b), "--max-conns") {
		t.Errorf("the refusal says %q", b)
	}
}

// TestHTTPGETStreamWriteTimeout is dk-jft: a 2025-11-25 session's GET
// event stream is written by go-sdk, and a client that opened it and
// never read held that writer, and its connection, until the session
// idled out. Its writes now get the write deadline too (D91): the stalled
// stream's connection is closed after the write timeout.
func TestHTTPGETStreamWriteTimeout(t *testing.T) {
	t.Parallel()
	store, _ := mcptest.NewStore(t)
	h := newHTTPHandler(serveOptions{Store: store, Dir: t.TempDir()}, streamhttp.HTTPOptions{WriteTimeout: 50 * time.Millisecond})
	pl := servePipes(t, h)
	c := pl.DialAs("192.0.2.1")
	defer c.Close()
	c.SetDeadline(time.Now().Add(20 * time.Second))
	body := `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: docket\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	io.ReadAll(resp.Body)
	resp.Body.Close()
	session := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || session == "" {
		t.Fatalf("initialize: %d, session %q", resp.StatusCode, session)
	}
	c.Close()
	mcptest.WaitUntil(t, "the initializing connection closed", func() bool { return h.Held().Conns == 0 })
	g := pl.DialAs("192.0.2.1")
	defer g.Close()
	fmt.Fprintf(g, "GET /mcp HTTP/1.1\r\nHost: docket\r\nAccept: text/event-stream\r\nMcp-Session-Id: %s\r\nMCP-Protocol-Version: 2025-11-25\r\n\r\n", session)
	// The client never reads: the stream's first write stalls.
	mcptest.WaitUntil(t, "the stalled GET stream's connection closed", func() bool { return h.Held().Conns == 0 })
}

// serveOptions are the settings of docket mcp's application these tests
// set, and the transport's cap on requests in flight.
type serveOptions struct {
	Store       docket.Store
	Dir         string
	MaxInFlight int
}

// newHTTPHandler is the HTTP front of the application o describes.
func newHTTPHandler(o serveOptions, h streamhttp.HTTPOptions) *streamhttp.HTTPHandler {
	h.MaxInFlight = o.MaxInFlight
	return streamhttp.NewHTTPHandler(mcp.New(mcp.Options{Store: o.Store, Dir: o.Dir}), h)
}

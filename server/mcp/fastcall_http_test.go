package mcp_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server/mcp/internal/mcptest"
	"github.com/claimslint/claimslint/server/mcp/streamhttp"
)

var stamp = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z`)

// TestFastCallsAreTheSDKsOverHTTP: inside a 2025-11-25 session the HTTP
// front serves a plain tools/call of a read-only issue tool itself (D82);
// every answer it writes is the one go-sdk's streamable handler writes for
// the same request, status, headers and body byte for byte: the frames of
// the stdio test, and the requests whose headers the SDK refuses before
// its dispatch (an Accept or Content-Type it does not take, Last-Event-ID,
// a Host its DNS-rebinding screen stops, a session it does not hold, one
// deleted), which the front leaves to it.
func TestFastCallsAreTheSDKsOverHTTP(t *testing.T) {
	t.Parallel()
	show := `{"jsonrpc":"2.0","id":"h","method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-aaa"}}}`
	type req struct {
		body    string
		headers map[string]string // set over the client's; "" deletes
		session string            // "other": a session deleted first; "none": an unknown id
	}
	var reqs []req
	for _, f := range fastFrames() {
		reqs = append(reqs, req{body: f})
	}
	reqs = append(reqs,
		req{body: show, headers: map[string]string{"Accept": "*/*"}},
		req{body: show, headers: map[string]string{"Accept": "application/json"}},
		req{body: show, headers: map[string]string{"Accept": "text/*, application/*;q=0.5"}},
		req{body: show, headers: map[string]string{"Content-Type": "application/json; charset=utf-8"}},
		req{body: show, headers: map[string]string{"Content-Type": "text/plain"}},
		req{body: show, headers: map[string]string{"Last-Event-ID": "0"}},
		req{body: show, headers: map[string]string{"Host": "attacker.example"}},
		req{body: show, headers: map[string]string{"Host": "localhost:1"}},
		req{body: show, headers: map[string]string{"MCP-Protocol-Version": ""}},
		req{body: show, headers: map[string]string{"MCP-Protocol-Version": "2025-06-18"}},
		req{body: show, session: "none"},
		req{body: show, session: "other"},
	)
	var served []int64
	run := func(throughSDK bool) []string {
		store, _ := newStore(t)
		o := serveOptions{Store: store, Dir: t.TempDir(), MaxInFlight: 1, throughSDK: throughSDK}
		h := newHTTPHandler(o, streamhttp.HTTPOptions{})
		srv := httptest.NewServer(h)
		defer srv.Close()
		defer func() { served = append(served, h.Held().FastServed) }()
		url := srv.URL + "/mcp"
		_, _, session := initialize(t, url)
		_, _, other := initialize(t, url)
		post(t, url, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil)
		post(t, url, other, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil)
		if got := del(t, url, other); got != http.StatusNoContent {
			t.Fatalf("DELETE: %d", got)
		}
		var out []string
		for _, r := range reqs {
			s := session
			switch r.session {
			case "other":
				s = other
			case "none":
				s = "no-such-session"
			}
			a := post(t, url, s, r.body, r.headers)
			a = strings.ReplaceAll(a, session, "SESSION")
			a = createdID.ReplaceAllStringFunc(a, func(id string) string {
				if id == "dk-aaa" {
					return id
				}
				return "dk-new"
			})
			out = append(out, stamp.ReplaceAllString(a, "STAMP"))
		}
		return out
	}
	fast, sdk := run(false), run(true)
	// Fourteen frames (2-13, s, 20; not 14 with _meta, 15 and 21 whose
	// arguments are not an object, 16-19) and six header cases (*/*,
	// wildcards, a charset, a loopback Host, no version header, the other
	// legacy version).
	if want := []int64{20, 0}; !slices.Equal(served, want) {
		t.Errorf("calls the front served itself, fast and through the SDK: %v, want %v", served, want)
	}
	for k := range reqs {
		if fast[k] != sdk[k] {
			t.Errorf("request %d (%.80s %v):\nfast path: %s\nSDK:       %s", k, reqs[k].body, reqs[k].headers, fast[k], sdk[k])
		}
	}
}

// post sends one frame in session with the usual headers, headers set
// over them ("" deletes one), and returns the answer: its status, its
// headers but Date, sorted, and its body.
func post(t *testing.T, url, session, body string, headers map[string]string) string {
	t.Helper()
	r, _ := http.NewRequest("POST", url, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set("MCP-Protocol-Version", "2025-11-25")
	r.Header.Set("Mcp-Session-Id", session)
	for k, v := range headers {
		switch {
		case k == "Host":
			r.Host = v
		case v == "":
			r.Header.Del(k)
		default:
			r.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatalf("POST %.60s: %v", body, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var hs []string
	for k, vs := range resp.Header {
		if k != "Date" {
			hs = append(hs, k+": "+strings.Join(vs, ", "))
		}
	}
	slices.Sort(hs)
	return resp.Status + "\n" + strings.Join(hs, "\n") + "\n\n" + string(b)
}

// del ends session with DELETE and returns the status.
func del(t *testing.T, url, session string) int {
	t.Helper()
	r, _ := http.NewRequest("DELETE", url, nil)
	r.Header.Set("Mcp-Session-Id", session)
	r.Header.Set("MCP-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatalf("DELETE: %v", err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestFastCallWireBytes: the answer to a plain read-only call the front
// serves itself is, on the connection, the very bytes go-sdk's handler
// answers with (the Date header aside): the status line, the headers in
// their order, chunked, the chunks and the last one (D82); to an HTTP/1.0
// client, unchunked, up to the connection's end. Each request is written
// on a raw connection and the answer read whole, so a Content-Length or a
// chunk split anew shows.
func TestFastCallWireBytes(t *testing.T) {
	t.Parallel()
	bodies := []string{
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-aaa"}}}`,
		`{"jsonrpc":"2.0","id":"s","method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-zzz"}}}`,
		`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"issue_list","arguments":{}}}`,
		// A reply of several chunks, written before the handler returns.
		`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-bbb"}}}`,
	}
	var served []int64
	run := func(throughSDK bool) []string {
		store, export := newStore(t)
		var big map[string]any
		if err := json.Unmarshal([]byte(mcptest.SeedIssue), &big); err != nil {
			t.Fatal(err)
		}
		big["id"], big["description"] = "dk-bbb", strings.Repeat("a long <description> & more\u2028, ", 400)
		line, _ := json.Marshal(big)
		if err := os.WriteFile(export, append([]byte(mcptest.SeedIssue), append(line, '\n')...), 0o644); err != nil {
			t.Fatal(err)
		}
		o := serveOptions{Store: store, Dir: t.TempDir(), MaxInFlight: 1, throughSDK: throughSDK}
		h := newHTTPHandler(o, streamhttp.HTTPOptions{})
		srv := httptest.NewServer(h)
		defer srv.Close()
		url := srv.URL + "/mcp"
		_, _, session := initialize(t, url)
		post(t, url, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil)
		conn, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		var out []string
		for _, body := range bodies {
			fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\nMcp-Session-Id: %s\r\nContent-Length: %d\r\n\r\n%s",
				srv.Listener.Addr(), session, len(body), body)
			// Every byte the server sent for the answer, read through
			// the client's parser (it asks for one request at a time).
			var raw bytes.Buffer
			resp, err := http.ReadResponse(bufio.NewReader(io.TeeReader(conn, &raw)), nil)
			if err == nil {
				_, err = io.Copy(io.Discard, resp.Body)
			}
			if err != nil {
				t.Fatalf("reading the answer to %.60s: %v after %q", body, err, raw.String())
			}
			out = append(out, withoutDate(raw.String()))
		}
		// An HTTP/1.0 client, which cannot take chunks: the answer ends
		// with the connection, on both paths alike.
		for _, body := range bodies {
			c, err := net.Dial("tcp", srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			c.SetReadDeadline(time.Now().Add(20 * time.Second)) // a bound, not a wait
			fmt.Fprintf(c, "POST /mcp HTTP/1.0\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\nMcp-Session-Id: %s\r\nContent-Length: %d\r\n\r\n%s",
				srv.Listener.Addr(), session, len(body), body)
			raw, err := io.ReadAll(c)
			c.Close()
			if err != nil {
				t.Fatalf("reading the HTTP/1.0 answer to %.60s: %v after %q", body, err, raw)
			}
			out = append(out, withoutDate(string(raw)))
		}
		served = append(served, h.Held().FastServed)
		return out
	}
	fast, sdk := run(false), run(true)
	if want := []int64{int64(2 * len(bodies)), 0}; !slices.Equal(served, want) {
		t.Errorf("calls the front served itself, fast and through the SDK: %v, want %v", served, want)
	}
	for k := range fast {
		if chunked := strings.Contains(fast[k], "Transfer-Encoding: chunked\r\n"); chunked != (k < len(bodies)) {
			t.Errorf("answer %d: chunked %v, want it only over HTTP/1.1:\n%s", k, chunked, fast[k])
		}
		if fast[k] != sdk[k] {
			t.Errorf("answer %d (%.80s):\nfast path: %q\nSDK:       %q", k, bodies[k%len(bodies)], fast[k], sdk[k])
		}
	}
}

// withoutDate is an answer's bytes with its Date header taken out and the
// issue's time stamps replaced, so that two answers compare.
func withoutDate(raw string) string {
	return stamp.ReplaceAllString(dateHeader.ReplaceAllString(raw, ""), "STAMP")
}

var dateHeader = regexp.MustCompile(`(?m)^Date: .*\r\n`)

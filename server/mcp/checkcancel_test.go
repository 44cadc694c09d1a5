//go:build unix

package mcp_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server/mcp"
	"github.com/claimslint/claimslint/server/mcp/streamhttp"
)

// hangingRepo is tinyRepo with hangCheck in it: the first check child
// started on it hangs until it is killed.
func hangingRepo(t *testing.T) string {
	t.Helper()
	dir := tinyRepo(t)
	if err := os.WriteFile(filepath.Join(dir, hangCheck), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// withChildren is o running its register checks in child processes whose
// pids arrive on the channel returned.
func withChildren(t *testing.T, o serveOptions) (serveOptions, <-chan int) {
	t.Helper()
	o.CheckProcess = childProcess(t)
	return o, mcp.WatchChildren(o.Dir)
}

// gone fails the test unless process pid has exited and been reaped.
func gone(t *testing.T, pid int) {
	t.Helper()
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("check child %d still exists after its request ended (kill -0: %v)", pid, err)
	}
}

// hanging waits for the next check child to start and take dir's
// hangCheck: it then hangs until it is killed.
func hanging(t *testing.T, pids <-chan int, dir string) int {
	t.Helper()
	deadline := time.After(20 * time.Second)
	var pid int
	select {
	case pid = <-pids:
	case <-deadline:
		t.Fatal("no check child started")
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, hangCheck)); errors.Is(err, os.ErrNotExist) {
			return pid
		}
		select {
		case <-deadline:
			t.Fatal("the check child never took " + hangCheck)
		case <-time.After(time.Millisecond):
		}
	}
}

// TestCancelledCheckFreesTheSlotOverStdio is the attack of issue 22 over
// stdio: a claims_check the client cancels is killed at once, so a second
// claims_check runs and is answered now, not when the first would have
// ended; the cancelled one is never answered.
func TestCancelledCheckFreesTheSlotOverStdio(t *testing.T) {
	t.Parallel()
	store, _ := newStore(t)
	dir := hangingRepo(t)
	o, pids := withChildren(t, serveOptions{Dir: dir})
	l := startLive(t, store, o)
	l.send(strings.TrimSpace(initLines))
	l.await(`"id":"init-0"`)
	l.send(`{"jsonrpc":"2.0","id":"first","method":"tools/call","params":{"name":"claims_check","arguments":{}}}`)
	first := hanging(t, pids, dir)
	l.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"first"}}`,
		`{"jsonrpc":"2.0","id":"second","method":"tools/call","params":{"name":"claims_check","arguments":{"decision":"D1"}}}`)
	l.await(`"id":"second","result":{"content":[{"type":"text","text":"ok: 0 findings (0 errors); 1 claims: 1 ok"}],"structuredContent":{"claims":[{"claim":"C1","decision":"D1"`)
	gone(t, first)
	out := l.close()
	if strings.Contains(string(out), `"id":"first"`) {
		t.Errorf("the cancelled check was answered:\n%s", out)
	}
}

// TestCheckTimeoutKillsTheChild: a check that outlives ClaimsCheckTimeout
// is killed and answered with the timeout, and the slot is free at once:
// the next check's child starts (and, hanging too, times out in turn).
func TestCheckTimeoutKillsTheChild(t *testing.T) {
	t.Parallel()
	store, _ := newStore(t)
	dir := hangingRepo(t)
	o, pids := withChildren(t, serveOptions{Dir: dir, ClaimsCheckTimeout: 300 * time.Millisecond})
	l := startLive(t, store, o)
	next := func() int {
		t.Helper()
		select {
		case pid := <-pids:
			return pid
		case <-time.After(20 * time.Second):
			t.Fatal("no check child started")
			return 0
		}
	}
	l.send(strings.TrimSpace(initLines),
		`{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"decision_list","arguments":{}}}`)
	first := next()
	l.await(`"id":"slow","result":{"content":[{"type":"text","text":"decision_list: did not finish within 300ms: check one decision at a time (the decision argument)"}],"isError":true}}`)
	gone(t, first)
	if err := os.WriteFile(filepath.Join(dir, hangCheck), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	l.send(`{"jsonrpc":"2.0","id":"next","method":"tools/call","params":{"name":"decision_show","arguments":{"id":"D1"}}}`)
	second := next()
	l.await(`"id":"next","result":{"content":[{"type":"text","text":"decision_show: did not finish within 300ms: check one decision at a time (the decision argument)"}],"isError":true}}`)
	gone(t, second)
	l.close()
}

// TestCancelledCheckFreesTheSlotOverHTTP: the same attack over HTTP, in a
// 2025-11-25 session (the cancel names the client's id in the session)
// and in a 2026-07-28 request (the cancel ends the request's context). The
// cancelled POST gets a JSON-RPC error body that says so.
func TestCancelledCheckFreesTheSlotOverHTTP(t *testing.T) {
	t.Parallel()
	for _, modern := range []bool{false, true} {
		name := map[bool]string{false: "session", true: "stateless"}[modern]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			store, _ := newStore(t)
			dir := hangingRepo(t)
			o, pids := withChildren(t, serveOptions{Store: store, Dir: dir})
			srv := httptest.NewServer(newHTTPHandler(o, streamhttp.HTTPOptions{}))
			defer srv.Close()
			c := &mcpClient{t: t, url: srv.URL + "/mcp", modern: modern}
			if !modern {
				c.initialize()
			}
			firstDone := make(chan string, 1)
			go func() {
				_, body := c.post(`{"jsonrpc":"2.0","id":"first","method":"tools/call","params":{"name":"claims_check","arguments":{}` + c.meta() + `}}`)
				firstDone <- body
			}()
			first := hanging(t, pids, dir)
			if status, _ := c.post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"first"` + c.meta() + `}}`); status != http.StatusAccepted {
				t.Fatalf("cancel: status %d", status)
			}
			status, body := c.post(`{"jsonrpc":"2.0","id":"second","method":"tools/call","params":{"name":"claims_check","arguments":{"decision":"D1"}` + c.meta() + `}}`)
			if status != http.StatusOK || !strings.HasPrefix(body, `{"jsonrpc":"2.0","id":"second","result":`) || !strings.Contains(body, `"text":"ok: 0 findings (0 errors); 1 claims: 1 ok"}],`) || !strings.Contains(body, `"structuredContent":{"claims":[{"claim":"C1","decision":"D1"`) {
				t.Errorf("second check: %d %s", status, body)
			}
			gone(t, first)
			select {
			case body := <-firstDone:
				// A POST is answered all the same (D80): with what
				// happened, never an empty body.
				if want := `{"jsonrpc":"2.0","id":"first","error":{"code":-32603,"message":"internal error: the request was cancelled by the client (notifications/cancelled) before it finished, and nothing was changed (a write was rolled back)"}}` + "\n"; body != want {
					t.Errorf("the cancelled check's POST was answered %q, want %q", body, want)
				}
			case <-time.After(20 * time.Second):
				t.Error("the cancelled check's POST never ended")
			}
		})
	}
}

package mcptest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server/docket"
)

// InitLines is a client's initialize handshake (2025-11-25), as stdio
// sends it.
const InitLines = `{"jsonrpc":"2.0","id":"init-0","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"conformance","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
`

// SyncBuffer is a bytes.Buffer safe for a writer and a reader at once: a
// server's stdout read while it writes.
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// Bytes is a copy of what was written so far.
func (b *SyncBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.buf.Bytes())
}

// Converse runs one stdio session: serve reads in and writes to stdout,
// and Converse returns everything written once serve has returned (stdin
// closed after the last byte). A line "#await TEXT" in in is not sent: the
// client waits until stdout holds TEXT (as many times as it was awaited so
// far) before it writes on, so a script can cancel a request that is known
// to be in flight.
func Converse(t testing.TB, serve func(ctx context.Context, in io.Reader, out io.Writer) error, in []byte) []byte {
	t.Helper()
	r, w := io.Pipe()
	out := &SyncBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- serve(context.Background(), r, out)
	}()
	go func() {
		awaited := map[string]int{}
		for _, l := range strings.SplitAfter(string(in), "\n") {
			text, ok := strings.CutPrefix(l, "#await ")
			if !ok {
				w.Write([]byte(l))
				continue
			}
			text = strings.TrimSuffix(text, "\n")
			awaited[text]++
			for deadline := time.Now().Add(20 * time.Second); bytes.Count(out.Bytes(), []byte(text)) < awaited[text]; {
				if time.Now().After(deadline) {
					t.Errorf("stdout never held %q %d times:\n%s", text, awaited[text], out.Bytes())
					break
				}
				time.Sleep(time.Millisecond)
			}
		}
		w.Close()
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("Serve did not return after stdin closed")
	}
	return out.Bytes()
}

// Reply is one JSON-RPC reply line.
type Reply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// Replies reads the reply lines of out; a line that is not JSON fails t.
func Replies(t testing.TB, out []byte) []Reply {
	t.Helper()
	var rs []Reply
	for _, l := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		var r Reply
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatalf("server wrote a line that is not JSON-RPC: %q", l)
		}
		rs = append(rs, r)
	}
	return rs
}

// SlowStore holds every Get until Release is closed; Entered, if set, is
// told each Get that waits.
type SlowStore struct {
	docket.Store
	Release chan struct{}
	Entered chan struct{}
}

func (s *SlowStore) Get(ctx context.Context, id string) (docket.Issue, error) {
	if s.Entered != nil {
		s.Entered <- struct{}{}
	}
	<-s.Release
	return s.Store.Get(ctx, id)
}

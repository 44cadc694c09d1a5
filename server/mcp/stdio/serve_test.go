package stdio_test

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/mcp"
	"github.com/claimslint/claimslint/server/mcp/internal/mcptest"
	"github.com/claimslint/claimslint/server/mcp/stdio"
)

// TestEOFWaitsForSlowRequests: stdin closes while requests are still
// running; each is answered before Serve returns, exactly once.
func TestEOFWaitsForSlowRequests(t *testing.T) {
	t.Parallel()
	base, _ := mcptest.NewStore(t)
	s := &mcptest.SlowStore{Store: base, Release: make(chan struct{})}
	time.AfterFunc(300*time.Millisecond, func() { close(s.Release) })
	var in strings.Builder
	in.WriteString(mcptest.InitLines)
	for k := 1; k <= 20; k++ {
		in.WriteString(`{"jsonrpc":"2.0","id":` + itoa(k) + `,"method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-aaa"}}}` + "\n")
	}
	out := serve(t, s, []byte(in.String()))
	seen := map[string]int{}
	for _, r := range mcptest.Replies(t, out) {
		seen[string(r.ID)]++
		if r.Error != nil {
			t.Errorf("id %s: %s", r.ID, r.Error.Message)
		}
	}
	for k := 1; k <= 20; k++ {
		if seen[itoa(k)] != 1 {
			t.Errorf("id %d answered %d times", k, seen[itoa(k)])
		}
	}
}

// TestDrainTimeoutAnswersStragglers: a request that outlives DrainTimeout
// after stdin ends is answered by the transport with -32603, and the
// handler's late reply is dropped: still exactly one answer.
func TestDrainTimeoutAnswersStragglers(t *testing.T) {
	t.Parallel()
	base, _ := mcptest.NewStore(t)
	s := &mcptest.SlowStore{Store: base, Release: make(chan struct{})}
	defer close(s.Release)
	o := serveOptions{Store: s, Dir: t.TempDir(), DrainTimeout: 200 * time.Millisecond, DrainGrace: 100 * time.Millisecond}
	out := serveWith(t, o, []byte(mcptest.InitLines+`{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-aaa"}}}`+"\n"))
	want := `{"jsonrpc":"2.0","id":"slow","error":{"code":-32603,"message":"internal error: the server is shutting down (end of input) and the request did not finish in time; it only reads, so nothing was changed"}}`
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if !strings.Contains(l, `"init-0"`) {
			got = append(got, l)
		}
	}
	if len(got) != 1 || got[0] != want {
		t.Errorf("got %q\nwant one line %s", got, want)
	}
}

func itoa(k int) string { return strconv.Itoa(k) }

// serveOptions are the settings of docket mcp's application and of the
// stdio transport these tests set.
type serveOptions struct {
	Store                    docket.Store
	Dir                      string
	DrainTimeout, DrainGrace time.Duration
}

// serveWith runs one stdio session of the application o describes over in
// (mcptest.Converse) and returns what it wrote.
func serveWith(t testing.TB, o serveOptions, in []byte) []byte {
	t.Helper()
	app := mcp.New(mcp.Options{Store: o.Store, Dir: o.Dir})
	return mcptest.Converse(t, func(ctx context.Context, r io.Reader, w io.Writer) error {
		return stdio.Serve(ctx, app, stdio.Options{In: r, Out: w, DrainTimeout: o.DrainTimeout, DrainGrace: o.DrainGrace})
	}, in)
}

// serve is serveWith in a fresh repository, with the default drain.
func serve(t testing.TB, store docket.Store, in []byte) []byte {
	t.Helper()
	return serveWith(t, serveOptions{Store: store, Dir: t.TempDir()}, in)
}

// gatedWriter is stdout whose write of a frame holding hold blocks until
// release is closed; entered is closed when that write begins.
type gatedWriter struct {
	mu       sync.Mutex
	buf      bytes.Buffer
	hold     string
	entered  chan struct{}
	release  chan struct{}
	finished bool
}

func (g *gatedWriter) Write(p []byte) (int, error) {
	if strings.Contains(string(p), g.hold) {
		close(g.entered)
		<-g.release
		defer func() { g.mu.Lock(); g.finished = true; g.mu.Unlock() }()
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.buf.Write(p)
}

// TestDrainAnswerWrittenBeforeTheEnd pins dk-s7b: a request the drain
// answers leaves the session's pending set only once its answer is
// written, so Serve cannot return (and the process exit) between the two.
// In a synctest bubble the drain's timers run at once: while the
// straggler's answer is held in Write, however long the clock runs, Serve
// must not have returned.
func TestDrainAnswerWrittenBeforeTheEnd(t *testing.T) {
	t.Parallel()
	base, _ := mcptest.NewStore(t)
	synctest.Test(t, func(t *testing.T) {
		s := &mcptest.SlowStore{Store: base, Release: make(chan struct{})}
		defer close(s.Release)
		out := &gatedWriter{hold: `"id":"slow"`, entered: make(chan struct{}), release: make(chan struct{})}
		r, w := io.Pipe()
		done := make(chan error, 1)
		go func() {
			app := mcp.New(mcp.Options{Store: s, Dir: t.TempDir()})
			done <- stdio.Serve(context.Background(), app, stdio.Options{In: r, Out: out, DrainTimeout: 200 * time.Millisecond, DrainGrace: 100 * time.Millisecond})
		}()
		io.WriteString(w, mcptest.InitLines+`{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-aaa"}}}`+"\n")
		w.Close()
		<-out.entered
		// Every goroutine of the bubble is blocked now, so this sleep is
		// the bubble's clock running on: past the drain, and past the
		// second Serve gives a handler that outlived it.
		time.Sleep(5 * time.Second)
		select {
		case <-done:
			t.Fatal("Serve returned while the drain's answer to the straggler was still being written")
		default:
		}
		close(out.release)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		out.mu.Lock()
		defer out.mu.Unlock()
		if !out.finished || !strings.Contains(out.buf.String(), `"id":"slow","error"`) {
			t.Errorf("the straggler's answer is not on stdout:\n%s", out.buf.String())
		}
	})
}

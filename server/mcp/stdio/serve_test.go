package stdio_test

import (
	"context"
	"io"
	"strconv"
	"strings"
	"testing"
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

package mcp_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server/docket"
)

// slowStore holds every Get until release is closed; entered, if set, is
// told each Get that waits.
type slowStore struct {
	docket.Store
	release chan struct{}
	entered chan struct{}
}

func (s *slowStore) Get(ctx context.Context, id string) (docket.Issue, error) {
	if s.entered != nil {
		s.entered <- struct{}{}
	}
	<-s.release
	return s.Store.Get(ctx, id)
}

// TestEOFWaitsForSlowRequests: stdin closes while requests are still
// running; each is answered before Serve returns, exactly once.
func TestEOFWaitsForSlowRequests(t *testing.T) {
	t.Parallel()
	base, _ := newStore(t)
	s := &slowStore{Store: base, release: make(chan struct{})}
	time.AfterFunc(300*time.Millisecond, func() { close(s.release) })
	var in strings.Builder
	in.WriteString(initLines)
	for k := 1; k <= 20; k++ {
		in.WriteString(`{"jsonrpc":"2.0","id":` + itoa(k) + `,"method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-aaa"}}}` + "\n")
	}
	out := serve(t, s, []byte(in.String()))
	seen := map[string]int{}
	for _, r := range replies(t, out) {
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
	base, _ := newStore(t)
	s := &slowStore{Store: base, release: make(chan struct{})}
	defer close(s.release)
	o := serveOptions{Store: s, Dir: t.TempDir(), DrainTimeout: 200 * time.Millisecond, DrainGrace: 100 * time.Millisecond}
	out := serveWith(t, o, []byte(initLines+`{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-aaa"}}}`+"\n"))
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

package streamhttp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/mcp"
	"github.com/claimslint/claimslint/server/mcp/internal/mcptest"
	"github.com/claimslint/claimslint/server/sqlite"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkHTTP compares docket mcp --http's handler with go-sdk's stock
// streamable handler serving the same SDK server and tools, over loopback
// TCP with 1 and with 64 requests in flight (the sub-benchmark's last
// element), each a tools/call issue_show inside one 2025-11-25 session,
// all in this process. cpu-µs/op is the process's CPU time per call, the
// client's included. It is for profiling the HTTP path (go test
// -cpuprofile); its client shares the process and the sub-benchmarks run
// one after another, so its ratios move with the machine's load. The
// published comparison is `bench/run.sh --only http`: each server its own
// process, rounds alternating, server CPU time beside wall time.
//
//	go test ./server/mcp/streamhttp -run '^$' -bench 'HTTP$/docket/1$' -benchtime 20000x -cpuprofile cpu.out
func BenchmarkHTTP(b *testing.B) {
	dir := b.TempDir()
	export := filepath.Join(dir, "issues.jsonl")
	os.WriteFile(export, []byte(`{"id":"dk-aaa","title":"seeded","description":"","status":"open","type":"task","priority":2,"labels":[],"decisions":[],"deps":[],"comments":[],"created_at":"2026-10-01T00:00:00Z","updated_at":"2026-10-01T00:00:00Z","closed_at":null,"close_reason":"","version":1,"schema":1}`+"\n"), 0o644)
	store, err := docket.Open(context.Background(), sqlite.Backend{DB: filepath.Join(dir, "index.db")}, docket.Options{Export: export})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	o := mcp.Options{Store: store, Dir: dir}
	s := mcp.NewServer(o)
	get := func(*http.Request) *sdk.Server { return s }
	for _, c := range []struct {
		name    string
		handler http.Handler
	}{
		{"docket", NewHTTPHandler(mcp.New(o), HTTPOptions{MaxInFlight: 64})},
		// The stock handler as it comes (SSE replies) and with JSON
		// replies, the mode docket's front used behind its screen before
		// D80's amendment (it now runs the SDK with SSE replies).
		{"sdk-stock", sdk.NewStreamableHTTPHandler(get, nil)},
		{"sdk-stock-json", sdk.NewStreamableHTTPHandler(get, &sdk.StreamableHTTPOptions{JSONResponse: true})},
	} {
		for _, inflight := range []int{1, 64} {
			b.Run(fmt.Sprintf("%s/%d", c.name, inflight), func(b *testing.B) {
				benchHTTPCalls(b, c.handler, inflight)
			})
		}
	}
}

// benchHTTPCalls opens a 2025-11-25 session on h and makes b.N tools/call
// issue_show calls in it, inflight at a time, each over its own
// keep-alive connection.
func benchHTTPCalls(b *testing.B, h http.Handler, inflight int) {
	srv := httptest.NewServer(h)
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: inflight}}
	post := func(session, body string) (*http.Response, []byte, error) {
		r, _ := http.NewRequest("POST", srv.URL, bytes.NewReader([]byte(body)))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("MCP-Protocol-Version", "2025-11-25")
		if session != "" {
			r.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := client.Do(r)
		if err != nil {
			return nil, nil, err
		}
		defer resp.Body.Close()
		out, err := io.ReadAll(resp.Body)
		return resp, out, err
	}
	resp, _, err := post("", `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
	if err != nil {
		b.Fatal(err)
	}
	session := resp.Header.Get("Mcp-Session-Id")
	post(session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	var next atomic.Int64
	var failed atomic.Int64
	b.ResetTimer()
	c0, cpuOK := mcptest.ProcessCPU()
	var wg sync.WaitGroup
	for range inflight {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := next.Add(1)
				if k > int64(b.N) {
					return
				}
				_, out, err := post(session, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-aaa"}}}`, k))
				if err != nil || !bytes.Contains(out, []byte(fmt.Sprintf(`"id":%d,"result"`, k))) {
					failed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	if c1, ok := mcptest.ProcessCPU(); cpuOK && ok {
		// Client and server alike, less moved by the machine's load than
		// the wall time.
		b.ReportMetric(float64(c1-c0)/float64(b.N)/1e3, "cpu-µs/op")
	}
	if n := failed.Load(); n > 0 {
		b.Fatalf("%d of %d calls not answered with their result", n, b.N)
	}
}

package mcp_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server/mcp"
	"github.com/claimslint/claimslint/server/mcp/internal/mcptest"
)

// BenchmarkToolsCall measures issue_show through the whole server (screen,
// SDK, tool, store) with 64 requests in flight, in process over pipes,
// with tool outputs unvalidated as in production (D82).
//
//	go test ./server/mcp -run '^$' -bench ToolsCall -benchtime 20000x -count 5
//	go test ./server/mcp -run '^$' -bench ToolsCall -cpuprofile cpu.out
func BenchmarkToolsCall(b *testing.B) { benchToolsCall(b, 64) }

// BenchmarkToolsCall512 is BenchmarkToolsCall with 512 requests in
// flight: past the in-flight cap and the queue (D80), the transport stops
// reading and the client's writes wait in the pipe.
//
//	go test ./server/mcp -run '^$' -bench ToolsCall512 -benchtime 20000x -cpuprofile cpu.out
func BenchmarkToolsCall512(b *testing.B) { benchToolsCall(b, 512) }

func benchToolsCall(b *testing.B, inflight int) {
	was := mcp.CheckOutputs(false) // what production does (D82)
	b.Cleanup(func() { mcp.CheckOutputs(was) })
	store, export := newStore(b)
	// A tracker at rest, as docket mcp mostly meets it: an export written a
	// minute ago is trusted by its size and mtime, not hashed per call (D14).
	old := time.Now().Add(-time.Minute)
	if err := os.Chtimes(export, old, old); err != nil {
		b.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- serveStdio(context.Background(), serveOptions{Store: store, Dir: b.TempDir(), In: inR, Out: outW})
	}()
	w := bufio.NewWriter(inW)
	sc := bufio.NewScanner(outR)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	fmt.Fprint(w, initLines)
	w.Flush()
	sc.Scan() // initialize reply
	slots := make(chan struct{}, inflight)
	go func() {
		for sc.Scan() {
			<-slots
		}
	}()
	b.ResetTimer()
	c0, cpuOK := mcptest.ProcessCPU()
	for k := 0; k < b.N; k++ {
		slots <- struct{}{}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-aaa"}}}`+"\n", k)
		if len(slots) == inflight || k == b.N-1 {
			w.Flush()
		}
	}
	w.Flush()
	for len(slots) > 0 {
		slots <- struct{}{}
		<-slots
	}
	b.StopTimer()
	if c1, ok := mcptest.ProcessCPU(); cpuOK && ok {
		// CPU time is what a shared machine cannot inflate: both sides of
		// the pipes, the server and this client, per call.
		b.ReportMetric(float64(c1-c0)/float64(b.N)/1e3, "cpu-µs/op")
	}
	inW.Close()
	<-done
}

package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server/mcp/streamhttp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// logSink collects the notifications/message a client receives, as
// "tool issue level" lines.
type logSink struct {
	mu   sync.Mutex
	seen []string
}

func (l *logSink) handler(_ context.Context, req *sdk.LoggingMessageRequest) {
	var d struct {
		Tool  string `json:"tool"`
		Issue string `json:"issue"`
	}
	b, _ := json.Marshal(req.Params.Data)
	json.Unmarshal(b, &d)
	l.mu.Lock()
	l.seen = append(l.seen, fmt.Sprintf("%s %s %s", d.Tool, d.Issue, req.Params.Level))
	l.mu.Unlock()
}

func (l *logSink) get() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.seen)
}

// TestLogsInThePOSTStream: go-sdk's client over HTTP, in both eras, gets
// the write log of its request in that request's own response (D80), at
// the level it asked for: under 2026-07-28 the request's _meta logLevel,
// in a 2025-11-25 session logging/setLevel. A write at a level above info
// sends no log; one at info sends exactly one. Before request-scoped SSE
// the log went only to the session's GET stream, and under 2026-07-28
// nowhere: 0 of 1 received.
func TestLogsInThePOSTStream(t *testing.T) {
	t.Parallel()
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			base, _ := newStore(t)
			srv := httptest.NewServer(newHTTPHandler(serveOptions{Store: base, Dir: t.TempDir()}, streamhttp.HTTPOptions{}))
			defer srv.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			logs := &logSink{}
			//lint:ignore SA1019 the write log is MCP logging, deprecated not removed (D53)
			client := sdk.NewClient(&sdk.Implementation{Name: "go-sdk-client", Version: "1"}, &sdk.ClientOptions{LoggingMessageHandler: logs.handler})
			// The client opens no GET stream of its own: what it receives
			// came in the POST's response.
			session, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: srv.URL + streamhttp.HTTPPath, DisableStandaloneSSE: true}, &sdk.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatalf("connect: %v", err)
			}
			defer session.Close()
			if v := session.InitializeResult().ProtocolVersion; v != version {
				t.Fatalf("the client speaks %s, not %s", v, version)
			}
			call := func(tool string, args map[string]any, level string) {
				t.Helper()
				p := &sdk.CallToolParams{Name: tool, Arguments: args}
				if version == "2026-07-28" {
					//lint:ignore SA1019 the write log is MCP logging, deprecated not removed (D53)
					p.Meta = sdk.Meta{sdk.MetaKeyLogLevel: level}
				} else {
					//lint:ignore SA1019 the write log is MCP logging, deprecated not removed (D53)
					if err := session.SetLoggingLevel(ctx, &sdk.SetLoggingLevelParams{Level: sdk.LoggingLevel(level)}); err != nil {
						t.Fatalf("logging/setLevel %s: %v", level, err)
					}
				}
				res, err := session.CallTool(ctx, p)
				if err != nil || res.IsError {
					t.Fatalf("%s: %v %+v", tool, err, res)
				}
			}
			call("issue_claim", map[string]any{"id": "dk-aaa"}, "warning")
			call("issue_update", map[string]any{"id": "dk-aaa", "priority": 1}, "info")
			var got []string
			for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
				if got = logs.get(); len(got) > 0 {
					break
				}
			}
			if want := []string{"issue_update dk-aaa info"}; !slices.Equal(got, want) {
				t.Errorf("logs received %q, want %q", got, want)
			}
		})
	}
}

// TestSSEBytes: a raw client reads a write's response under 2026-07-28
// with the log level info: text/event-stream, the write log as the first
// event, the reply on the client's id bytes as the last, then the end of
// the body; at the level warning the same write is a plain JSON body.
func TestSSEBytes(t *testing.T) {
	t.Parallel()
	base, _ := newStore(t)
	srv := httptest.NewServer(newHTTPHandler(serveOptions{Store: base, Dir: t.TempDir()}, streamhttp.HTTPOptions{}))
	defer srv.Close()
	post := func(id, level string, priority int) (string, []byte) {
		t.Helper()
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"issue_update","arguments":{"id":"dk-aaa","priority":%d},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":%q}}}`, id, priority, level)
		r, _ := http.NewRequest(http.MethodPost, srv.URL+streamhttp.HTTPPath, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("MCP-Protocol-Version", "2026-07-28")
		r.Header.Set("Mcp-Method", "tools/call")
		r.Header.Set("Mcp-Name", "issue_update")
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %v %s", id, resp.StatusCode, err, b)
		}
		return resp.Header.Get("Content-Type"), b
	}

	ct, b := post(`"\u0031x"`, "info", 1)
	if ct != "text/event-stream" {
		t.Errorf("content type %q, want text/event-stream", ct)
	}
	const logEvent = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":{\"tool\":\"issue_update\",\"issue\":\"dk-aaa\"},\"level\":\"info\",\"logger\":\"docket\"}}\n\n"
	const replyHead = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"\\u0031x\",\"result\":{"
	rest, ok := bytes.CutPrefix(b, []byte(logEvent))
	if !ok || !bytes.HasPrefix(rest, []byte(replyHead)) || !bytes.HasSuffix(rest, []byte("}\n\n")) || bytes.Count(rest, []byte("\n")) != 3 {
		t.Errorf("event stream:\n%q\nwant the log event, then one reply event on id \"\\u0031x\"", b)
	}
	var reply struct {
		Result struct {
			StructuredContent struct {
				Issue struct {
					Priority int `json:"priority"`
				} `json:"issue"`
			} `json:"structuredContent"`
		} `json:"result"`
	}
	if data := strings.TrimPrefix(strings.TrimSpace(string(rest)), "event: message\ndata: "); json.Unmarshal([]byte(data), &reply) != nil || reply.Result.StructuredContent.Issue.Priority != 1 {
		t.Errorf("reply event %q: not the update's result", rest)
	}

	ct, b = post("2", "warning", 3)
	if ct != "application/json" || !bytes.HasPrefix(b, []byte(`{"jsonrpc":"2.0","id":2,"result":`)) || bytes.Count(b, []byte("\n")) != 1 {
		t.Errorf("level warning: %s %q, want one application/json reply", ct, b)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "event:") || strings.Contains(sc.Text(), "notifications/message") {
			t.Errorf("level warning sent a log: %q", sc.Text())
		}
	}
}

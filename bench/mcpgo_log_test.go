package main

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/mcp"
	"github.com/claimslint/claimslint/server/mcp/streamhttp"
	"github.com/claimslint/claimslint/server/sqlite"
	mcpgoclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// TestMCPGoClientGetsTheLog: mcp-go's client, which never opens the GET
// stream, over HTTP in both eras, with the level info, creates an issue and
// receives its write log, 1 of 1, in the POST's own event stream (D80).
// Before request-scoped SSE it received 0 of 1.
func TestMCPGoClientGetsTheLog(t *testing.T) {
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			dir := t.TempDir()
			export := filepath.Join(dir, ".knowledge", "tracker", "issues.jsonl")
			if err := os.MkdirAll(filepath.Dir(export), 0o755); err != nil {
				t.Fatal(err)
			}
			seed := `{"id":"dk-aaa","title":"seeded","description":"","status":"open","type":"task","priority":2,"labels":[],"decisions":[],"deps":[],"comments":[],"created_at":"2026-10-01T00:00:00Z","updated_at":"2026-10-01T00:00:00Z","closed_at":null,"close_reason":"","version":1,"schema":1}` + "\n"
			if err := os.WriteFile(export, []byte(seed), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			store, err := docket.Open(ctx, sqlite.Backend{DB: filepath.Join(dir, ".docket", "index.db")}, docket.Options{Export: export})
			if err != nil {
				t.Fatal(err)
			}
			defer store.Close()
			srv := httptest.NewServer(streamhttp.NewHTTPHandler(mcp.New(mcp.Options{Store: store, Dir: dir}), streamhttp.HTTPOptions{}))
			defer srv.Close()

			c, err := mcpgoclient.NewStreamableHttpClient(srv.URL + streamhttp.HTTPPath)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			var logs atomic.Int32
			c.OnNotification(func(n mcpgo.JSONRPCNotification) {
				if n.Method == "notifications/message" {
					logs.Add(1)
				}
			})
			if err := c.Start(ctx); err != nil {
				t.Fatal(err)
			}
			init := mcpgo.InitializeRequest{}
			init.Params.ProtocolVersion = version
			init.Params.ClientInfo = mcpgo.Implementation{Name: "mcp-go-client", Version: "1"}
			res, err := c.Initialize(ctx, init)
			if err != nil {
				t.Fatalf("initialize: %v", err)
			}
			if res.ProtocolVersion != version {
				t.Fatalf("negotiated %s, want %s", res.ProtocolVersion, version)
			}
			level := mcpgo.SetLevelRequest{}
			level.Params.Level = mcpgo.LoggingLevelInfo
			//lint:ignore SA1019 the write log is MCP logging, deprecated not removed (D53)
			if err := c.SetLevel(ctx, level); err != nil {
				t.Fatalf("set level: %v", err)
			}
			call := mcpgo.CallToolRequest{}
			call.Params.Name = "issue_create"
			call.Params.Arguments = map[string]any{"title": "logged"}
			out, err := c.CallTool(ctx, call)
			if err != nil || out.IsError {
				t.Fatalf("issue_create: %v %+v", err, out)
			}
			for deadline := time.Now().Add(5 * time.Second); logs.Load() == 0 && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			}
			if n := logs.Load(); n != 1 {
				t.Errorf("%d of 1 write logs received", n)
			}
		})
	}
}

// Command mcpgo is the second baseline for the docket mcp benchmark:
// mcp-go's stdio server with one issue_show tool over the same store.
// Environment: DOCKET_DB, DOCKET_EXPORT. With -http ADDR it serves the
// same server over mcp-go's streamable HTTP server (its defaults: a
// session id minted at initialize, JSON replies) on ADDR, prints the
// address on stderr in the form docket mcp --http does, and exits on
// SIGTERM.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/sqlite"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func main() {
	addr := flag.String("http", "", "serve streamable HTTP on this host:port instead of stdio")
	flag.Parse()
	ctx := context.Background()
	store, err := docket.Open(ctx, sqlite.Backend{DB: os.Getenv("DOCKET_DB")}, docket.Options{Export: os.Getenv("DOCKET_EXPORT")})
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpgo:", err)
		os.Exit(2)
	}
	s := server.NewMCPServer("mcpgo", "1")
	s.AddTool(mcp.NewTool("issue_show", mcp.WithDescription("Show one issue by id."), mcp.WithString("id", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			id, err := req.RequireString("id")
			if err != nil {
				return mcp.NewToolResultError(err.Error()), nil
			}
			i, err := store.Get(ctx, id)
			if err != nil {
				return mcp.NewToolResultError(err.Error()), nil
			}
			b, _ := json.Marshal(map[string]any{"issue": i})
			return mcp.NewToolResultText(string(b)), nil
		})
	if *addr != "" {
		serveHTTP(s, *addr)
		return
	}
	if err := server.ServeStdio(s); err != nil {
		fmt.Fprintln(os.Stderr, "mcpgo:", err)
	}
}

// serveHTTP serves s at /mcp on addr until SIGTERM.
func serveHTTP(s *server.MCPServer, addr string) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpgo:", err)
		os.Exit(2)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", server.NewStreamableHTTPServer(s))
	srv := &http.Server{Handler: mux}
	fmt.Fprintf(os.Stderr, "mcpgo: serving MCP over HTTP at http://%s/mcp\n", ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	srv.Serve(ln)
}

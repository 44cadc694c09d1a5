// Command sdkhttp is the baseline for the docket mcp --http benchmark:
// go-sdk's stock streamable HTTP handler, with no front, serving docket's
// own MCP server (the same tools, the same store) on 127.0.0.1.
// Environment: DOCKET_DB, DOCKET_EXPORT. Flags: -addr (default
// 127.0.0.1:0), -sse (the handler's default SSE replies instead of JSON
// replies, the mode docket's front uses), -front (docket's own front,
// streamhttp.NewHTTPHandler with its defaults, in place of the stock handler: what
// the front costs, apart from docket's process). It prints the address it
// serves on stderr in the form docket mcp --http does, and exits on
// SIGTERM.
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/mcp"
	"github.com/claimslint/claimslint/server/mcp/streamhttp"
	"github.com/claimslint/claimslint/server/sqlite"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "host:port to listen on")
	sse := flag.Bool("sse", false, "SSE replies (the handler's default) instead of JSON replies")
	front := flag.Bool("front", false, "serve docket's HTTP front (streamhttp.NewHTTPHandler, its defaults) instead of the stock handler: the front's cost without docket's process around it")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	store, err := docket.Open(ctx, sqlite.Backend{DB: os.Getenv("DOCKET_DB")}, docket.Options{Export: os.Getenv("DOCKET_EXPORT")})
	if err != nil {
		fmt.Fprintln(os.Stderr, "sdkhttp:", err)
		os.Exit(2)
	}
	defer store.Close()
	dir, _ := os.Getwd()
	s := mcp.NewServer(mcp.Options{Store: store, Dir: dir, Version: "bench"})
	var opts *sdk.StreamableHTTPOptions
	if !*sse {
		opts = &sdk.StreamableHTTPOptions{JSONResponse: true}
	}
	mux := http.NewServeMux()
	if *front {
		mux.Handle(streamhttp.HTTPPath, streamhttp.NewHTTPHandler(mcp.New(mcp.Options{Store: store, Dir: dir, Version: "bench"}), streamhttp.HTTPOptions{}))
	} else {
		mux.Handle(streamhttp.HTTPPath, sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, opts))
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "sdkhttp:", err)
		os.Exit(2)
	}
	fmt.Fprintf(os.Stderr, "docket mcp: serving MCP over HTTP at http://%s%s\n", ln.Addr(), streamhttp.HTTPPath)
	srv := &http.Server{Handler: mux}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
		fmt.Fprintln(os.Stderr, "sdkhttp:", err)
		os.Exit(1)
	}
}

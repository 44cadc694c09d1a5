// Command sdkstock is the baseline for the docket mcp benchmark: go-sdk's
// stock stdio server with one issue_show tool over the same store.
// Environment: DOCKET_DB, DOCKET_EXPORT.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/sqlite"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type in struct {
	ID string `json:"id"`
}

type out struct {
	Issue docket.Issue `json:"issue"`
}

func main() {
	ctx := context.Background()
	store, err := docket.Open(ctx, sqlite.Backend{DB: os.Getenv("DOCKET_DB")}, docket.Options{Export: os.Getenv("DOCKET_EXPORT")})
	if err != nil {
		fmt.Fprintln(os.Stderr, "sdkstock:", err)
		os.Exit(2)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "sdkstock", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "issue_show", Description: "Show one issue by id."},
		func(ctx context.Context, _ *mcp.CallToolRequest, a in) (*mcp.CallToolResult, out, error) {
			i, err := store.Get(ctx, a.ID)
			return nil, out{i}, err
		})
	if err := s.Run(ctx, &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "sdkstock:", err)
	}
}

// Command mcpgo is the second baseline for the docket mcp benchmark:
// mcp-go's stdio server with one issue_show tool over the same store.
// Environment: DOCKET_DB, DOCKET_EXPORT.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/sqlite"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func main() {
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
	if err := server.ServeStdio(s); err != nil {
		fmt.Fprintln(os.Stderr, "mcpgo:", err)
	}
}

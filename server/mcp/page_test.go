package mcp_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server/docket"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestDefaultPageIsSmall: with 5,000 open issues (titles of ordinary
// length, descriptions, labels), the default issue_list reply through a
// real client is one page of 50 rows and stays under 64 KiB, where the
// whole list was 4.65 MB; the text content is a summary, not the JSON
// again. Sizes, not times: deterministic.
func TestDefaultPageIsSmall(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var b strings.Builder
	var is []docket.Issue
	for k := range 5000 {
		i := docket.Issue{ID: fmt.Sprintf("dk-%05d", k), Title: fmt.Sprintf("Issue number %d: a title of the length people write, about one line", k),
			Description: strings.Repeat("A description of a few sentences, as issues have. ", 8), Status: docket.StatusOpen, Type: docket.TypeTask, Priority: k % 5,
			Labels: []string{"area-" + fmt.Sprint(k%7)}, CreatedAt: "2026-01-01T00:00:00Z", UpdatedAt: "2026-01-01T00:00:00Z", Version: 1, Schema: docket.Schema}
		is = append(is, i)
	}
	data, err := docket.Canonical(is)
	if err != nil {
		t.Fatal(err)
	}
	b.Write(data)
	export := filepath.Join(dir, "issues.jsonl")
	if err := os.WriteFile(export, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.Command(os.Args[0], "mcp")
	cmd.Env = append(os.Environ(), "DOCKET_AS_BINARY=1", "DOCKET_DB="+filepath.Join(dir, "index.db"), "DOCKET_EXPORT="+export)
	cmd.Dir = dir // outside this repository: its files need not be beneath it (D67)
	session, err := sdk.NewClient(&sdk.Implementation{Name: "size", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer session.Close()
	res, err := session.CallTool(ctx, &sdk.CallToolParams{Name: "issue_list", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("issue_list: %v %+v", err, res)
	}
	raw, err := res.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	page := res.StructuredContent.(map[string]any)
	if n := len(page["issues"].([]any)); n != 50 || page["total"].(float64) != 5000 || page["nextCursor"] == "" {
		t.Errorf("default page: %d rows, total %v, cursor %v; want 50 of 5000 and a cursor", n, page["total"], page["nextCursor"])
	}
	if len(raw) >= 64<<10 {
		t.Errorf("default issue_list result is %d bytes, want under 64 KiB", len(raw))
	}
	text := res.Content[0].(*sdk.TextContent).Text
	if strings.Contains(text, `"issues"`) || !strings.HasPrefix(text, "50 of 5000 issues; 4950 more") {
		t.Errorf("text content is not a summary: %.200s", text)
	}
	t.Logf("default issue_list result: %d bytes (text %d)", len(raw), len(text))
}

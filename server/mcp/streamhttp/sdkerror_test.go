package streamhttp

import (
	"fmt"
	"testing"
)

// TestSDKErrorMapping: the SDK's text/plain errors are mapped by what they
// mean, for a POST and a GET, DELETE or notification alike (D80): an
// unknown method is -32601 (200 inside a session), the SDK's version check
// is our -32022 with every supported version, a server fault is -32603,
// the rest -32600.
func TestSDKErrorMapping(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		status    int
		msg       string
		inSession bool
		want      string
	}{
		{404, "JSON RPC not handled", true, `200 -32601 method not found: "no/such"`},
		{404, "JSON RPC not handled", false, `404 -32601 method not found: "no/such"`},
		{400, "Bad Request: Unsupported protocol version (supported versions: 2025-11-25,2025-06-18)", false,
			`400 -32022 unsupported protocol version "2024-01-01" in the MCP-Protocol-Version header: this server supports 2026-07-28, 2025-11-25, 2025-06-18 {"supported":["2026-07-28","2025-11-25","2025-06-18"],"requested":"2024-01-01"}`},
		{404, "session not found", false, "404 -32600 invalid request: session not found: the Mcp-Session-Id names no open session (it was deleted, it idled out, or the server restarted); initialize a new one"},
		{500, "failed connection", false, "500 -32603 internal error: failed connection"},
		{500, "storing stream: disk full", true, "500 -32603 internal error: storing stream: disk full"},
		{400, "Accept must contain 'text/event-stream' for GET requests", false, "400 -32600 invalid request: Accept must contain 'text/event-stream' for GET requests"},
		{405, "Method Not Allowed", false, "405 -32600 invalid request: Method Not Allowed"},
	} {
		status, code, text, data := sdkError(c.status, c.msg, "no/such", "2024-01-01", c.inSession)
		got := fmt.Sprintf("%d %d %s", status, code, text)
		if data != nil {
			got += " " + string(data)
		}
		if got != c.want {
			t.Errorf("%d %q:\n got %s\nwant %s", c.status, c.msg, got, c.want)
		}
	}
}

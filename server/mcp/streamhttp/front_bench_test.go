package streamhttp

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/claimslint/claimslint/server/mcp"
)

// stubSDK answers a tools/call as go-sdk's JSON-reply handler would, with
// the request's id, and does nothing else: BenchmarkHTTPFront measures
// what the screened front adds per request, without the SDK's own work.
type stubSDK struct{}

var stubResult = []byte(`,"result":{"content":[{"type":"text","text":"dk-aaa  seeded\nstatus: open  type: task  priority: 2  version: 1\ncreated: 2026-10-01T00:00:00Z  updated: 2026-10-01T00:00:00Z"}],"structuredContent":{"issue":{"id":"dk-aaa","title":"seeded","description":"","status":"open","type":"task","priority":2,"labels":[],"decisions":[],"deps":[],"comments":[],"created_at":"2026-10-01T00:00:00Z","updated_at":"2026-10-01T00:00:00Z","closed_at":null,"close_reason":"","version":1,"schema":1}}}}`)

func (stubSDK) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	i := bytes.Index(body, []byte(`"id":`))
	j := bytes.Index(body, []byte(`,"method"`))
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	out := append([]byte(`{"jsonrpc":"2.0",`), body[i:j]...)
	w.Write(append(out, stubResult...))
}

// BenchmarkHTTPFront is the per-request cost of docket's HTTP front (the
// screen, the gate, the id mapping and the reply rewrite) around a stub
// that stands for go-sdk's handler; "stub" is the stub alone.
func BenchmarkHTTPFront(b *testing.B) {
	f := NewHTTPHandler(mcp.New(mcp.Options{}), HTTPOptions{})
	f.stateful = stubSDK{}
	for _, c := range []struct {
		name string
		h    http.Handler
	}{{"front", f}, {"stub", stubSDK{}}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for k := range b.N {
				body := `{"jsonrpc":"2.0","id":` + strconv.Itoa(k) + `,"method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-aaa"}}}`
				r := httptest.NewRequest("POST", "/mcp", bytes.NewReader([]byte(body)))
				r.Header.Set("Content-Type", "application/json")
				r.Header.Set("Accept", "application/json, text/event-stream")
				r.Header.Set("MCP-Protocol-Version", "2025-11-25")
				r.Header.Set("Mcp-Session-Id", "S")
				w := httptest.NewRecorder()
				c.h.ServeHTTP(w, r)
				if w.Code != 200 || !bytes.Contains(w.Body.Bytes(), []byte(`"id":`+strconv.Itoa(k)+`,"result"`)) {
					b.Fatalf("reply %d: %s", w.Code, w.Body.Bytes())
				}
			}
		})
	}
}

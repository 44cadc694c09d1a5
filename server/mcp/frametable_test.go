package mcp_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/server/mcp/streamhttp"
	"github.com/rogpeppe/go-internal/txtar"
)

// frameClass is one row of testdata/frames.txtar: a frame and what each
// transport answers to it.
type frameClass struct {
	name               string
	frame, stdio, http []byte
}

// readFrameTable parses testdata/frames.txtar: sections "NAME: frame",
// "NAME: stdio" and "NAME: http", in the order the frames come.
func readFrameTable(t *testing.T) (*txtar.Archive, []*frameClass) {
	t.Helper()
	ar, err := txtar.ParseFile("testdata/frames.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var rows []*frameClass
	byName := map[string]*frameClass{}
	for _, f := range ar.Files {
		name, part, ok := strings.Cut(f.Name, ": ")
		if !ok {
			t.Fatalf("section %q: want NAME: frame, NAME: stdio or NAME: http", f.Name)
		}
		row := byName[name]
		if row == nil {
			if part != "frame" {
				t.Fatalf("section %q comes before %q: frame", f.Name, name)
			}
			row = &frameClass{name: name}
			byName[name] = row
			rows = append(rows, row)
		}
		switch part {
		case "frame":
			row.frame = bytes.TrimSuffix(f.Data, []byte("\n"))
		case "stdio":
			row.stdio = f.Data
		case "http":
			row.http = f.Data
		default:
			t.Fatalf("section %q: want NAME: frame, NAME: stdio or NAME: http", f.Name)
		}
	}
	return ar, rows
}

// TestFrameTable drives both transports from one table (D80): each frame
// class of testdata/frames.txtar is sent as a stdio line and as a POST
// body, stateless under 2026-07-28 or inside a 2025-11-25 session, and
// each transport's answer must be the table's bytes. With -update the
// stdio and http sections are rewritten.
func TestFrameTable(t *testing.T) {
	t.Parallel()
	ar, rows := readFrameTable(t)
	store, _ := newStore(t)
	srv := httptest.NewServer(newHTTPHandler(serveOptions{Store: store, Dir: t.TempDir()}, streamhttp.HTTPOptions{}))
	defer srv.Close()
	_, _, session := initialize(t, srv.URL+streamhttp.HTTPPath)
	if session == "" {
		t.Fatal("initialize minted no session")
	}
	if status, _ := (&mcpClient{t: t, url: srv.URL + streamhttp.HTTPPath, session: session}).post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); status != http.StatusAccepted {
		t.Fatalf("notifications/initialized: %d", status)
	}
	for _, row := range rows {
		st, _ := newStore(t)
		line := append(append([]byte{}, row.frame...), '\n')
		var stdio, web []byte
		switch {
		case strings.HasPrefix(row.name, "stateless/"):
			stdio = serve(t, st, line)
			web = postFrame(t, srv.URL+streamhttp.HTTPPath, row.frame, "")
		case strings.HasPrefix(row.name, "session/"):
			for _, l := range bytes.SplitAfter(serve(t, st, append([]byte(initLines), line...)), []byte("\n")) {
				if !bytes.Contains(l, []byte(`"id":"init-0"`)) {
					stdio = append(stdio, l...)
				}
			}
			web = postFrame(t, srv.URL+streamhttp.HTTPPath, row.frame, session)
		default:
			t.Fatalf("class %q: its name starts with stateless/ or session/", row.name)
		}
		if *update {
			row.stdio, row.http = stdio, web
			continue
		}
		if !bytes.Equal(stdio, row.stdio) {
			t.Errorf("%s over stdio:\n--- got\n%s--- want\n%s", row.name, stdio, row.stdio)
		}
		if !bytes.Equal(web, row.http) {
			t.Errorf("%s over HTTP:\n--- got\n%s--- want\n%s", row.name, web, row.http)
		}
	}
	if *update {
		ar.Files = nil
		for _, row := range rows {
			ar.Files = append(ar.Files,
				txtar.File{Name: row.name + ": frame", Data: append(append([]byte{}, row.frame...), '\n')},
				txtar.File{Name: row.name + ": stdio", Data: row.stdio},
				txtar.File{Name: row.name + ": http", Data: row.http})
		}
		if err := os.WriteFile("testdata/frames.txtar", txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// postFrame POSTs frame, as a 2026-07-28 request or inside session, and
// renders the status line and the body (ending in a newline).
func postFrame(t *testing.T, url string, frame []byte, session string) []byte {
	t.Helper()
	r, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(frame))
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		r.Header.Set("Mcp-Session-Id", session)
		r.Header.Set("MCP-Protocol-Version", "2025-11-25")
	} else {
		r.Header.Set("MCP-Protocol-Version", "2026-07-28")
	}
	var m struct {
		Method string `json:"method"`
		Params struct {
			Name string                     `json:"name"`
			URI  string                     `json:"uri"`
			Meta map[string]json.RawMessage `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(frame, &m) == nil && m.Method != "" && session == "" {
		// The header says what _meta says, as a client's does.
		var v string
		if json.Unmarshal(m.Params.Meta["io.modelcontextprotocol/protocolVersion"], &v) == nil && v != "" {
			r.Header.Set("MCP-Protocol-Version", v)
		}
		r.Header.Set("Mcp-Method", m.Method)
		if name := m.Params.Name + m.Params.URI; name != "" {
			r.Header.Set("Mcp-Name", name)
		}
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	out := fmt.Appendf(nil, "%s\n%s", resp.Status, b)
	if len(b) > 0 && !bytes.HasSuffix(b, []byte("\n")) {
		out = append(out, '\n')
	}
	return out
}

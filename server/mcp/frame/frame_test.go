package frame_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/claimslint/claimslint/server/mcp/frame"
)

func TestScreenTable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		kind frame.Kind
		id   string // Request: raw id; Answer: the id in the reply
		code int
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, frame.Request, "1", 0},
		{`{"jsonrpc":"2.0","id":99999999999999999999999,"method":"ping"}`, frame.Request, "99999999999999999999999", 0},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, frame.Notification, "", 0},
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, frame.Answer, "null", -32600},
		{`{"jsonrpc":"2.0","id":"a","id":"\u0061","method":"ping"}`, frame.Answer, `"a"`, -32600},
		{`{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`, frame.Answer, "null", -32600},
		{`{"jsonrpc":"2.0","\u0069d":3,"method":"ping"}`, frame.Request, "3", 0},
		{`{"jsonrpc":"2.0","id":4}`, frame.Answer, "4", -32600},
		{`{"jsonrpc":"2.0","id":5,"method":"x","params":1}`, frame.Answer, "5", -32602},
		{`{"jsonrpc":"2.0","method":"x","params":1}`, frame.Ignore, "", 0},
		{`{"jsonrpc":"2.0","id":6,"result":{}}`, frame.Ignore, "", 0},
		{`{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"m"}}`, frame.Ignore, "", 0},
		{`[]`, frame.Answer, "null", -32600},
		{`"ping"`, frame.Answer, "null", -32600},
		{`{} {}`, frame.Answer, "null", -32700},
		{"\xff", frame.Answer, "null", -32700},
		{"   \r", frame.Ignore, "", 0},
		{`{"jsonrpc":"2.0","id":-0,"method":"ping"}`, frame.Request, "-0", 0},
		{`{"jsonrpc":"2.0","id":-12,"method":"ping"}`, frame.Request, "-12", 0},
		{`{"jsonrpc":"2.0","id":012,"method":"ping"}`, frame.Answer, "null", -32700},
		{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, frame.Answer, "null", -32600},
		{`{"jsonrpc":"2.0","id":1e3,"method":"ping"}`, frame.Answer, "null", -32600},
		{`{"jsonrpc":"2.0","id":-,"method":"ping"}`, frame.Answer, "null", -32700},
		{`{"jsonrpc":"2.0","id":true,"method":"ping"}`, frame.Answer, "null", -32600},
		{`{"jsonrpc":"2\u002e0","id":8,"method":"p\u0069ng"}`, frame.Request, "8", 0},
		{`{"jsonrpc":"2.00","id":9,"method":"ping"}`, frame.Answer, "9", -32600},
		{`{"jsonrpc":2.0,"id":10,"method":"ping"}`, frame.Answer, "10", -32600},
	}
	for _, tt := range tests {
		v := frame.Screen([]byte(tt.line), nil)
		if v.Kind != tt.kind {
			t.Errorf("%s: kind %d, want %d", tt.line, v.Kind, tt.kind)
			continue
		}
		switch v.Kind {
		case frame.Request:
			if string(v.ID) != tt.id {
				t.Errorf("%s: id %s, want %s", tt.line, v.ID, tt.id)
			}
		case frame.Answer:
			var r struct {
				ID    json.RawMessage
				Error struct{ Code int }
			}
			if err := json.Unmarshal(v.Reply, &r); err != nil {
				t.Fatalf("%s: reply %s is not JSON", tt.line, v.Reply)
			}
			if string(r.ID) != tt.id || r.Error.Code != tt.code {
				t.Errorf("%s: reply %s, want id %s code %d", tt.line, v.Reply, tt.id, tt.code)
			}
		}
	}
	// A response is delivered only for an id the server used.
	known := func(id string) bool { return id == "n7" }
	if v := frame.Screen([]byte(`{"jsonrpc":"2.0","id":7,"result":{}}`), known); v.Kind != frame.Response {
		t.Errorf("response to a known id: kind %d", v.Kind)
	}
}

// FuzzScreen: no input panics; every reply is one well-formed JSON-RPC
// error response whose id is null or the frame's own id bytes; nothing is
// ignored unless it is blank or shaped as a response; a request is only
// delivered with a usable id.
func FuzzScreen(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","method":"n"}`, `[1]`, `{"id":1,"id":1}`,
		`{"jsonrpc":"2.0","\u0069d":"x","method":"m","params":[]}`, "\xef\xbb\xbf{}", `{"result":1,"id":2}`, `  `,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		v := frame.Screen(line, func(string) bool { return true })
		switch v.Kind {
		case frame.Answer:
			if bytes.ContainsAny(v.Reply, "\n") {
				t.Fatalf("reply spans lines: %q", v.Reply)
			}
			var r struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Error   *struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(v.Reply, &r); err != nil || r.JSONRPC != "2.0" || r.Error == nil || r.Error.Code == 0 || r.Error.Message == "" {
				t.Fatalf("bad reply %q to %q (%v)", v.Reply, line, err)
			}
			if string(r.ID) != "null" && !bytes.Contains(line, r.ID) {
				t.Fatalf("reply id %s is not in the frame %q", r.ID, line)
			}
		case frame.Request:
			if len(v.ID) == 0 || string(v.ID) == "null" || v.ID[0] == '{' || v.ID[0] == '[' {
				t.Fatalf("request delivered with id %q from %q", v.ID, line)
			}
		case frame.Ignore:
			trimmed := bytes.TrimSpace(bytes.TrimSuffix(line, []byte("\r")))
			if len(trimmed) > 0 && !bytes.Contains(line, []byte("result")) && !bytes.Contains(line, []byte("error")) && !bytes.Contains(line, []byte("params")) {
				t.Fatalf("ignored a frame that is owed an answer: %q", line)
			}
		}
	})
}

// FuzzObject: for any valid JSON object in valid UTF-8, Object finds the members
// encoding/json finds when it decodes into a map (keys decoded, the last of
// a repeated key kept), with the same raw values; for any other valid JSON
// value it says no (but null, which encoding/json takes as an empty map).
func FuzzObject(f *testing.F) {
	for _, s := range []string{`{}`, ` { "a" : 1 , "b":[1,{"c":"}"}] } `, `{"a":1,"a":2}`, `{"\u0061":"x\"y","b":null}`, `[1]`, `"s"`, `{"a":{"b":{}},"c":"\\"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		// Object's domain: valid JSON in valid UTF-8, as every screened frame is.
		if !json.Valid(b) || !utf8.Valid(b) || string(bytes.TrimSpace(b)) == "null" { // null decodes to a nil map
			return
		}
		var want map[string]json.RawMessage
		wantErr := json.Unmarshal(b, &want)
		got, ok := frame.Object(b)
		if (wantErr == nil) != ok {
			t.Fatalf("%q: Object ok=%v, encoding/json: %v", b, ok, wantErr)
		}
		if !ok {
			return
		}
		if len(got) != len(want) {
			t.Fatalf("%q: %d members, encoding/json %d", b, len(got), len(want))
		}
		for k, v := range want {
			if !bytes.Equal(bytes.TrimSpace(got[k]), bytes.TrimSpace(v)) {
				t.Fatalf("%q: member %q is %q, encoding/json %q", b, k, got[k], v)
			}
		}
	})
}

// BenchmarkScreen measures the screening of a typical tools/call frame.
func BenchmarkScreen(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":12345,"method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-aaa"}}}`)
	b.ReportAllocs()
	for b.Loop() {
		if v := frame.Screen(line, nil); v.Kind != frame.Request {
			b.Fatal(v.Kind)
		}
	}
}

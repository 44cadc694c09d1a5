package streamhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"testing"

	"github.com/claimslint/claimslint/server/mcp/wire"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// fastResult is the result FastCall.Run returns for a tool that answers
// text, with text in its structured content too.
func fastResult(t testing.TB, text string) json.RawMessage {
	t.Helper()
	h := func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}, StructuredContent: map[string]any{"text": text, "n": 1.5}}, nil
	}
	fc := wire.NewFastCalls(&wire.App{Direct: map[string]sdk.ToolHandler{"t": h}}).Parse(json.RawMessage(`{"name":"t","arguments":{}}`))
	res, err := fc.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// checkResultFrame fails unless resultFrame writes what go-sdk's
// EncodeMessage writes for the result on the internal id.
func checkResultFrame(t testing.TB, text string) {
	t.Helper()
	res := fastResult(t, text)
	f := &HTTPHandler{salt: "0123456789abcdef"}
	f.seq.Store(41)
	quoted := f.internalID()
	id, _ := jsonrpc.MakeID(string(quoted[1 : len(quoted)-1]))
	want, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Result: res})
	if err != nil {
		t.Fatal(err)
	}
	if got := resultFrame(quoted, res); !bytes.Equal(got, want) {
		t.Errorf("text %q:\nresultFrame   %s\nEncodeMessage %s", text, got, want)
	}
}

// TestResultFrameIsEncodeMessage: the reply the front builds for a fast
// call's result is, byte for byte, the one go-sdk's encoder built (D82).
func TestResultFrameIsEncodeMessage(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"",
		"issue dk-aaa: seeded (open, task, P2, version 1)",
		"<b>HTML</b> & more",
		"line\nbreak\ttab \"quoted\" back\\slash",
		"separators \u2028 and \u2029",
		"invalid UTF-8 \xff\xfe here",
		"control \x00\x01\x1f",
		"unicode é 漢字 🙂",
	} {
		checkResultFrame(t, text)
	}
}

func FuzzResultFrame(f *testing.F) {
	f.Add("<&> \u2028 \xff")
	f.Fuzz(func(t *testing.T, text string) { checkResultFrame(t, text) })
}

// TestLoopbackAddr: the DNS-rebinding screen's test of the local address
// gives what go-sdk's test of its string gives.
func TestLoopbackAddr(t *testing.T) {
	t.Parallel()
	for _, a := range []net.Addr{
		&net.TCPAddr{IP: net.ParseIP("127.0.0.1"), Port: 80},
		&net.TCPAddr{IP: net.IPv4(127, 1, 2, 3).To4(), Port: 1},
		&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1}, // 16 bytes, 4 in 6
		&net.TCPAddr{IP: net.ParseIP("::1"), Port: 8080},
		&net.TCPAddr{IP: net.ParseIP("::1"), Port: 8080, Zone: "lo"},
		&net.TCPAddr{IP: net.ParseIP("10.0.0.1"), Port: 80},
		&net.TCPAddr{IP: net.ParseIP("fe80::1"), Port: 80, Zone: "eth0"},
		&net.TCPAddr{IP: net.ParseIP("::"), Port: 80},
		&net.TCPAddr{Port: 80},
		&net.TCPAddr{IP: net.IP{1, 2, 3}, Port: 80}, // no valid length
		&net.UnixAddr{Name: "/tmp/sock", Net: "unix"},
	} {
		if got, want := loopbackAddr(a), loopback(a.String()); got != want {
			t.Errorf("loopbackAddr(%v) = %v, loopback(%q) = %v", a, got, a.String(), want)
		}
	}
}

// TestMetaVersionSkip: params that mayHoldMeta passes over declare no
// version to json.Unmarshal either; those it does not skip are decoded.
func TestMetaVersionSkip(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		params   string
		skip     bool
		version  string
		declared bool
	}{
		{`{"name":"issue_show","arguments":{"id":"dk-aaa"}}`, true, "", false},
		{`{}`, true, "", false},
		{`[1]`, true, "", false},
		{`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`, false, "2026-07-28", true},
		{`{"_META":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`, false, "2026-07-28", true},
		{`{"_MeTa":{"io.modelcontextprotocol/protocolVersion":1}}`, false, "", true},
		{`{"_\u006deta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}}`, false, "2025-11-25", true},
		{`{"_meta":{}}`, false, "", false},
		{`{"name":"metadata","arguments":{}}`, false, "", false},
	} {
		if got := !mayHoldMeta(json.RawMessage(c.params)); got != c.skip {
			t.Errorf("%s: skipped %v, want %v", c.params, got, c.skip)
		}
		v, ok := metaVersion(json.RawMessage(c.params))
		if v != c.version || ok != c.declared {
			t.Errorf("%s: metaVersion %q %v, want %q %v", c.params, v, ok, c.version, c.declared)
		}
	}
}

func FuzzMetaVersionSkip(f *testing.F) {
	f.Add(`{"_Meta":{"io.modelcontextprotocol/protocolVersion":"x"}}`)
	f.Add(`{"name":"a","arguments":{"id":"b"}}`)
	f.Fuzz(func(t *testing.T, params string) {
		if mayHoldMeta(json.RawMessage(params)) {
			return
		}
		var p struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		}
		if json.Unmarshal([]byte(params), &p) == nil && p.Meta != nil {
			t.Errorf("%q: skipped, but json.Unmarshal finds _meta %v", params, p.Meta)
		}
	})
}

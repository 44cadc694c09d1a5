package wire

import (
	"bytes"
	"encoding/json"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// encoderBytes is res as FastCall.Run wrote every result before
// appendToolResult: go-sdk's MarshalJSON through an encoder that leaves
// HTML unescaped.
func encoderBytes(t testing.TB, res *sdk.CallToolResult) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// checkToolResult fails unless appendToolResult writes the encoder's
// bytes for res, or declines (want false) and leaves its buffer as it was.
func checkToolResult(t testing.TB, res *sdk.CallToolResult, taken bool) {
	t.Helper()
	prefix := []byte("prefix:")
	got, ok := appendToolResult(append([]byte(nil), prefix...), res)
	if ok != taken {
		t.Fatalf("%+v: taken %v, want %v", res, ok, taken)
	}
	if !ok {
		if !bytes.Equal(got, prefix) {
			t.Errorf("%+v: declined, but the buffer is now %q", res, got)
		}
		return
	}
	if want := encoderBytes(t, res); !bytes.Equal(got[len(prefix):], want) {
		t.Errorf("%+v:\nappendToolResult %s\nencoder          %s", res, got[len(prefix):], want)
	}
}

func text(s string) *sdk.TextContent { return &sdk.TextContent{Text: s} }

// TestAppendToolResult: the issue tools' results are written as go-sdk's
// encoding writes them, byte for byte (D82); any other shape is left to
// the encoder.
func TestAppendToolResult(t *testing.T) {
	t.Parallel()
	odd := "<b>&</b> \u2028\u2029 \xff\xfe \x00\x1f \"q\" \\ é 漢字 🙂\n\t"
	for _, c := range []struct {
		res   *sdk.CallToolResult
		taken bool
	}{
		{&sdk.CallToolResult{Content: []sdk.Content{}}, true},
		{&sdk.CallToolResult{Content: []sdk.Content{text("")}}, true},
		{&sdk.CallToolResult{Content: []sdk.Content{text("issue dk-aaa: seeded")}, StructuredContent: json.RawMessage(`{"issue":{"id":"dk-aaa","n":1.50,"l":[],"x":null}}`)}, true},
		{&sdk.CallToolResult{Content: []sdk.Content{text(odd), text("two")}, StructuredContent: json.RawMessage(`{"s":"` + "<&>\u2028\u2029 é" + `","t":"\u003c"}`), IsError: true}, true},
		{&sdk.CallToolResult{Content: []sdk.Content{text("spaced")}, StructuredContent: json.RawMessage(" {\n \"a\" : [ 1 , 2 ] ,\t\"b\":\"x y\" } ")}, true},
		{&sdk.CallToolResult{Content: []sdk.Content{text("err")}, IsError: true}, true},
		// Shapes the encoder keeps.
		{&sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{Data: []byte{1}, MIMEType: "image/png"}}}, false},
		{&sdk.CallToolResult{Content: []sdk.Content{text("a"), &sdk.TextContent{Text: "m", Meta: sdk.Meta{"k": 1}}}}, false},
		{&sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "a", Annotations: &sdk.Annotations{Priority: 1}}}}, false},
		{&sdk.CallToolResult{Meta: sdk.Meta{"k": "v"}, Content: []sdk.Content{text("a")}}, false},
		{&sdk.CallToolResult{Content: []sdk.Content{text("a")}, StructuredContent: map[string]any{"a": 1}}, false},
		{&sdk.CallToolResult{Content: []sdk.Content{text("a")}, StructuredContent: json.RawMessage{}}, false},
		{&sdk.CallToolResult{Content: []sdk.Content{text("a")}, RequestState: "s"}, false},
	} {
		checkToolResult(t, c.res, c.taken)
	}
	// Not valid JSON: declined, so the encoder words the error.
	if got, ok := appendToolResult(nil, &sdk.CallToolResult{Content: []sdk.Content{text("a")}, StructuredContent: json.RawMessage(`{"a":`)}); ok || len(got) != 0 {
		t.Errorf("invalid structured content: %q %v", got, ok)
	}
}

func FuzzAppendToolResult(f *testing.F) {
	f.Add("issue dk-aaa", `{"issue":{"id":"dk-aaa"}}`, false)
	f.Add("<&>\u2028 \xff", " [ \"<\" , 1e3 ] ", true)
	f.Fuzz(func(t *testing.T, s, structured string, isError bool) {
		res := &sdk.CallToolResult{Content: []sdk.Content{text(s)}, IsError: isError}
		if json.Valid([]byte(structured)) {
			res.StructuredContent = json.RawMessage(structured)
		}
		checkToolResult(t, res, true)
	})
}

// BenchmarkToolResult: issue_show's result for the seeded issue, written
// by appendToolResult ("direct") and by the encoder it replaces.
//
//	go test ./server/mcp/wire -run '^$' -bench ToolResult -benchmem
func BenchmarkToolResult(b *testing.B) {
	res := &sdk.CallToolResult{
		Content:           []sdk.Content{text("issue dk-aaa: seeded (open, task, P2, version 1)")},
		StructuredContent: json.RawMessage(`{"issue":{"close_reason":"","closed_at":null,"comments":[],"created_at":"2026-10-01T00:00:00Z","decisions":[],"deps":[],"description":"","id":"dk-aaa","labels":[],"priority":2,"schema":1,"status":"open","title":"seeded","type":"task","updated_at":"2026-10-01T00:00:00Z","version":1}}`),
	}
	b.Run("direct", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, ok := appendToolResult(make([]byte, 0, 1024), res); !ok {
				b.Fatal("declined")
			}
		}
	})
	b.Run("encoder", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			encoderBytes(b, res)
		}
	})
}

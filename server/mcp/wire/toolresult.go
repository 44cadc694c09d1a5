package wire

import (
	"bytes"
	"encoding/json"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// appendToolResult appends res as FastCall.Run's encoder writes it, for
// the shape the issue tools return (D82): text contents with no _meta or
// annotations, structured content as raw JSON or none, no _meta, input
// requests or request state. That is go-sdk's CallToolResult.MarshalJSON
// (json.Marshal of its fields, in their order), compacted by the encoder,
// in one pass over each string instead of three: a text as json.Marshal
// writes a string, the structured content compacted with <, >, & and
// U+2028, U+2029 escaped, as json.Marshal copies a json.RawMessage. ok is
// false for any other result, which the encoder writes. A result's
// resultType, which only go-sdk's own dispatch sets, is not seen here: the
// transports call the tool's handler directly, and only in a legacy
// session.
func appendToolResult(b []byte, res *sdk.CallToolResult) ([]byte, bool) {
	if len(res.Meta) > 0 || res.InputRequests != nil || res.RequestState != "" {
		return b, false
	}
	var raw json.RawMessage
	if res.StructuredContent != nil {
		r, ok := res.StructuredContent.(json.RawMessage)
		if !ok || len(r) == 0 {
			return b, false
		}
		raw = r
	}
	start := len(b)
	b = append(b, `{"content":[`...)
	for k, c := range res.Content {
		t, ok := c.(*sdk.TextContent)
		if !ok || t == nil || len(t.Meta) > 0 || t.Annotations != nil {
			return b[:start], false
		}
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"type":"text","text":`...)
		b = AppendJSONString(b, t.Text)
		b = append(b, '}')
	}
	b = append(b, ']')
	if raw != nil {
		b = append(b, `,"structuredContent":`...)
		var ok bool
		if b, ok = appendCompactHTML(b, raw); !ok {
			return b[:start], false
		}
	}
	if res.IsError {
		b = append(b, `,"isError":true`...)
	}
	return append(b, '}'), true
}

// appendCompactHTML appends raw compacted with <, >, & and U+2028,
// U+2029 escaped, as json.Marshal writes a json.RawMessage; false when raw
// is not valid JSON.
func appendCompactHTML(b []byte, raw json.RawMessage) ([]byte, bool) {
	buf := bytes.NewBuffer(b)
	if json.Compact(buf, raw) != nil {
		return b, false
	}
	out := buf.Bytes()
	compacted := out[len(b):]
	if !bytes.ContainsAny(compacted, "<>&\u2028\u2029") {
		return out, true
	}
	var esc bytes.Buffer
	json.HTMLEscape(&esc, compacted)
	return append(out[:len(b)], esc.Bytes()...), true
}

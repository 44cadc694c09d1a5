// Package frame screens one newline-delimited JSON-RPC 2.0 frame before any
// MCP library decodes it. It decides, from the bytes alone, whether the
// frame is a request to handle, a notification to pass on, a response to a
// request the server sent, something to ignore, or something the server must
// answer itself with an error (and then never deliver). It has no
// dependency on an MCP SDK so that it can be fuzzed and tested alone.
package frame

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// JSON-RPC 2.0 error codes the screen answers with.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
)

// MaxFrame is the longest frame read (16 MiB, without the newline). A
// longer line is answered with -32600 and id null, and the rest of it is
// discarded; the next line is served normally.
const MaxFrame = 16 << 20

// Kind says what to do with a frame.
type Kind int

// The kinds of verdict.
const (
	// Ignore: nothing is delivered and nothing is answered (a blank line, a
	// client response to an id the server never used).
	Ignore Kind = iota
	// Answer: write Reply and deliver nothing.
	Answer
	// Request: deliver Method and Params; the reply must carry ID exactly.
	Request
	// Notification: deliver Method and Params; never answer.
	Notification
	// Response: a client's response to a request the server sent.
	Response
)

// Verdict is the outcome of screening one frame.
type Verdict struct {
	Kind   Kind
	Reply  []byte          // Answer: one complete JSON-RPC response, no newline
	ID     json.RawMessage // Request, Response: the id bytes as received
	Method string          // Request, Notification
	Params json.RawMessage // Request, Notification: object or array, or nil
	Result json.RawMessage // Response
	Error  json.RawMessage // Response
}

// clientResponse is the verdict on a response from the client (no
// method; a result or an error), and false when members are not one: it is
// delivered for an id the server used, and ignored otherwise.
func clientResponse(members map[string][]json.RawMessage, known func(canonicalID string) bool) (Verdict, bool) {
	_, hasResult := members["result"]
	_, hasError := members["error"]
	if _, hasMethod := members["method"]; hasMethod || !(hasResult || hasError) {
		return Verdict{}, false
	}
	ids := members["id"]
	if len(ids) != 1 || !validID(ids[0]) || known == nil || !known(CanonicalID(ids[0])) {
		return Verdict{Kind: Ignore}, true
	}
	v := Verdict{Kind: Response, ID: ids[0]}
	if hasResult {
		v.Result = members["result"][0]
	}
	if hasError {
		v.Error = members["error"][0]
	}
	return v, true
}

// requestID reads a request's id members: the id, "ok" when one was given
// ("absent" otherwise), and the answer when they are unusable (not a
// string or an integer, or given twice).
func requestID(ids []json.RawMessage) (json.RawMessage, string, *Verdict) {
	refuse := func(id json.RawMessage, msg string) (json.RawMessage, string, *Verdict) {
		v := answer(id, CodeInvalidRequest, msg)
		return nil, "", &v
	}
	if len(ids) == 0 {
		return nil, "absent", nil
	}
	for _, v := range ids {
		if !validID(v) {
			return refuse(nil, "invalid request: id must be a string or an integer, not "+describeValue(v))
		}
	}
	first := CanonicalID(ids[0])
	for _, v := range ids[1:] {
		if CanonicalID(v) != first {
			return refuse(nil, "invalid request: the id member appears more than once with different values")
		}
	}
	if len(ids) > 1 {
		return refuse(ids[0], "invalid request: the id member appears more than once")
	}
	return ids[0], "ok", nil
}

// Screen classifies line. known reports whether a response id (in its
// canonical form, see CanonicalID) belongs to a request the server sent;
// nil means none did.
func Screen(line []byte, known func(canonicalID string) bool) Verdict {
	line = bytes.TrimSuffix(line, []byte("\r"))
	if len(bytes.TrimSpace(line)) == 0 {
		return Verdict{Kind: Ignore}
	}
	if !utf8.Valid(line) {
		return answer(nil, CodeParseError, "parse error: the frame is not valid UTF-8")
	}
	if !json.Valid(line) {
		return answer(nil, CodeParseError, "parse error: "+describeInvalid(line))
	}
	trimmed := bytes.TrimSpace(line)
	switch trimmed[0] {
	case '{':
	case '[':
		return answer(nil, CodeInvalidRequest, "invalid request: batches are not part of the negotiated protocol version; send each request as a message of its own (a line over stdio, a POST over HTTP)")
	default:
		return answer(nil, CodeInvalidRequest, "invalid request: a frame must be a JSON object")
	}
	members, err := objectMembers(trimmed)
	if err != nil {
		return answer(nil, CodeParseError, "parse error: "+err.Error())
	}

	// A response from the client (no method; a result or an error) is
	// never answered, whatever its id: answering an error response is how
	// two peers start an endless exchange. It is delivered only for an id
	// the server used.
	if v, ok := clientResponse(members, known); ok {
		return v
	}

	// The id next: every later error is reported on it when it is usable.
	id, idState, refused := requestID(members["id"])
	if refused != nil {
		return *refused
	}

	onID := func(code int, msg string) Verdict {
		if idState == "ok" {
			return answer(id, code, msg)
		}
		return answer(nil, code, msg)
	}
	if problem := checkVersion(members["jsonrpc"]); problem != "" {
		return onID(CodeInvalidRequest, "invalid request: "+problem)
	}
	methods := members["method"]
	switch {
	case len(methods) == 0:
		return onID(CodeInvalidRequest, "invalid request: the method member is missing")
	case len(methods) > 1:
		return onID(CodeInvalidRequest, "invalid request: the method member appears more than once")
	}
	method, ok := stringValue(methods[0])
	if !ok {
		return onID(CodeInvalidRequest, "invalid request: method must be a string, not "+describeValue(methods[0]))
	}
	var params json.RawMessage
	if ps := members["params"]; len(ps) > 0 {
		if len(ps) > 1 {
			return onID(CodeInvalidRequest, "invalid request: the params member appears more than once")
		}
		if c := ps[0][0]; c != '{' && c != '[' {
			if idState != "ok" {
				return Verdict{Kind: Ignore} // a notification is never answered
			}
			return answer(id, CodeInvalidParams, "invalid params: params must be an object or an array, not "+describeValue(ps[0]))
		}
		params = ps[0]
	}
	if idState != "ok" {
		return Verdict{Kind: Notification, Method: method, Params: params}
	}
	return Verdict{Kind: Request, ID: id, Method: method, Params: params}
}

func checkVersion(vs []json.RawMessage) string {
	switch {
	case len(vs) == 0:
		return `the jsonrpc member is missing; it must be "2.0"`
	case len(vs) > 1:
		return "the jsonrpc member appears more than once"
	}
	if string(vs[0]) == `"2.0"` {
		return ""
	}
	if s, ok := stringValue(vs[0]); !ok || s != "2.0" {
		return `jsonrpc must be "2.0", not ` + describeValue(vs[0])
	}
	return ""
}

// validID accepts a JSON string or an integer written without fraction or
// exponent (-?(0|[1-9][0-9]*)). Integers of any size are accepted: the id
// is echoed as the bytes received, so it never has to fit a machine type.
func validID(v json.RawMessage) bool {
	switch {
	case len(v) == 0:
		return false
	case v[0] == '"':
		return true
	}
	d := v
	if d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || (d[0] == '0' && len(d) > 1) {
		return false
	}
	for _, c := range d {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// CanonicalID returns a comparable form of an id: a string id decoded
// (so "a" and "\u0061" are equal) and marked with a leading 's', an integer
// id as its digits with a leading 'n'.
func CanonicalID(v json.RawMessage) string {
	if s, ok := stringValue(v); ok {
		return "s" + s
	}
	return "n" + string(v)
}

// stringValue decodes a JSON string value; ok is false if v is not one.
// A string without escapes is its bytes between the quotes (v is valid
// JSON, so they are valid UTF-8 with no control character).
func stringValue(v json.RawMessage) (s string, ok bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	if bytes.IndexByte(v, '\\') < 0 {
		return string(v[1 : len(v)-1]), true
	}
	return s, json.Unmarshal(v, &s) == nil
}

// objectMembers returns the top-level members of a JSON object, keys
// decoded (so "\u0069d" is "id"), every value kept raw and every repeat of
// a key kept, in order. obj must already be valid JSON (json.Valid): the
// walk only finds where each member starts and ends, without allocating a
// token per value.
func objectMembers(obj []byte) (map[string][]json.RawMessage, error) {
	m := make(map[string][]json.RawMessage, 4)
	err := walkObject(obj, func(key string, v json.RawMessage) {
		m[key] = append(m[key], v)
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Object returns the members of a JSON object, keys decoded, values raw; a
// repeated key keeps its last value, as encoding/json does when it decodes
// into a map. obj must be valid JSON in valid UTF-8 (a value inside a
// screened frame is);
// ok is false if it is not an object. It costs one map, not a decode.
func Object(obj []byte) (m map[string]json.RawMessage, ok bool) {
	m = make(map[string]json.RawMessage, 4)
	if walkObject(obj, func(key string, v json.RawMessage) { m[key] = v }) != nil {
		return nil, false
	}
	return m, true
}

// walkObject calls member for each top-level member of obj, in order.
func walkObject(obj []byte, member func(key string, v json.RawMessage)) error {
	i := skipWS(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return errors.New("not an object")
	}
	i = skipWS(obj, i+1)
	if i < len(obj) && obj[i] == '}' {
		if skipWS(obj, i+1) != len(obj) {
			return errors.New("trailing data after the object")
		}
		return nil
	}
	for i < len(obj) {
		if obj[i] != '"' {
			return errors.New("object key is not a string")
		}
		end := scanString(obj, i)
		if end < 0 {
			return errors.New("unterminated key")
		}
		raw := obj[i:end]
		key, ok := commonKey(raw)
		if ok {
		} else if bytes.IndexByte(raw, '\\') < 0 {
			key = string(raw[1 : len(raw)-1])
		} else if err := json.Unmarshal(raw, &key); err != nil {
			return err
		}
		i = skipWS(obj, end)
		if i >= len(obj) || obj[i] != ':' {
			return errors.New("missing colon")
		}
		i = skipWS(obj, i+1)
		vend := scanValue(obj, i)
		if vend < 0 {
			return errors.New("bad value")
		}
		member(key, json.RawMessage(obj[i:vend]))
		i = skipWS(obj, vend)
		if i < len(obj) && obj[i] == ',' {
			i = skipWS(obj, i+1)
			continue
		}
		if i < len(obj) && obj[i] == '}' {
			if skipWS(obj, i+1) != len(obj) {
				return errors.New("trailing data after the object")
			}
			return nil
		}
		return errors.New("malformed object")
	}
	return errors.New("unterminated object")
}

// commonKey returns the keys every MCP request carries without allocating
// a string for each.
func commonKey(raw []byte) (string, bool) {
	switch string(raw) {
	case `"jsonrpc"`:
		return "jsonrpc", true
	case `"id"`:
		return "id", true
	case `"method"`:
		return "method", true
	case `"params"`:
		return "params", true
	case `"name"`:
		return "name", true
	case `"arguments"`:
		return "arguments", true
	case `"_meta"`:
		return "_meta", true
	}
	return "", false
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// scanString returns the index just past the string starting at b[i], or
// -1.
func scanString(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// scanValue returns the index just past the value starting at b[i], or -1.
func scanValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return scanString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				e := scanString(b, j)
				if e < 0 {
					return -1
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	default:
		j := i
		for j < len(b) && !strings.ContainsRune(",}] \t\r\n", rune(b[j])) {
			j++
		}
		return j
	}
}

func describeValue(v json.RawMessage) string {
	switch {
	case len(v) == 0:
		return "nothing"
	case v[0] == '{':
		return "an object"
	case v[0] == '[':
		return "an array"
	case v[0] == '"':
		return "the string " + truncate(string(v))
	case string(v) == "null":
		return "null"
	case string(v) == "true" || string(v) == "false":
		return "a boolean"
	default:
		return "the number " + truncate(string(v))
	}
}

func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// describeInvalid says why line is not one JSON value: trailing data after
// a complete value, or broken JSON.
func describeInvalid(line []byte) string {
	dec := json.NewDecoder(bytes.NewReader(line))
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		if bytes.HasPrefix(line, []byte("\xef\xbb\xbf")) {
			return "the frame starts with a byte order mark; send plain UTF-8 JSON"
		}
		return "not JSON (" + err.Error() + ")"
	}
	return fmt.Sprintf("trailing data after the JSON value at byte %d", dec.InputOffset())
}

// answer builds an error response on id (nil: id null).
func answer(id json.RawMessage, code int, msg string) Verdict {
	return Verdict{Kind: Answer, Reply: ErrorResponse(id, code, msg, nil)}
}

// ErrorResponse encodes a JSON-RPC error response. id nil is written as
// null; otherwise its bytes are written exactly as given.
func ErrorResponse(id json.RawMessage, code int, msg string, data json.RawMessage) []byte {
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":`)
	if id == nil {
		b.WriteString("null")
	} else {
		b.Write(id)
	}
	fmt.Fprintf(&b, `,"error":{"code":%d,"message":%s`, code, quote(msg))
	if len(data) > 0 {
		b.WriteString(`,"data":`)
		b.Write(data)
	}
	b.WriteString("}}")
	return b.Bytes()
}

// ResultResponse encodes a JSON-RPC result response with the id bytes as
// given.
func ResultResponse(id, result json.RawMessage) []byte {
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":`)
	b.Write(id)
	b.WriteString(`,"result":`)
	b.Write(result)
	b.WriteString("}")
	return b.Bytes()
}

func quote(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

package wire

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/claimslint/claimslint/server/mcp/frame"
)

// ModernVersions are the claimed versions that carry the protocol version
// on every request (in _meta) instead of negotiating it at initialize.
var ModernVersions = []string{"2026-07-28"}

// Meta keys a modern request carries.
const (
	MetaProtocolVersion = "io.modelcontextprotocol/protocolVersion"
	MetaClientInfo      = "io.modelcontextprotocol/clientInfo"
	MetaClientCaps      = "io.modelcontextprotocol/clientCapabilities"
	MetaSubscriptionID  = "io.modelcontextprotocol/subscriptionId"
)

// CodeUnsupportedProtocolVersion is the 2026-07-28 error for a request
// whose declared version the server does not implement.
const CodeUnsupportedProtocolVersion = -32022

// logLevels are the syslog severities logging/setLevel accepts.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// Rejection is a request the transport answers itself instead of
// delivering it.
type Rejection struct {
	Code int
	Msg  string
	Data json.RawMessage
}

// Era says how a request selected its protocol version.
type Era int

const (
	EraLegacy Era = iota // no _meta version: the initialize handshake's
	EraModern            // a modern version in _meta: served statelessly
)

// Gate decides, from the request alone and whether a legacy initialize has
// been delivered on this connection, whether the SDK may see it. It
// returns the request's era, or the error to answer with. Every message
// names the member at fault, never a Go type.
func Gate(method string, params json.RawMessage, initialized bool) (Era, *Rejection) {
	// params and every value in it come from a screened frame: valid JSON,
	// so its members are found by a walk, not decoded.
	var p map[string]json.RawMessage
	if len(params) > 0 && params[0] == '{' {
		var ok bool
		if p, ok = frame.Object(params); !ok {
			return EraLegacy, InvalidParams("params must be a JSON object")
		}
	}
	e, rej := metaEra(method, p, initialized)
	if rej != nil {
		return e, rej
	}
	switch method {
	case "initialize":
		if e == EraLegacy {
			if r := checkInitialize(p, params); r != nil {
				return e, r
			}
		}
	case "logging/setLevel":
		if e == EraLegacy {
			if r := checkSetLevel(p); r != nil {
				return e, r
			}
		}
	case "tools/call":
		if problem := checkToolCall(params, p); problem != "" {
			return e, InvalidParams(problem)
		}
	}
	if e == EraLegacy && !initialized {
		switch method {
		case "initialize", "ping":
		case "server/discover":
			return e, &Rejection{Code: frame.CodeMethodNotFound, Msg: fmt.Sprintf("method not found: %q is served only under %s; declare it in _meta %q", method, ModernVersions[0], MetaProtocolVersion)}
		default:
			return e, &Rejection{Code: frame.CodeInvalidRequest, Msg: fmt.Sprintf("invalid request: method %q is invalid during session initialization; send initialize first, or declare %s in _meta %q", method, ModernVersions[0], MetaProtocolVersion)}
		}
	}
	return e, nil
}

// metaEra is the era a request's _meta declares (EraLegacy when it
// declares no version), or the error to answer with when its _meta, or
// the version in it, is not one this server serves.
func metaEra(method string, p map[string]json.RawMessage, initialized bool) (Era, *Rejection) {
	rawMeta, ok := p["_meta"]
	if !ok {
		return EraLegacy, nil
	}
	var meta map[string]json.RawMessage
	if len(rawMeta) == 0 || rawMeta[0] != '{' {
		return EraLegacy, InvalidParams("_meta must be an object, not " + kindOf(rawMeta))
	}
	if meta, ok = frame.Object(rawMeta); !ok {
		return EraLegacy, InvalidParams("_meta must be an object, not " + kindOf(rawMeta))
	}
	rawV, ok := meta[MetaProtocolVersion]
	if !ok {
		return EraLegacy, nil
	}
	var v string
	if len(rawV) == 0 || rawV[0] != '"' || json.Unmarshal(rawV, &v) != nil {
		return EraLegacy, InvalidParams(fmt.Sprintf("_meta %q must be a string, not %s", MetaProtocolVersion, kindOf(rawV)))
	}
	switch {
	case slices.Contains(ModernVersions, v):
		return EraModern, checkModernMeta(meta)
	case slices.Contains(ProtocolVersions, v):
		// A legacy version named per request: it is served under the
		// handshake, which must have happened.
		if !initialized && method != "initialize" && method != "ping" {
			return EraLegacy, &Rejection{Code: frame.CodeInvalidRequest, Msg: fmt.Sprintf("invalid request: %s is negotiated by initialize; send initialize first, or declare %s in _meta %q", v, ModernVersions[0], MetaProtocolVersion)}
		}
		return EraLegacy, nil
	default:
		data, _ := json.Marshal(struct {
			Supported []string `json:"supported"`
			Requested string   `json:"requested"`
		}{ProtocolVersions, v})
		return EraLegacy, &Rejection{Code: CodeUnsupportedProtocolVersion, Msg: fmt.Sprintf("unsupported protocol version %q: this server supports %s", v, strings.Join(ProtocolVersions, ", ")), Data: data}
	}
}

// InvalidParams is the -32602 Rejection that says what is wrong.
func InvalidParams(problem string) *Rejection {
	return &Rejection{Code: frame.CodeInvalidParams, Msg: "invalid params: " + problem}
}

// checkModernMeta checks the members a modern request must carry in _meta.
func checkModernMeta(meta map[string]json.RawMessage) *Rejection {
	caps, ok := meta[MetaClientCaps]
	if !ok {
		return InvalidParams(fmt.Sprintf("_meta %q is required under %s", MetaClientCaps, ModernVersions[0]))
	}
	if len(caps) == 0 || caps[0] != '{' {
		return InvalidParams(fmt.Sprintf("_meta %q must be an object, not %s", MetaClientCaps, kindOf(caps)))
	}
	if info, ok := meta[MetaClientInfo]; ok {
		if problem := checkImplementation(info); problem != "" {
			return InvalidParams(fmt.Sprintf("_meta %q %s", MetaClientInfo, problem))
		}
	}
	return nil
}

// checkInitialize checks initialize's params member by member, so the
// answer names the member and never the SDK's Go types.
func checkInitialize(p map[string]json.RawMessage, params json.RawMessage) *Rejection {
	if len(params) == 0 {
		return InvalidParams("initialize needs params: {\"protocolVersion\": ..., \"capabilities\": {...}, \"clientInfo\": {...}}")
	}
	if p == nil {
		return InvalidParams("initialize takes an object: {\"protocolVersion\": ..., \"capabilities\": {...}, \"clientInfo\": {...}}, not " + kindOf(params))
	}
	v, ok := p["protocolVersion"]
	if !ok {
		return InvalidParams("initialize needs protocolVersion, a string such as \"" + ProtocolVersions[1] + "\"")
	}
	if len(v) == 0 || v[0] != '"' {
		return InvalidParams("protocolVersion must be a string such as \"" + ProtocolVersions[1] + "\", not " + kindOf(v))
	}
	if c, ok := p["capabilities"]; ok && (len(c) == 0 || c[0] != '{') {
		return InvalidParams("capabilities must be an object, not " + kindOf(c))
	}
	if info, ok := p["clientInfo"]; ok {
		if problem := checkImplementation(info); problem != "" {
			return InvalidParams("clientInfo " + problem)
		}
	}
	return nil
}

// checkImplementation checks an Implementation object: name and version
// are strings when present.
func checkImplementation(raw json.RawMessage) string {
	var m map[string]json.RawMessage
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &m) != nil {
		return "must be an object, not " + kindOf(raw)
	}
	for _, k := range []string{"name", "version", "title"} {
		if v, ok := m[k]; ok && (len(v) == 0 || v[0] != '"') {
			return fmt.Sprintf("member %s must be a string, not %s", k, kindOf(v))
		}
	}
	return ""
}

// checkSetLevel checks logging/setLevel's level against the eight syslog
// severities the specification lists.
func checkSetLevel(p map[string]json.RawMessage) *Rejection {
	want := "level must be one of " + strings.Join(logLevels, ", ")
	raw, ok := p["level"]
	if !ok {
		return InvalidParams("logging/setLevel needs level; " + want)
	}
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return InvalidParams(want + ", not " + kindOf(raw))
	}
	if !slices.Contains(logLevels, s) {
		return InvalidParams(fmt.Sprintf("%s, not %q", want, s))
	}
	return nil
}

// checkToolCall rejects a tools/call whose params are not of the shape MCP
// defines: an object with a string name and, if present, an object of
// arguments. The SDK would report a wrong-typed arguments value as a
// failed tool call; it is a malformed request.
func checkToolCall(params json.RawMessage, p map[string]json.RawMessage) string {
	if len(params) == 0 || params[0] != '{' || p == nil {
		return "tools/call takes an object: {\"name\": ..., \"arguments\": {...}}"
	}
	name, ok := p["name"]
	if !ok || len(name) == 0 || name[0] != '"' {
		return "tools/call needs a string name"
	}
	if a, ok := p["arguments"]; ok && (len(a) == 0 || (a[0] != '{' && string(a) != "null")) {
		return "tools/call arguments must be an object"
	}
	return ""
}

// ToolName is a tools/call request's tool name, or "".
func ToolName(params json.RawMessage) string {
	var p struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(params, &p) != nil {
		return ""
	}
	return p.Name
}

// kindOf names a JSON value's kind for a message.
func kindOf(v json.RawMessage) string {
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

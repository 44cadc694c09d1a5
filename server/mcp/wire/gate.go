package mcp

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
	metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"
	metaClientInfo      = "io.modelcontextprotocol/clientInfo"
	metaClientCaps      = "io.modelcontextprotocol/clientCapabilities"
	metaSubscriptionID  = "io.modelcontextprotocol/subscriptionId"
)

// CodeUnsupportedProtocolVersion is the 2026-07-28 error for a request
// whose declared version the server does not implement.
const CodeUnsupportedProtocolVersion = -32022

// logLevels are the syslog severities logging/setLevel accepts.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// rejection is a request the transport answers itself instead of
// delivering it.
type rejection struct {
	code int
	msg  string
	data json.RawMessage
}

// era says how a request selected its protocol version.
type era int

const (
	eraLegacy era = iota // no _meta version: the initialize handshake's
	eraModern            // a modern version in _meta: served statelessly
)

// gate decides, from the request alone and whether a legacy initialize has
// been delivered on this connection, whether the SDK may see it. It
// returns the request's era, or the error to answer with. Every message
// names the member at fault, never a Go type.
func gate(method string, params json.RawMessage, initialized bool) (era, *rejection) {
	// params and every value in it come from a screened frame: valid JSON,
	// so its members are found by a walk, not decoded.
	var p map[string]json.RawMessage
	if len(params) > 0 && params[0] == '{' {
		var ok bool
		if p, ok = frame.Object(params); !ok {
			return eraLegacy, invalidParams("params must be a JSON object")
		}
	}
	e := eraLegacy
	if rawMeta, ok := p["_meta"]; ok {
		var meta map[string]json.RawMessage
		if len(rawMeta) == 0 || rawMeta[0] != '{' {
			return eraLegacy, invalidParams("_meta must be an object, not " + kindOf(rawMeta))
		}
		if meta, ok = frame.Object(rawMeta); !ok {
			return eraLegacy, invalidParams("_meta must be an object, not " + kindOf(rawMeta))
		}
		if rawV, ok := meta[metaProtocolVersion]; ok {
			var v string
			if len(rawV) == 0 || rawV[0] != '"' || json.Unmarshal(rawV, &v) != nil {
				return eraLegacy, invalidParams(fmt.Sprintf("_meta %q must be a string, not %s", metaProtocolVersion, kindOf(rawV)))
			}
			switch {
			case slices.Contains(ModernVersions, v):
				e = eraModern
				if r := checkModernMeta(meta); r != nil {
					return e, r
				}
			case slices.Contains(ProtocolVersions, v):
				// A legacy version named per request: it is served under the
				// handshake, which must have happened.
				if !initialized && method != "initialize" && method != "ping" {
					return eraLegacy, &rejection{code: frame.CodeInvalidRequest, msg: fmt.Sprintf("invalid request: %s is negotiated by initialize; send initialize first, or declare %s in _meta %q", v, ModernVersions[0], metaProtocolVersion)}
				}
			default:
				data, _ := json.Marshal(struct {
					Supported []string `json:"supported"`
					Requested string   `json:"requested"`
				}{ProtocolVersions, v})
				return eraLegacy, &rejection{code: CodeUnsupportedProtocolVersion, msg: fmt.Sprintf("unsupported protocol version %q: this server supports %s", v, strings.Join(ProtocolVersions, ", ")), data: data}
			}
		}
	}
	switch method {
	case "initialize":
		if e == eraLegacy {
			if r := checkInitialize(p, params); r != nil {
				return e, r
			}
		}
	case "logging/setLevel":
		if e == eraLegacy {
			if r := checkSetLevel(p); r != nil {
				return e, r
			}
		}
	case "tools/call":
		if problem := checkToolCall(params, p); problem != "" {
			return e, invalidParams(problem)
		}
	}
	if e == eraLegacy && !initialized {
		switch method {
		case "initialize", "ping":
		case "server/discover":
			return e, &rejection{code: frame.CodeMethodNotFound, msg: fmt.Sprintf("method not found: %q is served only under %s; declare it in _meta %q", method, ModernVersions[0], metaProtocolVersion)}
		default:
			return e, &rejection{code: frame.CodeInvalidRequest, msg: fmt.Sprintf("invalid request: method %q is invalid during session initialization; send initialize first, or declare %s in _meta %q", method, ModernVersions[0], metaProtocolVersion)}
		}
	}
	return e, nil
}

func invalidParams(problem string) *rejection {
	return &rejection{code: frame.CodeInvalidParams, msg: "invalid params: " + problem}
}

// checkModernMeta checks the members a modern request must carry in _meta.
func checkModernMeta(meta map[string]json.RawMessage) *rejection {
	caps, ok := meta[metaClientCaps]
	if !ok {
		return invalidParams(fmt.Sprintf("_meta %q is required under %s", metaClientCaps, ModernVersions[0]))
	}
	if len(caps) == 0 || caps[0] != '{' {
		return invalidParams(fmt.Sprintf("_meta %q must be an object, not %s", metaClientCaps, kindOf(caps)))
	}
	if info, ok := meta[metaClientInfo]; ok {
		if problem := checkImplementation(info); problem != "" {
			return invalidParams(fmt.Sprintf("_meta %q %s", metaClientInfo, problem))
		}
	}
	return nil
}

// checkInitialize checks initialize's params member by member, so the
// answer names the member and never the SDK's Go types.
func checkInitialize(p map[string]json.RawMessage, params json.RawMessage) *rejection {
	if len(params) == 0 {
		return invalidParams("initialize needs params: {\"protocolVersion\": ..., \"capabilities\": {...}, \"clientInfo\": {...}}")
	}
	if p == nil {
		return invalidParams("initialize takes an object: {\"protocolVersion\": ..., \"capabilities\": {...}, \"clientInfo\": {...}}, not " + kindOf(params))
	}
	v, ok := p["protocolVersion"]
	if !ok {
		return invalidParams("initialize needs protocolVersion, a string such as \"" + ProtocolVersions[1] + "\"")
	}
	if len(v) == 0 || v[0] != '"' {
		return invalidParams("protocolVersion must be a string such as \"" + ProtocolVersions[1] + "\", not " + kindOf(v))
	}
	if c, ok := p["capabilities"]; ok && (len(c) == 0 || c[0] != '{') {
		return invalidParams("capabilities must be an object, not " + kindOf(c))
	}
	if info, ok := p["clientInfo"]; ok {
		if problem := checkImplementation(info); problem != "" {
			return invalidParams("clientInfo " + problem)
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
func checkSetLevel(p map[string]json.RawMessage) *rejection {
	want := "level must be one of " + strings.Join(logLevels, ", ")
	raw, ok := p["level"]
	if !ok {
		return invalidParams("logging/setLevel needs level; " + want)
	}
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return invalidParams(want + ", not " + kindOf(raw))
	}
	if !slices.Contains(logLevels, s) {
		return invalidParams(fmt.Sprintf("%s, not %q", want, s))
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

// toolName is a tools/call request's tool name, or "".
func toolName(params json.RawMessage) string {
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

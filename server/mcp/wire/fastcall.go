package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// FastCalls serves, over stdio and in the HTTP front's 2025-11-25
// sessions (fastCallIn), a tools/call of a read-only issue tool
// without go-sdk's per-request dispatch (D82): no jsonrpc2 goroutine per
// request with its stack grown afresh, no second decode of the params, no
// _meta checks on a request that has no _meta. The transport runs the very
// handler the SDK would (addTool's) and builds the same result bytes; it
// takes only the plain case, a legacy session already initialized and
// params of exactly a name and an arguments object, and leaves every other
// request to the SDK.
type FastCalls struct {
	srv      *sdk.Server
	handlers map[string]sdk.ToolHandler // by tool name: the read-only store tools

	mu      sync.Mutex
	session *sdk.ServerSession // the initialized legacy session, once seen
}

// NewFastCalls returns the fast path of app: nil when app has no Direct
// handlers, so every call goes through the SDK.
func NewFastCalls(app *App) *FastCalls {
	if app == nil || len(app.Direct) == 0 {
		return nil
	}
	return &FastCalls{srv: app.Server, handlers: app.Direct}
}

// In is fc in the session ss, which LegacyReady accepted.
func (fc *FastCall) In(ss *sdk.ServerSession) *FastCall {
	fc.ss = ss
	return fc
}

// maxFastParams bounds the params the transport reads for a fast call: the
// dispatch it saves matters on small calls, and a large frame is not
// decoded once more on the reading goroutine.
const maxFastParams = 4 << 10

// maxFastNesting: params with this many brackets could nest as deep as
// go-sdk's decoder allows (1000), and are left to it.
const maxFastNesting = 1000

// FastCall is one tools/call the transport runs itself.
type FastCall struct {
	name string
	args json.RawMessage
	h    sdk.ToolHandler
	ss   *sdk.ServerSession
}

// Name is the tool fc calls.
func (fc *FastCall) Name() string { return fc.name }

// ready is the session the SDK has initialized under a legacy version (one
// without multi-round-trip results), or nil: before initialize the SDK
// refuses a call, and under 2026-07-28 it marks results, so neither is
// taken here.
func (f *FastCalls) ready() *sdk.ServerSession {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.session != nil {
		return f.session
	}
	for ss := range f.srv.Sessions() {
		if LegacyReady(ss) {
			f.session = ss
			return ss
		}
	}
	return nil
}

// Match is the call params asks for when the transport may serve it:
// params is an object of exactly "name", a tool of f, and "arguments", an
// object, in at most maxFastParams bytes. Anything else (a _meta, so a
// progress token, an unknown tool) is nil and goes to the SDK.
func (f *FastCalls) Match(params json.RawMessage) *FastCall {
	fc := f.Parse(params)
	if fc == nil {
		return nil
	}
	if fc.ss = f.ready(); fc.ss == nil {
		return nil
	}
	return fc
}

// LegacyReady reports whether ss is a session the SDK has initialized
// under a legacy version (one without multi-round-trip results): before
// initialize the SDK refuses a call, and under 2026-07-28 it marks
// results, so neither is taken here.
func LegacyReady(ss *sdk.ServerSession) bool {
	if ss == nil {
		return false
	}
	p := ss.InitializeParams()
	return p != nil && p.ProtocolVersion < "2026-07-28"
}

// Parse is the plain call params ask for, with no session yet: nil when
// the SDK must serve it.
func (f *FastCalls) Parse(params json.RawMessage) *FastCall {
	if f == nil || len(f.handlers) == 0 || len(params) > maxFastParams || bytes.Contains(params, []byte(`"_meta"`)) {
		return nil
	}
	if bytes.Count(params, []byte("{"))+bytes.Count(params, []byte("[")) >= maxFastNesting {
		// go-sdk refuses params nested past its limit; the SDK says so.
		return nil
	}
	var p map[string]json.RawMessage
	if json.Unmarshal(params, &p) != nil || len(p) != 2 {
		return nil
	}
	rawName, args := p["name"], p["arguments"]
	if len(rawName) == 0 || len(args) == 0 || args[0] != '{' {
		return nil
	}
	var name string
	if json.Unmarshal(rawName, &name) != nil {
		return nil
	}
	h, ok := f.handlers[name]
	if !ok {
		return nil
	}
	return &FastCall{name: name, args: args, h: h}
}

// Run calls the tool and returns the result as go-sdk would send it: an
// absent content list is [], and the result is encoded without escaping
// HTML, as go-sdk's jsonrpc2 does.
func (fc *FastCall) Run(ctx context.Context) (json.RawMessage, error) {
	req := &sdk.CallToolRequest{Session: fc.ss, Params: &sdk.CallToolParamsRaw{Name: fc.name, Arguments: fc.args}}
	res, err := fc.h(ctx, req)
	if err != nil {
		return nil, err
	}
	if res == nil {
		res = &sdk.CallToolResult{}
	}
	if res.Content == nil {
		r := *res
		r.Content = []sdk.Content{} // as go-sdk's callTool: never null
		res = &r
	}
	if b, ok := appendToolResult(make([]byte, 0, 1024), res); ok {
		return b, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

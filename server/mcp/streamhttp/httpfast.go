package streamhttp

import (
	"encoding/json"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/claimslint/claimslint/server/mcp/frame"
	"github.com/claimslint/claimslint/server/mcp/wire"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// fastCallIn is the plain read-only tools/call the front serves itself
// inside a 2025-11-25 session, without go-sdk's streamable handler and
// its per-request dispatch (D82): a logical stream, a goroutine, an event
// written and parsed back, the params decoded again. It takes the call
// only where the SDK would serve it and nothing it checks could refuse it
// (a JSON body, an Accept the SDK takes, a Host it does not screen out, no
// Last-Event-ID), in a session the SDK holds and has initialized; every
// other request is the SDK's, as before.
func (f *HTTPHandler) fastCallIn(r *http.Request, e wire.Era, session string, v frame.Verdict) *wire.FastCall {
	if f.fast == nil || v.Method != "tools/call" || e != wire.EraLegacy || session == "" || !sdkWouldServe(r) {
		return nil
	}
	fc := f.fast.Parse(v.Params)
	if fc == nil {
		return nil
	}
	ss := f.clock.session(session)
	if !wire.LegacyReady(ss) {
		return nil
	}
	return fc.In(ss)
}

// sdkWouldServe reports whether go-sdk's streamable handler would serve
// a POST with r's headers rather than refuse it before its dispatch: the
// checks of its ServeHTTP and servePOST that do not depend on the body
// or the session (go-sdk v1.8.0). When in doubt, false: the SDK answers.
func sdkWouldServe(r *http.Request) bool {
	if la, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && la != nil && loopbackAddr(la) && !loopback(r.Host) {
		return false // its DNS-rebinding screen: 403
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		// The exact type, the usual case, needs no parse.
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			return false
		}
	}
	if len(r.Header.Values("Last-Event-ID")) > 0 {
		return false
	}
	jsonOK, streamOK := false, false
	for _, v := range r.Header.Values("Accept") {
		for raw := range strings.SplitSeq(v, ",") {
			base, _, _ := strings.Cut(strings.TrimSpace(raw), ";")
			switch strings.ToLower(strings.TrimSpace(base)) {
			case "application/json", "application/*":
				jsonOK = true
			case "text/event-stream", "text/*":
				streamOK = true
			case "*/*":
				jsonOK, streamOK = true, true
			}
		}
	}
	return jsonOK && streamOK
}

// loopbackAddr is loopback(a.String()), without formatting a TCP address
// to parse it back.
func loopbackAddr(a net.Addr) bool {
	if t, ok := a.(*net.TCPAddr); ok && t != nil {
		ip, ok := netip.AddrFromSlice(t.IP)
		return ok && ip.IsLoopback()
	}
	return loopback(a.String())
}

// loopback is go-sdk's test of a host or host:port for its DNS-rebinding
// screen.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = strings.Trim(addr, "[]")
	}
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// serveFast runs fc, a call the front took (fastCallIn), and writes its
// reply on the client's id through the writer a call the SDK serves gets
// (idWriter: the size limit, the write deadline, a cancelled or stopped
// call's answer), as the SDK's would be written: the same handling slot
// (handling), the same context for the drain to cancel, the reply encoded
// by the SDK's own encoder on the internal id, with the headers the SDK
// sets on a reply, flushed as it flushes its event.
func (f *HTTPHandler) serveFast(w http.ResponseWriter, r *http.Request, call *httpCall, id json.RawMessage, fc *wire.FastCall) {
	rw := &idWriter{ResponseWriter: w, from: call.quoted, to: id, call: call, max: f.maxReply, inSession: true, version: r.Header.Get("MCP-Protocol-Version"),
		rc: http.NewResponseController(w), writeTimeout: f.writeTimeout, ready: func(n int) { f.replyReady(call, n) }}
	if !call.hand(rw) {
		writeHTTPError(w, http.StatusServiceUnavailable, id, frame.CodeInternalError, "internal error: the server is shutting down; the request was not started, so nothing was changed: retry it against a running server")
		return
	}
	defer rw.finish()
	f.fastServed.Add(1)
	// The drain stops the call by ending the request's own context, which
	// nothing but the call depends on once the body is read.
	ctx := call.ctx
	if !call.onStop(call.cancel) {
		call.cancel()
	}
	var res []byte
	var err error
	select {
	case f.slots <- struct{}{}:
		if !call.hold() {
			defer func() { <-f.slots }()
		}
		res, err = fc.Run(ctx)
	case <-ctx.Done():
		err = ctx.Err()
	}
	var b []byte
	if err == nil && len(res) > 0 {
		b = resultFrame(call.quoted, res)
	} else {
		internal, _ := jsonrpc.MakeID(call.internal)
		var encErr error
		b, encErr = jsonrpc.EncodeMessage(&jsonrpc.Response{ID: internal, Result: res, Error: err})
		if encErr != nil {
			b, _ = jsonrpc.EncodeMessage(&jsonrpc.Response{ID: internal, Error: encErr})
		}
	}
	h := rw.Header()
	h.Set("Cache-Control", "no-cache, no-transform")
	h.Set("Content-Type", "application/json")
	// Chunked, no Content-Length, as the SDK answers, which flushes its
	// event; declared here instead of flushed, so that net/http writes the
	// head, the reply and the last chunk in one write once the handler
	// returns, not two. The bytes on the wire are the same.
	h.Set("Transfer-Encoding", "chunked")
	rw.WriteHeader(http.StatusOK)
	rw.Write(append(b, '\n'))
}

// resultFrame is the reply go-sdk's jsonrpc.EncodeMessage writes for a
// result on the internal id quoted (a JSON string of plain ASCII), built
// without a second encoding: res is FastCall.Run's, already compact with
// HTML left unescaped, which is what EncodeMessage would copy in.
func resultFrame(quoted []byte, res json.RawMessage) []byte {
	b := make([]byte, 0, len(`{"jsonrpc":"2.0","id":,"result":}`)+len(quoted)+len(res)+1)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, quoted...)
	b = append(b, `,"result":`...)
	b = append(b, res...)
	return append(b, '}')
}

// sessionClock closes a 2025-11-25 session that has had no POST for idle
// (D71), in place of go-sdk's own timer, which only the requests its
// handler serves would reset: the calls the front serves itself count
// alike. As go-sdk's, it runs while no POST of the session is being
// served, and a GET stream does not stop it.
type sessionClock struct {
	srv  *sdk.Server
	idle time.Duration

	mu sync.Mutex
	m  map[string]*clockedSession
}

type clockedSession struct {
	ss     *sdk.ServerSession
	refs   int // POSTs of the session being served
	timer  *time.Timer
	closed bool
}

// find is the clock of the live session named id, started the first time
// it is asked for; nil when the server holds no such session.
func (c *sessionClock) find(id string) *clockedSession {
	c.mu.Lock()
	cs := c.m[id]
	c.mu.Unlock()
	if cs != nil {
		return cs
	}
	var ss *sdk.ServerSession
	for s := range c.srv.Sessions() {
		if s.ID() == id {
			ss = s
			break
		}
	}
	if ss == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if cs := c.m[id]; cs != nil {
		return cs
	}
	cs = &clockedSession{ss: ss}
	cs.timer = time.AfterFunc(c.idle, func() {
		ss.Close()
		c.forget(id)
	})
	c.m[id] = cs
	go func() {
		// Closed any other way (a DELETE, the server stopping).
		ss.Wait()
		c.forget(id)
	}()
	return cs
}

// session is the live session named id, or nil.
func (c *sessionClock) session(id string) *sdk.ServerSession {
	if cs := c.find(id); cs != nil {
		c.mu.Lock()
		defer c.mu.Unlock()
		if !cs.closed {
			return cs.ss
		}
	}
	return nil
}

// begin stops the clock of session id while one of its POSTs is served,
// a request of era e; the func it returns starts it again once none is.
// A request outside a session, or of 2026-07-28 (served without one),
// stops no clock.
func (c *sessionClock) begin(id string, e wire.Era) func() {
	if id == "" || e != wire.EraLegacy {
		return func() {}
	}
	cs := c.find(id)
	if cs == nil {
		return func() {}
	}
	c.mu.Lock()
	cs.refs++
	if cs.refs == 1 && !cs.closed {
		cs.timer.Stop()
	}
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		cs.refs--
		if cs.refs == 0 && !cs.closed {
			cs.timer.Reset(c.idle)
		}
	}
}

// forget drops the clock of a session that has closed.
func (c *sessionClock) forget(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cs := c.m[id]; cs != nil {
		cs.closed = true
		cs.timer.Stop()
		delete(c.m, id)
	}
}

// minted starts the clock of a session a POST outside one (session "")
// minted, named by its answer's Mcp-Session-Id, id.
func (c *sessionClock) minted(id, session string) {
	if session == "" && id != "" {
		c.find(id)
	}
}

// sessionStream serves a GET (a 2025-11-25 session's event stream) or a
// DELETE through the SDK, with its text/plain errors as JSON-RPC ones.
// Each write of the stream, which the SDK writes, gets the write deadline
// (D91); a session the DELETE closed has its clock dropped at once, so no
// call is served on it once the DELETE is answered.
func (f *HTTPHandler) sessionStream(w http.ResponseWriter, r *http.Request, session string) {
	je := &jsonErrors{ResponseWriter: w, version: r.Header.Get("MCP-Protocol-Version")}
	if r.Method == http.MethodGet {
		je.rc, je.writeTimeout = http.NewResponseController(w), f.writeTimeout
	}
	f.stateful.ServeHTTP(je, r)
	if r.Method == http.MethodDelete && je.wrote == http.StatusNoContent {
		f.clock.forget(session)
	}
}

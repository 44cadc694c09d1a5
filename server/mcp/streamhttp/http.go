// Package streamhttp is docket mcp's Streamable HTTP front (D55, D102):
// every POST body is screened as a stdio line is (server/mcp/frame, then
// wire.Gate) before go-sdk's streamable handler sees it, and answered on
// the client's id bytes. Legacy requests run in the SDK's sessions, modern
// ones (2026-07-28) statelessly. Bodies have a deadline and a byte budget,
// sessions a cap and an idle expiry, connections a cap, and the drain at
// shutdown answers every request it cancels (D61, D71, D91). It serves a
// wire.App and knows no tool.
package streamhttp

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/claimslint/claimslint/server/mcp/frame"
	"github.com/claimslint/claimslint/server/mcp/wire"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultHTTPAddr is where docket mcp --http listens unless told
// otherwise: the loopback interface only.
const DefaultHTTPAddr = "127.0.0.1:8765"

// HTTPPath is the one MCP endpoint.
const HTTPPath = "/mcp"

// DefaultBodyTimeout is how long a POST body may take to arrive once its
// headers are in, when HTTPOptions.BodyTimeout is 0: a body still arriving
// then is answered 408 (D71).
const DefaultBodyTimeout = 30 * time.Second

// DefaultMaxSessions is how many 2025-11-25 sessions are held at once when
// HTTPOptions.MaxSessions is 0: an initialize past it is answered 503 (D71).
const DefaultMaxSessions = 1024

// DefaultWriteTimeout is how long one write of a reply may block on a
// client that does not read, when HTTPOptions.WriteTimeout is 0: past it
// the connection is closed (D91).
const DefaultWriteTimeout = 30 * time.Second

// DefaultSessionIdle is how long a session may go without a request before
// it is closed, when HTTPOptions.SessionIdle is 0 (D71).
const DefaultSessionIdle = 30 * time.Minute

// Connection timeouts of the listening server: the headers of a request
// must arrive within headerTimeout, and a kept-alive connection with no
// request is closed after connIdleTimeout (D71).
const (
	headerTimeout   = 10 * time.Second
	connIdleTimeout = 2 * time.Minute
)

// HTTPOptions configure ServeHTTP.
type HTTPOptions struct {
	// Addr is host:port; a bare :port binds 127.0.0.1.
	Addr string
	// Token, if not empty, must be presented as "Authorization: Bearer"
	// (the scheme in any case).
	Token string
	// AllowOrigins are Origin values accepted besides loopback pages.
	AllowOrigins []string
	// Ready, if set, receives the listening address once the server accepts.
	Ready chan<- string
	// BodyTimeout bounds how long a POST body may take to arrive once its
	// headers are in; time spent waiting for room in the body budget is
	// not counted (0: DefaultBodyTimeout).
	BodyTimeout time.Duration
	// MaxSessions caps the 2025-11-25 sessions held at once (0:
	// DefaultMaxSessions).
	MaxSessions int
	// SessionIdle closes a session that has had no POST for this long (0:
	// DefaultSessionIdle).
	SessionIdle time.Duration
	// WriteTimeout bounds each write of a reply to a client that does not
	// read it (0: DefaultWriteTimeout).
	WriteTimeout time.Duration
	// MaxConns caps the connections held open at once, and
	// MaxConnsPerAddr those from one client address (0:
	// DefaultMaxConns, DefaultMaxConnsPerAddr); at a cap the longest idle
	// connection that did not present the token is closed to make room,
	// so the token holder is never locked out (D91).
	MaxConns, MaxConnsPerAddr int
	// Log receives the front's warnings (nil: discarded).
	Log *slog.Logger
	// MaxInFlight caps the requests handled at once and MaxReply the bytes
	// of one reply (0: wire.DefaultMaxInFlight, wire.DefaultMaxReply).
	MaxInFlight, MaxReply int
	// DrainTimeout bounds the drain at shutdown, and DrainGrace how long
	// a request cancelled then is given to stop (0:
	// wire.DefaultDrainTimeout, wire.DefaultDrainGrace).
	DrainTimeout, DrainGrace time.Duration
}

// ReadTokenFile reads a bearer token from path: the first line, trimmed.
func ReadTokenFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("read token file: %w", err)
	}
	tok, _, _ := strings.Cut(string(b), "\n")
	tok = strings.TrimSpace(tok)
	if tok == "" {
		return "", fmt.Errorf("token file %s is empty: write the token on its first line", path)
	}
	return tok, nil
}

// ServeHTTP serves app's MCP endpoint over Streamable HTTP until ctx ends
// (SIGTERM), then stops accepting and lets requests in flight finish for up
// to h.DrainTimeout (0: wire.DefaultDrainTimeout).
func ServeHTTP(ctx context.Context, app *wire.App, h HTTPOptions) error {
	if h.Log == nil {
		h.Log = slog.New(slog.DiscardHandler)
	}
	wire.TuneMemory()
	addr := h.Addr
	if addr == "" {
		addr = DefaultHTTPAddr
	}
	if strings.HasPrefix(addr, ":") {
		addr = "127.0.0.1" + addr
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--http %s: want host:port or :port: %w", h.Addr, err)
	}
	if ip := net.ParseIP(host); h.Token == "" && (ip == nil || !ip.IsLoopback()) && host != "localhost" {
		return fmt.Errorf("--http %s: serving beyond this machine needs --token-file (a bearer token every request must carry)", h.Addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	handler := NewHTTPHandler(app, h)
	mux := http.NewServeMux()
	mux.Handle(HTTPPath, handler)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeHTTPError(w, http.StatusNotFound, nil, frame.CodeInvalidRequest, fmt.Sprintf("invalid request: no MCP endpoint at %s; it is %s", r.URL.Path, HTTPPath))
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: headerTimeout, IdleTimeout: connIdleTimeout}
	ln = handler.LimitConns(srv, ln)
	h.Log.Info("serving MCP over HTTP", "url", "http://"+ln.Addr().String()+HTTPPath)
	if h.Ready != nil {
		h.Ready <- ln.Addr().String()
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	return handler.drain(srv, wire.OrDefault(h.DrainTimeout, wire.DefaultDrainTimeout), wire.OrDefault(h.DrainGrace, wire.DefaultDrainGrace))
}

// drain shuts srv down as the stdio transport drains at the end of input
// (D54, D71): no new connection, open SSE streams (a legacy GET, a listen)
// end at once, and each request in flight is answered. Requests still
// running after timeout are cancelled and answered with what happened (a
// committed write with its result, one rolled back as such); one whose
// handler ignores its cancellation for grace more is answered by the front,
// saying whether its outcome is known, before the connections close.
func (f *HTTPHandler) drain(srv *http.Server, timeout, grace time.Duration) error {
	f.draining.Store(true)
	f.closeStreams()
	sctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- srv.Shutdown(sctx) }()
	select {
	case err := <-shut:
		return err
	case <-time.After(timeout):
	}
	f.log.Warn("requests still running after the drain timeout; cancelling them")
	f.stopStragglers()
	select {
	case err := <-shut:
		return err
	case <-time.After(grace):
	}
	f.answerStragglers()
	cancel()
	srv.Close()
	return nil
}

// HTTPHandler is the screened Streamable HTTP endpoint. Every POST body is
// screened exactly as a stdio line is (frame.Screen, then gate) before
// go-sdk's streamable handler sees it; a request reaches the SDK under an
// internal string id, and the reply goes out with the client's id bytes.
// Legacy requests (2025-11-25, 2025-06-18) run in the SDK's sessions;
// modern ones (2026-07-28) in its stateless mode, with no session minted.
type HTTPHandler struct {
	stateful, stateless http.Handler
	opts                HTTPOptions
	log                 *slog.Logger
	readOnly            func(tool string) bool // wire.App.ReadOnly
	salt                string
	seq                 atomic.Uint64
	slots               chan struct{} // requests handled at once, taken by handling
	bodies              *byteBudget   // bytes of bodies read and not yet answered
	sessions            *sessionCap   // 2025-11-25 sessions held
	replies             *byteBudget   // bytes of replies being written with no slot (D91)
	conns               *connCap      // connections held open (D91)
	bodyTimeout         time.Duration
	writeTimeout        time.Duration
	maxReply            int
	draining            atomic.Bool
	// fast serves a plain read-only tools/call in a session without the
	// SDK's dispatch (D82); clock closes idle sessions in place of the
	// SDK's timer, so that those calls count (D71).
	fast       *wire.FastCalls
	clock      *sessionClock
	fastServed atomic.Int64 // calls serveFast answered (Held)

	mu       sync.Mutex
	inflight map[string]*httpCall // session + "\x00" + canonical client id
	calls    map[string]*httpCall // internal id (unquoted): every POST being served
	streams  map[*context.CancelFunc]bool
}

// callHeader carries a request's internal id from the front to the SDK's
// receiving middleware (RequestExtra.Header), so that the handling slot a
// request takes there is released by the front once its reply is written.
// The front sets it on every request it passes on, over any client value.
const callHeader = "X-Docket-Call"

type httpCall struct {
	quoted   []byte // the internal id, as JSON
	internal string // the same, unquoted
	ctx      context.Context
	cancel   context.CancelFunc
	// cancelled: the client cancelled it; its reply is never written.
	cancelled atomic.Bool
	// stopping: the drain cancelled it; its reply says what happened.
	stopping atomic.Bool
	reserved int64 // body bytes held in the budget
	// replying: reply bytes held in the replies budget, once the reply
	// gave its handling slot back to be written (D91).
	replying atomic.Int64

	// slot is callRunning until the middleware hands the request's
	// handling slot to the front (callHeld) or the front is done with the
	// request (callEnded), whichever comes first.
	slot atomic.Int32

	mu          sync.Mutex
	phase       int                      // callReceiving, callScreening, callHanded
	rc          *http.ResponseController // while the body is read
	stopHandler context.CancelFunc       // the SDK handler's context, set by handling
	rw          *idWriter                // once handed to the SDK
	method      string
	tool        string
	// fast: the front serves it (serveFast); a cancel ends its context.
	fast bool
}

// The phases of a request in the front.
const (
	callReceiving = iota // its body is being read, or waits for room
	callScreening        // read; not yet handed to the SDK
	callHanded           // the SDK is serving it
)

// readDeadline sets the connection's read deadline for the body still
// arriving, or now when the drain has stopped the request.
func (c *httpCall) readDeadline(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rc == nil {
		return
	}
	if c.stopping.Load() {
		t = time.Now()
	}
	c.rc.SetReadDeadline(t)
}

// stop is the drain's cancel: a body still arriving stops being read (its
// request is answered that the server is shutting down, and was not
// started); a request the SDK is serving has its handler's context
// cancelled, and its reply says what happened.
func (c *httpCall) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopping.Store(true)
	if c.rc != nil {
		c.rc.SetReadDeadline(time.Now())
	}
	if c.phase == callReceiving {
		c.cancel() // ends a wait for room in the body budget
	}
	if c.stopHandler != nil {
		c.stopHandler()
	}
}

// hand records that the SDK is about to serve the request, writing through
// rw; false when the drain has stopped it first.
func (c *httpCall) hand(rw *idWriter) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopping.Load() {
		return false
	}
	c.phase, c.rw = callHanded, rw
	return true
}

// onStop records the SDK handler's cancel for the drain; false when the
// drain has stopped the request already.
func (c *httpCall) onStop(cancel context.CancelFunc) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopHandler = cancel
	return !c.stopping.Load()
}

const (
	callRunning = iota
	callHeld
	callEnded
)

// hold records that the request's handling slot is now the front's to
// release; false when the front is already done, and the caller releases.
func (c *httpCall) hold() bool { return c.slot.CompareAndSwap(callRunning, callHeld) }

// end marks the front done with the request and says whether it must
// release a handling slot.
func (c *httpCall) end() bool { return c.slot.Swap(callEnded) == callHeld }

// NewHTTPHandler builds the endpoint over app's SDK server, to which it
// adds its receiving middleware.
func NewHTTPHandler(app *wire.App, h HTTPOptions) *HTTPHandler {
	if h.Log == nil {
		h.Log = slog.New(slog.DiscardHandler)
	}
	s := app.Server
	fast := wire.NewFastCalls(app)
	get := func(*http.Request) *sdk.Server { return s }
	var salt [8]byte
	rand.Read(salt[:])
	n := h.MaxInFlight
	if n <= 0 {
		n = wire.DefaultMaxInFlight
	}
	maxReply := h.MaxReply
	if maxReply <= 0 {
		maxReply = wire.DefaultMaxReply
	}
	maxSessions := h.MaxSessions
	if maxSessions <= 0 {
		maxSessions = DefaultMaxSessions
	}
	f := &HTTPHandler{
		// The SDK answers every POST as an event stream, so that a
		// request's notifications (its log messages, its progress) are
		// written in its own response; idWriter turns a stream that holds
		// only the reply into an application/json body (D80).
		// No SessionTimeout: the front's clock closes idle sessions.
		stateful:    sdk.NewStreamableHTTPHandler(get, &sdk.StreamableHTTPOptions{Logger: h.Log, MaxRequestBodyBytes: frame.MaxFrame}),
		fast:        fast,
		clock:       &sessionClock{srv: s, idle: wire.OrDefault(h.SessionIdle, DefaultSessionIdle), m: map[string]*clockedSession{}},
		stateless:   sdk.NewStreamableHTTPHandler(get, &sdk.StreamableHTTPOptions{Stateless: true, Logger: h.Log, MaxRequestBodyBytes: frame.MaxFrame, PropagateRequestCancellation: true}),
		opts:        h,
		log:         h.Log,
		readOnly:    app.ReadOnly,
		salt:        hex.EncodeToString(salt[:]),
		slots:       make(chan struct{}, n),
		bodies:      newByteBudget(int64(n) * (frame.MaxFrame + 1)),
		sessions:    &sessionCap{max: maxSessions, live: func() int { return liveSessions(s) }},
		bodyTimeout: wire.OrDefault(h.BodyTimeout, DefaultBodyTimeout),
		// A reply finished and being written needs no handling slot; its
		// bytes are held here instead, up to what the slots could hold.
		replies:      newByteBudget(int64(n) * int64(maxReply)),
		conns:        newConnCap(positiveOr(h.MaxConns, DefaultMaxConns), positiveOr(h.MaxConnsPerAddr, DefaultMaxConnsPerAddr), h.Token != ""),
		writeTimeout: wire.OrDefault(h.WriteTimeout, DefaultWriteTimeout),
		maxReply:     maxReply,
		inflight:     map[string]*httpCall{},
		calls:        map[string]*httpCall{},
		streams:      map[*context.CancelFunc]bool{},
	}
	s.AddReceivingMiddleware(f.handling)
	return f
}

// liveSessions counts the 2025-11-25 sessions s holds: those with an id (a
// stateless request's passing session has none).
func liveSessions(s *sdk.Server) int {
	n := 0
	for ss := range s.Sessions() {
		if ss.ID() != "" {
			n++
		}
	}
	return n
}

// sessionCap bounds the sessions held: a request that may mint one (a
// legacy POST without Mcp-Session-Id) reserves room first, and holds it
// until the SDK has served it, by which time a session it minted is
// counted among the live ones.
type sessionCap struct {
	max  int
	live func() int

	mu      sync.Mutex
	pending int
}

// reserve takes room for one more session; false at the cap.
func (c *sessionCap) reserve() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.live()+c.pending >= c.max {
		return false
	}
	c.pending++
	return true
}

// release gives back the room reserve took.
func (c *sessionCap) release() {
	c.mu.Lock()
	c.pending--
	c.mu.Unlock()
}

// handling is the SDK middleware that bounds what is handled at once (D61):
// a request takes one of MaxInFlight slots when the SDK is about to run
// it, and keeps it until the front has written its reply, so a reply
// being built or written counts. Waiting here rather than before the body
// is read keeps the SDK's dispatch busy; the bytes of bodies waiting are
// bounded by the body budget instead. Open listens and notifications take
// no slot.
func (f *HTTPHandler) handling(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if method == "subscriptions/listen" || strings.HasPrefix(method, "notifications/") {
			return next(ctx, method, req)
		}
		var call *httpCall
		if ex := req.GetExtra(); ex != nil && ex.Header != nil {
			if id := ex.Header.Get(callHeader); id != "" {
				f.mu.Lock()
				call = f.calls[id]
				f.mu.Unlock()
			}
		}
		if call != nil {
			// The drain cancels the handler through this context (D71),
			// not the HTTP request's, so that the handler's answer, a
			// committed write's result included, still goes out.
			var stop context.CancelFunc
			ctx, stop = context.WithCancel(ctx)
			defer stop()
			if !call.onStop(stop) {
				stop()
			}
		}
		select {
		case f.slots <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if call == nil || !call.hold() {
			// Not the front's request, or the front is done with it (its
			// client went away): the slot ends with the handler.
			defer func() { <-f.slots }()
		}
		return next(ctx, method, req)
	}
}

// closeStreams ends the long-lived streams (a session's GET, an open
// listen) so that the drain waits only for requests that finish.
func (f *HTTPHandler) closeStreams() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for c := range f.streams {
		(*c)()
	}
}

// stream registers a long-lived request's context for closeStreams.
func (f *HTTPHandler) stream(r *http.Request) (*http.Request, func()) {
	ctx, cancel := context.WithCancel(r.Context())
	f.mu.Lock()
	f.streams[&cancel] = true
	f.mu.Unlock()
	return r.WithContext(ctx), func() {
		cancel()
		f.mu.Lock()
		delete(f.streams, &cancel)
		f.mu.Unlock()
	}
}

// ServeHTTP screens and routes one HTTP request.
func (f *HTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if origin := r.Header.Get("Origin"); origin != "" && !f.originAllowed(origin) {
		writeHTTPError(w, http.StatusForbidden, nil, frame.CodeInvalidRequest, fmt.Sprintf("forbidden: Origin %q is not allowed: docket serves pages on this machine only (--allow-origin adds one)", origin))
		return
	}
	if f.opts.Token != "" {
		got, ok := bearerToken(r.Header.Get("Authorization"))
		if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(f.opts.Token)) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="docket"`)
			writeHTTPError(w, http.StatusUnauthorized, nil, frame.CodeInvalidRequest, "unauthorized: send the token from --token-file as Authorization: Bearer <token>")
			return
		}
		f.conns.authed(r) // never closed to make room (D91)
	}
	if f.draining.Load() {
		w.Header().Set("Connection", "close")
		writeHTTPError(w, http.StatusServiceUnavailable, nil, frame.CodeInternalError, "internal error: the server is shutting down; retry against a running server")
		return
	}
	session := r.Header.Get("Mcp-Session-Id")
	switch r.Method {
	case http.MethodPost:
	case http.MethodGet, http.MethodDelete:
		if session == "" {
			// 2026-07-28 has no GET stream and no sessions to delete;
			// 2025-11-25 needs the session's id.
			w.Header().Set("Allow", "POST")
			writeHTTPError(w, http.StatusMethodNotAllowed, nil, frame.CodeInvalidRequest, fmt.Sprintf("invalid request: %s needs an Mcp-Session-Id header (a 2025-11-25 session); under 2026-07-28 only POST is served", r.Method))
			return
		}
		r, done := f.stream(r)
		defer done()
		if hr := checkVersionHeader(r.Header.Get("MCP-Protocol-Version"), wire.EraLegacy, true, "", nil); hr != nil {
			// The header is checked as a POST's is (D80).
			writeHTTPFrame(w, http.StatusBadRequest, frame.ErrorResponse(nil, hr.Code, hr.Msg, hr.Data))
			return
		}
		f.sessionStream(w, r, session)
		return
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		writeHTTPError(w, http.StatusMethodNotAllowed, nil, frame.CodeInvalidRequest, fmt.Sprintf("invalid request: method %s; the MCP endpoint takes POST (and GET, DELETE within a session)", r.Method))
		return
	}

	call := f.begin(r)
	defer f.end(call)
	body, ok := f.receive(w, r, call)
	if !ok {
		return
	}
	if len(body) > frame.MaxFrame {
		writeHTTPError(w, http.StatusRequestEntityTooLarge, nil, frame.CodeInvalidRequest, fmt.Sprintf("invalid request: the body is longer than the %d MiB limit", frame.MaxFrame>>20))
		return
	}
	body = bytes.TrimRight(body, "\r\n")
	if len(bytes.TrimSpace(body)) == 0 {
		writeHTTPError(w, http.StatusBadRequest, nil, frame.CodeParseError, "parse error: the request body is empty; POST one JSON-RPC message")
		return
	}
	v := frame.Screen(body, nil)
	switch v.Kind {
	case frame.Answer:
		writeHTTPFrame(w, http.StatusBadRequest, v.Reply)
		return
	case frame.Ignore, frame.Response:
		// No request of ours is outstanding over HTTP.
		w.WriteHeader(http.StatusAccepted)
		return
	case frame.Notification:
		f.notification(w, r, session, v)
		return
	}

	e, rej := wire.Gate(v.Method, v.Params, session != "")
	if hr := checkVersionHeader(r.Header.Get("MCP-Protocol-Version"), e, session != "", v.Method, v.Params); hr != nil {
		// The header is checked on every request, before what the request
		// asks: the same fault gets the same answer whatever the method.
		rej = hr
	}
	if rej != nil {
		// Under 2026-07-28 a rejected request is a 4xx with the modern
		// error body; inside a 2025-11-25 session it is an ordinary
		// JSON-RPC error, 200; before a session, 400.
		status := http.StatusBadRequest
		switch {
		case e == wire.EraModern && rej.Code == frame.CodeMethodNotFound:
			status = http.StatusNotFound
		case rej.Code == wire.CodeUnsupportedProtocolVersion, rej.Code == CodeHeaderMismatch:
		case e == wire.EraLegacy && session != "":
			status = http.StatusOK
		}
		writeHTTPFrame(w, status, frame.ErrorResponse(v.ID, rej.Code, rej.Msg, rej.Data))
		return
	}
	if e == wire.EraLegacy && session == "" {
		// The SDK mints a session for this request: room first (D71).
		if !f.sessions.reserve() {
			writeHTTPError(w, http.StatusServiceUnavailable, v.ID, frame.CodeInternalError, fmt.Sprintf(
				"internal error: this server holds %d sessions, its limit (--max-sessions): end one you no longer use with DELETE, wait for an idle one to close (after %s without a request), or send 2026-07-28 requests, which need no session",
				f.sessions.max, wire.OrDefault(f.opts.SessionIdle, DefaultSessionIdle)))
			return
		}
		defer f.sessions.release()
	}
	if v.Method == "subscriptions/listen" {
		var done func()
		r, done = f.stream(r)
		defer done()
	}
	call.method = v.Method
	fc := f.fastCallIn(r, e, session, v)
	call.fast = fc != nil
	switch {
	case fc != nil:
		call.tool = fc.Name() // the name ToolName would decode again
	case v.Method == "tools/call":
		call.tool = wire.ToolName(v.Params)
	}
	// The session's idle clock stops while it is served (D71).
	defer f.clock.begin(session, e)()
	key := session + "\x00" + frame.CanonicalID(v.ID)
	f.mu.Lock()
	f.inflight[key] = call
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		if f.inflight[key] == call {
			delete(f.inflight, key)
		}
		f.mu.Unlock()
	}()
	if fc != nil {
		f.serveFast(w, r, call, v.ID, fc)
		return
	}
	inner := requestFrame(call.quoted, v.Method, v.Params)
	// A shallow copy: the SDK reads the headers, the new body and context.
	r2 := r.WithContext(call.ctx)
	r2.Body = io.NopCloser(bytes.NewReader(inner))
	r2.ContentLength = int64(len(inner))
	rw := &idWriter{ResponseWriter: w, from: call.quoted, to: v.ID, call: call, max: f.maxReply, inSession: e == wire.EraLegacy && session != "", version: r.Header.Get("MCP-Protocol-Version"), modern: e == wire.EraModern,
		rc: http.NewResponseController(w), writeTimeout: f.writeTimeout, ready: func(n int) { f.replyReady(call, n) }}
	if e == wire.EraModern {
		r2.Header = r.Header.Clone()
		r2.Header.Del("Mcp-Session-Id")
	} else if session == "" && slices.Contains(wire.ModernVersions, r.Header.Get("MCP-Protocol-Version")) {
		// A request that declares no version in _meta is served as stdio
		// serves it (a ping, say), whatever the header says (D80).
		r2.Header = r.Header.Clone()
		r2.Header.Del("MCP-Protocol-Version")
	}
	r2.Header[callHeader] = []string{call.internal}
	if !call.hand(rw) {
		writeHTTPError(w, http.StatusServiceUnavailable, v.ID, frame.CodeInternalError, "internal error: the server is shutting down; the request was not started, so nothing was changed: retry it against a running server")
		return
	}
	if e == wire.EraModern {
		f.stateless.ServeHTTP(rw, r2)
	} else {
		f.stateful.ServeHTTP(rw, r2)
	}
	rw.finish()
	f.clock.minted(w.Header().Get("Mcp-Session-Id"), session)
}

// begin registers a POST under a fresh internal id, for the middleware
// (which finds it by callHeader) and for the drain.
func (f *HTTPHandler) begin(r *http.Request) *httpCall {
	quoted := f.internalID()
	ctx, cancel := context.WithCancel(r.Context())
	c := &httpCall{quoted: quoted, internal: string(quoted[1 : len(quoted)-1]), ctx: ctx, cancel: cancel}
	f.mu.Lock()
	f.calls[c.internal] = c
	f.mu.Unlock()
	return c
}

// end forgets a POST once it is answered, and gives back its handling slot
// and its body's bytes.
func (f *HTTPHandler) end(c *httpCall) {
	f.mu.Lock()
	delete(f.calls, c.internal)
	f.mu.Unlock()
	c.cancel()
	if c.end() {
		<-f.slots
	}
	f.bodies.release(c.reserved)
	f.replies.release(c.replying.Load())
}

// replyReady is called once a request's reply is whole, before a byte of
// it is written: when the replies budget has room for its n bytes now, the
// request gives its handling slot back, so that a client that does not
// read its reply holds bytes, not a slot everyone needs (D91). Without
// room it keeps the slot while it writes, for at most the write timeout.
func (f *HTTPHandler) replyReady(c *httpCall, n int) {
	got, ok := f.replies.tryAcquire(int64(n)) // only if they are free at once
	if !ok {
		return
	}
	c.replying.Store(got)
	if held := c.end(); held {
		<-f.slots // given back before the write (D91)
	}
}

// bodyChunk is the first piece of a body's buffer, and of its reservation
// in the body budget, when its length is not declared smaller.
const bodyChunk = 4 << 10

// errNoRoom: a body waited a whole body timeout for room in the budget.
var errNoRoom = errors.New("no room for the body")

// receive reads a POST body as it arrives and answers the request itself
// when it cannot (false). Bytes are reserved in the body budget (D61) as
// the buffer that holds them grows, never for a declared length that has
// not arrived, so a client that declares 16 MiB and sends a byte a second
// holds a few KiB, not a sixteenth of the budget (D71). The body must
// arrive within the body timeout of its headers, time spent waiting for
// room not counted; room not found within the body timeout is a 503.
func (f *HTTPHandler) receive(w http.ResponseWriter, r *http.Request, c *httpCall) ([]byte, bool) {
	start := time.Now()
	c.mu.Lock()
	c.rc = http.NewResponseController(w)
	c.mu.Unlock()
	read := false
	defer func() {
		c.mu.Lock()
		rc := c.rc
		c.rc, c.phase = nil, callScreening
		c.mu.Unlock()
		if read {
			// The connection's next request has its own deadline. One
			// whose body was not read keeps the passed deadline, so the
			// server does not wait on the rest of it and closes it.
			rc.SetReadDeadline(time.Time{})
		}
	}()
	var waited time.Duration
	c.readDeadline(start.Add(f.bodyTimeout))
	limit := int64(frame.MaxFrame + 1)
	if r.ContentLength >= 0 {
		limit = min(r.ContentLength+1, limit)
	}
	src := io.LimitReader(r.Body, frame.MaxFrame+1)
	var b []byte
	for {
		if len(b) == cap(b) {
			if int64(cap(b)) >= limit {
				read = true
				return b, true // MaxFrame+1 bytes: the caller refuses it
			}
			next := min(max(2*int64(cap(b)), bodyChunk), limit)
			t0 := time.Now()
			got, err := f.room(c.ctx, next-int64(cap(b)))
			waited += time.Since(t0)
			if err != nil {
				return nil, f.unreadable(w, c, err)
			}
			c.reserved += got
			nb := make([]byte, len(b), next)
			copy(nb, b)
			b = nb
			c.readDeadline(start.Add(f.bodyTimeout + waited))
		}
		k, err := src.Read(b[len(b):cap(b)])
		b = b[:len(b)+k]
		if err == io.EOF {
			read = true
			return b, true
		}
		if err != nil {
			return nil, f.unreadable(w, c, err)
		}
	}
}

// room reserves n more body bytes, waiting at most a body timeout.
func (f *HTTPHandler) room(ctx context.Context, n int64) (int64, error) {
	if got, ok := f.bodies.tryAcquire(n); ok {
		return got, nil // room at once: no timer to set
	}
	wctx, cancel := context.WithTimeout(ctx, f.bodyTimeout)
	defer cancel()
	got, err := f.bodies.acquire(wctx, n)
	if err != nil && ctx.Err() == nil {
		return 0, errNoRoom
	}
	return got, err
}

// unreadable answers a request whose body could not be read, and returns
// false. A client that went away gets nothing.
func (f *HTTPHandler) unreadable(w http.ResponseWriter, c *httpCall, err error) bool {
	w.Header().Set("Connection", "close")
	switch {
	case c.stopping.Load():
		writeHTTPError(w, http.StatusServiceUnavailable, nil, frame.CodeInternalError, "internal error: the server is shutting down; the request was not read, so nothing was changed: retry it against a running server")
	case errors.Is(err, os.ErrDeadlineExceeded):
		writeHTTPError(w, http.StatusRequestTimeout, nil, frame.CodeInvalidRequest, fmt.Sprintf("invalid request: the body did not arrive within %s of its headers (--body-timeout); nothing was done", f.bodyTimeout))
	case errors.Is(err, errNoRoom):
		writeHTTPError(w, http.StatusServiceUnavailable, nil, frame.CodeInternalError, fmt.Sprintf("internal error: the server is busy: no room for the body within %s (requests in flight hold --max-in-flight times 16 MiB of bodies); nothing was done: retry", f.bodyTimeout))
	case c.ctx.Err() != nil:
		// The client went away.
	default:
		writeHTTPError(w, http.StatusBadRequest, nil, frame.CodeParseError, "parse error: the request body could not be read: "+err.Error())
	}
	return false
}

// bearerToken is the credentials of an Authorization header with the
// Bearer scheme, whose name is matched in any case (RFC 7235 §2.1).
func bearerToken(h string) (string, bool) {
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimLeft(token, " "), true
}

// notification handles a client notification: a cancel is mapped to the
// internal id of the request it names in the same session (or, without a
// session, among the stateless requests) and that request is never
// answered; others go to the SDK as they are.
func (f *HTTPHandler) notification(w http.ResponseWriter, r *http.Request, session string, v frame.Verdict) {
	if !strings.HasPrefix(v.Method, "notifications/") {
		f.log.Warn("dropping a request sent without an id", "method", v.Method)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if v.Method == "notifications/cancelled" {
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		json.Unmarshal(v.Params, &p)
		f.mu.Lock()
		call := f.inflight[session+"\x00"+frame.CanonicalID(p.RequestID)]
		f.mu.Unlock()
		if len(p.RequestID) == 0 || call == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		call.cancelled.Store(true)
		if session == "" || call.fast {
			// A stateless request runs in its own POST: ending its context
			// cancels the handler.
			call.cancel()
			w.WriteHeader(http.StatusAccepted)
			return
		}
		params := bytes.Replace(v.Params, p.RequestID, call.quoted, 1)
		v.Params = params
	}
	inner, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params,omitempty"`
	}{"2.0", v.Method, v.Params})
	r2 := r.Clone(r.Context())
	r2.Body = io.NopCloser(bytes.NewReader(inner))
	r2.ContentLength = int64(len(inner))
	je := &jsonErrors{ResponseWriter: w, method: v.Method, version: r.Header.Get("MCP-Protocol-Version")}
	if session == "" {
		f.stateless.ServeHTTP(je, r2)
	} else {
		defer f.clock.begin(session, wire.EraLegacy)()
		f.stateful.ServeHTTP(je, r2)
	}
}

// internalID is a fresh internal request id, as a JSON string:
// "docket-<salt>-<n>". The salt keeps it from colliding with a client's.
func (f *HTTPHandler) internalID() []byte {
	b := make([]byte, 0, len(f.salt)+30)
	b = append(b, `"docket-`...)
	b = append(b, f.salt...)
	b = append(b, '-')
	b = strconv.AppendUint(b, f.seq.Add(1), 10)
	return append(b, '"')
}

// requestFrame is the request as the SDK gets it: one clean object with
// the internal id.
func requestFrame(id []byte, method string, params json.RawMessage) []byte {
	b := make([]byte, 0, len(`{"jsonrpc":"2.0","id":,"method":"","params":}`)+len(id)+len(method)+len(params))
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"method":`...)
	b = wire.AppendJSONString(b, method)
	if len(params) > 0 {
		b = append(b, `,"params":`...)
		b = append(b, params...)
	}
	return append(b, '}')
}

// originAllowed accepts pages served from this machine (localhost,
// 127.0.0.1, [::1], any port) and those listed in AllowOrigins.
func (f *HTTPHandler) originAllowed(origin string) bool {
	for _, o := range f.opts.AllowOrigins {
		if o == origin {
			return true
		}
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	switch u.Hostname() {
	case "localhost", "127.0.0.1", "::1":
		return true
	}
	return false
}

// writeHTTPError writes a JSON-RPC error response as an HTTP response.
func writeHTTPError(w http.ResponseWriter, status int, id json.RawMessage, code int, msg string) {
	writeHTTPFrame(w, status, frame.ErrorResponse(id, code, msg, nil))
}

func writeHTTPFrame(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Del("Content-Length")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// idWriter passes the SDK's response through with the internal id
// replaced by the client's id bytes. The SDK answers a POST as an event
// stream (D80): while only the reply comes, nothing is written, and the
// reply goes out as an application/json body, as before; once a
// notification of the request (notifications/message, notifications/
// progress) comes first, the response is text/event-stream, the
// notifications are passed on as they come, each flushed, and the reply is
// the last event. A JSON body the SDK writes itself (an error with its own
// status under 2026-07-28) is passed through line by line. An error the
// SDK writes as text/plain becomes a JSON-RPC error on the client's id. A
// cancelled request's response says so; a reply over max bytes is
// replaced; the reply of a request the drain stopped says what happened
// (D71).
//
// The SDK writes from its handler's goroutine; the drain may answer for a
// handler that does not stop (answerNow) from another, so every write
// holds mu, and the SDK's headers are its own map until it writes its
// status.
type idWriter struct {
	http.ResponseWriter
	from, to []byte
	call     *httpCall
	max      int
	// inSession: a request inside a 2025-11-25 session, whose JSON-RPC
	// errors are 200s, as the rest of the session's answers.
	inSession bool
	// version is the request's MCP-Protocol-Version header.
	version string
	// modern: a 2026-07-28 request, whose result carries resultType.
	modern bool
	// rc sets the write deadline of each write, writeTimeout from it
	// (D91); ready is told a reply's size before it is written.
	rc           *http.ResponseController
	writeTimeout time.Duration
	ready        func(n int)

	mu        sync.Mutex
	hdr       http.Header
	status    int
	over      bool // the reply passed max: only the error is written
	plain     bool // the SDK wrote a text/plain error
	sse       bool // the SDK writes an event stream
	streaming bool // the client's response is an event stream: a notification came first
	replied   bool // the reply (or what stands for it) is written
	buf       bytes.Buffer
	wroteHead bool
	done      bool // finished, or answered by the front: nothing more is written
}

// Header is the SDK's header map, copied to the response's when it writes
// its status.
func (w *idWriter) Header() http.Header {
	if w.hdr == nil {
		w.hdr = http.Header{}
	}
	return w.hdr
}

func (w *idWriter) WriteHeader(status int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writeHeader(status)
}

func (w *idWriter) writeHeader(status int) {
	if w.status != 0 || w.done {
		return
	}
	w.status = status
	h := w.ResponseWriter.Header()
	for k, v := range w.hdr {
		h[k] = v
	}
	h.Del("Content-Length")
	if status >= 400 && strings.HasPrefix(h.Get("Content-Type"), "text/plain") {
		w.plain = true
		return
	}
	if strings.HasPrefix(h.Get("Content-Type"), "text/event-stream") {
		// The head waits for the first event: an event stream if it is a
		// notification, a JSON body if it is the reply.
		w.sse = true
		return
	}
	w.wroteHead = true
	w.ResponseWriter.WriteHeader(status)
}

// jsonHead writes the head of a JSON answer to an event stream of the
// SDK's that has not started.
func (w *idWriter) jsonHead() {
	if w.wroteHead {
		return
	}
	h := w.ResponseWriter.Header()
	h.Set("Content-Type", "application/json")
	h.Del("Connection")
	w.wroteHead = true
	w.ResponseWriter.WriteHeader(w.status)
}

// sseSlack is what an event's framing adds to its data ("event: message",
// "data: ", the blank line), allowed over max while an event arrives.
const sseSlack = 64

// deadline bounds the writes that follow, to a client that does not read
// them, by the write timeout (D91). Set before every write of the front:
// a long stream of notifications is not cut, a stalled one is.
func (w *idWriter) deadline() {
	if w.rc != nil && w.writeTimeout > 0 {
		w.rc.SetWriteDeadline(time.Now().Add(w.writeTimeout))
	}
}

// whole says a reply of n bytes is ready to be written, once.
func (w *idWriter) whole(n int) {
	if w.ready != nil {
		w.ready(n)
		w.ready = nil
	}
}

func (w *idWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return len(p), nil
	}
	w.deadline()
	if w.status == 0 {
		w.writeHeader(http.StatusOK)
	}
	w.buf.Write(p)
	if w.plain {
		return len(p), nil
	}
	if w.over || w.replied {
		w.buf.Reset()
		return len(p), nil
	}
	limit := w.max
	if w.sse {
		limit += sseSlack
	}
	if w.buf.Len() > limit {
		w.buf.Reset()
		w.tooLarge()
		return len(p), nil
	}
	if w.sse {
		w.events()
		return len(p), nil
	}
	if i := bytes.LastIndexByte(w.buf.Bytes(), '\n'); i >= 0 {
		w.whole(i + 1)
		w.emit(bytes.TrimRight(w.buf.Next(i+1), "\n"))
		w.ResponseWriter.Write([]byte{'\n'})
	}
	return len(p), nil
}

// events handles the complete events of the SDK's stream in buf: the
// request's reply, or a notification of it.
func (w *idWriter) events() {
	for !w.over && !w.replied {
		i := bytes.Index(w.buf.Bytes(), []byte("\n\n"))
		if i < 0 {
			return
		}
		ev := w.buf.Next(i + 2)
		data := eventData(ev)
		switch {
		case data == nil:
			// A comment or an event with no data: nothing to pass on.
		case len(data) > w.max:
			w.tooLarge()
		case w.isReply(data):
			w.reply(data)
		default:
			w.notify(data)
		}
	}
	if w.over || w.replied {
		w.buf.Reset()
	}
}

// eventData is the data of one SSE event, its data lines joined by
// newlines; nil when it has none.
func eventData(ev []byte) []byte {
	var data []byte
	seen := false
	for _, line := range bytes.Split(bytes.TrimRight(ev, "\n"), []byte("\n")) {
		v, ok := bytes.CutPrefix(line, []byte("data:"))
		if !ok {
			continue
		}
		v = bytes.TrimPrefix(v, []byte(" "))
		if seen {
			data = append(data, '\n')
		}
		data, seen = append(data, v...), true
	}
	return data
}

// isReply reports whether an event's data is the response to this
// request: the SDK encodes a response with its id first.
func (w *idWriter) isReply(data []byte) bool {
	rest, ok := bytes.CutPrefix(data, []byte(`{"jsonrpc":"2.0","id":`))
	return ok && bytes.HasPrefix(rest, w.from)
}

// notify passes one notification of the request on as an event, starting
// the event stream if it is the first, and flushes it.
func (w *idWriter) notify(data []byte) {
	if !w.wroteHead {
		h := w.ResponseWriter.Header()
		h.Set("Content-Type", "text/event-stream")
		w.streaming, w.wroteHead = true, true
		w.ResponseWriter.WriteHeader(w.status)
	}
	if !w.streaming {
		return
	}
	w.ResponseWriter.Write([]byte("event: message\ndata: "))
	w.ResponseWriter.Write(data)
	w.ResponseWriter.Write([]byte("\n\n"))
	w.flush()
}

// reply writes the request's reply from the SDK: the last event of a
// stream, or the JSON body.
func (w *idWriter) reply(data []byte) {
	w.replied = true
	w.whole(len(data))
	if w.streaming {
		w.ResponseWriter.Write([]byte("event: message\ndata: "))
		w.emit(data)
		w.ResponseWriter.Write([]byte("\n\n"))
		w.flush()
		return
	}
	w.jsonHead()
	w.emit(data)
	w.ResponseWriter.Write([]byte{'\n'})
}

// answer writes a reply of the front's own, b, in place of the SDK's: the
// last event of a stream, or the JSON body.
func (w *idWriter) answer(b []byte) {
	w.replied = true
	if w.streaming {
		w.ResponseWriter.Write([]byte("event: message\ndata: "))
		w.ResponseWriter.Write(b)
		w.ResponseWriter.Write([]byte("\n\n"))
		w.flush()
		return
	}
	if w.sse {
		w.jsonHead()
	}
	w.ResponseWriter.Write(append(b, '\n'))
}

func (w *idWriter) flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// tooLarge replaces a reply over the limit. Nothing of it was written:
// a JSON body is written only once its line is complete, an event once it
// is whole.
func (w *idWriter) tooLarge() {
	w.over = true
	w.answer(frame.ErrorResponse(w.to, frame.CodeInternalError, fmt.Sprintf(
		"internal error: the reply is over this server's %d-byte limit and was not sent; the request itself was done (a write is committed): ask for less, for example one issue by id or a narrower filter", w.max), nil))
}

// emit writes the SDK's reply b (one JSON-RPC message, no newline) on the
// client's id, or what stands for it.
func (w *idWriter) emit(b []byte) {
	if w.over {
		return
	}
	if w.call.cancelled.Load() && stoppedReply(b) {
		// The client cancelled it and it stopped before it committed: an
		// HTTP POST is answered all the same, never with an empty body
		// (D80).
		w.ResponseWriter.Write(cancelledReply(w.to))
		return
	}
	if w.call.stopping.Load() && stoppedReply(b) {
		// The drain cancelled the handler before it committed anything.
		w.ResponseWriter.Write(frame.ErrorResponse(w.to, frame.CodeInternalError, wire.StoppedMessage(""), nil))
		return
	}
	if bytes.Contains(b, []byte(`"code":-32601`)) && bytes.Contains(b, []byte(`JSON RPC not handled`)) {
		// The SDK's text for an unknown method, in the stdio transport's
		// words (repairError).
		w.ResponseWriter.Write(frame.ErrorResponse(w.to, frame.CodeMethodNotFound, fmt.Sprintf("method not found: %q", w.call.method), nil))
		return
	}
	if code0 := append(append([]byte(`{"jsonrpc":"2.0","id":`), w.from...), `,"error":{"code":0,`...); bytes.HasPrefix(b, code0) {
		// An error the SDK gave no code (a handler's plain error, over
		// HTTP under 2026-07-28): a real code and words, as stdio gives
		// it (repairError).
		var m struct {
			Error struct {
				Message string          `json:"message"`
				Data    json.RawMessage `json:"data"`
			} `json:"error"`
		}
		if json.Unmarshal(b, &m) == nil {
			code, text := wire.RepairError(0, m.Error.Message, w.call.method)
			w.ResponseWriter.Write(frame.ErrorResponse(w.to, code, text, m.Error.Data))
			return
		}
	}
	if w.modern {
		b = w.withResultType(b)
	}
	// The internal id is replaced by the client's id bytes as the pieces
	// are written: no second copy of the reply.
	for {
		i := bytes.Index(b, w.from)
		if i < 0 {
			break
		}
		w.ResponseWriter.Write(b[:i])
		w.ResponseWriter.Write(w.to)
		b = b[i+len(w.from):]
	}
	w.ResponseWriter.Write(b)
}

// withResultType gives the result of a modern request the resultType
// 2026-07-28 requires, as the stdio transport does (withResultType there),
// so that its bytes are stdio's: the SDK's HTTP path leaves it off a
// tools/call result. b is the SDK's reply, on the internal id.
func (w *idWriter) withResultType(b []byte) []byte {
	prefix := make([]byte, 0, 40+len(w.from))
	prefix = append(append(append(prefix, `{"jsonrpc":"2.0","id":`...), w.from...), `,"result":`...)
	if !bytes.HasPrefix(b, prefix) || !bytes.HasSuffix(b, []byte("}")) {
		return b
	}
	result := wire.WithResultType(b[len(prefix) : len(b)-1])
	return append(append(prefix, result...), '}')
}

// cancelledReply is the answer to a POST whose request the client
// cancelled and which stopped before it changed anything. stdio writes no
// reply for it; an HTTP POST must be answered, so it says what happened
// on the request's own id (D80).
func cancelledReply(id json.RawMessage) []byte {
	return frame.ErrorResponse(id, frame.CodeInternalError, "internal error: the request was cancelled by the client (notifications/cancelled) before it finished, and nothing was changed (a write was rolled back)", nil)
}

// checkVersionHeader checks a request's MCP-Protocol-Version header, in
// every era, whatever its _meta says, with one error code and every
// supported version listed: the header must name a version this server
// supports, and a modern one is not served inside a 2025-11-25 session
// (D80). Outside a session, a request under a modern header must declare
// that version in _meta too (-32602, as 2026-07-28 says), but for a ping or
// an initialize, which are served as on stdio whatever the header says
// (ServeHTTP): go-sdk's client pings with the header alone.
func checkVersionHeader(h string, e wire.Era, inSession bool, method string, params json.RawMessage) *wire.Rejection {
	if h == "" {
		return nil
	}
	mv, declared := metaVersion(params)
	var problem string
	switch {
	case declared && mv != h:
		return &wire.Rejection{Code: CodeHeaderMismatch, Msg: fmt.Sprintf("the MCP-Protocol-Version header %q does not match _meta %q %q: send the same version in both", h, wire.MetaProtocolVersion, mv)}
	case slices.Contains(wire.ModernVersions, h) && !inSession && method != "ping" && method != "initialize" && !declared:
		return wire.InvalidParams(fmt.Sprintf("_meta %q is required: the MCP-Protocol-Version header says %s; declare it in _meta too, with _meta %q", wire.MetaProtocolVersion, h, wire.MetaClientCaps))
	case !slices.Contains(wire.ProtocolVersions, h):
		problem = fmt.Sprintf("unsupported protocol version %q in the MCP-Protocol-Version header", h)
	case slices.Contains(wire.ModernVersions, h) && e != wire.EraModern && inSession:
		problem = fmt.Sprintf("protocol version %q in the MCP-Protocol-Version header is not served inside a session (Mcp-Session-Id): send it without the session, declaring it in _meta %q", h, wire.MetaProtocolVersion)
	default:
		return nil
	}
	return unsupportedVersion(problem, h)
}

// unsupportedVersion is the one answer to a version this server does not
// serve: -32022, every supported version in the message and in
// data.supported, the one asked for in data.requested (D80).
func unsupportedVersion(problem, h string) *wire.Rejection {
	data, _ := json.Marshal(struct {
		Supported []string `json:"supported"`
		Requested string   `json:"requested"`
	}{wire.ProtocolVersions, h})
	return &wire.Rejection{Code: wire.CodeUnsupportedProtocolVersion, Msg: problem + ": this server supports " + strings.Join(wire.ProtocolVersions, ", "), Data: data}
}

// sdkError is what a text/plain error of the SDK, msg with its status,
// means as a JSON-RPC error, for a POST and for a GET, a DELETE or a
// notification alike (D80): the status to answer with, the code, the
// message and its data. method is the request's method ("" for a GET or a
// DELETE), version its MCP-Protocol-Version header; inSession: a request
// inside a 2025-11-25 session, whose JSON-RPC errors are 200s.
func sdkError(status int, msg, method, version string, inSession bool) (int, int, string, json.RawMessage) {
	switch {
	case strings.HasPrefix(msg, "JSON RPC not handled"):
		// An unknown method: -32601 as on stdio, not a malformed request;
		// inside a session an ordinary JSON-RPC error.
		if inSession {
			status = http.StatusOK
		}
		return status, frame.CodeMethodNotFound, fmt.Sprintf("method not found: %q", method), nil
	case strings.Contains(msg, "Unsupported protocol version"):
		// The SDK's own header check, in the words and code of ours.
		r := unsupportedVersion(fmt.Sprintf("unsupported protocol version %q in the MCP-Protocol-Version header", version), version)
		return http.StatusBadRequest, r.Code, r.Msg, r.Data
	case status == http.StatusNotFound && (msg == "session not found" || msg == "session is closing"):
		return status, frame.CodeInvalidRequest, "invalid request: " + msg + ": the Mcp-Session-Id names no open session (it was deleted, it idled out, or the server restarted); initialize a new one", nil
	case status >= http.StatusInternalServerError:
		// The server failed, not the request.
		return status, frame.CodeInternalError, "internal error: " + msg, nil
	}
	return status, frame.CodeInvalidRequest, "invalid request: " + msg, nil
}

// metaVersion is the protocol version params declare in _meta, and
// whether they declare one at all (gate judges its value and type).
func metaVersion(params json.RawMessage) (string, bool) {
	if !mayHoldMeta(params) {
		return "", false
	}
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return "", false
	}
	raw, ok := p.Meta[wire.MetaProtocolVersion]
	var v string
	json.Unmarshal(raw, &v)
	return v, ok
}

// mayHoldMeta is false when params cannot hold a member that
// json.Unmarshal would take for "_meta": no "meta" in any case (it matches
// a key case-insensitively, and none of m, e, t, a has a fold outside
// ASCII) and no escape (a key may spell a letter as \u0065). Most calls
// declare no _meta, and are not decoded for it.
func mayHoldMeta(params json.RawMessage) bool {
	if bytes.IndexByte(params, '\\') >= 0 {
		return true
	}
	for i := 0; i+4 <= len(params); i++ {
		if params[i]|0x20 == 'm' && params[i+1]|0x20 == 'e' && params[i+2]|0x20 == 't' && params[i+3]|0x20 == 'a' {
			return true
		}
	}
	return false
}

// CodeHeaderMismatch is the 2026-07-28 error for a request whose
// MCP-Protocol-Version header and _meta version differ.
const CodeHeaderMismatch = -32020

// stoppedReply reports whether a reply line of a request the drain
// cancelled says it did not finish: an error, or a tool error that does not
// say a write committed.
func stoppedReply(line []byte) bool {
	var m struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if json.Unmarshal(bytes.TrimSpace(line), &m) != nil {
		return false
	}
	return len(m.Error) > 0 || wire.RolledBack(m.Result)
}

// Flush passes a flush on once the lines so far are written.
func (w *idWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if f, ok := w.ResponseWriter.(http.Flusher); ok && w.wroteHead && !w.done {
		w.deadline()
		f.Flush()
	}
}

// finish writes what is left once the SDK's handler returns.
func (w *idWriter) finish() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return
	}
	w.deadline()
	defer func() { w.done = true }()
	if w.plain {
		status, code, text, data := sdkError(w.status, strings.TrimSpace(w.buf.String()), w.call.method, w.version, w.inSession)
		w.ResponseWriter.Header().Set("Content-Type", "application/json")
		w.ResponseWriter.WriteHeader(status)
		w.ResponseWriter.Write(append(frame.ErrorResponse(w.to, code, text, data), '\n'))
		return
	}
	if w.status == 0 {
		switch {
		case w.call.stopping.Load():
			// Stopped before the SDK wrote anything (a stateless request
			// whose context ended): it did not run to its end.
			writeHTTPFrame(w.ResponseWriter, http.StatusServiceUnavailable, frame.ErrorResponse(w.to, frame.CodeInternalError, wire.StoppedMessage(""), nil))
			return
		case w.call.cancelled.Load():
			writeHTTPFrame(w.ResponseWriter, http.StatusOK, cancelledReply(w.to))
			return
		}
		w.writeHeader(http.StatusOK)
	}
	if w.sse {
		if rest := bytes.TrimSpace(w.buf.Bytes()); !w.over && !w.replied && bytes.HasPrefix(rest, []byte("{")) {
			// A JSON body the SDK wrote into a stream already started
			// (an error with a status of its own): the reply.
			w.reply(rest)
		}
		if !w.over && !w.replied {
			switch {
			case w.call.cancelled.Load():
				w.answer(cancelledReply(w.to))
			case w.call.stopping.Load():
				w.answer(frame.ErrorResponse(w.to, frame.CodeInternalError, wire.StoppedMessage(""), nil))
			}
		}
		w.jsonHead()
		return
	}
	if w.buf.Len() > 0 && !w.over {
		w.whole(w.buf.Len())
		w.emit(bytes.TrimRight(w.buf.Bytes(), "\n"))
		w.ResponseWriter.Write([]byte{'\n'})
	}
}

// answerNow is the drain's answer for a handler that did not stop within
// the grace of being cancelled: msg on the client's id, 503, with its
// length declared so that the client has all of it before the connection
// closes. False when the SDK has written its status already, or the reply
// is not owed (the client cancelled the request).
func (w *idWriter) answerNow(msg string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done || (w.wroteHead && !w.streaming) || w.replied {
		return false
	}
	w.done = true
	w.deadline()
	if w.streaming {
		// The request's notifications are out: the answer is the stream's
		// last event.
		w.answer(frame.ErrorResponse(w.to, frame.CodeInternalError, msg, nil))
		return true
	}
	b := append(frame.ErrorResponse(w.to, frame.CodeInternalError, msg, nil), '\n')
	h := w.ResponseWriter.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	h.Set("Connection", "close")
	w.ResponseWriter.WriteHeader(http.StatusServiceUnavailable)
	w.ResponseWriter.Write(b)
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
	return true
}

// stopStragglers cancels every POST still being read or served after the
// drain timeout (httpCall.stop).
func (f *HTTPHandler) stopStragglers() {
	for _, c := range f.pending() {
		f.log.Warn("cancelling a request still running at shutdown", "method", c.method, "tool", c.tool)
		c.stop()
	}
}

// answerStragglers answers, from the front, the requests whose handlers did
// not stop within the drain grace of being cancelled. A read-only request
// changed nothing; for a write, the outcome is not known, and the answer
// says so. A client that does not read its answer cannot hold the drain:
// the answers are written at once, side by side, for at most answerWait,
// after which the connections close.
func (f *HTTPHandler) answerStragglers() {
	var wg sync.WaitGroup
	for _, c := range f.pending() {
		c.mu.Lock()
		rw := c.rw
		c.mu.Unlock()
		if rw == nil {
			continue
		}
		ro := c.method != "tools/call" || (f.readOnly != nil && f.readOnly(c.tool))
		wg.Add(1)
		go func() {
			defer wg.Done()
			if rw.answerNow(wire.UnfinishedMessage("", ro)) {
				f.log.Error("request did not stop at shutdown", "method", c.method, "tool", c.tool)
			}
		}()
	}
	written := make(chan struct{})
	go func() { wg.Wait(); close(written) }()
	select {
	case <-written:
	case <-time.After(answerWait):
	}
}

// answerWait bounds how long the drain waits for its own answers to be
// written before it closes the connections.
const answerWait = time.Second

// pending is every POST being served.
func (f *HTTPHandler) pending() []*httpCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]*httpCall, 0, len(f.calls))
	for _, c := range f.calls {
		out = append(out, c)
	}
	return out
}

// jsonErrors turns the SDK's text/plain HTTP errors into JSON-RPC errors
// with id null, for the requests that carry no id (GET, DELETE,
// notifications), mapped by what the SDK meant as a POST's are (sdkError).
type jsonErrors struct {
	http.ResponseWriter
	method  string // a notification's method; "" for GET, DELETE
	version string // the MCP-Protocol-Version header
	plain   bool
	status  int
	buf     bytes.Buffer
	// rc, if set, gives each write and flush of a session's GET stream
	// the write deadline, writeTimeout from it (D91).
	rc           *http.ResponseController
	writeTimeout time.Duration
	wrote        int // the status the SDK wrote
}

// deadline bounds the write that follows by the write timeout (D91).
func (w *jsonErrors) deadline() {
	if w.rc != nil && w.writeTimeout > 0 {
		w.rc.SetWriteDeadline(time.Now().Add(w.writeTimeout))
	}
}

func (w *jsonErrors) WriteHeader(status int) {
	w.wrote = status
	if status >= 400 && strings.HasPrefix(w.ResponseWriter.Header().Get("Content-Type"), "text/plain") {
		w.plain, w.status = true, status
		w.ResponseWriter.Header().Del("Content-Length")
		w.ResponseWriter.Header().Set("Content-Type", "application/json")
		return
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *jsonErrors) Write(p []byte) (int, error) {
	w.deadline()
	if !w.plain {
		return w.ResponseWriter.Write(p)
	}
	w.buf.Write(p)
	if bytes.HasSuffix(p, []byte("\n")) {
		status, code, text, data := sdkError(w.status, strings.TrimSpace(w.buf.String()), w.method, w.version, false)
		w.ResponseWriter.WriteHeader(status)
		w.ResponseWriter.Write(append(frame.ErrorResponse(nil, code, text, data), '\n'))
		w.buf.Reset()
	}
	return len(p), nil
}

// Flush passes a flush on.
func (w *jsonErrors) Flush() {
	w.deadline()
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

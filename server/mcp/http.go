package mcp

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
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/claimslint/claimslint/server/mcp/frame"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultHTTPAddr is where docket mcp --http listens unless told
// otherwise: the loopback interface only.
const DefaultHTTPAddr = "127.0.0.1:8765"

// HTTPPath is the one MCP endpoint.
const HTTPPath = "/mcp"

// HTTPOptions configure ServeHTTP.
type HTTPOptions struct {
	// Addr is host:port; a bare :port binds 127.0.0.1.
	Addr string
	// Token, if not empty, must be presented as "Authorization: Bearer".
	Token string
	// AllowOrigins are Origin values accepted besides loopback pages.
	AllowOrigins []string
	// Ready, if set, receives the listening address once the server accepts.
	Ready chan<- string
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

// ServeHTTP serves the MCP endpoint over Streamable HTTP until ctx ends
// (SIGTERM), then stops accepting and lets requests in flight finish for up
// to o.DrainTimeout (0: DefaultDrainTimeout).
func ServeHTTP(ctx context.Context, o Options, h HTTPOptions) error {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	softMemoryLimit()
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
	handler := NewHTTPHandler(o, h)
	mux := http.NewServeMux()
	mux.Handle(HTTPPath, handler)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeHTTPError(w, http.StatusNotFound, nil, frame.CodeInvalidRequest, fmt.Sprintf("invalid request: no MCP endpoint at %s; it is %s", r.URL.Path, HTTPPath))
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	o.Log.Info("serving MCP over HTTP", "url", "http://"+ln.Addr().String()+HTTPPath)
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
	// Draining: no new connection; each request in flight is answered.
	// Open SSE streams (a legacy GET, a listen) end with the drain.
	handler.draining.Store(true)
	sctx, cancel := context.WithTimeout(context.Background(), orDefault(o.DrainTimeout, DefaultDrainTimeout))
	defer cancel()
	handler.closeStreams()
	err = srv.Shutdown(sctx)
	if errors.Is(err, context.DeadlineExceeded) {
		o.Log.Warn("requests still running after the drain timeout; closing")
		srv.Close()
		return nil
	}
	return err
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
	salt                string
	seq                 atomic.Uint64
	slots               chan struct{} // requests handled at once, taken by handling
	bodies              *byteBudget   // bytes of bodies read and not yet answered
	maxReply            int
	draining            atomic.Bool

	mu       sync.Mutex
	inflight map[string]*httpCall // session + "\x00" + canonical client id
	calls    map[string]*httpCall // internal id (unquoted), for handling
	streams  map[*context.CancelFunc]bool
}

// callHeader carries a request's internal id from the front to the SDK's
// receiving middleware (RequestExtra.Header), so that the handling slot a
// request takes there is released by the front once its reply is written.
// The front sets it on every request it passes on, over any client value.
const callHeader = "X-Docket-Call"

type httpCall struct {
	quoted    []byte // the internal id, as JSON
	cancel    context.CancelFunc
	cancelled atomic.Bool

	// slot is callRunning until the middleware hands the request's
	// handling slot to the front (callHeld) or the front is done with the
	// request (callEnded), whichever comes first.
	slot atomic.Int32
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

// NewHTTPHandler builds the endpoint over one SDK server.
func NewHTTPHandler(o Options, h HTTPOptions) *HTTPHandler {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	s := NewServer(o)
	get := func(*http.Request) *sdk.Server { return s }
	var salt [8]byte
	rand.Read(salt[:])
	n := o.MaxInFlight
	if n <= 0 {
		n = DefaultMaxInFlight
	}
	maxReply := o.MaxReply
	if maxReply <= 0 {
		maxReply = DefaultMaxReply
	}
	f := &HTTPHandler{
		stateful:  sdk.NewStreamableHTTPHandler(get, &sdk.StreamableHTTPOptions{JSONResponse: true, Logger: o.Log, MaxRequestBodyBytes: frame.MaxFrame}),
		stateless: sdk.NewStreamableHTTPHandler(get, &sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true, Logger: o.Log, MaxRequestBodyBytes: frame.MaxFrame, PropagateRequestCancellation: true}),
		opts:      h,
		log:       o.Log,
		salt:      hex.EncodeToString(salt[:]),
		slots:     make(chan struct{}, n),
		bodies:    newByteBudget(int64(n) * (frame.MaxFrame + 1)),
		maxReply:  maxReply,
		inflight:  map[string]*httpCall{},
		calls:     map[string]*httpCall{},
		streams:   map[*context.CancelFunc]bool{},
	}
	s.AddReceivingMiddleware(f.handling)
	return f
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
		select {
		case f.slots <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		var call *httpCall
		if ex := req.GetExtra(); ex != nil && ex.Header != nil {
			if id := ex.Header.Get(callHeader); id != "" {
				f.mu.Lock()
				call = f.calls[id]
				f.mu.Unlock()
			}
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
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(f.opts.Token)) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="docket"`)
			writeHTTPError(w, http.StatusUnauthorized, nil, frame.CodeInvalidRequest, "unauthorized: send the token from --token-file as Authorization: Bearer <token>")
			return
		}
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
		f.stateful.ServeHTTP(&jsonErrors{ResponseWriter: w}, r)
		return
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		writeHTTPError(w, http.StatusMethodNotAllowed, nil, frame.CodeInvalidRequest, fmt.Sprintf("invalid request: method %s; the MCP endpoint takes POST (and GET, DELETE within a session)", r.Method))
		return
	}

	// Backpressure (D61): a body is read only once its bytes fit in the
	// budget of bodies read and not yet answered; an undeclared length
	// reserves the largest frame.
	want := int64(frame.MaxFrame + 1)
	if r.ContentLength >= 0 {
		want = min(r.ContentLength, want)
	}
	reserved, err := f.bodies.acquire(r.Context(), want)
	if err != nil {
		return
	}
	defer f.bodies.release(reserved)

	body, err := readBody(r.Body, r.ContentLength)
	if err != nil {
		writeHTTPError(w, http.StatusBadRequest, nil, frame.CodeParseError, "parse error: the request body could not be read: "+err.Error())
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

	e, rej := gate(v.Method, v.Params, session != "")
	if rej != nil {
		// Under 2026-07-28 a rejected request is a 4xx with the modern
		// error body; inside a 2025-11-25 session it is an ordinary
		// JSON-RPC error, 200; before a session, 400.
		status := http.StatusBadRequest
		switch {
		case e == eraModern && rej.code == frame.CodeMethodNotFound:
			status = http.StatusNotFound
		case e == eraLegacy && session != "":
			status = http.StatusOK
		}
		writeHTTPFrame(w, status, frame.ErrorResponse(v.ID, rej.code, rej.msg, rej.data))
		return
	}
	quoted := f.internalID()
	if v.Method == "subscriptions/listen" {
		var done func()
		r, done = f.stream(r)
		defer done()
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	call := &httpCall{quoted: quoted, cancel: cancel}
	key := session + "\x00" + frame.CanonicalID(v.ID)
	internal := string(quoted[1 : len(quoted)-1])
	f.mu.Lock()
	f.inflight[key] = call
	f.calls[internal] = call
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		if f.inflight[key] == call {
			delete(f.inflight, key)
		}
		delete(f.calls, internal)
		f.mu.Unlock()
		if call.end() {
			<-f.slots
		}
	}()
	inner := requestFrame(quoted, v.Method, v.Params)
	// A shallow copy: the SDK reads the headers, the new body and context.
	r2 := r.WithContext(ctx)
	r2.Body = io.NopCloser(bytes.NewReader(inner))
	r2.ContentLength = int64(len(inner))
	rw := &idWriter{ResponseWriter: w, from: quoted, to: v.ID, call: call, max: f.maxReply}
	if e == eraModern {
		r2.Header = r.Header.Clone()
		r2.Header.Del("Mcp-Session-Id")
	}
	r2.Header[callHeader] = []string{internal}
	if e == eraModern {
		f.stateless.ServeHTTP(rw, r2)
	} else {
		f.stateful.ServeHTTP(rw, r2)
	}
	rw.finish()
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
		if session == "" {
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
	if session == "" {
		f.stateless.ServeHTTP(&jsonErrors{ResponseWriter: w}, r2)
	} else {
		f.stateful.ServeHTTP(&jsonErrors{ResponseWriter: w}, r2)
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
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

// readBody reads a request body of up to frame.MaxFrame bytes (one more
// says it is longer), in one allocation when its length is declared.
func readBody(body io.Reader, declared int64) ([]byte, error) {
	n := int64(512)
	if declared > 0 {
		n = min(declared, frame.MaxFrame) + 1
	}
	r := io.LimitReader(body, frame.MaxFrame+1)
	b := make([]byte, 0, n)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		k, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+k]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// requestFrame is the request as the SDK gets it: one clean object with
// the internal id.
func requestFrame(id []byte, method string, params json.RawMessage) []byte {
	b := make([]byte, 0, len(`{"jsonrpc":"2.0","id":,"method":"","params":}`)+len(id)+len(method)+len(params))
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"method":`...)
	b = appendJSONString(b, method)
	if len(params) > 0 {
		b = append(b, `,"params":`...)
		b = append(b, params...)
	}
	return append(b, '}')
}

// appendJSONString appends s as a JSON string: as it is when it is plain
// printable ASCII with nothing to escape (every MCP method name), else as
// encoding/json writes it.
func appendJSONString(b []byte, s string) []byte {
	for k := 0; k < len(s); k++ {
		if c := s[k]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return append(b, mustJSON(s)...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
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
// replaced by the client's id bytes, line by line (a JSON body is one
// line, an SSE event's data is one line). An error the SDK writes as
// text/plain becomes a JSON-RPC error on the client's id. A cancelled
// request's response is dropped; a reply over max bytes is replaced.
type idWriter struct {
	http.ResponseWriter
	from, to []byte
	call     *httpCall
	max      int

	status    int
	over      bool // the reply passed max: only the error is written
	plain     bool // the SDK wrote a text/plain error
	buf       bytes.Buffer
	wroteHead bool
}

func (w *idWriter) WriteHeader(status int) {
	if w.status != 0 {
		return
	}
	w.status = status
	h := w.ResponseWriter.Header()
	h.Del("Content-Length")
	if status >= 400 && strings.HasPrefix(h.Get("Content-Type"), "text/plain") {
		w.plain = true
		return
	}
	if w.call.cancelled.Load() {
		return
	}
	w.wroteHead = true
	w.ResponseWriter.WriteHeader(status)
}

func (w *idWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	w.buf.Write(p)
	if w.plain {
		return len(p), nil
	}
	if w.over {
		w.buf.Reset()
		return len(p), nil
	}
	if w.buf.Len() > w.max {
		w.buf.Reset()
		w.tooLarge()
		return len(p), nil
	}
	if i := bytes.LastIndexByte(w.buf.Bytes(), '\n'); i >= 0 {
		w.emit(w.buf.Next(i + 1))
	}
	return len(p), nil
}

// tooLarge replaces a reply over the limit. Nothing of it was written:
// a JSON body is written only once its line is complete.
func (w *idWriter) tooLarge() {
	w.over = true
	if w.call.cancelled.Load() {
		return
	}
	w.ResponseWriter.Write(append(frame.ErrorResponse(w.to, frame.CodeInternalError, fmt.Sprintf(
		"internal error: the reply is over this server's %d-byte limit and was not sent; the request itself was done (a write is committed): ask for less, for example one issue by id or a narrower filter", w.max), nil), '\n'))
}

func (w *idWriter) emit(b []byte) {
	if w.call.cancelled.Load() || w.over {
		return
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

// Flush passes a flush on once the lines so far are written.
func (w *idWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok && w.wroteHead {
		f.Flush()
	}
}

// finish writes what is left once the SDK's handler returns.
func (w *idWriter) finish() {
	if w.plain {
		msg := strings.TrimSpace(w.buf.String())
		w.ResponseWriter.Header().Set("Content-Type", "application/json")
		w.ResponseWriter.WriteHeader(w.status)
		w.ResponseWriter.Write(append(frame.ErrorResponse(w.to, frame.CodeInvalidRequest, "invalid request: "+msg, nil), '\n'))
		return
	}
	if w.status == 0 && !w.call.cancelled.Load() {
		w.WriteHeader(http.StatusOK)
	}
	if w.buf.Len() > 0 {
		w.emit(w.buf.Bytes())
	}
}

// jsonErrors turns the SDK's text/plain HTTP errors into JSON-RPC errors
// with id null, for the requests that carry no id (GET, DELETE,
// notifications).
type jsonErrors struct {
	http.ResponseWriter
	plain  bool
	status int
	buf    bytes.Buffer
}

func (w *jsonErrors) WriteHeader(status int) {
	if status >= 400 && strings.HasPrefix(w.ResponseWriter.Header().Get("Content-Type"), "text/plain") {
		w.plain, w.status = true, status
		w.ResponseWriter.Header().Del("Content-Length")
		w.ResponseWriter.Header().Set("Content-Type", "application/json")
		return
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *jsonErrors) Write(p []byte) (int, error) {
	if !w.plain {
		return w.ResponseWriter.Write(p)
	}
	w.buf.Write(p)
	if bytes.HasSuffix(p, []byte("\n")) {
		w.ResponseWriter.WriteHeader(w.status)
		w.ResponseWriter.Write(append(frame.ErrorResponse(nil, frame.CodeInvalidRequest, "invalid request: "+strings.TrimSpace(w.buf.String()), nil), '\n'))
		w.buf.Reset()
	}
	return len(p), nil
}

// Flush passes a flush on.
func (w *jsonErrors) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

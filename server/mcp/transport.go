// Package mcp is docket's MCP server: the tracker and the register as tools
// over JSON-RPC 2.0, newline-delimited on stdio. The MCP semantics (tools,
// schemas, version negotiation) come from the go-sdk, the only package that
// imports it; the stdio transport is our own, because a server must answer
// every frame it owes an answer exactly once, and the SDK's stock transport
// ends the session on a malformed frame and loses the requests in flight.
//
// Every line is screened (server/mcp/frame) before the SDK sees it. A frame
// the screen answers is never delivered. A request is delivered under an
// internal integer id, and its reply is written with the id bytes exactly as
// the client sent them, so ids of any size or spelling come back intact.
package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/claimslint/claimslint/server/mcp/frame"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ProtocolVersions are the versions this server claims, newest first: only
// those whose wire rules the transport implements. 2025-03-26 requires
// JSON-RPC batches, which this transport refuses, so it is not claimed; a
// client asking for it is offered the newest legacy version instead.
var ProtocolVersions = []string{"2026-07-28", "2025-11-25", "2025-06-18"}

// DrainTimeout bounds how long the server waits, after stdin ends, for the
// requests already read to finish; any still running then are answered with
// an error, so no request goes unanswered.
var DrainTimeout = 30 * time.Second

// Transport is the screened stdio transport.
type Transport struct {
	In  io.Reader
	Out io.Writer
	Log *slog.Logger
	// Ended, if set, is closed once input has ended and every request read
	// has been answered: the process may exit even if a handler still runs.
	Ended chan struct{}
}

var (
	_ sdk.Transport                = (*Transport)(nil)
	_ sdk.ProtocolVersionSupporter = (*Transport)(nil)
)

// SupportsProtocolVersion reports whether v is one of ProtocolVersions.
func (t *Transport) SupportsProtocolVersion(v string) bool {
	return slices.Contains(ProtocolVersions, v)
}

// Connect starts reading lines.
func (t *Transport) Connect(ctx context.Context) (sdk.Connection, error) {
	log := t.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &conn{
		out:      t.Out,
		lines:    make(chan line),
		closed:   make(chan struct{}),
		pending:  map[int64]inflight{},
		outgoing: map[string]bool{},
		log:      log,
		ended:    t.Ended,
	}
	c.cond = sync.NewCond(&c.mu)
	go c.readLines(t.In)
	return c, nil
}

type line struct {
	data    []byte
	tooLong bool
	err     error // io.EOF or a read failure; last value sent
}

type inflight struct {
	id     json.RawMessage // as the client wrote it
	method string
}

type conn struct {
	out io.Writer
	wmu sync.Mutex // one frame at a time on stdout

	lines     chan line
	closed    chan struct{}
	closeOnce sync.Once

	mu       sync.Mutex
	cond     *sync.Cond // signalled when pending shrinks or the conn closes
	next     int64
	pending  map[int64]inflight
	outgoing map[string]bool // canonical ids of requests the server sent
	log      *slog.Logger
	ended    chan struct{}
	endOnce  sync.Once
}

// readLines feeds c.lines until EOF or a read error. A line over
// frame.MaxFrame is reported as tooLong and the rest of it discarded.
func (c *conn) readLines(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	send := func(l line) bool {
		select {
		case c.lines <- l:
			return true
		case <-c.closed:
			return false
		}
	}
	for {
		var buf []byte
		tooLong := false
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			if !tooLong {
				buf = append(buf, chunk...)
				if len(buf) > frame.MaxFrame+1 { // +1: the newline
					tooLong, buf = true, nil
				}
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		if tooLong {
			if !send(line{tooLong: true}) {
				return
			}
		} else if len(buf) > 0 {
			if !send(line{data: bytes.TrimSuffix(buf, []byte("\n"))}) {
				return
			}
		}
		if err != nil {
			send(line{err: err})
			return
		}
	}
}

// Read returns the next frame the SDK must handle, answering or dropping
// the others itself. At the end of input it first waits until every request
// already delivered has been answered, so none is lost when a client writes
// its requests and closes stdin at once.
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		var l line
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case l = <-c.lines:
		}
		if l.err != nil {
			c.drain()
			if c.ended != nil {
				c.endOnce.Do(func() { close(c.ended) })
			}
			return nil, l.err
		}
		if l.tooLong {
			c.writeFrame(frame.ErrorResponse(nil, frame.CodeInvalidRequest,
				fmt.Sprintf("invalid request: the frame is longer than the %d MiB limit; it was discarded", frame.MaxFrame>>20), nil))
			continue
		}
		v := frame.Screen(l.data, c.knownOutgoing)
		switch v.Kind {
		case frame.Ignore:
			continue
		case frame.Answer:
			c.writeFrame(v.Reply)
			continue
		case frame.Notification:
			if !strings.HasPrefix(v.Method, "notifications/") {
				// A request method without an id: it cannot be answered, and
				// must not run either (a tools/call that nobody sees the
				// result of would still change the tracker).
				c.log.Warn("dropping a request sent without an id", "method", v.Method)
				continue
			}
			return &jsonrpc.Request{Method: v.Method, Params: v.Params}, nil
		case frame.Request:
			if problem := checkParams(v.Method, v.Params); problem != "" {
				c.writeFrame(frame.ErrorResponse(v.ID, frame.CodeInvalidParams, "invalid params: "+problem, nil))
				continue
			}
			c.mu.Lock()
			c.next++
			n := c.next
			c.pending[n] = inflight{id: v.ID, method: v.Method}
			c.mu.Unlock()
			return &jsonrpc.Request{ID: internalID(n), Method: v.Method, Params: v.Params}, nil
		case frame.Response:
			msg, err := responseMessage(v)
			if err != nil {
				c.log.Warn("dropping a client response the SDK cannot take", "error", err)
				continue
			}
			return msg, nil
		}
	}
}

// checkParams rejects, before the SDK sees it, a tools/call whose params
// are not of the shape MCP defines: an object with a string name and, if
// present, an object of arguments. The SDK would report a wrong-typed
// arguments value as a failed tool call; it is a malformed request.
func checkParams(method string, params json.RawMessage) string {
	if method != "tools/call" {
		return ""
	}
	var p map[string]json.RawMessage
	if len(params) == 0 || params[0] != '{' || json.Unmarshal(params, &p) != nil {
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

// responseMessage turns a client's response to one of our requests into
// the SDK's form; its id is one the SDK itself chose.
func responseMessage(v frame.Verdict) (jsonrpc.Message, error) {
	var id jsonrpc.ID
	if v.ID[0] == '"' {
		var s string
		if err := json.Unmarshal(v.ID, &s); err != nil {
			return nil, err
		}
		id, _ = jsonrpc.MakeID(s)
	} else {
		n, err := strconv.ParseInt(string(v.ID), 10, 64)
		if err != nil || n > 1<<53 || n < -(1<<53) {
			return nil, fmt.Errorf("id %s is not one the SDK issued", v.ID)
		}
		id, _ = jsonrpc.MakeID(float64(n))
	}
	r := &jsonrpc.Response{ID: id, Result: v.Result}
	if v.Error != nil {
		var we jsonrpc.Error
		if err := json.Unmarshal(v.Error, &we); err != nil {
			return nil, err
		}
		r.Error = &we
	}
	return r, nil
}

// internalID is the id a delivered request carries inside the server. It
// counts up from 1, far below 2^53, so the float64 the SDK's constructor
// takes holds it exactly.
func internalID(n int64) jsonrpc.ID {
	id, _ := jsonrpc.MakeID(float64(n))
	return id
}

func (c *conn) knownOutgoing(canonical string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.outgoing[canonical] {
		delete(c.outgoing, canonical)
		return true
	}
	return false
}

// drain waits until no delivered request is unanswered, or DrainTimeout
// passes; then it answers the stragglers itself.
func (c *conn) drain() {
	deadline := time.AfterFunc(DrainTimeout, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		for n, inf := range c.pending {
			delete(c.pending, n)
			c.log.Error("request still running at shutdown", "method", inf.method)
			c.writeFrameLocked(frame.ErrorResponse(inf.id, frame.CodeInternalError, "internal error: the server is shutting down (end of input) and the request did not finish in time", nil))
		}
		c.cond.Broadcast()
	})
	defer deadline.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.pending) > 0 && !c.isClosed() {
		c.cond.Wait()
	}
}

func (c *conn) isClosed() bool {
	select {
	case <-c.closed:
		return true
	default:
		return false
	}
}

// Write sends a message from the SDK. A response goes out on the id the
// client sent, with the SDK's error codes repaired where they break the
// rules: code 0 becomes a real code, and -32601 names the method.
func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	switch m := msg.(type) {
	case *jsonrpc.Response:
		n, _ := m.ID.Raw().(int64)
		c.mu.Lock()
		defer c.mu.Unlock()
		inf, ok := c.pending[n]
		if !ok {
			// Answered already (at shutdown) or never ours: exactly once.
			c.log.Warn("dropping a reply to no pending request", "id", m.ID.Raw())
			return nil
		}
		var out []byte
		if m.Error != nil {
			code, text, data := wireError(m.Error)
			code, text = repairError(code, text, inf.method)
			out = frame.ErrorResponse(inf.id, code, text, data)
		} else {
			result := m.Result
			if len(result) == 0 {
				result = json.RawMessage("{}")
			}
			out = frame.ResultResponse(inf.id, result)
		}
		err := c.writeFrameLocked(out)
		delete(c.pending, n)
		c.cond.Broadcast()
		return err
	case *jsonrpc.Request:
		data, err := jsonrpc.EncodeMessage(m)
		if err != nil {
			return fmt.Errorf("encode %s: %w", m.Method, err)
		}
		if m.ID.IsValid() {
			raw, _ := json.Marshal(m.ID.Raw())
			c.mu.Lock()
			c.outgoing[frame.CanonicalID(raw)] = true
			c.mu.Unlock()
		}
		return c.writeFrame(data)
	}
	return fmt.Errorf("write: unknown message type %T", msg)
}

// wireError reads an SDK error as the SDK's own encoder would: a wire
// error as is; a wrapped one with its code and the outer message.
func wireError(err error) (code int, msg string, data json.RawMessage) {
	if we, ok := err.(*jsonrpc.Error); ok {
		return int(we.Code), we.Message, we.Data
	}
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return int(we.Code), err.Error(), nil
	}
	return 0, err.Error(), nil
}

// repairError gives every error a real JSON-RPC code. The SDK answers a
// request before initialize with code 0; that request is invalid at this
// point of the session, so -32600. Any other code 0 is an internal error.
func repairError(code int, msg, method string) (int, string) {
	switch {
	case code == 0 && strings.Contains(msg, "invalid during session initialization"):
		return frame.CodeInvalidRequest, "invalid request: " + msg + "; send initialize first"
	case code == 0 && strings.Contains(msg, "duplicate \"initialize\""):
		return frame.CodeInvalidRequest, "invalid request: the session is already initialized"
	case code == 0:
		return frame.CodeInternalError, "internal error: " + msg
	case code == frame.CodeMethodNotFound && !strings.Contains(msg, strconv.Quote(method)):
		return code, fmt.Sprintf("method not found: %q", method)
	}
	return code, msg
}

func (c *conn) writeFrame(b []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writeFrameLocked(b)
}

// writeFrameLocked writes one frame and its newline in one call. Callers
// hold c.mu, which also orders a reply before its pending entry goes.
func (c *conn) writeFrameLocked(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	buf := make([]byte, 0, len(b)+1)
	buf = append(append(buf, b...), '\n')
	if _, err := c.out.Write(buf); err != nil {
		return fmt.Errorf("write stdout: %w", err)
	}
	return nil
}

// Close stops reading and unblocks Read and a drain.
func (c *conn) Close() error {
	c.closeOnce.Do(func() {
		close(c.closed)
		c.mu.Lock()
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	return nil
}

// SessionID is empty: stdio has one session.
func (c *conn) SessionID() string { return "" }

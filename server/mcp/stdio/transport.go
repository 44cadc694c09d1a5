// Package stdio is docket mcp's stdio transport (D19, D102): JSON-RPC 2.0,
// one frame a line. Every frame is screened (server/mcp/frame, then
// wire.Gate) before the SDK sees it; a frame the screen answers is never
// delivered. A request is delivered under an internal integer id, and its
// reply is written with the id bytes exactly as the client sent them. At
// most MaxInFlight requests are handled at once, the rest queued in order;
// at the end of input every request read is answered, by the drain if need
// be (D54). It serves a wire.App and knows no tool: whether a tool only
// reads, and which handlers it may call without the SDK's dispatch (D82),
// the App says.
package stdio

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
	"github.com/claimslint/claimslint/server/mcp/wire"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxQueued and MaxQueuedBytes bound the requests read past the in-flight
// cap and not yet handled: once either is reached the transport stops
// reading until a request is handled, so the client's pipe fills, not our
// memory (D80).
const (
	MaxQueued      = 64
	MaxQueuedBytes = frame.MaxFrame
)

// Transport is the screened stdio transport.
type Transport struct {
	In  io.Reader
	Out io.Writer
	Log *slog.Logger
	// Ended, if set, is closed once input has ended and every request read
	// has been answered: the process may exit even if a handler still runs.
	Ended chan struct{}
	// MaxInFlight caps the requests being handled at once (0: the default).
	// An open subscriptions/listen does not count.
	MaxInFlight int
	// MaxReply caps the bytes of one reply frame (0: the default).
	MaxReply int
	// DrainTimeout and DrainGrace time the drain at the end of input (0:
	// wire.DefaultDrainTimeout, wire.DefaultDrainGrace).
	DrainTimeout, DrainGrace time.Duration

	// fast, if set, serves the plain tools/call of a read-only store tool
	// without the SDK's dispatch (D82).
	fast *wire.FastCalls
	// readOnly tells whether a tool changes nothing (wire.App.ReadOnly); nil:
	// none is known to.
	readOnly func(tool string) bool
}

var (
	_ sdk.Transport                = (*Transport)(nil)
	_ sdk.ProtocolVersionSupporter = (*Transport)(nil)
)

// SupportsProtocolVersion reports whether v is one of wire.ProtocolVersions.
func (t *Transport) SupportsProtocolVersion(v string) bool {
	return slices.Contains(wire.ProtocolVersions, v)
}

// Connect starts reading lines.
func (t *Transport) Connect(ctx context.Context) (sdk.Connection, error) {
	c := newConn(t)
	c.base, c.stopFast = context.WithCancel(context.WithoutCancel(ctx))
	go c.readLines(t.In)
	return c, nil
}

// newConn is a connection with t's settings, its zero values replaced by
// the defaults.
func newConn(t *Transport) *conn {
	log := t.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	maxInFlight := t.MaxInFlight
	if maxInFlight <= 0 {
		maxInFlight = wire.DefaultMaxInFlight
	}
	maxReply := t.MaxReply
	if maxReply <= 0 {
		maxReply = wire.DefaultMaxReply
	}
	c := &conn{
		out:          t.Out,
		lines:        make(chan line),
		wake:         make(chan struct{}, 1),
		closed:       make(chan struct{}),
		pending:      map[int64]*inflight{},
		outgoing:     map[string]bool{},
		log:          log,
		maxInFlight:  maxInFlight,
		maxReply:     maxReply,
		drainTimeout: wire.OrDefault(t.DrainTimeout, wire.DefaultDrainTimeout),
		drainGrace:   wire.OrDefault(t.DrainGrace, wire.DefaultDrainGrace),
		ended:        t.Ended,
		fast:         t.fast,
		readOnly:     t.readOnly,
		fastJobs:     make(chan func(), maxInFlight),
		base:         context.Background(),
		stopFast:     func() {},
	}
	c.cond = sync.NewCond(&c.mu)
	return c
}

type line struct {
	data    []byte
	tooLong bool
	err     error // io.EOF or a read failure; last value sent
}

// inflight is one delivered request, keyed by its internal id.
type inflight struct {
	id     json.RawMessage // as the client wrote it
	canon  string          // frame.CanonicalID(id)
	method string
	tool   string // tools/call: the tool's name
	listen bool   // an open subscriptions/listen: not counted against the cap
	modern bool   // declared a modern version in _meta
	// cancelled: the client cancelled it; its reply is never written.
	cancelled bool
	// stopping: cancelled by the drain; its reply says what happened.
	stopping bool
	// answered: a reply is being written or was; no second one.
	answered bool
	// queued: read past the cap and not yet delivered; msg is what Read
	// delivers when a slot frees, size its frame's bytes.
	queued bool
	msg    *jsonrpc.Request
	size   int
	// fast: the transport runs this tools/call itself (fastCalls); cancel
	// ends its context once it runs.
	fast   *wire.FastCall
	cancel context.CancelFunc
}

type conn struct {
	out io.Writer
	wmu sync.Mutex // one frame at a time on stdout

	lines     chan line
	closed    chan struct{}
	closeOnce sync.Once

	mu          sync.Mutex
	cond        *sync.Cond // signalled when pending shrinks, input ends or the conn closes
	next        int64
	pending     map[int64]*inflight
	active      int     // pending entries that count against maxInFlight
	queue       []int64 // requests read past the cap, oldest first
	queueBytes  int
	wake        chan struct{} // a slot freed or synth grew while Read waits for a line
	outgoing    map[string]bool
	initialized bool              // a legacy initialize was delivered
	synth       []jsonrpc.Message // messages for the SDK that no client sent
	inputErr    error             // set at the end of input
	log         *slog.Logger
	maxInFlight int
	maxReply    int
	// drainTimeout and drainGrace: Transport.DrainTimeout and DrainGrace.
	drainTimeout time.Duration
	drainGrace   time.Duration
	ended        chan struct{}
	endOnce      sync.Once
	// fast serves plain read-only tools/calls itself; base is their
	// context, ended by stopFast when the connection closes.
	fast     *wire.FastCalls
	base     context.Context
	stopFast context.CancelFunc
	// readOnly: Transport.readOnly.
	readOnly func(tool string) bool
	// fastJobs feeds the fastWorkers (at most maxInFlight) that run them.
	fastJobs    chan func()
	fastWorkers int
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
// the others itself. While MaxInFlight requests are running it keeps
// reading: notifications are delivered and pings answered at once, and
// requests wait in a queue, in order, until a slot frees; it takes no new
// line only while that queue is full (MaxQueued, MaxQueuedBytes). At the
// end of input it ends open listens at once, then waits until every
// request already read has been answered, so none is lost when a client
// writes its requests and closes stdin at once.
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		c.mu.Lock()
		if len(c.synth) > 0 {
			m := c.synth[0]
			c.synth = c.synth[1:]
			c.mu.Unlock()
			return m, nil
		}
		if c.isClosed() {
			c.mu.Unlock()
			return nil, io.EOF
		}
		if len(c.queue) > 0 && c.active < c.maxInFlight {
			n := c.queue[0]
			inf := c.pending[n]
			c.queue = c.queue[1:]
			c.queueBytes -= inf.size
			inf.queued = false
			c.active++
			m := inf.msg
			inf.msg = nil
			if inf.fast != nil {
				c.startFastLocked(n, inf)
				c.mu.Unlock()
				continue
			}
			c.mu.Unlock()
			return m, nil
		}
		if c.inputErr != nil {
			if len(c.pending) > 0 {
				c.cond.Wait()
				c.mu.Unlock()
				continue
			}
			err := c.inputErr
			c.mu.Unlock()
			if c.ended != nil {
				c.endOnce.Do(func() { close(c.ended) })
			}
			return nil, err
		}
		if len(c.queue) >= MaxQueued || c.queueBytes >= MaxQueuedBytes {
			c.cond.Wait() // backpressure: the next line stays unread
			c.mu.Unlock()
			continue
		}
		c.mu.Unlock()

		var l line
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case <-c.wake:
			continue
		case l = <-c.lines:
		}
		if l.err != nil {
			c.endOfInput(l.err)
			continue
		}
		if l.tooLong {
			c.writeFrame(frame.ErrorResponse(nil, frame.CodeInvalidRequest,
				fmt.Sprintf("invalid request: the frame is longer than the %d MiB limit; it was discarded", frame.MaxFrame>>20), nil))
			continue
		}
		if m := c.screen(l.data); m != nil {
			return m, nil
		}
	}
}

// screen handles one frame: it answers, drops, or returns the message to
// deliver.
func (c *conn) screen(data []byte) jsonrpc.Message {
	v := frame.Screen(data, c.knownOutgoing)
	switch v.Kind {
	case frame.Answer:
		c.writeFrame(v.Reply)
	case frame.Notification:
		if v.Method == "notifications/cancelled" {
			return c.inboundCancel(v.Params)
		}
		if !strings.HasPrefix(v.Method, "notifications/") {
			// A request method without an id: it cannot be answered, and
			// must not run either (a tools/call that nobody sees the
			// result of would still change the tracker).
			c.log.Warn("dropping a request sent without an id", "method", v.Method)
			return nil
		}
		return &jsonrpc.Request{Method: v.Method, Params: v.Params}
	case frame.Request:
		c.mu.Lock()
		initialized := c.initialized
		c.mu.Unlock()
		e, rej := wire.Gate(v.Method, v.Params, initialized)
		if rej != nil {
			c.writeFrame(frame.ErrorResponse(v.ID, rej.Code, rej.Msg, rej.Data))
			return nil
		}
		var fc *wire.FastCall
		if v.Method == "tools/call" && e == wire.EraLegacy {
			fc = c.fast.Match(v.Params)
		}
		c.mu.Lock()
		if v.Method == "initialize" && e == wire.EraLegacy {
			c.initialized = true
		}
		full := c.active >= c.maxInFlight || len(c.queue) > 0
		if v.Method == "ping" && e == wire.EraLegacy && full {
			// At the cap the transport answers a ping itself, as the SDK
			// would: a client probing a busy server is told it is alive.
			// (2026-07-28 has no ping: a modern one waits its turn for the
			// SDK's -32601.)
			c.mu.Unlock()
			c.writeFrame(frame.ResultResponse(v.ID, json.RawMessage("{}")))
			return nil
		}
		c.next++
		n := c.next
		inf := &inflight{id: v.ID, canon: frame.CanonicalID(v.ID), method: v.Method, listen: v.Method == "subscriptions/listen", modern: e == wire.EraModern}
		if v.Method == "tools/call" {
			inf.tool = wire.ToolName(v.Params)
			inf.fast = fc
		}
		c.pending[n] = inf
		req := &jsonrpc.Request{ID: internalID(n), Method: v.Method, Params: v.Params}
		if !inf.listen && full {
			// Past the cap: queued, in order, until a slot frees (Read).
			inf.queued, inf.msg, inf.size = true, req, len(data)
			c.queue = append(c.queue, n)
			c.queueBytes += len(data)
			c.mu.Unlock()
			return nil
		}
		if !inf.listen {
			c.active++
		}
		if inf.fast != nil {
			c.startFastLocked(n, inf)
			c.mu.Unlock()
			return nil
		}
		c.mu.Unlock()
		return req
	case frame.Response:
		msg, err := responseMessage(v)
		if err != nil {
			c.log.Warn("dropping a client response the SDK cannot take", "error", err)
			return nil
		}
		return msg
	}
	return nil
}

// inboundCancel maps a client's notifications/cancelled from the client's
// id to the internal one, and marks the request so that it is never
// answered. A cancel for no request in flight (already answered, never
// sent, or initialize, which must not be cancelled) is dropped.
func (c *conn) inboundCancel(params json.RawMessage) jsonrpc.Message {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
		Reason    string          `json:"reason,omitempty"`
	}
	if json.Unmarshal(params, &p) != nil || len(p.RequestID) == 0 {
		c.log.Warn("dropping a notifications/cancelled without a requestId")
		return nil
	}
	canon := frame.CanonicalID(p.RequestID)
	c.mu.Lock()
	defer c.mu.Unlock()
	var msgs []jsonrpc.Message
	for n, inf := range c.pending {
		if inf.canon != canon || inf.method == "initialize" || inf.answered || inf.cancelled {
			continue
		}
		inf.cancelled = true
		if inf.queued {
			// Never delivered: dropped without running, and not answered.
			c.unqueueLocked(n)
			continue
		}
		if inf.fast != nil {
			// Run by the transport: its context ends; the SDK never saw it.
			inf.cancel()
			continue
		}
		msgs = append(msgs, cancelFor(n, "cancelled by the client: "+p.Reason))
	}
	if len(msgs) == 0 {
		c.log.Debug("dropping a cancel for no request in flight", "requestId", string(p.RequestID))
		return nil
	}
	c.synth = append(c.synth, msgs[1:]...)
	return msgs[0]
}

// startFastLocked runs the delivered tools/call n in the transport
// (fastCalls); its reply goes through Write like the SDK's.
func (c *conn) startFastLocked(n int64, inf *inflight) {
	ctx, cancel := context.WithCancel(c.base)
	inf.cancel = cancel
	fc := inf.fast
	if c.fastWorkers < c.maxInFlight {
		c.fastWorkers++
		go c.fastWorker()
	}
	// Never blocks: a job waiting here holds one of the maxInFlight
	// slots until its reply is written, so at most maxInFlight wait.
	c.fastJobs <- func() {
		defer cancel()
		res, err := fc.Run(ctx)
		c.Write(ctx, &jsonrpc.Response{ID: internalID(n), Result: res, Error: err})
	}
}

// fastWorker runs fast calls until the connection closes. The workers
// live as long as the connection, so the stack a call grows is there for
// the next (a goroutine per call grew it afresh each time).
func (c *conn) fastWorker() {
	for {
		select {
		case job := <-c.fastJobs:
			job()
		case <-c.closed:
			return
		}
	}
}

// unqueueLocked takes the queued request n out of the queue and pending.
func (c *conn) unqueueLocked(n int64) {
	inf := c.pending[n]
	delete(c.pending, n)
	c.queue = slices.DeleteFunc(c.queue, func(q int64) bool { return q == n })
	c.queueBytes -= inf.size
	inf.queued, inf.msg = false, nil
}

// wakeLocked tells a Read waiting for a line that a slot freed or synth
// grew.
func (c *conn) wakeLocked() {
	c.cond.Broadcast()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// cancelFor is a notifications/cancelled for the SDK naming internal id n.
func cancelFor(n int64, reason string) jsonrpc.Message {
	params, _ := json.Marshal(struct {
		RequestID int64  `json:"requestId"`
		Reason    string `json:"reason"`
	}{n, reason})
	return &jsonrpc.Request{Method: "notifications/cancelled", Params: params}
}

// endOfInput ends open listens at once (telling the client, on the
// listen's own id, as the stdio transport's rules say), then arms the
// drain: after the drain timeout the requests still running are cancelled,
// and after the grace more the transport answers any that did not stop.
func (c *conn) endOfInput(err error) {
	c.mu.Lock()
	c.inputErr = err
	var notes [][]byte
	var ended []int64
	for n, inf := range c.pending {
		if !inf.listen || inf.answered || inf.cancelled {
			// A listen the client cancelled itself is ending already: no
			// cancel of ours; the drain waits for its handler.
			continue
		}
		inf.answered = true
		ended = append(ended, n)
		c.synth = append(c.synth, cancelFor(n, "end of input"))
		note, _ := json.Marshal(struct {
			JSONRPC string `json:"jsonrpc"`
			Method  string `json:"method"`
			Params  any    `json:"params"`
		}{"2.0", "notifications/cancelled", struct {
			RequestID json.RawMessage `json:"requestId"`
			Reason    string          `json:"reason"`
		}{inf.id, "the server's input ended"}})
		notes = append(notes, note)
	}
	c.mu.Unlock()
	for _, note := range notes {
		c.writeFrame(note)
	}
	c.settle(ended, false)
	time.AfterFunc(c.drainTimeout, c.stopStragglers)
}

// settle takes the requests ns, each answered and its answer written,
// out of pending, and wakes Read: only then may Read find nothing pending
// and end the session, so no answer is written after the end (a request
// answered at shutdown used to leave pending before its answer was
// written, and the session could end in between, dk-s7b). active counts
// the delivered ones, which are not listens.
func (c *conn) settle(ns []int64, delivered bool) {
	c.mu.Lock()
	for _, n := range ns {
		inf, ok := c.pending[n]
		if !ok {
			continue
		}
		delete(c.pending, n)
		if delivered && !inf.listen {
			c.active--
		}
	}
	c.wakeLocked()
	c.mu.Unlock()
}

// stopStragglers cancels every request still running after the drain
// timeout.
func (c *conn) stopStragglers() {
	c.mu.Lock()
	if len(c.pending) == 0 {
		c.mu.Unlock()
		return
	}
	var out [][]byte
	var never []int64
	for _, q := range slices.Clone(c.queue) {
		// Never started: nothing was changed, and it never will be. It
		// stays pending, answered, until its answer is written (settle).
		inf := c.pending[q]
		c.unqueueLocked(q)
		inf.answered = true
		c.pending[q] = inf
		never = append(never, q)
		out = append(out, frame.ErrorResponse(inf.id, frame.CodeInternalError, wire.StoppedMessage(" (end of input)"), nil))
	}
	for n, inf := range c.pending {
		if inf.answered {
			continue
		}
		inf.stopping = true
		c.log.Warn("cancelling a request still running at shutdown", "method", inf.method, "tool", inf.tool)
		if inf.fast != nil {
			inf.cancel()
			continue
		}
		c.synth = append(c.synth, cancelFor(n, "the server is shutting down"))
	}
	c.wakeLocked()
	time.AfterFunc(c.drainGrace, c.answerStragglers)
	c.mu.Unlock()
	for _, b := range out {
		c.writeFrame(b)
	}
	c.settle(never, false)
}

// answerStragglers answers, itself, the requests that did not stop within
// the drain grace of being cancelled. A read-only request changed nothing; for
// a write, the outcome is not known, and the answer says so.
func (c *conn) answerStragglers() {
	c.mu.Lock()
	var out [][]byte
	var late []int64
	for n, inf := range c.pending {
		if inf.answered {
			continue
		}
		inf.answered = true
		late = append(late, n)
		c.log.Error("request did not stop at shutdown", "method", inf.method, "tool", inf.tool)
		if !inf.cancelled {
			out = append(out, frame.ErrorResponse(inf.id, frame.CodeInternalError, wire.UnfinishedMessage(" (end of input)", c.readOnlyCall(inf)), nil))
		}
	}
	c.mu.Unlock()
	for _, b := range out {
		c.writeFrame(b)
	}
	c.settle(late, true)
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
// rules: code 0 becomes a real code, and -32601 names the method. A
// cancelled request's response is not written.
func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	switch m := msg.(type) {
	case *jsonrpc.Response:
		n, _ := m.ID.Raw().(int64)
		c.mu.Lock()
		inf, ok := c.pending[n]
		if !ok || inf.answered {
			c.mu.Unlock()
			// Answered already (at shutdown) or never ours: exactly once.
			c.log.Warn("dropping a reply to no pending request", "id", m.ID.Raw())
			return nil
		}
		inf.answered = true
		var out []byte
		if !inf.cancelled {
			out = c.replyLocked(inf, m)
		}
		c.mu.Unlock()
		var err error
		if out != nil {
			err = c.writeFrame(out)
		} else {
			c.log.Debug("not answering a cancelled request", "method", inf.method, "tool", inf.tool)
		}
		c.mu.Lock()
		delete(c.pending, n)
		if !inf.listen {
			c.active--
		}
		c.wakeLocked()
		c.mu.Unlock()
		return err
	case *jsonrpc.Request:
		if !m.ID.IsValid() {
			c.mu.Lock()
			m = c.outboundNotificationLocked(m)
			c.mu.Unlock()
		}
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
	return errors.New("write: a message that is neither a request nor a response")
}

// replyLocked builds the reply frame for inf on the client's id.
func (c *conn) replyLocked(inf *inflight, m *jsonrpc.Response) []byte {
	var out []byte
	if m.Error != nil {
		code, text, data := wireError(m.Error)
		code, text = wire.RepairError(code, text, inf.method)
		if inf.stopping {
			code, text, data = frame.CodeInternalError, wire.StoppedMessage(" (end of input)"), nil
		}
		out = frame.ErrorResponse(inf.id, code, text, data)
	} else {
		result := m.Result
		if len(result) == 0 {
			result = json.RawMessage("{}")
		}
		if inf.stopping && wire.RolledBack(result) {
			// The handler saw its cancellation before it committed.
			out = frame.ErrorResponse(inf.id, frame.CodeInternalError, wire.StoppedMessage(" (end of input)"), nil)
		} else {
			if inf.listen {
				result = c.withClientIDLocked(result, wire.MetaSubscriptionID)
			}
			if inf.modern {
				result = wire.WithResultType(result)
			}
			out = frame.ResultResponse(inf.id, result)
		}
	}
	if len(out)+1 > c.maxReply {
		c.log.Warn("reply over the size limit", "method", inf.method, "tool", inf.tool, "bytes", len(out))
		out = frame.ErrorResponse(inf.id, frame.CodeInternalError, fmt.Sprintf(
			"internal error: the reply is %d bytes, over this server's %d-byte limit, and was not sent; the request itself was done (a write is committed): ask for less, for example one issue by id or a narrower filter",
			len(out), c.maxReply), nil)
	}
	return out
}

// readOnlyCall reports whether inf changes nothing: any request but a
// tools/call, or a call of a tool the application says only reads.
func (c *conn) readOnlyCall(inf *inflight) bool {
	if inf.method != "tools/call" {
		return true
	}
	return c.readOnly != nil && c.readOnly(inf.tool)
}

// outboundNotificationLocked puts the client's ids into a notification
// the SDK sends: the subscriptionId in _meta of a listen's notifications,
// and the requestId of a notifications/cancelled ending a listen.
func (c *conn) outboundNotificationLocked(m *jsonrpc.Request) *jsonrpc.Request {
	params := m.Params
	if bytes.Contains(params, []byte(wire.MetaSubscriptionID)) {
		params = c.withClientIDLocked(params, wire.MetaSubscriptionID)
	}
	if m.Method == "notifications/cancelled" {
		params = c.cancelWithClientIDLocked(params)
	}
	if bytes.Equal(params, m.Params) {
		return m
	}
	return &jsonrpc.Request{Method: m.Method, Params: params}
}

// withClientIDLocked replaces an internal id in obj._meta[key] with the
// client's id bytes. Objects whose value is not a pending internal id are
// returned unchanged.
func (c *conn) withClientIDLocked(obj json.RawMessage, key string) json.RawMessage {
	var o map[string]json.RawMessage
	if json.Unmarshal(obj, &o) != nil {
		return obj
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(o["_meta"], &meta) != nil {
		return obj
	}
	n, err := strconv.ParseInt(string(meta[key]), 10, 64)
	if err != nil {
		return obj
	}
	inf, ok := c.pending[n]
	if !ok {
		return obj
	}
	meta[key] = inf.id
	o["_meta"], _ = json.Marshal(meta)
	out, err := json.Marshal(o)
	if err != nil {
		return obj
	}
	return out
}

// cancelWithClientIDLocked maps the requestId of a server-sent
// notifications/cancelled naming a listen to the client's id.
func (c *conn) cancelWithClientIDLocked(params json.RawMessage) json.RawMessage {
	var o map[string]json.RawMessage
	if json.Unmarshal(params, &o) != nil {
		return params
	}
	n, err := strconv.ParseInt(string(o["requestId"]), 10, 64)
	if err != nil {
		return params
	}
	inf, ok := c.pending[n]
	if !ok || !inf.listen {
		return params
	}
	o["requestId"] = inf.id
	out, err := json.Marshal(o)
	if err != nil {
		return params
	}
	return out
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

// writeFrame writes one frame and its newline in one call. It holds only
// the write lock: a client that stops reading blocks the writer, and
// through the in-flight cap, the reader, but never the bookkeeping.
func (c *conn) writeFrame(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if len(b) > 64<<10 {
		// A large frame is not copied to append its newline: two writes,
		// under the lock, so no other frame comes between them.
		if _, err := c.out.Write(b); err != nil {
			return fmt.Errorf("write stdout: %w", err)
		}
		_, err := c.out.Write([]byte{'\n'})
		return err
	}
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
		c.stopFast()
		c.mu.Lock()
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	return nil
}

// SessionID is empty: stdio has one session.
func (c *conn) SessionID() string { return "" }

package streamhttp

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultMaxConns caps the connections docket mcp --http holds open at
// once, and DefaultMaxConnsPerAddr those from one client address, when
// HTTPOptions leaves them 0 (D91). Both sit below the 1,024 open files a
// process gets by default: 4,083 keep-alive connections that never sent a
// request had locked the token holder out.
const (
	DefaultMaxConns        = 512
	DefaultMaxConnsPerAddr = 128
)

// connCap admits connections under the caps (D91). At a cap, a new
// connection makes room by closing the connection that has waited longest
// without a request in progress and never presented the token (any such
// one when no token is set): one from its own address when that address
// is at its cap. A connection that presented the token is never closed to
// make room, so its holder is never locked out; when nothing can be
// closed, the new connection is answered 503 and closed.
type connCap struct {
	max, perAddr int
	token        bool

	mu     sync.Mutex
	conns  map[net.Conn]*connEntry
	byAddr map[string]int
	seq    uint64

	refused, evicted atomic.Int64
}

type connEntry struct {
	addr   string
	active bool   // a request is being read or served
	authed bool   // it presented the token
	since  uint64 // when it last went idle (or was accepted), in admissions
}

func newConnCap(max, perAddr int, token bool) *connCap {
	return &connCap{max: max, perAddr: perAddr, token: token, conns: map[net.Conn]*connEntry{}, byAddr: map[string]int{}}
}

// connKey finds a request's connection in its context.
type connKey struct{}

// LimitConns puts srv and the listener ln under the handler's connection
// caps and returns the listener to serve on (D91); it chains whatever
// ConnState and ConnContext srv has.
func (f *HTTPHandler) LimitConns(srv *http.Server, ln net.Listener) net.Listener {
	state, cctx := srv.ConnState, srv.ConnContext
	srv.ConnState = func(c net.Conn, s http.ConnState) {
		f.conns.state(c, s)
		if state != nil {
			state(c, s)
		}
	}
	srv.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		if cctx != nil {
			ctx = cctx(ctx, c)
		}
		return context.WithValue(ctx, connKey{}, c)
	}
	return &capListener{Listener: ln, cap: f.conns}
}

// authed marks the connection of r as the token holder's.
func (c *connCap) authed(r *http.Request) {
	conn, _ := r.Context().Value(connKey{}).(net.Conn)
	if conn == nil {
		return
	}
	c.mu.Lock()
	if e := c.conns[conn]; e != nil {
		e.authed = true
	}
	c.mu.Unlock()
}

func addrOf(c net.Conn) string {
	host, _, err := net.SplitHostPort(c.RemoteAddr().String())
	if err != nil {
		return c.RemoteAddr().String()
	}
	return host
}

// admit takes conn in, closing another to make room if a cap is reached;
// false when nothing could be closed.
func (c *connCap) admit(conn net.Conn) bool {
	addr := addrOf(conn)
	c.mu.Lock()
	var victim net.Conn
	if len(c.conns) >= c.max || c.byAddr[addr] >= c.perAddr {
		sameAddr := c.byAddr[addr] >= c.perAddr
		var oldest *connEntry
		for k, e := range c.conns {
			if e.active || (c.token && e.authed) || (sameAddr && e.addr != addr) {
				continue
			}
			if oldest == nil || e.since < oldest.since {
				oldest, victim = e, k
			}
		}
		if victim == nil {
			c.mu.Unlock()
			c.refused.Add(1)
			return false
		}
		c.forget(victim)
	}
	c.seq++
	c.conns[conn] = &connEntry{addr: addr, since: c.seq}
	c.byAddr[addr]++
	c.mu.Unlock()
	if victim != nil {
		c.evicted.Add(1)
		victim.Close()
	}
	return true
}

// forget drops conn from the counts; c.mu is held.
func (c *connCap) forget(conn net.Conn) {
	e := c.conns[conn]
	if e == nil {
		return
	}
	delete(c.conns, conn)
	if c.byAddr[e.addr]--; c.byAddr[e.addr] <= 0 {
		delete(c.byAddr, e.addr)
	}
}

// state follows a connection through the server's states.
func (c *connCap) state(conn net.Conn, s http.ConnState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch s {
	case http.StateActive:
		if e := c.conns[conn]; e != nil {
			e.active = true
		}
	case http.StateIdle:
		if e := c.conns[conn]; e != nil {
			c.seq++
			e.active, e.since = false, c.seq
		}
	case http.StateClosed, http.StateHijacked:
		c.forget(conn)
	}
}

// open returns the connections held.
func (c *connCap) open() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.conns)
}

// capListener admits each accepted connection under its cap.
type capListener struct {
	net.Listener
	cap *connCap
}

// refusal is what a connection past the caps is told before it closes.
var refusal = func() []byte {
	body := "this server holds as many connections as it allows (--max-conns, --max-conns-per-addr): close one, or retry later\n"
	return fmt.Appendf(nil, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
}()

func (l *capListener) Accept() (net.Conn, error) {
	for {
		conn, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.cap.admit(conn) {
			return conn, nil
		}
		go func() {
			conn.SetWriteDeadline(time.Now().Add(time.Second))
			conn.Write(refusal)
			conn.Close()
		}()
	}
}

// positiveOr is n, or def when n is not positive.
func positiveOr(n, def int) int {
	if n <= 0 {
		return def
	}
	return n
}

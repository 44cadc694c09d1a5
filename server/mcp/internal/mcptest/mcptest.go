// Package mcptest holds what the tests of docket mcp's application
// (server/mcp) and of its transports (server/mcp/stdio,
// server/mcp/streamhttp) share: a store whose reads are held at a gate
// (GateStore) and an in-memory listener (PipeListener) that lets an HTTP
// server and its client run in a testing/synctest bubble.
package mcptest

import (
	"context"
	"net"
	"sync"
)

// PipeListener is a net.Listener whose connections are net.Pipe pairs:
// Dial hands one end to Accept and returns the other. Nothing touches the
// network, so an http.Server serving it and an http.Client dialling it
// block only on channels, durably, as testing/synctest needs.
type PipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

// NewPipeListener returns a listener with no connection yet.
func NewPipeListener() *PipeListener {
	return &PipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

// Accept returns the server's end of the next connection dialled, or
// net.ErrClosed once the listener is closed.
func (l *PipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Close stops Accept and Dial; the connections made stay open.
func (l *PipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

// Addr is a placeholder address: a pipe has none.
func (l *PipeListener) Addr() net.Addr { return pipeAddr{} }

// DialContext connects to the listener (an http.Transport's DialContext;
// the network and address are ignored).
func (l *PipeListener) DialContext(ctx context.Context, _, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
		client.Close()
		server.Close()
		return nil, net.ErrClosed
	case <-ctx.Done():
		client.Close()
		server.Close()
		return nil, ctx.Err()
	}
}

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }

// DialAs connects a client whose remote address, as the server sees it, is
// addr (an IP): the per-address connection caps tell clients apart by it.
// It blocks until the server accepts.
func (l *PipeListener) DialAs(addr string) net.Conn {
	client, server := net.Pipe()
	l.conns <- addrConn{Conn: server, remote: addr}
	return client
}

type addrConn struct {
	net.Conn
	remote string
}

func (c addrConn) RemoteAddr() net.Addr { return &net.TCPAddr{IP: net.ParseIP(c.remote), Port: 1} }

package mcp_test

import (
	"context"
	"github.com/claimslint/claimslint/server/mcp/internal/mcptest"
	"io"
	"log/slog"
	"os/exec"
	"strconv"
	"time"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/mcp"
	"github.com/claimslint/claimslint/server/mcp/stdio"
	"github.com/claimslint/claimslint/server/mcp/streamhttp"
	"github.com/claimslint/claimslint/server/mcp/wire"
)

// serveOptions are the application's options (mcp.Options) and the stdio
// transport's (stdio.Options) in one value, as the tests of this package
// set them: they test docket mcp, the application over its transports.
// listChanged and throughSDK are the tests' own settings, passed as
// options rather than held by a production struct.
type serveOptions struct {
	Store                       docket.Store
	Dir                         string
	Log                         *slog.Logger
	Version                     string
	ClaimsCheckTimeout          time.Duration
	CheckProcess                func(args ...string) *exec.Cmd
	Export, Register, Decisions string
	ReadOnly                    bool

	In                       io.Reader
	Out                      io.Writer
	MaxInFlight, MaxReply    int
	DrainTimeout, DrainGrace time.Duration

	// listChanged declares tools.listChanged, so that a listen stays open
	// (mcp.NewWithListChanged); throughSDK sends every tools/call through
	// the SDK's dispatch, none by the stdio fast path (D82).
	listChanged, throughSDK bool
}

// app is the application o describes, for one transport.
func (o serveOptions) app() *wire.App {
	ao := mcp.Options{Store: o.Store, Dir: o.Dir, Log: o.Log, Version: o.Version, MaxResult: o.MaxReply,
		ClaimsCheckTimeout: o.ClaimsCheckTimeout, CheckProcess: o.CheckProcess,
		Export: o.Export, Register: o.Register, Decisions: o.Decisions, ReadOnly: o.ReadOnly}
	app := mcp.New(ao)
	if o.listChanged {
		app = mcp.NewWithListChanged(ao)
	}
	if o.throughSDK {
		app.Direct = nil
	}
	return app
}

// serveStdio is stdio.Serve of o's application over o's pipes.
func serveStdio(ctx context.Context, o serveOptions) error {
	return stdio.Serve(ctx, o.app(), stdio.Options{In: o.In, Out: o.Out, Log: o.Log,
		MaxInFlight: o.MaxInFlight, MaxReply: o.MaxReply, DrainTimeout: o.DrainTimeout, DrainGrace: o.DrainGrace})
}

// httpOptions is h with o's transport settings.
func (o serveOptions) httpOptions(h streamhttp.HTTPOptions) streamhttp.HTTPOptions {
	h.Log, h.MaxInFlight, h.MaxReply, h.DrainTimeout, h.DrainGrace = o.Log, o.MaxInFlight, o.MaxReply, o.DrainTimeout, o.DrainGrace
	return h
}

// newHTTPHandler is streamhttp.NewHTTPHandler of o's application.
func newHTTPHandler(o serveOptions, h streamhttp.HTTPOptions) *streamhttp.HTTPHandler {
	return streamhttp.NewHTTPHandler(o.app(), o.httpOptions(h))
}

// serveHTTP is streamhttp.ServeHTTP of o's application.
func serveHTTP(ctx context.Context, o serveOptions, h streamhttp.HTTPOptions) error {
	return streamhttp.ServeHTTP(ctx, o.app(), o.httpOptions(h))
}

// withListChanged is o declaring tools.listChanged.
func withListChanged(o serveOptions) serveOptions {
	o.listChanged = true
	return o
}

// throughSDK is o with every tools/call served by the SDK's dispatch.
func throughSDK(o serveOptions) serveOptions {
	o.throughSDK = true
	return o
}

// slowStore holds every Get until Release is closed (mcptest.SlowStore).
type slowStore = mcptest.SlowStore

func itoa(k int) string { return strconv.Itoa(k) }

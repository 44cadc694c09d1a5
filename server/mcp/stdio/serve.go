package stdio

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"time"

	"github.com/claimslint/claimslint/server/mcp/wire"
)

// Options configure the stdio transport: where it reads and writes, and
// its limits. What is served (the tools, the repository, the store) is
// the application's (server/mcp.Options).
type Options struct {
	In  io.Reader
	Out io.Writer
	Log *slog.Logger
	// MaxInFlight and MaxReply bound the transport (0: the defaults).
	MaxInFlight int
	MaxReply    int
	// DrainTimeout and DrainGrace time the drain at the end of input (0:
	// wire.DefaultDrainTimeout, wire.DefaultDrainGrace).
	DrainTimeout, DrainGrace time.Duration
}

// Serve runs one MCP session of app over In and Out until In ends; it
// returns nil after answering every request it read.
func Serve(ctx context.Context, app *wire.App, o Options) error {
	wire.TuneMemory()
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	fast := wire.NewFastCalls(app)
	ended := make(chan struct{})
	runErr := make(chan error, 1)
	go func() {
		runErr <- app.Server.Run(ctx, &Transport{In: o.In, Out: o.Out, Log: o.Log, Ended: ended, fast: fast, readOnly: app.ReadOnly, MaxInFlight: o.MaxInFlight, MaxReply: o.MaxReply, DrainTimeout: o.DrainTimeout, DrainGrace: o.DrainGrace})
	}()
	var err error
	select {
	case err = <-runErr:
	case <-ended:
		// Every request read has its answer on stdout. The SDK also waits
		// for its handlers; one that outlived the drain was answered
		// already and must not keep the process alive.
		select {
		case err = <-runErr:
		case <-time.After(time.Second):
			o.Log.Warn("exiting with a tool handler still running")
			return nil
		}
	}
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) {
		return nil
	}
	return err
}

package sqlite

import (
	"context"
	"time"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/memindex"
)

// Options are what this package's tests open a service with: a Backend
// and docket.Options in one, as the commands wire them.
type Options struct {
	DB, Export, Prefix string
	Now                func() time.Time
	Warn               func(msg string)
	BusyRetries        int
	Workflow           docket.Workflow
	// NoFallback leaves docket.Options.Fallback unset, to show what the
	// fallback does.
	NoFallback bool
}

// Open is docket.Open over the SQLite backend with the in-memory fallback
// the CLI wires (server/cli), and the step hook of the fault tests.
func Open(ctx context.Context, o Options) (*docket.Service, error) {
	opts := docket.Options{Export: o.Export, Prefix: o.Prefix, Now: o.Now, Warn: o.Warn, Workflow: o.Workflow, Step: step}
	if !o.NoFallback {
		opts.Fallback = func() docket.Index { return memindex.New() }
	}
	return docket.Open(ctx, Backend{DB: o.DB, BusyRetries: o.BusyRetries}, opts)
}

// ErrNoTracker and IDLog, as the tests name them.
var (
	ErrNoTracker = docket.ErrNoTracker
	IDLog        = docket.IDLog
)

// stepHook, when set (by the fault-injection tests only, in a child
// process they SIGKILL), is called at each step of a write (see
// docket.Options.Step).
var stepHook func(step string)

func step(name string) {
	if stepHook != nil {
		stepHook(name)
	}
}

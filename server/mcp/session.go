package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/claimslint/claimslint/server/mcp/wire"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// clientName is the name of the client that sent req: under a modern
// version, the clientInfo in the request's own _meta (each request may come
// from a different client; the first one's is not the session's); under a
// legacy version, the clientInfo given at initialize.
func clientName(req *sdk.CallToolRequest) string {
	if req == nil {
		return ""
	}
	if req.Params != nil {
		if v, ok := req.Params.Meta[wire.MetaProtocolVersion].(string); ok && slices.Contains(wire.ModernVersions, v) {
			info, _ := req.Params.Meta[wire.MetaClientInfo].(map[string]any)
			name, _ := info["name"].(string)
			return name
		}
	}
	if req.Session != nil {
		if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil {
			return p.ClientInfo.Name
		}
	}
	return ""
}

// writeLog is what a notifications/message reports after a tool changed
// the tracker.
type writeLog struct {
	Tool  string `json:"tool"`
	Issue string `json:"issue,omitempty"`
}

// logWrites sends one notifications/message at level info after each tool
// call that changed the tracker, before its reply; the SDK sends it only
// when the client's level (logging/setLevel, or a modern request's _meta
// logLevel) is info or lower.
func logWrites(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || method != "tools/call" {
			return res, err
		}
		call, ok := req.(*sdk.CallToolRequest)
		if !ok || call.Params == nil || readOnlyTools()[call.Params.Name] {
			return res, err
		}
		r, ok := res.(*sdk.CallToolResult)
		if !ok || r.IsError {
			return res, err
		}
		entry := writeLog{Tool: call.Params.Name}
		if b, mErr := json.Marshal(r.StructuredContent); mErr == nil {
			var out struct {
				Issue struct {
					ID string `json:"id"`
				} `json:"issue"`
			}
			if json.Unmarshal(b, &out) == nil {
				entry.Issue = out.Issue.ID
			}
		}
		// The write log is MCP logging (notifications/message), which the
		// go-sdk marks deprecated as of 2026-07-28 (SEP-2577), with no
		// replacement; it works through the deprecation window, and D53
		// keeps logging advertised and real until it is removed.
		//lint:ignore SA1019 logging is deprecated, not removed; D53 keeps the write log (C7)
		if lErr := call.Session.Log(ctx, &sdk.LoggingMessageParams{Level: "info", Logger: "docket", Data: entry}); lErr != nil {
			// The write is committed and its reply follows; a lost log line
			// must not turn it into a failure.
			_ = lErr
		}
		return res, err
	}
}

// DefaultClaimsCheckTimeout bounds one claims_check call when
// Options.ClaimsCheckTimeout is 0.
const DefaultClaimsCheckTimeout = 2 * time.Minute

// checkGate bounds a server's register checks: each runs for at most
// timeout, and one at a time, in slot. A check in a child process
// (inChild) is killed when its caller abandons it and frees the slot once
// it is gone; one in process (bounded) stops at its next file or claim,
// and holds the slot until it has.
type checkGate struct {
	timeout time.Duration
	slot    chan struct{}
}

// newCheckGate is a gate whose checks run for timeout (0:
// DefaultClaimsCheckTimeout).
func newCheckGate(timeout time.Duration) *checkGate {
	return &checkGate{timeout: wire.OrDefault(timeout, DefaultClaimsCheckTimeout), slot: make(chan struct{}, 1)}
}

// bounded runs fn in g's slot, but returns as soon as ctx is cancelled
// (the client cancelled the request, or the server is shutting down) or
// g's timeout passes, with an error that says which. fn is given that
// context and stops its work when it is done (check.RunContext, D54); its
// result is then dropped.
func bounded[T any](ctx context.Context, g *checkGate, fn func(context.Context) (T, error)) (T, error) {
	var zero T
	ctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	select {
	case g.slot <- struct{}{}:
	case <-ctx.Done():
		return zero, g.stopped(ctx)
	}
	type outcome struct {
		v   T
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		defer func() { <-g.slot }()
		v, err := fn(ctx)
		done <- outcome{v, err}
	}()
	select {
	case o := <-done:
		// A check that stopped because its context ended returns that
		// context's error; it is reported as the cancellation or the
		// deadline, whichever select case was seen first.
		if o.err != nil && ctx.Err() != nil && errors.Is(o.err, ctx.Err()) {
			return zero, g.stopped(ctx)
		}
		return o.v, o.err
	case <-ctx.Done():
		return zero, g.stopped(ctx)
	}
}

// stopped is the error of a check whose context ended.
func (g *checkGate) stopped(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("did not finish within %s: check one decision at a time (the decision argument)", g.timeout)
	}
	return errors.New("cancelled")
}

// Package wire holds what docket's two MCP transports (server/mcp/stdio
// and server/mcp/streamhttp) share and what they are given: the protocol
// versions and the gate every request passes before the SDK sees it, the
// wording of the answers a transport writes itself (a request stopped or
// unfinished at shutdown, a repaired SDK error), the limits both default
// to, and App, the application as a transport sees it. It knows no tool:
// the application (server/mcp) builds an App; a transport serves one.
package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/claimslint/claimslint/server/mcp/frame"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// App is an MCP application as a transport serves it: its SDK server, and
// the two things a transport asks about a tool by name without knowing
// the tools. server/mcp.New builds one; a transport adds its own receiving
// middleware to Server, so each transport is given an App of its own.
type App struct {
	// Server is the SDK server with the application's tools, resources and
	// prompts.
	Server *sdk.Server
	// ReadOnly reports whether the named tool changes nothing: what the
	// answer to a request that did not stop at shutdown says.
	ReadOnly func(tool string) bool
	// Direct are the handlers of the tools a transport may call without the
	// SDK's dispatch, by tool name (the stdio fast path, D82): read-only
	// tools whose handler needs nothing from the session but its client's
	// initialize. Nil: every call goes through the SDK.
	Direct map[string]sdk.ToolHandler
}

// ProtocolVersions are the versions this server claims, newest first: only
// those whose wire rules the transport implements. 2025-03-26 requires
// JSON-RPC batches, which this transport refuses, so it is not claimed; a
// client asking for it is offered the newest legacy version instead.
var ProtocolVersions = []string{"2026-07-28", "2025-11-25", "2025-06-18"}

// DefaultDrainTimeout bounds how long a transport waits, once its input
// ends (stdio) or it is told to stop (HTTP), for the requests already read
// to finish, when its DrainTimeout is 0; any still running then are
// cancelled, so no request goes unanswered.
const DefaultDrainTimeout = 30 * time.Second

// DefaultDrainGrace is how long, after the drain timeout, a request still
// running is given to stop once it is cancelled, when a transport's
// DrainGrace is 0: a write that has not committed rolls back, one that has
// finishes, and either is answered with what happened.
const DefaultDrainGrace = 5 * time.Second

// DefaultMaxInFlight is how many requests a transport handles at once
// when its MaxInFlight is 0. Past it the transport keeps reading, so a
// notifications/cancelled or a ping is never stuck behind the cap, and
// queues the requests it reads (D80).
const DefaultMaxInFlight = 4

// DefaultMaxReply is the largest reply frame written when a transport's
// MaxReply is 0 (8 MiB). A larger reply is replaced by an error that says
// the request itself was done.
const DefaultMaxReply = 8 << 20

// OrDefault is d, or def when d is not positive.
func OrDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// WithResultType gives a result to a modern request the resultType that
// 2026-07-28 requires of every result. The SDK sets it on most paths, but
// whether it does on a tools/call depends on which version the session's
// state holds when the handler ends, which a concurrent request can
// change: the result is rewritten the same way whether or not it was set,
// so the bytes do not depend on that race.
func WithResultType(result json.RawMessage) json.RawMessage {
	var o map[string]json.RawMessage
	if json.Unmarshal(result, &o) != nil {
		return result
	}
	if _, ok := o["resultType"]; !ok {
		o["resultType"] = json.RawMessage(`"complete"`)
	}
	out, err := json.Marshal(o)
	if err != nil {
		return result
	}
	return out
}

// StoppedMessage says that a request the drain cancelled did not change
// anything; why, if set, says why the server is shutting down (" (end of
// input)").
func StoppedMessage(why string) string {
	return "internal error: the server is shutting down" + why + "; the request was cancelled before it finished and nothing was changed (a write was rolled back): retry it against a running server"
}

// UnfinishedMessage is the transport's own answer to a request whose
// handler did not stop within the drain grace of being cancelled: a
// read-only request changed nothing; a write's outcome is not known.
func UnfinishedMessage(why string, readOnly bool) string {
	msg := "internal error: the server is shutting down" + why + " and the request did not finish in time"
	if readOnly {
		return msg + "; it only reads, so nothing was changed"
	}
	return msg + "; it did not stop when cancelled, so whether it changed the tracker is not known: read before retrying"
}

// RolledBack reports whether the result of a request the drain cancelled
// says it stopped before committing: a tool error that does not say a
// write committed (a store error that does is passed on as is).
func RolledBack(result json.RawMessage) bool {
	return isToolError(result) && !bytes.Contains(result, []byte("committed"))
}

// isToolError reports whether a tools/call result is one with isError set.
func isToolError(result json.RawMessage) bool {
	var r struct {
		IsError bool `json:"isError"`
	}
	return json.Unmarshal(result, &r) == nil && r.IsError
}

// RepairError gives every error a real JSON-RPC code. The SDK answers a
// request before initialize with code 0; that request is invalid at this
// point of the session, so -32600. Any other code 0 is an internal error.
func RepairError(code int, msg, method string) (int, string) {
	switch {
	case code == 0 && strings.Contains(msg, "invalid during session initialization"):
		return frame.CodeInvalidRequest, "invalid request: " + msg + "; send initialize first"
	case code == 0 && strings.Contains(msg, "duplicate \"initialize\""):
		return frame.CodeInvalidRequest, "invalid request: the session is already initialized"
	case code == 0:
		return frame.CodeInternalError, "internal error: " + msg
	case code == frame.CodeMethodNotFound && (!strings.Contains(msg, strconv.Quote(method)) || strings.HasPrefix(msg, "JSON RPC not handled")):
		return code, fmt.Sprintf("method not found: %q", method)
	}
	return code, msg
}

// SoftMemoryLimit is the heap size past which the Go runtime collects
// garbage eagerly in docket mcp, unless GOMEMLIMIT says otherwise. With the
// in-flight cap it keeps RSS under 200 MiB while large replies pile up
// (D54); it is a soft limit: live data over it is not refused.
const SoftMemoryLimit = 128 << 20

// TuneMemory sets the soft memory limit of D54 unless GOMEMLIMIT is set.
// The collector's target is the runtime's (GOGC, 100 by default): D82's
// GOGC 400 was withdrawn once a read-only call allocated 15 KB instead of
// 80 KB, since it cost RSS (a 16 MiB minimum heap) and no longer bought
// CPU.
func TuneMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(SoftMemoryLimit)
	}
}

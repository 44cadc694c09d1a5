// Package mcp is docket's MCP server: the tracker and the register as
// tools, over JSON-RPC 2.0 on stdio (newline-delimited) or Streamable HTTP
// (Serve, ServeHTTP). Each tool is one value in one registry (tools.all):
// its definition, its annotations and its handler; whatever asks whether
// a tool only reads (the write log, the drain at shutdown) asks that
// value. The issue tools call docket's Service; the register tools
// (decision_list, decision_show, claims_check) run claimslint's check one
// at a time, in a child process killed when its request is cancelled or
// times out (Options.CheckProcess, D71), or else in process.
//
// The MCP semantics (tools, schemas, version negotiation) come from the
// go-sdk, the only package that imports it; the stdio transport and the
// HTTP front are our own, because a server must answer every frame it
// owes an answer exactly once, and the SDK's stock transport ends the
// session on a malformed frame and loses the requests in flight. Every
// frame is screened (server/mcp/frame) before the SDK sees it; a frame the
// screen answers is never delivered. A request is delivered under an
// internal integer id, and its reply is written with the id bytes exactly
// as the client sent them, so ids of any size or spelling come back
// intact. At most four requests are handled at once, on both transports;
// over HTTP bodies have a deadline, sessions a cap and an idle expiry, and
// the drain at shutdown answers every request it cancels (D71).
package mcp

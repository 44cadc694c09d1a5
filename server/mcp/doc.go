// Package mcp is docket's MCP application: the tracker and the register
// as tools, resources and prompts. Each tool is one value in one registry
// (tools.all): its definition, its annotations, its handler and, for a
// register tool, the work it runs in the check slot; whatever asks whether
// a tool only reads (the write log, the drain at shutdown) or which work a
// check child runs asks that value. The issue tools call docket's Service;
// the register tools (decision_list, decision_show, claims_check,
// decision_accept, decision_status) run claimslint one at a time, in a
// child process killed when its request is cancelled or times out
// (Options.CheckProcess, RunCheckChild, D71), or else in process.
//
// New builds the application as a transport serves it (wire.App); it
// knows no transport. The transports are packages of their own (D102):
// server/mcp/stdio (newline-delimited stdio) and server/mcp/streamhttp
// (Streamable HTTP), which share server/mcp/wire and know no tool;
// docket's command line (server/cli) joins one to the application.
//
// The MCP semantics (tools, schemas, version negotiation) come from the
// go-sdk, imported by this package and those beneath it alone (D12). The
// transports are our own, because a server must answer every frame it
// owes an answer exactly once, and the SDK's stock transport ends the
// session on a malformed frame and loses the requests in flight.
package mcp

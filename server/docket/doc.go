// Package docket is docket's domain: the issue record and its rules
// (validation, id allocation, status transitions, dependency cycles), its
// canonical JSONL encoding, three-way merge of exports, imports from beads
// and GitHub (over internal/trackerformat), and the Service that keeps a working
// index in line with the export (the export is the truth, the index a
// cache). It speaks the shared vocabulary of internal/ (workflow, issueid,
// recordtext, decisionid, trackerformat; D100).
//
// An index is an adapter behind the narrow Index interface: server/sqlite
// on SQLite, server/memindex in memory, both held to server/storetest.
// Open wires any Backend with what every command needs around an index
// (the lock file, the id log, the rebuild of a damaged index, the
// in-memory fallback), so a new backend is one package and one line of
// wiring. The CLI (server/cli) and the MCP tools (server/mcp) call the
// Service, so both share one validation. Nothing here knows SQL, a
// command line or a protocol.
package docket

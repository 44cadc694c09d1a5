#!/usr/bin/env bash
# test.sh: the `test` job of .github/workflows/ci.yml, and the first half of
# .ci/run. The TypeScript MCP client test needs `npm ci` in
# server/mcp/testdata/tsclient first (the job and .ci/run do it).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== go vet"
go vet ./...

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt needed on:"; echo "$unformatted"; exit 1
fi

# The tests that build the binaries in a scratch clone run here, not in
# the default go test ./... of a developer.
export CLAIMSLINT_BUILD_TESTS=1

echo "== go test -race -timeout 30m ./..."
# The race detector sleeps 1 s as each race-built process exits, to let
# racing goroutines report: once per test binary, and once per command a
# test runs as a copy of its binary (testscript's exec of claimslint and
# docket, the sqlite writer processes, docket mcp). go test passes GORACE
# to the test binaries, they to their children (os.Environ), and
# testscript passes it on to a script's commands.
# server/sqlite is named first: go test starts packages in the order they
# are named, GOMAXPROCS at a time, and that package's tests are more than
# half of the run's CPU time (the race detector slows the SQLite engine
# most), so it starts at once and the others run beside it rather than it
# running on alone at the end. ./... names it again; go test runs it once.
GORACE="${GORACE:+$GORACE }atexit_sleep_ms=0" go test -race -count=1 -timeout 30m ./server/sqlite ./...

echo "== go test -race ./... (bench module: clients that only it may import, mcp-go)"
(cd bench && GORACE="${GORACE:+$GORACE }atexit_sleep_ms=0" go test -race -count=1 -timeout 10m ./...)

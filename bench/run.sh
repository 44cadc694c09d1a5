#!/usr/bin/env bash
# run.sh: build everything and run the side-by-side benchmarks (issue 6),
# writing docs/benchmarks.md. Flags go to the bench program:
#   --quick            small sizes, short runs (under a minute); report to stdout
#   --out FILE         write the report elsewhere
#   --only claims|real|scale|mcp|http|rss|store|hostile   (mcp: stdio, http and rss)
# ripgrep (rg) is optional: without it the rg column says "not installed".
set -euo pipefail
cd "$(dirname "$0")"
go build -o "${TMPDIR:-/tmp}/claimslint-bench" .
exec "${TMPDIR:-/tmp}/claimslint-bench" -root .. "$@"

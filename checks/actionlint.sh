#!/usr/bin/env bash
# actionlint.sh: lint every workflow of this repository and action.yml with
# actionlint (github.com/rhysd/actionlint), fetched through the Go module
# proxy at a pinned version; shellcheck and pyflakes integrations are off so
# the check needs nothing but Go.
set -euo pipefail
cd "$(dirname "$0")/.."
al="go run github.com/rhysd/actionlint/cmd/actionlint@v1.7.12 -shellcheck= -pyflakes="
$al .github/workflows/*.yml
# The workflow claimslint init writes (D86), for a fresh repository.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git init -q "$tmp"
go run ./cmd/claimslint init --dir "$tmp" --ref 0123456789abcdef0123456789abcdef01234567 > /dev/null 2>&1
$al "$tmp/.github/workflows/doc-lint.yml"
# action.yml is checked through the ci.yml job that uses it (uses: ./):
# actionlint validates the inputs given against the action's metadata. The
# keys below are the ones a composite action needs.
for key in name description inputs runs; do
	grep -q "^$key:" action.yml || { echo "action.yml: missing top-level $key:" >&2; exit 1; }
done
grep -q "using: composite" action.yml || { echo "action.yml: runs.using must be composite" >&2; exit 1; }

#!/usr/bin/env bash
# doc-lint.sh: the `doc-lint` job of .github/workflows/ci.yml, and the
# second half of .ci/run: the register, its claims and the tracker must
# agree with the code. FORMAT=github annotates a pull request.
set -euo pipefail
cd "$(dirname "$0")/.."
format="${FORMAT:-text}"

echo "== claimslint check (the register and every claim)"
go run ./cmd/claimslint check --format "$format"

echo "== claimslint prove (every claim of an accepted decision can fail)"
go run ./cmd/claimslint prove --format "$format"

echo "== claimslint audit (register and tracker agree)"
go run ./cmd/claimslint audit

echo "== docket export --check (the tracker export is what the index would write)"
go run ./cmd/docket export --check

#!/usr/bin/env bash
# fuzz-smoke.sh: run every fuzz target in the module for FUZZTIME each
# (default 60s), one after another; every target runs, and the script fails
# at the end naming each target that failed.
# Targets are listed by `go test -list` in each package whose tests define
# a Fuzz function, so a new target is fuzzed without editing this script.
# A failing input is kept where go test writes it (testdata/fuzz/<target>/
# in the package) and named in the output.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${FUZZTIME:-60s}"

total=0
failed=()
while read -r pkg dir; do
	grep -qs '^func Fuzz' "$dir"/*_test.go || continue
	targets=$(go test -list '^Fuzz' "$pkg" </dev/null | grep '^Fuzz' || true)
	for t in $targets; do
		total=$((total + 1))
		echo "== fuzz $pkg $t ($fuzztime)"
		if ! go test -run '^$' -fuzz "^${t}\$" -fuzztime "$fuzztime" "$pkg" </dev/null; then
			echo "fuzz-smoke: $t in $pkg failed; the input is under testdata/fuzz/$t in that package" >&2
			failed+=("$pkg $t")
		fi
	done
done < <(go list -f '{{.ImportPath}} {{.Dir}}' ./...)
if [ "$total" -eq 0 ]; then
	echo "fuzz-smoke: no fuzz targets found" >&2
	exit 1
fi
if [ "${#failed[@]}" -gt 0 ]; then
	printf 'fuzz-smoke: %d of %d targets failed:\n' "${#failed[@]}" "$total" >&2
	printf '  %s\n' "${failed[@]}" >&2
	exit 1
fi
echo "fuzz-smoke: $total targets passed $fuzztime each"

#!/usr/bin/env bash
# speed-guard.sh: the speed guard of .ci/run (D92). It runs the fast form
# of bench/run.sh --compare against the merge base with origin/main, else
# the previous release tag, else HEAD~1, and fails when a headline
# workload's median is more than 15% worse with spreads that do not
# overlap, naming the workload. SPEED_GUARD_BASE overrides the base.
set -euo pipefail
cd "$(dirname "$0")/.."

head=$(git rev-parse HEAD)
base="${SPEED_GUARD_BASE:-}"
if [ -z "$base" ] && git rev-parse -q --verify origin/main >/dev/null; then
	base=$(git merge-base HEAD origin/main || true)
	[ "$base" = "$head" ] && base="" # on main itself: compare with what came before
fi
if [ -z "$base" ]; then
	base=$(git describe --tags --abbrev=0 HEAD^ 2>/dev/null || true)
fi
if [ -z "$base" ]; then
	base=$(git rev-parse -q --verify HEAD~1 || true)
fi
if [ -z "$base" ]; then
	echo "speed guard: skipped: no merge base with origin/main, no earlier tag and no HEAD~1 (a shallow clone? fetch with depth 0)"
	exit 0
fi
exec bench/run.sh --compare "$base" --quick

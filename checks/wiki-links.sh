#!/usr/bin/env bash
# wiki-links.sh: every relative Markdown link in .knowledge/wiki/ resolves
# to a file in the repository, so run reports keep pointing at what they
# describe. External (scheme:) links and in-page anchors are not checked.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
while IFS= read -r -d '' f; do
	dir=$(dirname "$f")
	# [text](target) and [text](target#anchor); one link per match.
	while IFS= read -r target; do
		target=${target%%#*}
		case "$target" in ''|*:*) continue ;; esac
		if [ ! -e "$dir/$target" ]; then
			echo "$f: link to $target does not resolve" >&2
			status=1
		fi
	done < <(grep -o '\](\([^)]*\))' "$f" | sed 's/^](//; s/)$//')
done < <(find .knowledge/wiki -name '*.md' -print0)
if [ "$status" -ne 0 ]; then
	echo "wiki-links: fix the links above (paths are relative to the report)" >&2
fi
exit "$status"

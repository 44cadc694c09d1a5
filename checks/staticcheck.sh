#!/usr/bin/env bash
# staticcheck.sh: staticcheck (honnef.co/go/tools) on this module and on
# bench/, and deadcode (golang.org/x/tools/cmd/deadcode) for functions no
# program reaches. Both are fetched through the Go module proxy at pinned
# versions (deadcode at the golang.org/x/tools of go.mod), so the check
# needs nothing but Go.
#
# deadcode's roots are the commands (cmd/...) and every package's test
# binary (-test ./...): a helper only tests call is used. bench/ is a module
# of its own whose programs call into this one; a function only bench
# reaches is used too: it is reported only when deadcode over bench's
# programs finds it dead as well, or bench does not load its package.
set -euo pipefail
cd "$(dirname "$0")/.."

staticcheck="go run honnef.co/go/tools/cmd/staticcheck@v0.8.2"
deadcode="go run golang.org/x/tools/cmd/deadcode@v0.52.0"

echo "== staticcheck ./..."
$staticcheck ./...
echo "== staticcheck ./... (bench)"
(cd bench && $staticcheck ./...)

echo "== deadcode -test ./..."
module=$(go list -m)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One line per dead function: its key (package path and name, the same in
# both modules' runs), a tab, its position.
fmt='{{range .Funcs}}{{printf "%s.%s\t%s:%d:%d\n" $.Path .Name .Position.File .Position.Line .Position.Col}}{{end}}'
$deadcode -test -f "$fmt" ./... >"$tmp/dead"
(cd bench && $deadcode -test -filter "^$(printf '%s' "$module" | sed 's/[.]/[.]/g')(/|\$)" -f "$fmt" ./...) >"$tmp/bench-dead"
(cd bench && go list -deps -test -f '{{if not .ForTest}}{{.ImportPath}}{{end}}' ./...) | sort -u >"$tmp/bench-pkgs"
awk -F'\t' -v pkgs="$tmp/bench-pkgs" -v bdead="$tmp/bench-dead" '
BEGIN {
	while ((getline p < pkgs) > 0) loaded[p] = 1
	while ((getline l < bdead) > 0) { split(l, f, "\t"); deadInBench[f[1]] = 1 }
}
{
	# path/to/pkg.Func or path/to/pkg.Type.Method: the package ends at
	# the first dot after the last slash.
	slash = match($1, /.*\//) ? RLENGTH : 0
	pkg = substr($1, 1, slash + index(substr($1, slash + 1), ".") - 1)
	if ((pkg in loaded) && !($1 in deadInBench)) next  # bench calls it
	printf "%s: unreachable func: %s\n", $2, substr($1, length(pkg) + 2)
	bad = 1
}
END { exit bad }' "$tmp/dead" || {
	echo "deadcode: delete the functions above, or call them (a test counts)" >&2
	exit 1
}

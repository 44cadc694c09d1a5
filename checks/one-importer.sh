#!/bin/sh
# one-importer.sh: every third-party module is imported by exactly one
# non-test package of this module, or by one package and packages beneath
# it (decision D12: the MCP go-sdk is server/mcp's and its transports',
# D102), so each dependency stays behind one package tree and can be
# replaced there.
set -eu
cd "$(dirname "$0")/.."
module=$(go list -m)
go list -f '{{.ImportPath}} {{join .Imports " "}}' ./... | awk -v mod="$module" '
{
	for (i = 2; i <= NF; i++) {
		imp = $i
		split(imp, seg, "/")
		if (index(seg[1], ".") == 0 || index(imp, mod) == 1) continue
		n = (seg[1] == "github.com" || seg[1] == "golang.org") ? 3 : 2
		key = seg[1]; for (k = 2; k <= n; k++) key = key "/" seg[k]
		if (!((key, $1) in seen)) { seen[key, $1] = 1; users[key] = users[key] " " $1; count[key]++; user[key, count[key]] = $1 }
	}
}
END {
	bad = 0
	for (k in count) {
		if (count[k] == 1) continue
		# One tree: some importer p that every other importer lies beneath.
		tree = 0
		for (i = 1; i <= count[k] && !tree; i++) {
			p = user[k, i]; under = 1
			for (j = 1; j <= count[k]; j++) {
				u = user[k, j]
				if (u != p && index(u, p "/") != 1) { under = 0; break }
			}
			tree = under
		}
		if (!tree) { printf "%s is imported by %d packages, not one package tree:%s\n", k, count[k], users[k]; bad = 1 }
	}
	exit bad
}' || { echo "one-importer: keep each dependency behind one package (docs/decisions/D12-dependencies.md)" >&2; exit 1; }

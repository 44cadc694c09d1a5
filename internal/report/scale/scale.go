// Package scale writes the report's budget case (D83): a repository of
// 500 decisions and 5,000 claims, which internal/report's tests and the
// bench module's site part build the site of.
package scale

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The budget case: Decisions decisions of Claims claims each, anchored on
// Files files, every tenth decision superseding the one before it.
const (
	Decisions = 500
	Claims    = 10 // per decision
	Files     = 50
)

// Write writes the budget case into dir.
func Write(dir string) error {
	var reg strings.Builder
	fmt.Fprintf(&reg, "# Decisions\n\nLive range: D1..D%d.\n\n| ID | Decision | Status |\n|---|---|---|\n", Decisions)
	var err error
	write := func(rel, s string) {
		if err != nil {
			return
		}
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err = os.MkdirAll(filepath.Dir(p), 0o755); err == nil {
			err = os.WriteFile(p, []byte(s), 0o644)
		}
	}
	lines := Decisions * Claims / Files
	for f := range Files {
		var b strings.Builder
		fmt.Fprintf(&b, "package scale\n\n")
		for l := range lines {
			fmt.Fprintf(&b, "const c%02d%03d = %d\n", f, l, f*lines+l)
		}
		write(fmt.Sprintf("src/f%02d.go", f), b.String())
	}
	for n := 1; n <= Decisions; n++ {
		status, fm := "accepted", ""
		if n%10 == 0 {
			fm = fmt.Sprintf("supersedes: [D%d]\n", n-1)
		}
		if n%10 == 9 {
			status, fm = "superseded", fmt.Sprintf("superseded-by: [D%d]\n", n+1)
		}
		slug := fmt.Sprintf("limit-%d-holds", n)
		fmt.Fprintf(&reg, "| D%d | [Limit %d holds](decisions/D%d-%s.md) | %s |\n", n, n, n, slug, status)
		var b strings.Builder
		fmt.Fprintf(&b, "---\nid: D%d\nstatus: %s\ndate: 2026-%02d-%02d\n%s---\n# D%d: Limit %d holds\n\n## Context and Problem Statement\n\n", n, status, 1+n%12, 1+n%28, fm, n, n)
		for range 6 {
			fmt.Fprintf(&b, "Decision %d fixes the limits of subsystem %d so that every reader and writer agrees on them; a change to one is a change of this record. ", n, n%37)
		}
		b.WriteString("\n\n## Decision Outcome\n\n- the limits are constants\n- each is pinned by a claim\n\n## Confirmation\n\n| Claim | Kind | Path | Anchor | Require | Why |\n|---|---|---|---|---|---|\n")
		for c := range Claims {
			k := (n-1)*Claims + c
			f, l := k/lines, k%lines
			fmt.Fprintf(&b, "| C%d | anchored | `src/f%02d.go` | `^const c%02d%03d =` | `= %d$` | limit %d of decision %d stays %d |\n", c+1, f, f, l, k, c+1, n, k)
		}
		write(fmt.Sprintf("docs/decisions/D%d-%s.md", n, slug), b.String())
	}
	write("docs/PRD.md", reg.String())
	return err
}

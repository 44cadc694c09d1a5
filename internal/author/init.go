package author

import (
	"errors"
	"slices"

	"fmt"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/server"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// InitOptions are the inputs of Init.
type InitOptions struct {
	Dir    string
	Prefix string // tracker id prefix, default dk
	Date   time.Time
	// Adopt registers existing MADR / adr-tools records (NNNN-title.md in
	// docs/adr, doc/adr, docs/architecture/decisions or docs/decisions) as
	// D<NNNN>, in place; the first claimslint decision takes the next id.
	Adopt bool
}

// AdoptDirs are where init --adopt looks for existing records, in order.
var AdoptDirs = []string{"docs/adr", "doc/adr", "docs/architecture/decisions", "docs/decisions"}

// adopted is one existing record init --adopt registers.
type adopted struct {
	n             int
	id, path      string
	title, status string
}

func findAdopted(dir string) (string, []adopted, error) {
	for _, ad := range AdoptDirs {
		entries, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(ad)))
		if err != nil {
			continue
		}
		var out []adopted
		for _, e := range entries {
			id := register.AdoptedID(e.Name())
			if e.IsDir() || id == "" {
				continue
			}
			rel := ad + "/" + e.Name()
			src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
			if err != nil {
				return "", nil, err
			}
			d := register.ParseAdopted(rel, src)
			n, _ := idNumber(id)
			status := d.Status
			if status == "" {
				status = "proposed"
			}
			out = append(out, adopted{n: n, id: id, path: rel, title: strings.ReplaceAll(d.Title, "|", "-"), status: status})
		}
		if len(out) > 0 {
			slices.SortFunc(out, func(a, b adopted) int { return a.n - b.n })
			for k := 1; k < len(out); k++ {
				if out[k].n == out[k-1].n {
					return "", nil, fmt.Errorf("%s and %s both map to %s: renumber one of them first", out[k-1].path, out[k].path, out[k].id)
				}
			}
			return ad, out, nil
		}
	}
	return "", nil, fmt.Errorf("--adopt: no NNNN-title.md records in %s", strings.Join(AdoptDirs, ", "))
}

// Init plans the files that make a repository decision-tracked: the
// configuration, a register with one row, a first decision whose claims
// hold in the new repository, and a workflow that runs the gate. It
// refuses, changing nothing, when any of them exists.
func Init(o InitOptions) (*Plan, error) {
	if o.Prefix == "" {
		o.Prefix = "dk"
	}
	if err := server.ValidPrefix(o.Prefix); err != nil {
		return nil, fmt.Errorf("--prefix: %w", err)
	}
	if o.Date.IsZero() {
		o.Date = time.Now()
	}
	date := o.Date.UTC().Format("2006-01-02")
	var adoptDir string
	var recs []adopted
	if o.Adopt {
		var err error
		if adoptDir, recs, err = findAdopted(o.Dir); err != nil {
			return nil, err
		}
	}
	n := 1
	if len(recs) > 0 {
		n = recs[len(recs)-1].n + 1
	}
	id := fmt.Sprintf("D%d", n)
	adoptKey := ""
	var rows strings.Builder
	for _, r := range recs {
		link, _ := filepath.Rel("docs", r.path)
		fmt.Fprintf(&rows, "| %s | [%s](%s) | %s |\n", r.id, r.title, filepath.ToSlash(link), r.status)
	}
	if adoptDir != "" {
		adoptKey = "# Existing records, read in place: NNNN-title.md is decision D<NNNN>.\nadopt: " + adoptDir + "\n"
	}
	files := []Change{
		{Path: ".claimslint.yml", New: []byte(fmt.Sprintf(`# claimslint settings; every key is optional (defaults shown).
register: docs/PRD.md
decisions: docs/decisions
tracker:
  export: .knowledge/tracker/issues.jsonl
  format: docket
  prefixes: [%s]
range_sites: [docs/PRD.md]
scripts: 'checks/**'
workflows: '.github/workflows/*.{yml,yaml}'
%s`, o.Prefix, adoptKey))},
		{Path: "docs/PRD.md", New: []byte(`# Decision register

One row per decision, one file per decision in [decisions/](decisions/).
Each file's Confirmation table lists claims that ` + "`claimslint check`" + `
proves against the code on every push.

Live range: D1..` + id + `.

| ID | Decision | Status |
|---|---|---|
` + rows.String() + `| ` + id + ` | [Record decisions with claimslint](decisions/` + id + `-record-decisions-with-claimslint.md) | accepted |
`)},
		{Path: "docs/decisions/" + id + "-record-decisions-with-claimslint.md", New: []byte(`---
id: ` + id + `
status: accepted
date: ` + date + `
---
# ` + id + `: Record decisions with claimslint

## Context and Problem Statement

Design decisions written in prose drift from the code, and nothing notices.

## Decision Outcome

Every behaviour-level decision is a row in docs/PRD.md and a file in
docs/decisions/, written before or with its code. Its Confirmation table
lists claims on the production lines that implement it, and the doc-lint
workflow runs ` + "`claimslint check`" + ` on every push and pull request. Add the
next decision with ` + "`claimslint new \"Title\"`" + `.

## Confirmation

| Claim | Kind | Path | Anchor | Require | Why |
|---|---|---|---|---|---|
| C1 | anchored | ` + "`.github/workflows/doc-lint.yml`" + ` | ` + "`run: .*claimslint.* check`" + ` | | the gate runs in CI |
| C2 | anchored | ` + "`.claimslint.yml`" + ` | ` + "`^register: `" + ` | ` + "`docs/PRD.md`" + ` | this register is the one checked |
`)},
		{Path: ".github/workflows/doc-lint.yml", New: []byte(`# The decision register gate: make it a required check on your main branch.
name: doc-lint
on:
  push:
  pull_request:
permissions:
  contents: read
jobs:
  doc-lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-go@v5
        with:
          go-version: stable
      - name: claimslint check
        run: go run github.com/claimslint/claimslint/cmd/claimslint@latest check --format github
`)},
	}
	var exist []string
	for _, f := range files {
		_, err := os.Lstat(filepath.Join(o.Dir, filepath.FromSlash(f.Path)))
		switch {
		case err == nil:
			exist = append(exist, f.Path)
		case !errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("%s: %w", f.Path, err)
		}
	}
	if len(exist) > 0 {
		return nil, fmt.Errorf("%s already exist(s); init never overwrites: move them aside, or add decisions with claimslint new", strings.Join(exist, ", "))
	}
	p := &Plan{ID: id, File: files[2].Path, Changes: files}
	for _, r := range recs {
		p.Adopted = append(p.Adopted, r.path+" is "+r.id)
	}
	return p, nil
}

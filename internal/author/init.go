package author

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// InitOptions are the inputs of Init.
type InitOptions struct {
	Dir    string
	Prefix string // tracker id prefix, default dk
	Date   time.Time
}

var prefixRE = regexp.MustCompile(`^[a-z][a-z0-9]{0,15}$`)

// Init plans the files that make a repository decision-tracked: the
// configuration, a register with one row, a first decision whose claims
// hold in the new repository, and a workflow that runs the gate. It
// refuses, changing nothing, when any of them exists.
func Init(o InitOptions) (*Plan, error) {
	if o.Prefix == "" {
		o.Prefix = "dk"
	}
	if !prefixRE.MatchString(o.Prefix) {
		return nil, fmt.Errorf("--prefix %q: a lower-case letter and up to 15 lower-case letters or digits", o.Prefix)
	}
	if o.Date.IsZero() {
		o.Date = time.Now()
	}
	date := o.Date.UTC().Format("2006-01-02")
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
`, o.Prefix))},
		{Path: "docs/PRD.md", New: []byte(`# Decision register

One row per decision, one file per decision in [decisions/](decisions/).
Each file's Confirmation table lists claims that ` + "`claimslint check`" + `
proves against the code on every push.

Live range: D1..D1.

| ID | Decision | Status |
|---|---|---|
| D1 | [Record decisions with claimslint](decisions/D1-record-decisions-with-claimslint.md) | accepted |
`)},
		{Path: "docs/decisions/D1-record-decisions-with-claimslint.md", New: []byte(`---
id: D1
status: accepted
date: ` + date + `
---
# D1: Record decisions with claimslint

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
	return &Plan{ID: "D1", File: files[2].Path, Changes: files}, nil
}

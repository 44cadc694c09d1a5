package author

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/claimslint/claimslint/internal/adopt"
	"github.com/claimslint/claimslint/internal/ciworkflow"
	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/issueid"
	"github.com/claimslint/claimslint/internal/plan"
	"github.com/claimslint/claimslint/internal/trackerformat"
)

// InitOptions are the inputs of Init.
type InitOptions struct {
	Dir    string
	Prefix string // tracker id prefix, default dk
	Date   time.Time
	// Adopt registers an existing collection of decision records in place
	// (D41). AdoptDir names its directory; empty means adopt: from
	// .claimslint.yml, then adr-tools' .adr-dir, then adopt.AdoptDirs.
	Adopt    bool
	AdoptDir string
	// Source and Ref say where the generated workflow builds claimslint
	// from: a GitHub repository and a pinned commit or tag (D43).
	Source, Ref string
}

// Init plans the files that make a repository decision-tracked: the
// configuration, a register with one row, a first decision whose claims
// hold in the new repository, and a workflow that runs the gate. It
// refuses, changing nothing, when any of them exists, except for init
// --adopt in a repository already set up: that registers the records that
// have no row yet, and changes nothing else.
func Init(o InitOptions) (*plan.Plan, error) {
	if err := initDefaults(&o); err != nil {
		return nil, err
	}
	cfg, err := config.Load(o.Dir)
	if err != nil {
		return nil, err
	}
	wo := ciworkflow.WorkflowOptions{Source: o.Source, Ref: o.Ref}
	if cfg.Tracker.Format == trackerformat.Docket && ciworkflow.Nameable(cfg.Tracker.Export) {
		wo.Export = cfg.Tracker.Export // else no docket step: its path cannot be named in the expression
	}
	workflow, err := ciworkflow.Workflow(wo)
	if err != nil {
		return nil, err
	}
	adoptDir := o.AdoptDir
	if o.Adopt && adoptDir == "" {
		adoptDir = adopt.Dir(o.Dir, cfg)
	}
	_, cfgErr := os.Lstat(filepath.Join(o.Dir, config.FileName))
	_, regErr := os.Lstat(filepath.Join(o.Dir, filepath.FromSlash(cfg.Register)))
	if o.Adopt && adoptDir == "" {
		// Nothing names a collection of records: a register of rows
		// without decision files is adopted as it is kept (D35, D65).
		if p, err := adopt.Inline(adopt.InitOptions{Dir: o.Dir, Source: o.Source, Ref: o.Ref}, cfg, cfgErr == nil); p != nil || err != nil {
			return p, err
		}
	}
	if o.Adopt && cfgErr == nil && regErr == nil {
		return adopt.Again(adopt.InitOptions{Dir: o.Dir, Source: o.Source, Ref: o.Ref}, cfg, adoptDir)
	}
	var col *adopt.Collection
	if o.Adopt {
		if col, err = adopt.Find(o.Dir, adoptDir, cfg); err != nil {
			return nil, err
		}
	}
	first := adopt.FirstDecision(col, o.Date)
	files := initFiles(o, first, workflow)
	if err := refuseExisting(o, cfg, files); err != nil {
		return nil, err
	}
	if col != nil {
		// The first record in the collection's own dialect (D96): its
		// template or the shape of its newest records, with the claims
		// that hold from the first run.
		text, err := col.NewRecord(adopt.NewOptions{Dir: o.Dir, Status: "accepted", Date: o.Date}, first.File, "Record decisions with claimslint", nil, cfg.Statuses)
		if err != nil {
			return nil, err
		}
		body := string(files[2].New)
		if k := strings.Index(body, "## Confirmation\n"); k >= 0 {
			body = body[k:]
		}
		files[2].New = append(append(text, '\n'), body...)
	}
	p := &plan.Plan{ID: first.ID, File: files[2].Path, Changes: files, Notes: first.Notes}
	if col != nil {
		p.Adopted = col.Records()
		p.Summary = col.Summary()
	}
	return p, nil
}

// initDefaults fills in o's defaults and checks its prefix.
func initDefaults(o *InitOptions) error {
	if o.Prefix == "" {
		o.Prefix = "dk"
	}
	if err := issueid.ValidPrefix(o.Prefix); err != nil {
		return fmt.Errorf("--prefix: %w", err)
	}
	if o.Date.IsZero() {
		o.Date = time.Now()
	}
	if o.Source == "" {
		o.Source = ciworkflow.DefaultSource
	}
	if o.Ref == "" {
		o.Ref = "main"
	}
	return nil
}

// initFiles are the files init writes: the configuration, the register,
// the first decision and the workflow.
func initFiles(o InitOptions, first adopt.First, workflow string) []plan.Change {
	date := o.Date.UTC().Format("2006-01-02")
	firstFile, id, top, dirLink, regLink, adoptKey := first.File, first.ID, first.Top, first.DirLink, first.RegLink, first.AdoptKey
	return []plan.Change{
		{Path: config.FileName, New: []byte(fmt.Sprintf(`# claimslint settings; every key is optional (defaults shown).
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

One row per decision, one file per decision in [` + dirLink + `](` + dirLink + `).
Each file's Confirmation table lists claims that ` + "`claimslint check`" + `
proves against the code on every push.

Live range: D1..` + top + `.

| ID | Decision | Status |
|---|---|---|
` + first.Rows + `| ` + id + ` | [Record decisions with claimslint](` + regLink + `) | accepted |
`)},
		{Path: firstFile, New: []byte(`---
id: ` + id + `
status: accepted
date: ` + date + `
---
# ` + id + `: Record decisions with claimslint

## Context and Problem Statement

Design decisions written in prose drift from the code, and nothing notices.

## Decision Outcome

Every behaviour-level decision is a row in docs/PRD.md and a file in
` + path.Dir(firstFile) + `/, written before or with its code. Its Confirmation table
lists claims on the production lines that implement it, and the doc-lint
workflow runs ` + "`claimslint check`" + ` on every push and pull request. Add the
next decision with ` + "`claimslint new \"Title\"`" + `.

## Confirmation

| Claim | Kind | Path | Anchor | Require | Why |
|---|---|---|---|---|---|
| C1 | anchored | ` + "`.github/workflows/doc-lint.yml`" + ` | ` + "`run: .*claimslint.* check`" + ` | | the gate runs in CI |
| C2 | anchored | ` + "`.claimslint.yml`" + ` | ` + "`^register: `" + ` | ` + "`docs/PRD.md`" + ` | this register is the one checked |
`)},
		{Path: ".github/workflows/doc-lint.yml", New: []byte(workflow)},
	}
}

// refuseExisting fails when any file init would write exists: init
// never overwrites.
func refuseExisting(o InitOptions, cfg config.Config, files []plan.Change) error {
	var exist []string
	for _, f := range files {
		_, err := os.Lstat(filepath.Join(o.Dir, filepath.FromSlash(f.Path)))
		switch {
		case err == nil:
			exist = append(exist, f.Path)
		case !errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("%s: %w", f.Path, err)
		}
	}
	if len(exist) == 0 {
		return nil
	}
	hint := ""
	if !o.Adopt && slices.Contains(exist, "docs/PRD.md") {
		hint = adopt.InlineHint(o.Dir, cfg)
	}
	it, verb := "it", "exists"
	if len(exist) > 1 {
		it, verb = "them", "exist"
	}
	return fmt.Errorf("%s already %s; init never overwrites: move %s aside, or add decisions with claimslint new%s", strings.Join(exist, ", "), verb, it, hint)
}

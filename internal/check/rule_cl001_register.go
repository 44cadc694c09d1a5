package check

import (
	"go/token"
	"path"
	"slices"
	"strings"

	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/decisionid"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/ruleid"
	"github.com/claimslint/claimslint/internal/snapshot"
)

// registerRule is CL001.
//
//registry:rules
var registerRule = &Rule{ID: ruleid.Register, Name: "register-files", Run: registerRun, Doc: `Every register row has exactly one decision file and every decision file a row.

The register is the first GFM table in the register file (register: in
.claimslint.yml, default docs/PRD.md) whose first header cell is ID. Each row's
first cell is a decision id D<n>. Each decision lives in
<decisions>/D<n>-<slug>.md. Ids are unique; the id in the file name, the
front matter (id:) and the row agree; a row's link, when it has one, points at
the decision's file; the row's Status cell and the file's status: agree.

A register whose rows have no decision file at all, read without inline:, is
one finding that names the setting which reads it (an inline register, D35):
claimslint init --adopt writes it (D65).

Adopted records (adopt: in .claimslint.yml) keep their names: the register
row that links a record gives its id, and a record with no row is a finding
until claimslint init --adopt registers it.

Fix: add the missing row or file, rename the file, or correct the id or status
so the two sides say the same thing.`}

// registerRun (CL001): register rows and decision files correspond.
func registerRun(p *Pass) error {
	files := decisionFiles(p.Snap)
	rows := registerRows(p, files)
	registerOrphans(p, files, rows)
	for _, d := range p.Snap.Decisions {
		if !d.Parsed || d.Inline {
			continue
		}
		if d.ID != "" && decisionid.Valid(d.ID) && d.ID != d.FileID {
			p.Reportf(d.KeyPos("id"), "front matter id %s does not match the file name's %s", d.ID, d.FileID)
		}
	}
	return nil
}

// decisionFiles maps each decision id to the files named for it (CL002
// reads it too). Adopted records without a registered id are left out:
// loading reported them.
func decisionFiles(s *snapshot.Snapshot) map[string][]*register.Decision {
	files := map[string][]*register.Decision{}
	for _, d := range s.Decisions {
		if d.FileID == "" && d.Adopted {
			continue // reported by loadAdopted
		}
		files[d.FileID] = append(files[d.FileID], d)
	}
	return files
}

// registerRows reports each row without its decision file, a link to
// another file, a status the file contradicts, and ids that appear twice;
// it returns the rows by id.
func registerRows(p *Pass, files map[string][]*register.Decision) map[string]register.Row {
	reg := p.Snap.Register
	// A register of rows without files, read without inline: gets one
	// finding that names the setting, not one per row (D65).
	inline := p.Snap.Config.Inline == nil && len(reg.Rows) > 0 && !slices.ContainsFunc(reg.Rows, func(r register.Row) bool { return len(files[r.ID]) > 0 })
	if inline || reg.StatusUnread {
		p.Reportf(reg.HeaderPos, "%s", register.UnreadAdvice(reg, inline, p.Snap.Config.ClaimsDir(), config.FileName))
	}
	rows := map[string]register.Row{}
	for _, row := range reg.Rows {
		if prev, dup := rows[row.ID]; dup {
			p.Reportf(row.Pos, "%s appears twice in the register (first at line %d): ids are unique", row.ID, prev.Pos.Line)
			continue
		}
		rows[row.ID] = row
		ds := files[row.ID]
		if len(ds) > 0 && ds[0].Inline {
			continue // the row is the decision (D35)
		}
		if len(ds) == 0 {
			if inline {
				continue // said once, above
			}
			p.Reportf(row.Pos, "%s has no decision file: create %s/%s-<slug>.md", row.ID, p.Snap.Config.Decisions, row.ID)
			continue
		}
		d := ds[0]
		if row.Link != "" && !isExternal(row.Link) {
			target := register.LinkTarget(path.Dir(reg.Path), row.Link)
			if target != d.Path {
				p.Reportf(row.LinkPos, "%s links to %s, but its decision file is %s", row.ID, target, d.Path)
			}
		}
		if d.Adopted && !register.ValidStatus(d.Status) {
			continue // one finding, at the record's status (statusAdvice)
		}
		if reg.HasStatus && d.Parsed && d.Status != "" && row.Status != d.Status {
			p.Reportf(row.StatusPos, "%s is %q in the register but %q in %s: make them agree", row.ID, row.Status, d.Status, d.Path)
		}
	}
	return rows
}

// registerOrphans reports the ids with several files and the decision
// files with no register row.
func registerOrphans(p *Pass, files map[string][]*register.Decision, rows map[string]register.Row) {
	for id, ds := range files {
		if len(ds) > 1 {
			for _, d := range ds {
				p.Reportf(token.Position{Filename: d.Path, Line: 1, Column: 1}, "%d files claim %s: each decision has exactly one file", len(ds), id)
			}
		}
		if _, ok := rows[id]; !ok {
			for _, d := range ds {
				p.Reportf(token.Position{Filename: d.Path, Line: 1, Column: 1}, "%s is not in the register %s: add a row for it", id, p.Snap.Register.Path)
			}
		}
	}
}

func isExternal(link string) bool {
	return strings.Contains(link, "://") || strings.HasPrefix(link, "#") || strings.HasPrefix(link, "mailto:")
}

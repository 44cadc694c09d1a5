package check

import (
	"strings"

	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/ruleid"
)

// statusRule is CL002.
//
//registry:rules
var statusRule = &Rule{ID: ruleid.Status, Name: "status-supersession", Run: statusRun, Doc: `Statuses come from a fixed set and supersession is reciprocal.

status: is one of proposed, accepted, rejected, deprecated, superseded. A
superseded decision names its successor in superseded-by:. supersedes: and
superseded-by: are reciprocal: D47 supersedes D43 (or one clause of it,
written D43(6)) if and only if D43 lists D47 in superseded-by:. A decision
superseded whole (no clause) must have status superseded or deprecated.

Adopted records are history: their status words are mapped through the
statuses: vocabulary (a word it does not know is a finding that names the
entry to add), one-way links are completed from the other side, and a link
to no registered record is a warning. They are never asked to change.

Fix: write the reference on both sides, or correct the status; for an
adopted record, add a statuses: entry or write the successor's supersedes:.`}

// statusRun (CL002): statuses are known and supersession is reciprocal.
func statusRun(p *Pass) error {
	rowStatuses(p)
	byID := p.Snap.ByID()
	for _, d := range p.Snap.Decisions {
		if !d.Parsed || d.Inline || d.Adopted && d.FileID == "" {
			continue
		}
		decisionStatus(p, d)
		supersession(p, d, byID)
	}
	return nil
}

// rowStatuses reports the register rows whose Status cell is not a status,
// each id once (a second row of an id is CL001's).
func rowStatuses(p *Pass) {
	files := decisionFiles(p.Snap)
	seen := map[string]bool{}
	for _, row := range p.Snap.Register.Rows {
		if seen[row.ID] {
			continue
		}
		seen[row.ID] = true
		// An adopted record's unknown status is reported once, at the
		// record, with the statuses: entry that fixes both (D42).
		if row.Status != "" && !register.ValidStatus(row.Status) && !unknownAdopted(files[row.ID]) {
			p.Reportf(row.StatusPos, "%s: status %q in the register is not one of %s", row.ID, row.Status, strings.Join(register.Statuses, ", "))
		}
	}
}

// decisionStatus reports a decision file's status that is missing, not
// one of the five, or superseded without a successor.
func decisionStatus(p *Pass, d *register.Decision) {
	if d.Adopted && d.Status == "" {
		p.Reportf(d.KeyPos("status"), "adopted record %s states no status: map records without one in %s (statuses: {%s: accepted})", d.FileID, config.FileName, register.Unstated)
	} else if d.Adopted && !register.ValidStatus(d.Status) {
		p.Reportf(d.KeyPos("status"), "%s", statusAdvice(d, p.Snap.Config.Statuses))
	} else if d.Status != "" && !register.ValidStatus(d.Status) {
		p.Reportf(d.KeyPos("status"), "status %q is not one of %s", d.Status, strings.Join(register.Statuses, ", "))
	}
	if d.Status == "superseded" && len(d.SupersededBy) == 0 && d.Adopted && d.ID == "" {
		p.Reportf(d.KeyPos("status"), "adopted record %s is superseded but names no registered successor: give the successor supersedes: [%s] in its front matter (the record itself stays as written)", d.FileID, d.FileID)
	} else if d.Status == "superseded" && len(d.SupersededBy) == 0 {
		p.Reportf(d.KeyPos("status"), "%s is superseded but names no successor: add superseded-by: [D<n>]", d.FileID)
	}
}

// supersession reports each supersedes: and superseded-by: of d that the
// other side does not write back, and a decision superseded whole whose
// status does not say so.
func supersession(p *Pass, d *register.Decision, byID map[string]*register.Decision) {
	for _, ref := range d.Supersedes {
		t, ok := byID[ref.ID]
		if !ok {
			p.Reportf(d.KeyPos("supersedes"), "%s supersedes %s, which has no decision file", d.FileID, ref)
			continue
		}
		if !t.Parsed {
			continue
		}
		if !hasRef(t.SupersededBy, d.FileID) {
			p.Reportf(t.KeyPos("superseded-by"), "%s supersedes %s, so %s must list %s in superseded-by", d.FileID, ref, t.FileID, d.FileID)
		}
		if ref.Clause == "" && t.Status != "superseded" && t.Status != "deprecated" && d.Status == "accepted" {
			p.Reportf(t.KeyPos("status"), "%s is superseded whole by %s: set status: superseded (or name a clause, %s(n), to supersede part of it)", t.FileID, d.FileID, t.FileID)
		}
	}
	for _, ref := range d.SupersededBy {
		t, ok := byID[ref.ID]
		if !ok {
			p.Reportf(d.KeyPos("superseded-by"), "%s is superseded by %s, which has no decision file", d.FileID, ref)
			continue
		}
		if t.Parsed && !hasRef(t.Supersedes, d.FileID) {
			p.Reportf(t.KeyPos("supersedes"), "%s lists %s in superseded-by, so %s must list %s in supersedes", d.FileID, ref, t.FileID, d.FileID)
		}
	}
}

func hasRef(refs []register.Ref, id string) bool {
	for _, r := range refs {
		if r.ID == id {
			return true
		}
	}
	return false
}

// unknownAdopted reports an adopted record whose status the vocabulary does
// not know.
func unknownAdopted(ds []*register.Decision) bool {
	return len(ds) > 0 && ds[0].Adopted && ds[0].Parsed && !register.ValidStatus(ds[0].Status)
}

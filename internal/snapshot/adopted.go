package snapshot

import (
	"fmt"
	"go/token"
	"path"
	"sort"
	"strings"

	"github.com/claimslint/claimslint/internal/decisionid"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/ruleid"
)

func hasRef(refs []register.Ref, id string) bool {
	for _, r := range refs {
		if r.ID == id {
			return true
		}
	}
	return false
}

func isExternal(link string) bool {
	return strings.Contains(link, "://") || strings.HasPrefix(link, "#") || strings.HasPrefix(link, "mailto:")
}

// loadAdopted reads the records of the adopted collection (adopt: in
// .claimslint.yml) in place. A record's decision id is the register row
// that links to it: init --adopt writes that row once, and nothing
// recomputes it, so date-named records and 0000 records have stable ids.
func (s *Snapshot) loadAdopted() {
	if len(s.Config.Adopt) == 0 {
		return
	}
	rowOf := map[string]register.Row{}
	for _, row := range s.Register.Rows {
		if t := s.rowTarget(row); t != "" {
			if _, dup := rowOf[t]; !dup {
				rowOf[t] = row
			}
		}
	}
	schemes := s.Config.Adopt
	var adopted []*register.Decision
	defer func() { register.SharedTitles(adopted) }()
	for _, fr := range register.FindRecords(s.Repo.Files, schemes) {
		f := fr.Path
		if !s.Repo.Present(f) {
			continue
		}
		sc := &schemes[fr.Scheme]
		d := s.addDecision(f, "adopted record", func(p string, src []byte) *register.Decision {
			d := register.ParseAdopted(p, src, s.Config.Statuses)
			if side := register.Sidecar(p); side != "" && s.Repo.Has(side) {
				// A KEP's status is in its kep.yaml (D96).
				if b, err := s.Repo.ReadFile(side, register.SidecarMax); err == nil {
					register.ApplySidecar(d, side, b, s.Config.Statuses)
				}
			}
			sc.Apply(d, fr.Name, s.Config.Statuses)
			return d
		})
		if d == nil {
			continue
		}
		row, ok := rowOf[f]
		if !ok && (d.Template != "" || d.Index || d.Redirect) {
			// A template, a folder's index, a redirect stub: not a
			// record (D72, D96, D97).
			s.Decisions = s.Decisions[:len(s.Decisions)-1]
			continue
		}
		adopted = append(adopted, d)
		if ok {
			d.FileID = row.ID
		} else {
			s.errorf(token.Position{Filename: f, Line: 1, Column: 1}, ruleid.Register,
				"adopted record %s has no register row: run claimslint init --adopt again to register it (existing ids stay)", f)
		}
		for i := range d.Claims {
			d.Claims[i].Decision = d.FileID
		}
	}
}

// rowTarget is the repository path a register row links to, or "".
func (s *Snapshot) rowTarget(row register.Row) string {
	if row.Link == "" || isExternal(row.Link) {
		return ""
	}
	return register.LinkTarget(path.Dir(s.Register.Path), row.Link)
}

// resolveAdopted turns the links adopted records state into decision
// references, and infers the side a one-way link leaves out: an adopted
// record is history and is never asked to change. A record superseded
// whole by a decision that says so is superseded, whatever its own status
// line still says.
func (s *Snapshot) resolveAdopted() {
	s.ParseFindings = append(s.ParseFindings, Relate(s.Decisions)...)
}

// Relate resolves the links of the adopted records among ds (whose FileIDs
// are set) and infers what one-way links leave out; init --adopt uses it
// to write the statuses check will expect. Links that name no record of ds
// are warnings: the relation is kept out of the checks, not guessed.
func Relate(ds []*register.Decision) []diag.Finding {
	ix := indexRecords(ds)
	var out []diag.Finding
	for _, d := range ds {
		if d.Adopted && d.FileID != "" {
			out = append(out, ix.resolveLinks(d)...)
		}
	}
	// Decisions written by claimslint that supersede an adopted record:
	// the record cannot be edited, so its side is inferred.
	for _, d := range ds {
		if d.Adopted && d.ID == "" {
			continue
		}
		for _, ref := range d.Supersedes {
			if t, ok := ix.byID[ref.ID]; ok && t.Adopted && t.ID == "" {
				verb := register.RelSupersedes
				if ref.Clause != "" {
					verb = register.RelPartlySupersedes
				}
				relate(d, verb, t)
			}
		}
	}
	return out
}

// records finds the decisions a link of an adopted record can name: by
// path, by the number of an undated record name in a directory, by id.
type records struct {
	byPath   map[string]*register.Decision
	byNumber map[string]map[int][]*register.Decision
	byID     map[string]*register.Decision
}

func indexRecords(ds []*register.Decision) records {
	ix := records{byPath: map[string]*register.Decision{}, byNumber: map[string]map[int][]*register.Decision{}, byID: map[string]*register.Decision{}}
	for _, d := range ds {
		ix.byPath[d.Path] = d
		if !d.Adopted {
			continue
		}
		dir, base := path.Split(d.Path)
		if n, ok := register.ParseRecordName(base); ok && n.Date == "" {
			if ix.byNumber[dir] == nil {
				ix.byNumber[dir] = map[int][]*register.Decision{}
			}
			ix.byNumber[dir][n.Number] = append(ix.byNumber[dir][n.Number], d)
		}
	}
	for _, d := range ds {
		if _, ok := ix.byID[d.FileID]; !ok && d.FileID != "" {
			ix.byID[d.FileID] = d
		}
	}
	return ix
}

// resolveLinks relates the adopted record d to each record its links
// name; a link that names no registered record is a warning.
func (ix records) resolveLinks(d *register.Decision) []diag.Finding {
	var out []diag.Finding
	for _, l := range d.Links {
		var t *register.Decision
		switch {
		case l.Target != "":
			t = ix.byPath[l.Target]
		case l.Number >= 0:
			if ds := ix.byNumber[path.Dir(d.Path)+"/"][l.Number]; len(ds) == 1 {
				t = ds[0]
			}
		}
		if t == nil || t.FileID == "" {
			out = append(out, diag.Finding{Pos: l.Pos, Check: ruleid.Status, Severity: diag.SeverityWarning,
				Message: fmt.Sprintf("not checked: %s %s %s, which is no registered record", d.FileID, strings.ReplaceAll(l.Verb, "-", " "), l.Text)})
			continue
		}
		relate(d, l.Verb, t)
	}
	return out
}

// relate records "d verb t" on both decisions.
func relate(d *register.Decision, verb string, t *register.Decision) {
	add := func(x *register.Decision, verb string, y *register.Decision, inferred bool) {
		ref := register.Ref{ID: y.FileID}
		switch verb {
		case register.RelSupersedes:
			if !hasRef(x.Supersedes, y.FileID) {
				x.Supersedes = append(x.Supersedes, ref)
			}
		case register.RelSupersededBy:
			if !hasRef(x.SupersededBy, y.FileID) {
				x.SupersededBy = append(x.SupersededBy, ref)
			}
			// A successor retires a record only once it is accepted (D78):
			// a proposed one leaves the record the decision.
			if x.Adopted && x.ID == "" && (x.Status == "accepted" || x.Status == "proposed") && y.Status != "proposed" {
				x.Status = "superseded"
			}
		default:
			for _, rel := range x.Relations {
				if rel.Verb == verb && rel.Ref.ID == y.FileID {
					return
				}
			}
			x.Relations = append(x.Relations, register.Relation{Verb: verb, Ref: ref, Inferred: inferred})
		}
	}
	add(d, verb, t, false)
	add(t, register.Inverse(verb), d, true)
	sortRelations(d)
	sortRelations(t)
}

func sortRelations(d *register.Decision) {
	sort.SliceStable(d.Relations, func(i, j int) bool {
		return decisionid.Compare(d.Relations[i].Ref.ID, d.Relations[j].Ref.ID) < 0
	})
}

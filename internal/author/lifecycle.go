package author

import (
	"fmt"
	"go/token"
	"slices"
	"strconv"
	"strings"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/plan"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/ruleid"
	"github.com/claimslint/claimslint/internal/snapshot"
)

// Lifecycle are the statuses `claimslint accept` and `claimslint status`
// set (D78). superseded is not among them: a decision becomes superseded
// when the decision that supersedes it is accepted.
var Lifecycle = []string{"accepted", "proposed", "deprecated", "rejected"}

// StatusOptions are the inputs of SetStatus.
type StatusOptions struct {
	Dir    string
	ID     string // D3
	Status string // one of Lifecycle
	// KeepRecords leaves an adopted record's file as written when the
	// decision accepted supersedes it: only the register row changes (D73).
	KeepRecords bool
}

// StatusPlan is what SetStatus will do.
type StatusPlan struct {
	plan.Plan
	// From is the decision's status before.
	From string
	// Unheld are the findings that refuse an accept: each claim of the
	// decision that does not hold, as check reports it, and check's
	// finding when an accepted decision would have no claims. The plan
	// has no changes when there are any.
	Unheld []diag.Finding
	// Retired lists the decisions accepting this one supersedes.
	Retired []string
}

// SetStatus plans moving decision o.ID to o.Status (D78): its front
// matter's status: and its register row's status, together. Accepting
// runs the decision's claims as check would run them once it is
// accepted, and is refused (Unheld) while any of them does not hold; it
// retires each decision the accepted one supersedes whole. Leaving
// accepted for proposed or rejected is refused while the decision has
// retired another (it would leave neither checked); deprecated is
// allowed, it retires both.
func SetStatus(o StatusOptions) (*StatusPlan, error) {
	if err := lifecycleStatus(o); err != nil {
		return nil, err
	}
	snap, err := snapshot.Load(o.Dir)
	if err != nil {
		return nil, err
	}
	d, err := statusTarget(snap, o)
	if err != nil {
		return nil, err
	}
	p := &StatusPlan{Plan: plan.Plan{ID: d.FileID, File: d.Path}, From: d.Status}
	if d.Status == o.Status {
		p.Existing = d.Path
		return p, nil
	}
	byID := snap.ByID()
	if err := refuseUnretire(o, d, byID); err != nil {
		return nil, err
	}
	if o.Status == "accepted" {
		p.Unheld = unheld(snap, d)
		if len(p.Unheld) > 0 {
			return p, nil
		}
	}

	edits := map[string][]byte{}
	read := func(rel string) ([]byte, error) {
		if b, ok := edits[rel]; ok {
			return b, nil
		}
		return plan.ReadIn(o.Dir, rel)
	}
	if err := fileStatusEdit(o, d, edits, read); err != nil {
		return nil, err
	}
	if err := rowStatusEdit(o, snap, d, edits, read); err != nil {
		return nil, err
	}
	if o.Status == "accepted" {
		if err := retireSuperseded(o, snap, d, byID, p, edits, read); err != nil {
			return nil, err
		}
	}
	if err := p.AddEdits(o.Dir, edits); err != nil {
		return nil, err
	}
	return p, nil
}

// lifecycleStatus fails on a status SetStatus cannot set.
func lifecycleStatus(o StatusOptions) error {
	if slices.Contains(Lifecycle, o.Status) {
		return nil
	}
	if o.Status == "superseded" {
		return fmt.Errorf("status %q: a decision becomes superseded when the decision that supersedes it is accepted: claimslint new --supersedes %s \"Title\", then claimslint accept the new one", o.Status, o.ID)
	}
	return fmt.Errorf("status %q: want one of %s", o.Status, strings.Join(Lifecycle, ", "))
}

// statusTarget is the decision o.ID names, when it was read and is not
// superseded (unless it already has o's status).
func statusTarget(snap *snapshot.Snapshot, o StatusOptions) (*register.Decision, error) {
	var d *register.Decision
	for _, x := range snap.Decisions {
		if x.FileID == o.ID {
			d = x
			break
		}
	}
	if d == nil {
		return nil, fmt.Errorf("%s: no such decision in %s (claimslint decisions lists them)", o.ID, snap.Config.Register)
	}
	if !d.Parsed {
		return nil, fmt.Errorf("%s: %s could not be read as a decision; run claimslint check and fix it first", o.ID, d.Path)
	}
	if d.Status != o.Status && d.Status == "superseded" {
		return nil, fmt.Errorf("%s is superseded by %s: its successor names it; change the successor instead", o.ID, refList(d.SupersededBy))
	}
	return d, nil
}

// refuseUnretire refuses to set an accepted decision that retired
// another back to proposed or rejected: neither would be checked.
func refuseUnretire(o StatusOptions, d *register.Decision, byID map[string]*register.Decision) error {
	if d.Status != "accepted" || (o.Status != "proposed" && o.Status != "rejected") {
		return nil
	}
	for _, ref := range d.Supersedes {
		if t := byID[ref.ID]; ref.Clause == "" && t != nil && t.Status == "superseded" {
			return fmt.Errorf("%s retired %s when it was accepted; as %s neither would be checked: deprecate %s instead, or set %s's status back by hand first", o.ID, ref.ID, o.Status, o.ID, ref.ID)
		}
	}
	return nil
}

// fileStatusEdit sets the status in d's own file: its front matter, or
// an adopted record's status where and as its tool writes it.
func fileStatusEdit(o StatusOptions, d *register.Decision, edits map[string][]byte, read func(string) ([]byte, error)) error {
	if d.Inline {
		return nil
	}
	src, err := read(d.Path)
	if err != nil {
		return fmt.Errorf("read %s: %w", d.Path, err)
	}
	var out []byte
	if d.Adopted && d.ID == "" {
		var ok bool
		if out, ok = rewordStatus(src, d, o.Status); !ok {
			return fmt.Errorf("%s: its status %q was not found where it was read; set it by hand", d.Path, d.RawStatus)
		}
	} else if out, err = setStatus(src, o.Status); err != nil {
		return fmt.Errorf("%s: %w", d.Path, err)
	}
	edits[d.Path] = out
	return nil
}

// rowStatusEdit sets the status in d's register row, where the register
// has a Status column.
func rowStatusEdit(o StatusOptions, snap *snapshot.Snapshot, d *register.Decision, edits map[string][]byte, read func(string) ([]byte, error)) error {
	if !hasRow(snap.Register, d.FileID) {
		return nil
	}
	if !snap.Register.HasStatus {
		if d.Inline {
			return fmt.Errorf("%s: the register has no Status column, so %s's status is its row's marker: edit the row by hand", snap.Config.Register, d.FileID)
		}
		return nil
	}
	src, err := read(snap.Config.Register)
	if err != nil {
		return fmt.Errorf("read register: %w", err)
	}
	out, err := setRowStatus(src, d.FileID, o.Status)
	if err != nil {
		return fmt.Errorf("%s: %w", snap.Config.Register, err)
	}
	edits[snap.Config.Register] = out
	return nil
}

// retireSuperseded retires the decisions d supersedes whole, now that d
// is accepted (D78).
func retireSuperseded(o StatusOptions, snap *snapshot.Snapshot, d *register.Decision, byID map[string]*register.Decision, p *StatusPlan, edits map[string][]byte, read func(string) ([]byte, error)) error {
	for _, ref := range d.Supersedes {
		t := byID[ref.ID]
		if ref.Clause != "" || t == nil || t.Status == "superseded" || t.Status == "deprecated" {
			continue
		}
		notes, err := retire(snap, t, d.FileID, d.Path, strings.TrimPrefix(d.Title, d.FileID+": "), o.KeepRecords, edits, read)
		if err != nil {
			return err
		}
		p.Notes = append(p.Notes, notes...)
		p.Retired = append(p.Retired, t.FileID)
	}
	return nil
}

// unheld runs d's claims as check runs them once d is accepted: on the
// snapshot as it is, with d's status accepted in memory. It returns the
// error findings about d: the rows of its claims table that cannot be
// read (CL006; a row the parser dropped has no claim to fail), and each
// claim that does not hold, in the order of their positions.
func unheld(snap *snapshot.Snapshot, d *register.Decision) []diag.Finding {
	d.Status = "accepted"
	res := check.ClaimsAndTables(snap, d.FileID)
	var out []diag.Finding
	for _, f := range d.Findings {
		if f.Severity == diag.SeverityError && f.Check == ruleid.Claims {
			out = append(out, f)
		}
	}
	// A CL006 finding carries no decision, and an inline register's rows
	// share its file: a claim's is found at the claim's row below, a
	// dropped row's is among d's own parse findings above.
	var tables []diag.Finding
	for _, f := range res.Findings {
		switch {
		case f.Severity != diag.SeverityError:
		case f.Check == ruleid.Claims && f.Decision == "":
			tables = append(tables, f)
		case f.Decision == d.FileID || f.Pos.Filename == d.Path:
			out = append(out, f)
		}
	}
	for _, st := range res.Claims {
		if st.Decision != d.FileID || st.State != check.StateFailed || slices.ContainsFunc(out, func(f diag.Finding) bool { return f.Claim == st.Claim }) {
			continue
		}
		// A malformed row has no finding of CL007's: CL006 names it.
		at := posOf(st.Row)
		n := len(out)
		for _, f := range tables {
			if f.Pos.Filename == at.Filename && f.Pos.Line == at.Line {
				out = append(out, f) // check's message, which names the claim
			}
		}
		if len(out) == n {
			out = append(out, diag.Finding{Pos: at, Check: "CL007", Decision: st.Decision, Claim: st.Claim, Severity: diag.SeverityError, Message: st.Decision + "/" + st.Claim + ": " + st.Message})
		}
	}
	return diag.Dedupe(out) // in the order of their positions
}

func hasRow(reg *register.Register, id string) bool {
	for _, r := range reg.Rows {
		if r.ID == id {
			return true
		}
	}
	return false
}

func refList(refs []register.Ref) string {
	var s []string
	for _, r := range refs {
		s = append(s, r.String())
	}
	if len(s) == 0 {
		return "no successor"
	}
	return strings.Join(s, ", ")
}

// rewordStatus rewrites an adopted record's status where it was read, as
// markSuperseded does: the status words become the new status, in the
// record's own case.
func rewordStatus(src []byte, d *register.Decision, status string) ([]byte, bool) {
	at, ok := findStatus(src, d)
	if !ok {
		return nil, false
	}
	word := status
	if r := at.raw[0]; r >= 'A' && r <= 'Z' {
		word = strings.ToUpper(status[:1]) + status[1:]
	}
	line := at.line()
	return at.with(line[:at.i] + word + line[at.i+len(at.raw):]), true
}

// posOf reads a claim state's row, path:line, as a position.
func posOf(row string) token.Position {
	i := strings.LastIndexByte(row, ':')
	if i < 0 {
		return token.Position{Filename: row}
	}
	n, _ := strconv.Atoi(row[i+1:])
	return token.Position{Filename: row[:i], Line: n}
}

// trackerIDs are the tracker ids d names: its tracker: front matter, then
// the id of each tracker claim not listed there, never nil.
func trackerIDs(d *register.Decision) []string {
	ids := append([]string{}, d.Tracker...)
	for _, c := range d.Claims {
		if name, _ := check.SplitKind(c.Kind); name == "tracker" && c.Anchor != "" && !slices.Contains(ids, c.Anchor) {
			ids = append(ids, c.Anchor)
		}
	}
	return ids
}

// DecisionInfo is one decision as `claimslint decisions` lists it (D78).
type DecisionInfo struct {
	ID      string `json:"id"`
	Status  string `json:"status"`
	Title   string `json:"title"`
	Path    string `json:"path"`
	Holding int    `json:"claims_holding"`
	Total   int    `json:"claims_total"`
	// Tracker are the ids of its tracker: front matter, then those its
	// tracker claims name; Residuals those of its residuals: front matter.
	Tracker   []string `json:"tracker"`
	Residuals []string `json:"residuals"`
}

// Decisions lists the register's decisions in its order, those of status
// status only when it is set: each with how many of its claims hold now
// (a retired decision's claims are not evaluated and hold none) and its
// tracker ids. The list is empty, never nil, when none match.
func Decisions(dir, status string) ([]DecisionInfo, error) {
	if status != "" && !register.ValidStatus(status) {
		return nil, fmt.Errorf("--status %q: want one of %s", status, strings.Join(register.Statuses, ", "))
	}
	snap, err := snapshot.Load(dir)
	if err != nil {
		return nil, err
	}
	res := check.Claims(snap, "")
	holding := map[string]int{}
	for _, st := range res.Claims {
		if st.State == check.StateOK {
			holding[st.Decision]++
		}
	}
	out := []DecisionInfo{}
	for _, d := range snap.Decisions {
		if d.FileID == "" || status != "" && d.Status != status {
			continue
		}
		out = append(out, DecisionInfo{ID: d.FileID, Status: d.Status, Title: strings.TrimPrefix(strings.TrimSpace(d.Title), d.FileID+": "),
			Path: d.Path, Holding: holding[d.FileID], Total: len(d.Claims), Tracker: trackerIDs(d), Residuals: append([]string{}, d.Residuals...)})
	}
	return out, nil
}

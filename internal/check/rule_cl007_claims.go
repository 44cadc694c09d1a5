package check

import (
	"fmt"
	"path"
	"reflect"

	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/ruleid"
)

// claimRule is CL007; its documentation lists the claim kinds of the
// registry (claimsDoc).
//
//registry:rules
var claimRule = &Rule{ID: ruleid.Claim, Name: "claims", Run: claimRun, ResultType: reflect.TypeOf(claimStates(nil)), Doc: claimsDoc()}

// claimStates is CL007's result: the state of each claim in its scope,
// those it does not evaluate (retired, malformed) first, each part in the
// order of the decisions and their rows. CL009 proves the claims that
// hold; CL011 asks which lines they rest on.
type claimStates []ClaimState

// claimRun (CL007) evaluates every claim of every decision whose status is
// evaluated. Files are read once each, in parallel, and every claim that
// touches a file is matched in that one pass.
func claimRun(p *Pass) error {
	noClaims(p)
	r := p.res
	states, live := claimsInScope(p, r.prepare().all)
	if r.stopped() {
		return stoppedErr(r.ctx.Err()) // prepare may have skipped rows
	}
	warnings, err := r.scan(live)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		p.Report(w)
	}
	undone := 0
	for _, c := range live {
		if c.undone() {
			// The budget ran out before the claim was evaluated: it is not
			// known to hold, and the budget's one finding says so (D70).
			undone++
			states = append(states, ClaimState{Decision: c.d.FileID, Status: c.d.Status, Claim: c.c.ID, Kind: c.c.Kind,
				Row: fmt.Sprintf("%s:%d", c.c.Pos.Filename, c.c.Pos.Line), Where: []string{}, State: StateFailed,
				Message: fmt.Sprintf("not evaluated: the run's budget of %s ran out first", r.budget.limit)})
			continue
		}
		st := c.conclude()
		states = append(states, st)
		for _, f := range c.fails {
			p.Report(f)
		}
	}
	if undone > 0 {
		r.budgetFinding(p, ruleid.Claim, r.claimsUndone(undone))
	}
	p.addClaims(states)
	p.SetResult(states)
	return nil
}

// claimsInScope sorts the claims of the decisions the run evaluates
// (Options.Decision) into the states of those that are not evaluated
// (retired, or malformed) and the live claims to scan.
func claimsInScope(p *Pass, all []*claim) (states claimStates, live []*claim) {
	only := p.Opts.Decision
	states = make(claimStates, 0, len(all))
	for _, c := range all {
		d := c.d
		if only != "" && d.FileID != only {
			continue
		}
		retired := d.Status != "accepted" && d.Status != "proposed"
		state := ClaimState{Decision: d.FileID, Status: d.Status, Claim: c.c.ID, Kind: c.c.Kind, Row: fmt.Sprintf("%s:%d", c.c.Pos.Filename, c.c.Pos.Line), Where: []string{}}
		switch {
		case retired:
			state.State = StateRetired
			states = append(states, state)
			continue
		case c.kind == nil:
			state.State = StateFailed
			if d.Status == "proposed" {
				state.State = StatePending
			}
			state.Message = "claim row is malformed (CL006)"
			states = append(states, state)
			continue
		}
		live = append(live, c)
	}
	return states, live
}

// noClaims (CL007): an accepted decision with no claims is a finding,
// unless its front matter says "claims: none, <reason>" (D43). Adopted
// records are history and are exempt; a record claimslint wrote into the
// adopted collection (it has an id:) is not.
//
// require_claims: false in the configuration turns the rule off (D35).
func noClaims(p *Pass) {
	if !p.Snap.Config.ClaimsRequired() {
		return
	}
	for _, d := range p.Snap.Decisions {
		if !d.Parsed || d.Status != "accepted" || len(d.Claims) > 0 || d.ClaimsNone != "" || d.FileID == "" {
			continue
		}
		if d.Inline && !d.HasConfirmation {
			noClaimsInline(p, d)
			continue
		}
		if d.Adopted && d.ID == "" || brokenTable(d) {
			continue
		}
		pos := d.ConfirmationPos
		if !d.HasConfirmation {
			pos = d.KeyPos("status")
		}
		p.Reportf(pos, "%s is accepted but has no claims: add a claim row to its Confirmation table, or state claims: none, <reason> in its front matter", d.FileID)
	}
}

// noClaimsInline is the no-claims finding of an inline decision (D35).
func noClaimsInline(p *Pass, d *register.Decision) {
	where := path.Join(p.Snap.Config.ClaimsDir(), d.FileID+".md")
	p.Reportf(d.KeyPos("status"), "%s is accepted but has no claims: write its Confirmation table in %s, or set require_claims: false in %s", d.FileID, where, config.FileName)
}

// brokenTable reports a claims table already reported as malformed: its
// finding says what to fix, and "no claims" would say it again.
func brokenTable(d *register.Decision) bool {
	for _, f := range d.Findings {
		if f.Check == ruleid.Claims {
			return true
		}
	}
	return false
}

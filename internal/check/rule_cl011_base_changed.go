package check

import (
	"strconv"
	"strings"

	"github.com/claimslint/claimslint/internal/format"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/repo"
	"github.com/claimslint/claimslint/internal/ruleid"
)

// baseRule is CL011.
//
//registry:rules
var baseRule = &Rule{ID: ruleid.Base, Name: "spec-changed-code-not", Requires: []*Rule{claimRule, baseRowsRule}, Run: baseChangedRun, Doc: `A claim whose row changed since --base changes code too.

With check --base REV, a claim of an accepted decision whose Kind, Path,
Anchor or Require differs from the row at REV, while none of the lines the
claim anchors on changed since REV, is a finding: the spec moved and the code
did not. New rows are not findings (they document code that exists), and
neither is a row whose Why alone was reworded, or whose cells were realigned:
what the claim checks did not change.

Fix: land the code change the new row describes in the same change, or
revert the row.`}

// baseChangedRun (CL011) compares each accepted decision's claims with the
// claims at revision --base: a claim whose checked cells changed while no
// line it anchors on changed is a finding (the spec moved, the code did
// not). The Why column is prose, not spec: a reworded Why is no finding.
func baseChangedRun(p *Pass) error {
	base := p.Opts.Base
	if base == "" {
		return nil
	}
	states := map[string]ClaimState{}
	for _, st := range p.ResultOf[claimRule].(claimStates) {
		states[st.Decision+"/"+st.Claim] = st
	}
	changed := changedLines(p.Snap.Dir, base)
	r := p.res
	rows := p.ResultOf[baseRowsRule].(baseRows)
	if r.baseCut > 0 {
		r.budgetFinding(p, ruleid.Base, format.Count(r.baseCut, "decision")+" not compared with "+base)
	}
	for i, bd := range rows {
		d := bd.d
		if r.budget.stop(overrun{file: d.Path, doing: "comparing claim rows with " + base}) {
			r.budgetFinding(p, ruleid.Base, format.Count(len(rows)-i, "decision")+" not compared with "+base)
			return nil
		}
		oldRows := map[string][4]string{}
		for _, c := range bd.then.Claims {
			oldRows[c.ID] = checked(c)
		}
		for _, c := range d.Claims {
			was, ok := oldRows[c.ID]
			if !ok || was == checked(c) {
				continue // new rows document code that exists; a row that checks what it checked is fine
			}
			st := states[d.FileID+"/"+c.ID]
			if st.State != StateOK || !st.lines {
				continue // a failing claim is reported already; a kind that reads no lines anchors on none
			}
			moved, err := anchorsChanged(st, changed)
			if err != nil {
				return err
			}
			switch {
			case moved:
			case len(st.Where) == 0:
				// An absent claim that holds rests on no line: no code
				// change can come with its row, so a changed row is the
				// spec moving alone (a loosened pattern passes unseen).
				p.Reportf(c.Pos, "%s %s: the row changed since %s and the claim rests on no line of code, so nothing can change with it: revert the row, or supersede the decision (claimslint new --supersedes %s)",
					d.FileID, c.ID, base, d.FileID)
			default:
				p.Reportf(c.Pos, "%s %s: the row changed since %s but the line it anchors on (%s) did not: land the code the new row describes, or revert the row",
					d.FileID, c.ID, base, strings.Join(st.Where, ", "))
			}
		}
	}
	return nil
}

// changedLines returns a function giving the lines of a file changed since
// revision base, asking git once per file.
func changedLines(dir, base string) func(file string) (map[int]bool, error) {
	cache := map[string]map[int]bool{}
	return func(file string) (map[int]bool, error) {
		if c, ok := cache[file]; ok {
			return c, nil
		}
		c, err := repo.ChangedLines(dir, base, file)
		if err != nil {
			return nil, err
		}
		cache[file] = c
		return c, nil
	}
}

// anchorsChanged reports whether one of the lines a claim rests on changed.
func anchorsChanged(st ClaimState, changed func(string) (map[int]bool, error)) (bool, error) {
	moved := false
	for _, w := range st.Where {
		file, line, ok := splitWhere(w)
		if !ok {
			continue
		}
		lines, err := changed(file)
		if err != nil {
			return false, err
		}
		if lines[line] {
			moved = true
		}
	}
	return moved, nil
}

// checked is what a claim row checks: its Kind, Path, Anchor and Require
// cells as the register reads them. The Why column, the cells' spacing and
// the row's place in the table are not in it.
func checked(c register.Claim) [4]string { return [4]string{c.Kind, c.Path, c.Anchor, c.Require} }

func splitWhere(w string) (string, int, bool) {
	i := strings.LastIndexByte(w, ':')
	if i < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(w[i+1:])
	return w[:i], n, err == nil
}

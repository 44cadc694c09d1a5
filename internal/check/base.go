package check

import (
	"go/token"
	"strconv"
	"strings"

	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/repo"
)

// baseChangedRun (CL011) and baseDeletedRun (CL012) run with --base.
func baseChangedRun(p *Pass) error { return baseRules(p, true) }

func baseDeletedRun(p *Pass) error { return baseRules(p, false) }

// baseRules compares each accepted decision's claim rows with the rows at
// revision base. A row that changed while no line it anchors on changed is
// CL011 (the spec moved, the code did not); a row that is gone is CL012
// (claims are retired by superseding the decision, not by deletion). The
// pass reports its own rule's findings: changed rows, or deleted ones.
func baseRules(p *Pass, changedRows bool) error {
	base, dir, r := p.Opts.Base, p.Snap.Dir, p.res
	if base == "" {
		return nil
	}
	states := map[string]ClaimState{}
	for _, st := range r.Claims {
		states[st.Decision+"/"+st.Claim] = st
	}
	changedCache := map[string]map[int]bool{}
	changed := func(file string) (map[int]bool, error) {
		if c, ok := changedCache[file]; ok {
			return c, nil
		}
		c, err := repo.ChangedLines(dir, base, file)
		if err != nil {
			return nil, err
		}
		changedCache[file] = c
		return c, nil
	}
	for _, d := range r.Decisions {
		if !d.Parsed || d.Status != "accepted" {
			continue
		}
		old, existed, err := repo.Show(dir, base, d.Path)
		if err != nil {
			return err
		}
		if !existed {
			continue // a new decision: every row is new
		}
		doc := r.Doc(d.Path)
		if doc == nil || doc.Err != nil {
			continue
		}
		cur := doc.Src
		oldDec := register.ParseDecision(d.Path, old)
		oldRows := map[string]string{}
		for _, c := range oldDec.Claims {
			oldRows[c.ID] = rowText(old, c.Pos.Line)
		}
		now := map[string]bool{}
		for _, c := range d.Claims {
			now[c.ID] = true
			was, ok := oldRows[c.ID]
			if !ok || was == rowText(cur, c.Pos.Line) {
				continue // new rows document code that exists; unchanged rows are fine
			}
			st := states[d.FileID+"/"+c.ID]
			if !changedRows || st.State != StateOK || !st.lines {
				continue // a failing claim is reported already; a kind that reads no lines anchors on none
			}
			moved := false
			for _, w := range st.Where {
				file, line, ok := splitWhere(w)
				if !ok {
					continue
				}
				lines, err := changed(file)
				if err != nil {
					return err
				}
				if lines[line] {
					moved = true
				}
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
		for _, c := range oldDec.Claims {
			if !now[c.ID] && !changedRows {
				p.Reportf(token.Position{Filename: d.Path, Line: 1, Column: 1},
					"%s %s was deleted since %s while %s is still accepted: restore the row, or supersede the decision (claimslint new --supersedes %s)", d.FileID, c.ID, base, d.FileID, d.FileID)
			}
		}
	}
	return nil
}

func rowText(src []byte, line int) string {
	lines := strings.Split(string(src), "\n")
	if line < 1 || line > len(lines) {
		return ""
	}
	return strings.TrimSpace(lines[line-1])
}

func splitWhere(w string) (string, int, bool) {
	i := strings.LastIndexByte(w, ':')
	if i < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(w[i+1:])
	return w[:i], n, err == nil
}

package check

import (
	"context"
	"errors"
	"fmt"
	"go/token"
	"strings"

	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/ruleid"
	"github.com/claimslint/claimslint/internal/snapshot"
)

// retiredRule is CL014.
//
//registry:rules
var retiredRule = &Rule{ID: ruleid.Retired, Name: "decision-retired", Requires: []*Rule{baseThenRule}, Run: baseRetiredRun, Doc: `An accepted decision retires by an accepted successor, or by an acknowledgement in the change.

With check --base REV, a decision accepted at REV that is gone now (its file
deleted, its register row removed, or no longer read because the
configuration points elsewhere), or whose status is now anything but
accepted (deprecated, rejected, superseded, proposed), is a finding: its
claims are no longer checked, and the change that stops checking them must
say so. The decisions at REV are read from REV's own configuration,
register, decision files and claims files.

It is no finding when an accepted decision now supersedes it whole (its
supersedes: names it), or when the change adds an entry to retired: in
.claimslint.yml that names it with a reason; an entry already there at
REV acknowledges nothing. Keep .claimslint.yml under code owners' review.

Fix: restore the decision, supersede it (claimslint new --supersedes ID,
then accept the successor), or acknowledge the retirement:

    retired:
      - id: D7
        reason: the export format D7 pinned was removed (dk-123)`}

// baseRetiredRun (CL014): every decision accepted at --base is accepted
// now, superseded by an accepted decision, or acknowledged by a retired:
// entry new in the change.
func baseRetiredRun(p *Pass) error {
	v, _ := p.ResultOf[baseThenRule].(*baseView)
	if p.Opts.Base == "" || v == nil {
		return nil
	}
	if baseUnread(p, v, ruleid.Retired) || v.Snap == nil {
		return nil
	}
	now := p.Snap.ByID()
	for _, then := range v.Snap.Decisions {
		if !then.Parsed || then.FileID == "" || then.Status != "accepted" {
			continue
		}
		id := then.FileID
		d, ok := now[id]
		if ok && (!d.Parsed || d.Status == "accepted") {
			continue // still accepted; a file that no longer parses is CL008's
		}
		if successor(p.Snap, id) {
			continue // the supersession is the record of the retirement
		}
		what := "is gone now"
		if ok {
			what = fmt.Sprintf("is %s now", d.Status)
		}
		if acknowledged(p, v, id, fmt.Sprintf("%s %s (accepted at %s) %s", id, quoteTitle(then), p.Opts.Base, what)) {
			continue
		}
		pos := retiredPos(p.Snap, d, id)
		p.Reportf(pos, "%s %s was accepted at %s and %s: %s no longer checked: restore it, supersede it with an accepted decision (claimslint new --supersedes %s), or acknowledge the retirement in %s (retired: - id: %s, reason: ...)",
			id, quoteTitle(then), p.Opts.Base, what, countClaims(len(then.Claims)), id, config.FileName, id)
	}
	return nil
}

// baseUnread reports, once per run, a register at the base that could not
// be read: the budget's finding when the budget ran out, else a warning
// (nothing can be compared, but a broken base is no fault of the change).
// It returns true when there is nothing to compare.
func baseUnread(p *Pass, v *baseView, rule string) bool {
	if v.Err == nil {
		return false
	}
	r := p.res
	if errors.Is(v.Err, context.DeadlineExceeded) {
		r.budget.stop(overrun{file: config.FileName, doing: "reading the register at --base " + p.Opts.Base})
		r.budgetFinding(p, rule, "the register at "+p.Opts.Base+" not compared")
		return true
	}
	if rule == ruleid.Retired {
		p.Report(diag.Finding{Pos: token.Position{Filename: config.FileName, Line: 1, Column: 1}, Severity: diag.SeverityWarning,
			Message: fmt.Sprintf("the register at %s cannot be read (%v): what the change retires is not compared", p.Opts.Base, v.Err)})
	}
	return true
}

// successor reports whether an accepted decision of snap supersedes id
// whole.
func successor(snap *snapshot.Snapshot, id string) bool {
	for _, d := range snap.Decisions {
		if !d.Parsed || d.Status != "accepted" || d.FileID == id {
			continue
		}
		for _, r := range d.Supersedes {
			if r.ID == id && r.Clause == "" {
				return true
			}
		}
	}
	return false
}

// acknowledged reports whether a retired: entry new since --base names id,
// and then records a note of it with its reason, at retired:.
func acknowledged(p *Pass, v *baseView, id, what string) bool {
	ack, ok := config.Acknowledges(v.Snap.Config, p.Snap.Config, id)
	if !ok {
		return false
	}
	p.Report(diag.Finding{Pos: configPos(p.Snap.Dir, "retired"), Severity: diag.SeverityNote,
		Message: fmt.Sprintf("%s: acknowledged in %s: %q", what, config.FileName, ack.Reason)})
	return true
}

// retiredPos is where a retired decision is reported: its status now, or,
// for a decision gone, its register row when it kept one, else the
// register's first line.
func retiredPos(snap *snapshot.Snapshot, d *register.Decision, id string) token.Position {
	if d != nil {
		return d.KeyPos("status")
	}
	reg := snap.Register
	for _, row := range reg.Rows {
		if row.ID == id {
			return row.Pos
		}
	}
	return token.Position{Filename: reg.Path, Line: 1, Column: 1}
}

// quoteTitle is a decision's title as a message quotes it: without its
// "D7: " prefix, escaped.
func quoteTitle(d *register.Decision) string {
	return fmt.Sprintf("%q", strings.TrimPrefix(strings.TrimSpace(d.Title), d.FileID+": "))
}

// countClaims words n claims as the subject of a sentence.
func countClaims(n int) string {
	switch n {
	case 0:
		return "it is"
	case 1:
		return "its 1 claim is"
	}
	return fmt.Sprintf("its %d claims are", n)
}

// configPos is the line of .claimslint.yml where the top-level key of the
// dotted setting key is written, else its first line.
func configPos(dir, key string) token.Position {
	pos := token.Position{Filename: config.FileName, Line: 1, Column: 1}
	src, err := config.Read(dir)
	if err != nil {
		return pos
	}
	top, _, _ := strings.Cut(key, ".")
	for i, l := range strings.Split(string(src), "\n") {
		if rest, ok := strings.CutPrefix(l, top); ok && strings.HasPrefix(strings.TrimLeft(rest, " \t"), ":") {
			pos.Line = i + 1
			return pos
		}
	}
	return pos
}

package migrate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/register"
)

// allowSeveral translates an allow-list entry's self-test ("the entry
// still matches a line") as a presence row is (D66) when several lines
// satisfy it today: present fails only when the one line prove deletes
// was the only one, so prove would call it vacuous for a line the entry
// never singled out (issue 34 item 7).
//
//   - A path-only entry (no substring): some line under the prefix
//     matches the family, so anchored-every with no Require, which prove
//     disproves by deleting every such line.
//   - An entry with a substring: the lines holding the substring are
//     anchored, and each must match the family; taken when those are
//     exactly the lines that satisfy the entry today (the family matches
//     inside the substring, as it does when the entry names the line it
//     excuses).
//
// Otherwise the claim stays present, with a note.
func allowSeveral(tr *check.Trial, r Row, c Claim, reason string) Claim {
	if reason != "" || r.Layout != LayoutAllow || tr == nil {
		return c
	}
	scope := strings.TrimPrefix(c.Kind, "present")
	got := tr.Eval(register.Claim{ID: c.ID, Kind: c.Kind, Path: c.Path, Anchor: c.Anchor, Require: c.Require})
	if got.State != check.StateOK || len(got.Held) < 2 {
		return c
	}
	if c.Require == "" {
		c.Kind = "anchored-every" + scope
		c.Note += fmt.Sprintf("; matches %s today: some line must, so anchored-every with no Require, as a presence row (D66)", listAt(got.Held))
		return c
	}
	alt := Claim{ID: c.ID, Kind: "anchored-every" + scope, Path: c.Path, Anchor: c.Require, Require: c.Anchor, Why: c.Why}
	every := tr.Eval(register.Claim{ID: alt.ID, Kind: alt.Kind, Path: alt.Path, Anchor: alt.Anchor, Require: alt.Require})
	if every.State == check.StateOK && slices.Equal(every.Held, got.Held) {
		alt.Note = c.Note + fmt.Sprintf("; %s satisfy it today, each holding the substring: so the lines holding it are anchored, and each must match the family (prove deletes them all)", listAt(got.Held))
		return alt
	}
	c.Note += fmt.Sprintf("; %s satisfy it today, and not every line holding the substring matches the family: prove deletes one line at a time", listAt(got.Held))
	return c
}

// dropOverlap drops the Require of an anchored-every claim that matches
// the text every line of its Anchor holds (check.RequireOverlaps): the
// row says no more than its anchor, and check warns about such a Require
// (D105), so the claim is written without it, which means the same.
func dropOverlap(c Claim) Claim {
	if name, _, _ := strings.Cut(c.Kind, ":"); name != "anchored-every" || !check.RequireOverlaps(c.Anchor, c.Require) {
		return c
	}
	note := fmt.Sprintf("Require %s matches the text every line of the anchor holds: written without it, which means the same", quote(c.Require))
	if c.Note != "" {
		note = c.Note + "; " + note
	}
	c.Require, c.Note = "", note
	return c
}

package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/claimslint/claimslint/internal/issueid"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/snapshot"
	"github.com/claimslint/claimslint/internal/trackerformat"
)

// tracker: Anchor is an issue id in the tracker export, in the status
// Require names.
//
//registry:kinds 7
type trackerKind struct{}

func (trackerKind) Name() string { return "tracker" }

func (trackerKind) ProveDoc() string {
	return ""
}

func (trackerKind) Doc() string {
	return `Anchor is a tracker id that exists in the export; Require, when
given, is the status it must have (open means not closed; a class name,
closed, active, blocked or deferred, matches every status tracker.workflow
maps onto it).`
}

func (trackerKind) Prepare(c *claim) bool {
	if c.c.Anchor == "" {
		c.malformed(c.c.Pos, "%s: a tracker claim needs the issue id in Anchor", c.name())
		return false
	}
	if c.c.Require != "" && strings.ContainsAny(c.c.Require, " |") {
		c.malformed(c.c.CellPos("require"), "%s: Require of a tracker claim is one status (open, closed...), not %q", c.name(), c.c.Require)
		return false
	}
	return true
}

func (trackerKind) Evaluate(c *claim) {
	s, row := c.snap, c.c
	id := row.Anchor
	iss, ok := s.Export.Lookup(id)
	switch {
	case s.Export == nil:
		c.fail(row.CellPos("anchor"), "%s cannot be resolved: the tracker export %s does not exist", id, s.Config.Tracker.Export)
	case !ok:
		c.fail(row.CellPos("anchor"), "%s is not in the tracker export %s%s", id, s.Config.Tracker.Export, strayAdvice(s, id))
	case !iss.Satisfies(row.Require):
		c.fail(row.CellPos("require"), "%s is %s in the tracker, want %s", id, iss.Status, row.Require)
	default:
		c.hold(fmt.Sprintf("%s:%d", s.Export.Path, iss.Line))
	}
}

// strayAdvice is what a missing id's message adds when its prefix is no
// tracker's (D74): which prefixes are known, and the edit; "" otherwise.
func strayAdvice(s *snapshot.Snapshot, id string) string {
	p, _, ok := issueid.SplitID(id)
	if !ok || trackerformat.IsNumbered(s.Config.Tracker.Format) || slices.Contains(s.Prefixes(), p) {
		return ""
	}
	return "; " + s.PrefixAdvice(p)
}

// Mutants: a tracker claim rests on the export, not on code lines.
func (trackerKind) Mutants(*claim) ([]mutant, bool) { return nil, false }

// Issues: the Anchor of a tracker claim is an issue id.
func (trackerKind) Issues(c register.Claim) []string {
	if c.Anchor == "" {
		return nil
	}
	return []string{c.Anchor}
}

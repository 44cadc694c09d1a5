package check

import (
	"bytes"
	"fmt"
	"go/token"
	"io"
	"regexp"
	"strings"

	"github.com/claimslint/claimslint/internal/codeline"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/repo"
	"github.com/claimslint/claimslint/internal/ruleid"
)

// hereRule is CL016.
//
//registry:rules
var hereRule = &Rule{ID: ruleid.Here, Name: "claim-broken-here", Requires: []*Rule{claimRule, baseThenRule}, Run: baseHereRun, Doc: `A claim the change broke is also reported where the change broke it.

With check --base REV, a claim of an accepted decision that held a line at
REV and now finds none (its anchor vanished) is CL007 at its row, in the
decision's file, which a pull request may not touch. CL016 reports it a
second time in the diff, where a reviewer reads the change and where a
code-scanning annotation lands:

- moved: a line the change added matches the claim's Anchor, but the
  claim does not read it (a file outside its Path, a comment, a test):
  reported at that added line;
- removed: a line the change removed matched the Anchor at REV (outside
  a comment, for a claim of code lines): reported at the nearest line of
  the working tree, the first line of the hunk that replaced it (the line
  before, for a pure deletion); GitHub annotations need a line of the new
  file.

- rewritten: an anchored (or anchored-every) claim whose Anchor still
  finds its one line, whose Require matched the line the Anchor found at
  REV and does not match the line now: reported at the line, with the
  line at REV beside the line now and a Require that matches the line
  now, proposed and never applied (D105).

The message names the decision's title, the claim and the line at REV.
A claim new since REV, an absent claim (CL007 reports the line that
matches) and a claim that fails for another reason are not reported here.

Fix: restore or move back the line, or change the claim row with the
code (claimslint impact --base REV shows both).`}

// maxHere bounds the positions CL016 reports for one claim.
const maxHere = 3

// broken is one claim CL016 looks for in the diff.
type broken struct {
	d        *register.Decision
	row      register.Claim // now
	then     register.Claim // at the base
	was, now *lineRE        // its Anchor at the base, and now
	moved    []token.Position
	removed  []removedLine
}

// removedLine is a line the change removed that the Anchor matched at
// the base, and the head line it is reported at.
type removedLine struct {
	old string
	n   int
	at  token.Position
}

// maxRemoved bounds the removed lines CL016 keeps for one claim.
const maxRemoved = 64

// baseHereRun (CL016) reads the diff since --base once, when a claim that
// held there lost its anchor, and reports it where the change removed or
// moved the line.
func baseHereRun(p *Pass) error {
	v, _ := p.ResultOf[baseThenRule].(*baseView)
	if p.Opts.Base == "" || v == nil || v.Snap == nil {
		return nil
	}
	reportRewritten(p, v) // base_require.go
	bs := brokenClaims(p, v)
	if len(bs) == 0 {
		return nil // nothing broke: no diff is read
	}
	r := p.res
	var hunks []repo.Hunk
	var lastOld, lastNew string
	lines, stopped := 0, false
	err := repo.Diff(p.Snap.Dir, v.Commit, []string{"--text", "--unified=0", "--inter-hunk-context=0"}, func(rd io.Reader) error {
		return repo.ReadPatch(rd, repo.PatchVisitor{
			Hunk: func(old, new string, h repo.Hunk) {
				if old != lastOld || new != lastNew {
					hunks, lastOld, lastNew = hunks[:0], old, new
				}
				hunks = append(hunks, h)
			},
			Line: func(old, new string, deleted bool, n int, text []byte) {
				if lines++; stopped || lines%4096 == 0 && r.budget.stop(overrun{file: new, doing: "reading the diff since " + p.Opts.Base}) {
					stopped = true
					return
				}
				for _, b := range bs {
					switch {
					case deleted && new != "" && len(hunks) > 0 && len(b.removed) < maxRemoved && Reads(b.then.Kind, b.then.Path, old) && b.was.Match(text):
						h := hunks[len(hunks)-1]
						pos := token.Position{Filename: new, Line: max(h.NewStart, 1), Column: 1}
						b.removed = append(b.removed, removedLine{old: old, n: n, at: pos})
					case !deleted && b.now.Match(text) && len(b.moved) < maxHere:
						b.moved = append(b.moved, token.Position{Filename: new, Line: n, Column: 1})
					}
				}
			},
		})
	})
	if err != nil {
		return err
	}
	if stopped {
		r.budgetFinding(p, ruleid.Here, "the diff since "+p.Opts.Base+" not read whole")
	}
	masked := map[string][][]byte{}
	for _, b := range bs {
		b.codeOnly(p.Snap.Dir, v.Commit, masked)
		b.report(p)
	}
	return nil
}

// codeOnly keeps, for a claim of code lines (scope code or test), the
// removed lines that match its Anchor once the base file's comments are
// masked as check masks them (codeline.Mask): a deleted comment that
// names the anchor is not the line the claim rested on. A base file that
// cannot be read, or is over MaxFileSize, keeps its lines. masked caches
// each base file's masked lines.
func (b *broken) codeOnly(dir, commit string, masked map[string][][]byte) {
	if _, scope := SplitKind(b.then.Kind); scope != "" && scope != ScopeCode && scope != ScopeTest {
		return
	}
	kept := b.removed[:0]
	for _, rl := range b.removed {
		lines, ok := masked[rl.old]
		if !ok {
			if src, found := repo.ShowAt(dir, commit, rl.old); found && len(src) <= MaxFileSize {
				lines = bytes.Split(codeline.Mask(rl.old, src), []byte{'\n'})
			}
			masked[rl.old] = lines
		}
		if lines == nil || rl.n > len(lines) || b.was.Match(lines[rl.n-1]) {
			kept = append(kept, rl)
		}
	}
	b.removed = kept
}

// brokenClaims lists the claims of accepted decisions that read lines,
// fail now resting on no line, and had the same id at the base: the ones
// whose anchor vanished. An absent claim is not among them.
func brokenClaims(p *Pass, v *baseView) []*broken {
	then := v.Snap.ByID()
	now := p.Snap.ByID()
	var out []*broken
	for _, st := range p.ResultOf[claimRule].(claimStates) {
		if st.State != StateFailed || st.Status != "accepted" || len(st.Where) != 0 || !ReadsLines(st.Kind) {
			continue
		}
		if name, scope := SplitKind(st.Kind); name == "absent" || scope == ScopeProse {
			continue
		}
		d, td := now[st.Decision], then[st.Decision]
		if d == nil || td == nil {
			continue
		}
		row, ok1 := claimByID(d, st.Claim)
		old, ok2 := claimByID(td, st.Claim)
		if !ok1 || !ok2 || !ReadsLines(old.Kind) {
			continue // a claim new since the base never held there
		}
		was, err1 := anchorRE(old.Anchor, v.Snap.MaxN())
		cur, err2 := anchorRE(row.Anchor, p.Snap.MaxN())
		if err1 != nil || err2 != nil {
			continue // CL006 reports a bad pattern
		}
		out = append(out, &broken{d: d, row: row, then: old, was: was, now: cur})
	}
	return out
}

// claimByID finds a decision's claim row by id.
func claimByID(d *register.Decision, id string) (register.Claim, bool) {
	for _, c := range d.Claims {
		if c.ID == id {
			return c, true
		}
	}
	return register.Claim{}, false
}

// lineRE is an Anchor CL016 matches against the lines of the diff, with
// the literal every match holds and the size of its program, so a line is
// matched only when it holds the literal and within D70's bound on one
// call (maxMatchCost): the extra finding is skipped, never the budget.
type lineRE struct {
	re    *regexp.Regexp
	lit   []byte
	insts int
}

// Match reports whether the Anchor matches line, within maxMatchCost.
func (l *lineRE) Match(line []byte) bool {
	if len(l.lit) > 0 && !bytes.Contains(line, l.lit) {
		return false
	}
	if len(line)*max(l.insts, 1) > maxMatchCost {
		return false
	}
	return l.re.Match(line)
}

// anchorRE compiles a claim's Anchor as check reads it: placeholders
// expanded, at most MaxPattern bytes.
func anchorRE(anchor string, maxN int) (*lineRE, error) {
	if anchor == "" || len(anchor) > MaxPattern {
		return nil, fmt.Errorf("no anchor to match")
	}
	pat, err := ExpandPlaceholders(anchor, maxN)
	if err != nil {
		return nil, err
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		return nil, err
	}
	lit, insts := analyse(pat)
	return &lineRE{re: re, lit: []byte(lit), insts: insts}, nil
}

// report reports a broken claim where it moved, else where its line was
// removed; nowhere when the diff shows neither (CL007's finding stands).
func (b *broken) report(p *Pass) {
	name := fmt.Sprintf("%s %s %s", b.d.FileID, quoteTitle(b.d), b.row.ID)
	if len(b.moved) > 0 {
		for _, pos := range b.moved {
			why := "a comment, a string or a test, which its Kind " + quoteRE(b.row.Kind) + " does not read"
			if !Reads(b.row.Kind, b.row.Path, pos.Filename) {
				why = "outside its Path " + quoteRE(b.row.Path)
			}
			p.Report(diag.Finding{Pos: pos, Message: fmt.Sprintf("%s: the change moved the line its Anchor %s matched at %s here, %s, so the claim fails: move it back, or change the row's Path with it",
				name, quoteRE(b.row.Anchor), p.Opts.Base, why)})
		}
		return
	}
	var at []token.Position
	olds := map[token.Position][]string{}
	for _, rl := range b.removed {
		if _, seen := olds[rl.at]; !seen {
			at = append(at, rl.at)
		}
		olds[rl.at] = append(olds[rl.at], fmt.Sprintf("%s:%d", rl.old, rl.n))
	}
	for i, pos := range at {
		if i == maxHere {
			break
		}
		p.Report(diag.Finding{Pos: pos, Message: fmt.Sprintf("%s: the change removed the line its Anchor %s matched at %s (%s), so the claim fails: restore it, or change the claim row with the code",
			name, quoteRE(b.then.Anchor), p.Opts.Base, strings.Join(olds[pos], ", "))})
	}
}

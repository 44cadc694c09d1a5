package check

import (
	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/glob"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/repo"
	"github.com/claimslint/claimslint/internal/snapshot"
)

// Trial evaluates claim rows alone on a repository's files, exactly as
// check evaluates the claims of an accepted decision: the same universe,
// lexers, regions, scopes and placeholders. `claimslint migrate` chooses
// each row's kind and scope with it, so a claim it writes holds on the
// tree it was translated from (D64).
type Trial struct {
	snap *snapshot.Snapshot
	res  *Result
}

// NewTrial opens the repository at dir. When its register can be read, its
// highest id fills the placeholders; otherwise they cannot be filled, and
// a claim that holds one fails. globs are the Paths the rows will read:
// their untracked files join the universe, as they do for check once the
// claims are written.
func NewTrial(dir string, globs []string) (*Trial, error) {
	snap, err := snapshot.Load(dir)
	if err != nil {
		cfg, cerr := config.Load(dir)
		if cerr != nil {
			return nil, cerr
		}
		rp, rerr := repo.Open(dir)
		if rerr != nil {
			return nil, rerr
		}
		snap = &snapshot.Snapshot{Dir: dir, Config: cfg, Repo: rp}
	}
	var prefixes []string
	for _, g := range globs {
		if glob.Valid(g) == "" {
			prefixes = append(prefixes, glob.Prefix(g))
		}
	}
	if err := snap.Repo.ListUntracked(prefixes); err != nil {
		return nil, err
	}
	return &Trial{snap: snap, res: &Result{Snapshot: snap}}, nil
}

// MaxN is the register's highest decision id, 0 when there is no register.
func (t *Trial) MaxN() int {
	if t.snap.Register == nil {
		return 0
	}
	return t.snap.MaxN()
}

// TrialResult is what one claim evaluated alone found.
type TrialResult struct {
	// State is StateOK or StateFailed; Message is the first finding.
	State   string
	Message string
	// Held lists path:line of the lines (or units) in the claim's scope
	// its anchor matched that satisfy it, Broken those that break its
	// Require, up to a bound each.
	Held, Broken []string
	// Outside counts the lines the anchor matches outside the scope (in a
	// comment for a code claim, in code for a comment claim, on a line
	// wholly inside a string), and Tests the lines in tests the scope does
	// not count: both zero means the scope reads every line the anchor
	// matches.
	Outside, Tests int
}

// Eval evaluates row as a claim of an accepted decision.
func (t *Trial) Eval(row register.Claim) TrialResult { return t.EvalAll([]register.Claim{row})[0] }

// EvalAll evaluates rows together, as the claims of one accepted decision:
// an allow row excuses lines of the absent claim it names (D66), so a
// sweep and its exceptions are tried as check will read them.
func (t *Trial) EvalAll(rows []register.Claim) []TrialResult {
	d := &register.Decision{FileID: "D0", ID: "D0", Status: "accepted", Parsed: true}
	cs := make([]*claim, len(rows))
	out := make([]TrialResult, len(rows))
	for i, row := range rows {
		row.Decision = d.FileID
		c := newClaim(t.snap, d, row)
		cs[i] = c
		if c.kind == nil {
			out[i] = TrialResult{State: StateFailed, Message: "unknown kind " + row.Kind}
			continue
		}
		if !c.prepareRow() {
			c.kind = nil
		}
	}
	link(cs)
	for i, c := range cs {
		if c.kind == nil {
			if out[i].State == "" {
				out[i] = TrialResult{State: StateFailed, Message: "the claim row is malformed"}
				if len(c.bad) > 0 {
					out[i].Message = c.bad[0].Message
				}
			}
			continue
		}
		if c.lines != nil {
			for _, f := range c.files {
				scanFile(c.read, f, []*claim{c}, nil, nil, nil)
			}
			for _, l := range [][]hit{c.costly, c.code, c.reqFail, c.comment, c.test} {
				sortHits(l)
			}
		}
		st := c.conclude()
		r := TrialResult{State: st.State, Message: st.Message, Outside: len(c.comment), Tests: len(c.test)}
		for _, h := range c.code {
			r.Held = append(r.Held, h.String())
		}
		for _, h := range c.reqFail {
			r.Broken = append(r.Broken, h.String())
		}
		out[i] = r
	}
	return out
}

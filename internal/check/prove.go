package check

import (
	"fmt"
	"strings"

	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/ruleid"
)

// Proof states.
const (
	ProofCanFail = "can-fail"
	ProofVacuous = "vacuous"
)

// Proof is the outcome of mutating the lines one claim rests on.
type Proof struct {
	Decision string `json:"decision"`
	Claim    string `json:"claim"`
	Kind     string `json:"kind"`
	State    string `json:"state"`
	Mutants  int    `json:"mutants"`
	Killed   int    `json:"killed"`
	// Survivor describes the first mutant the claim stayed green under,
	// and Witness the line that still satisfied it.
	Survivor string `json:"survivor,omitempty"`
	Witness  string `json:"witness,omitempty"`
}

// mutant is one in-memory edit of one file.
type mutant struct {
	file    string
	line    int // 1-based
	deleted bool
	desc    string
	src     []byte
}

// Prove runs check, then proves every present and anchored claim of
// accepted decisions (of one decision when decision is set) able to fail:
// each line that satisfies the claim is deleted in memory, and for a claim
// with a Require the Require match on that line is removed, and the claim
// alone is evaluated again. A claim still green under one of its own
// mutants is vacuous: a CL009 finding names the mutant and the line that
// kept it green. The working tree is never written.
func Prove(opts Options) (*Result, []Proof, error) {
	opts.Prove = true
	r, err := Run(opts)
	if err != nil {
		return nil, nil, err
	}
	return r, r.Proofs, nil
}

// proveRun (CL009) proves the claims that held, after CL007 ran.
func proveRun(p *Pass) error {
	if !p.Opts.Prove {
		return nil
	}
	r := p.res
	ok := map[string]bool{}
	for _, st := range r.Claims {
		if st.State == StateOK {
			ok[st.Decision+"/"+st.Claim] = true
		}
	}
	for _, c := range r.prepare().all {
		d := c.d
		if c.kind == nil || d.Status != "accepted" || (p.Opts.Decision != "" && d.FileID != p.Opts.Decision) || !ok[d.FileID+"/"+c.c.ID] {
			continue
		}
		where := c.c.Pos.Filename
		if len(c.files) > 0 {
			where = c.files[0]
		}
		if r.overBudget(where) {
			return r.budgetErr()
		}
		pr, provable := r.prove(d, c.c)
		if !provable {
			continue
		}
		r.Proofs = append(r.Proofs, pr)
		if pr.State == ProofVacuous {
			p.Report(diag.Finding{
				Pos: c.c.Pos, Check: ruleid.Vacuous, Decision: d.FileID, Claim: c.c.ID, Severity: diag.SeverityError,
				Message: fmt.Sprintf("vacuous claim: it stays green when %s (%s still satisfies it); anchor on the one line that does the work", pr.Survivor, pr.Witness),
			})
		}
	}
	return nil
}

// evalOne evaluates one claim alone, with an optional overlay file, so the
// run's own claims are untouched.
func (r *Result) evalOne(d *register.Decision, row register.Claim, over *mutant) (*claim, ClaimState) {
	c := newClaim(r.Snapshot, d, row)
	if c.kind == nil || !c.prepareRow() {
		return nil, ClaimState{State: StateFailed}
	}
	read := r.Repo.ReadFile
	if over != nil {
		read = func(rel string, max int64) ([]byte, error) {
			if rel == over.file {
				return over.src, nil
			}
			return r.Repo.ReadFile(rel, max)
		}
	}
	c.read = read
	if c.lines != nil {
		for _, f := range c.files {
			scanFile(read, f, []*claim{c}, nil, nil, nil)
		}
	}
	return c, c.conclude()
}

// prove mutates the lines one claim rests on; provable is false for kinds
// prove does not mutate.
func (r *Result) prove(d *register.Decision, row register.Claim) (p Proof, provable bool) {
	p = Proof{Decision: d.FileID, Claim: row.ID, Kind: row.Kind, State: ProofCanFail}
	base, _ := r.evalOne(d, row, nil)
	if base == nil {
		return p, false
	}
	ms, ok := base.kind.Mutants(base)
	if !ok {
		return p, false
	}
	for _, m := range ms {
		p.Mutants++
		cc, st := r.evalOne(d, row, &m)
		if st.State != StateOK {
			p.Killed++
			continue
		}
		if p.State == ProofCanFail {
			p.State = ProofVacuous
			p.Survivor = m.desc
			if cc != nil && len(cc.code) > 0 {
				w := cc.code[0]
				if w.file == m.file && m.deleted && w.line >= m.line {
					w.line++ // name the line as it is numbered in the real file
				}
				p.Witness = w.String()
			}
		}
	}
	return p, true
}

// lineMutants lists the edits of the code lines that satisfy c: each line
// deleted, and each Require match on it removed.
func lineMutants(cc *claim) []mutant {
	var out []mutant
	for _, h := range cc.code {
		src, err := cc.snap.Repo.ReadFile(h.file, MaxFileSize)
		if err != nil {
			continue
		}
		lines := strings.SplitAfter(string(src), "\n")
		if h.line > len(lines) {
			continue
		}
		del := strings.Join(append(append([]string{}, lines[:h.line-1]...), lines[h.line:]...), "")
		out = append(out, mutant{h.file, h.line, true, fmt.Sprintf("%s:%d is deleted", h.file, h.line), []byte(del)})
		if cc.lines.require != nil && !cc.lines.negate {
			// One mutant per Require match, each removing that match only:
			// a line that carries the requirement twice survives either.
			line := lines[h.line-1]
			for _, loc := range cc.lines.require.FindAllStringIndex(line, -1) {
				if loc[0] == loc[1] {
					continue
				}
				edited := line[:loc[0]] + line[loc[1]:]
				mod := append(append([]string{}, lines[:h.line-1]...), edited)
				mod = append(mod, lines[h.line:]...)
				out = append(out, mutant{h.file, h.line, false, fmt.Sprintf("the Require match on %s:%d is removed", h.file, h.line), []byte(strings.Join(mod, ""))})
			}
		}
	}
	return out
}

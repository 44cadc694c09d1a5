package check

import (
	"fmt"
	"strings"

	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/register"
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
	r, err := Run(opts)
	if err != nil {
		return nil, nil, err
	}
	ok := map[string]bool{}
	for _, st := range r.Claims {
		if st.State == StateOK {
			ok[st.Decision+"/"+st.Claim] = true
		}
	}
	var proofs []Proof
	for _, d := range r.Decisions {
		if !d.Parsed || d.Status != "accepted" || (opts.Decision != "" && d.FileID != opts.Decision) {
			continue
		}
		for _, c := range d.Claims {
			if (c.Kind != KindPresent && c.Kind != KindAnchored) || !ok[d.FileID+"/"+c.ID] {
				continue
			}
			p := r.prove(d, c)
			proofs = append(proofs, p)
			if p.State == ProofVacuous {
				r.Findings = append(r.Findings, diag.Finding{
					Pos: c.Pos, Check: ruleVacuous, Decision: d.FileID, Claim: c.ID, Severity: diag.SeverityError,
					Message: fmt.Sprintf("vacuous claim: it stays green when %s (%s still satisfies it); anchor on the one line that does the work", p.Survivor, p.Witness),
				})
			}
		}
	}
	r.Findings = diag.Dedupe(r.Findings)
	return r, proofs, nil
}

// evalOne evaluates one claim with an optional overlay file, into a
// scratch result so the real one is untouched.
func (r *Result) evalOne(d *register.Decision, c register.Claim, over *mutant) (*compiled, ClaimState) {
	scratch := &Result{Config: r.Config, Repo: r.Repo, Export: r.Export, globs: r.globs}
	cc := scratch.prepare(d, c)
	if cc == nil {
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
	for _, f := range cc.files {
		scanFile(read, f, []*compiled{cc}, nil, nil)
	}
	scratch.conclude(cc)
	return cc, scratch.Claims[len(scratch.Claims)-1]
}

func (r *Result) prove(d *register.Decision, c register.Claim) Proof {
	p := Proof{Decision: d.FileID, Claim: c.ID, Kind: c.Kind, State: ProofCanFail}
	base, _ := r.evalOne(d, c, nil)
	if base == nil {
		return p
	}
	for _, m := range r.mutants(base) {
		p.Mutants++
		cc, st := r.evalOne(d, c, &m)
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
	return p
}

// mutants lists the edits of the lines that satisfy cc.
func (r *Result) mutants(cc *compiled) []mutant {
	var out []mutant
	for _, h := range cc.code {
		src, err := r.Repo.ReadFile(h.file, MaxFileSize)
		if err != nil {
			continue
		}
		lines := strings.SplitAfter(string(src), "\n")
		if h.line > len(lines) {
			continue
		}
		del := strings.Join(append(append([]string{}, lines[:h.line-1]...), lines[h.line:]...), "")
		out = append(out, mutant{h.file, h.line, true, fmt.Sprintf("%s:%d is deleted", h.file, h.line), []byte(del)})
		if cc.require != nil && !cc.negate {
			// One mutant per Require match, each removing that match only:
			// a line that carries the requirement twice survives either.
			line := lines[h.line-1]
			for _, loc := range cc.require.FindAllStringIndex(line, -1) {
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

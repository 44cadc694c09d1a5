package check

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"

	"github.com/claimslint/claimslint/internal/codeline"
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
	// KilledBy describes the first mutant that turned the claim red: the
	// change prove showed it catches (D95).
	KilledBy string `json:"killed_by,omitempty"`
}

// mustMutate is implemented by the kinds whose claim is vacuous when
// they list no mutant (D95): no new kind is proved by listing nothing.
type mustMutate interface{ mustMutate() }

// mutant is one in-memory edit of one file (or, for anchored-every's
// every-line deletion, of several: extra).
type mutant struct {
	file    string
	line    int // 1-based
	deleted bool
	desc    string
	src     []byte
	extra   map[string][]byte
}

// Prove runs check, then proves every claim of accepted decisions (of one
// decision when decision is set) whose kind lists mutants able to fail:
// each mutant the kind lists (for present and anchored, each satisfying
// line deleted in memory, and each Require match on it removed) is applied
// in turn, and the claim alone is evaluated again. A claim still green under one of its own
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

// evalOne evaluates one claim alone, with an optional overlay file, so the
// run's own claims are untouched.
func (r *Result) evalOne(d *register.Decision, row register.Claim, over *mutant) (*claim, ClaimState) {
	c := newClaim(r.Snapshot, d, row)
	c.budget = r.budget
	if c.kind == nil || !c.prepareRow() {
		return nil, ClaimState{State: StateFailed}
	}
	read := r.Repo.ReadFile
	if over != nil {
		read = func(rel string, max int64) ([]byte, error) {
			if rel == over.file {
				return over.src, nil
			}
			if src, ok := over.extra[rel]; ok {
				return src, nil
			}
			return r.Repo.ReadFile(rel, max)
		}
	}
	c.read = read
	if c.lines != nil {
		sc := &scratch{meter: meter{b: r.budget}}
		for _, f := range c.files {
			if r.budget.stop(overrun{claim: c, file: f, doing: "proving"}) {
				break // prove reports the budget's finding
			}
			scanFile(read, f, []*claim{c}, nil, nil, sc)
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
	if _, must := base.kind.(mustMutate); must && len(ms) == 0 {
		// A kind of D95 that finds no change to make cannot show the
		// claim can fail: it is vacuous, never silently proved.
		p.State, p.Survivor = ProofVacuous, "prove finds no line to change"
		if len(base.where) > 0 {
			p.Witness = base.where[0]
		}
		return p, true
	}
	for _, m := range ms {
		if r.budget.spent() {
			return p, true // proveRun reports the budget's finding
		}
		p.Mutants++
		cc, st := r.evalOne(d, row, &m)
		if st.State != StateOK {
			if p.Killed == 0 {
				p.KilledBy = m.desc
			}
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
		last := min(max(h.last, h.line), len(lines)) // a prose unit goes whole
		del := strings.Join(append(append([]string{}, lines[:h.line-1]...), lines[last:]...), "")
		out = append(out, mutant{file: h.file, line: h.line, deleted: true, desc: fmt.Sprintf("%s:%d is deleted", h.file, h.line), src: []byte(del)})
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
				out = append(out, mutant{file: h.file, line: h.line, desc: fmt.Sprintf("the Require match on %s:%d is removed", h.file, h.line), src: []byte(strings.Join(mod, ""))})
			}
		}
	}
	return out
}

// everyMutants are, for an anchored-every claim, the deletion of every line
// the anchor matches at once (one line gone still leaves the others), and
// per line, its Require broken: the match removed, or for !re a sample of
// re inserted.
func everyMutants(cc *claim) []mutant {
	var out []mutant
	byFile := map[string][]int{}
	var files []string
	for _, h := range cc.code {
		if _, ok := byFile[h.file]; !ok {
			files = append(files, h.file)
		}
		byFile[h.file] = append(byFile[h.file], h.line)
	}
	if len(files) == 0 {
		return nil
	}
	all := mutant{deleted: true, extra: map[string][]byte{}}
	for i, f := range files {
		src, err := cc.snap.Repo.ReadFile(f, MaxFileSize)
		if err != nil {
			return nil
		}
		lines := strings.SplitAfter(string(src), "\n")
		drop := map[int]bool{}
		for _, l := range byFile[f] {
			drop[l] = true
		}
		var kept []string
		for k, l := range lines {
			if !drop[k+1] {
				kept = append(kept, l)
			}
		}
		if i == 0 {
			all.file, all.line, all.src = f, byFile[f][0], []byte(strings.Join(kept, ""))
		} else {
			all.extra[f] = []byte(strings.Join(kept, ""))
		}
		for _, ln := range byFile[f] {
			if ln > len(lines) || cc.lines.require == nil {
				continue
			}
			line := lines[ln-1]
			var edited string
			if cc.lines.negate {
				sample, ok := sampleMatch(cc.lines.require)
				if !ok {
					continue
				}
				edited = strings.TrimRight(line, "\n") + " " + sample + "\n"
			} else {
				loc := cc.lines.require.FindStringIndex(line)
				if loc == nil || loc[0] == loc[1] {
					continue
				}
				edited = line[:loc[0]] + line[loc[1]:]
			}
			mod := append(append([]string{}, lines[:ln-1]...), edited)
			mod = append(mod, lines[ln:]...)
			out = append(out, mutant{file: f, line: ln, desc: fmt.Sprintf("the Require of %s:%d is broken", f, ln), src: []byte(strings.Join(mod, ""))})
		}
	}
	all.desc = fmt.Sprintf("every line %s matches is deleted", quoteRE(cc.c.Anchor))
	return append([]mutant{all}, out...)
}

// absentMutants insert one sample of the forbidden pattern into the first
// file of the claim's Path, where the claim's scope reads it.
func absentMutants(cc *claim) []mutant {
	if len(cc.lines.within) > 0 {
		return regionMutants(cc) // added inside the region, not at the end (D94)
	}
	sample, ok := absentSample(cc)
	if !ok || len(cc.files) == 0 {
		return nil
	}
	f := ""
	for _, cand := range cc.files {
		if isTestFile(cand) && cc.lines.skipTests && !cc.lines.tests {
			continue // a file the claim does not read: a sample there proves nothing
		}
		h := hit{file: cand, text: sample}
		excused := false
		for _, e := range cc.lines.allows {
			excused = excused || e.excuses(h)
		}
		if !excused {
			f = cand
			break
		}
	}
	if f == "" {
		return nil
	}
	src, err := cc.snap.Repo.ReadFile(f, MaxFileSize)
	if err != nil {
		return nil
	}
	var add string
	switch cc.scope {
	case ScopeProse:
		add = "\n\n" + sample + "\n"
	case ScopeComment:
		// The first comment form the file's lexer reads as a comment.
		for _, form := range [][2]string{{"// ", ""}, {"# ", ""}, {"-- ", ""}, {"/* ", " */"}, {"<!-- ", " -->"}} {
			try := "\n" + form[0] + sample + form[1] + "\n"
			mut := append(append([]byte{}, src...), try...)
			var r codeline.Regions
			codeline.Scan(f, mut, &r)
			if r.KindAt(len(src)+1+len(form[0])) == codeline.Comment {
				add = try
				break
			}
		}
		if add == "" {
			return nil
		}
	default:
		add = "\n" + sample + "\n"
	}
	n := strings.Count(string(src), "\n") + 2
	return []mutant{{file: f, line: n, desc: fmt.Sprintf("%q is added to %s", sample, f), src: append(append([]byte{}, src...), add...)}}
}

// sampleMatch builds a string re matches, for simple patterns: literals,
// classes, groups, repeats; it reports false when it cannot.
func sampleMatch(re *regexp.Regexp) (string, bool) {
	parsed, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	var gen func(n *syntax.Regexp) bool
	gen = func(n *syntax.Regexp) bool {
		switch n.Op {
		case syntax.OpLiteral:
			b.WriteString(string(n.Rune))
		case syntax.OpCharClass:
			if len(n.Rune) == 0 {
				return false
			}
			c := n.Rune[0]
			if c < 'a' && n.Rune[1] >= 'a' {
				c = 'a'
			}
			b.WriteRune(c)
		case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
			b.WriteByte('x')
		case syntax.OpCapture, syntax.OpPlus:
			return gen(n.Sub[0])
		case syntax.OpRepeat:
			for i := 0; i < n.Min; i++ {
				if !gen(n.Sub[0]) {
					return false
				}
			}
		case syntax.OpStar, syntax.OpQuest, syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine,
			syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		case syntax.OpConcat:
			for _, s := range n.Sub {
				if !gen(s) {
					return false
				}
			}
		case syntax.OpAlternate:
			return gen(n.Sub[0])
		default:
			return false
		}
		return true
	}
	if !gen(parsed.Simplify()) {
		return "", false
	}
	s := b.String()
	for _, c := range []string{s, " " + s + " "} {
		if re.MatchString(c) {
			return c, true
		}
	}
	return "", false
}

// absentSample is a line an absent claim forbids: a sample of its anchor,
// which must count (D66): a positive Require is added beside it, and a
// line an escape clears is no sample.
func absentSample(cc *claim) (string, bool) {
	sample, ok := sampleMatch(cc.lines.re())
	if !ok {
		return "", false
	}
	if spec := cc.lines; spec.require != nil {
		switch {
		case !spec.negate:
			req, ok := sampleMatch(spec.require)
			if !ok {
				return "", false
			}
			sample += " " + req
		case spec.require.MatchString(sample):
			return "", false
		}
		if !cc.requireOK(sample) {
			return "", false
		}
	}
	return sample, true
}

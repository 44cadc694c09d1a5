package check

import (
	"fmt"
	"go/token"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/format"
)

// DefaultBudget is how long one run may take when Options.Budget is zero.
const DefaultBudget = 10 * time.Minute

// Bounds on the regular-expression work of a run (D70). A step is one
// byte read times one instruction of the pattern's compiled program: the
// most any of Go's matchers spends on it. BenchmarkStepCost measured 55 to
// 380 million steps a second on a 2-core machine, loaded to idle. Literal
// anchors are matched as bytes and cost no steps.
const (
	// maxMatchCost bounds one call of a matcher: one line, one prose
	// unit, or a whole file's prefilter. A call cannot be interrupted, so
	// this is how far past its deadline a run can go: 0.2 to 1.2 s.
	maxMatchCost = 1 << 26
	// maxFileCost bounds what one claim may spend on one file, over all
	// its lines.
	maxFileCost = 1 << 28
)

// MaxClaims bounds the claim rows one run evaluates (D90): each costs a
// few kilobytes and a pass of its Path over the tree, and 69 MB of claim
// tables took 49.8 s and 5.0 GB. Rows past it are one finding, at the
// first of them.
const MaxClaims = 50_000

// MaxFindings caps the findings one run reports (D90): 31 MB naming an
// unknown tracker id made 4.56 million of them (28.8 s, 3.7 GB). Past it,
// findings are counted, not kept, and one finding per rule says how many
// were cut, so every output format reports the cap.
const MaxFindings = 10_000

// cut counts the findings of one rule past MaxFindings.
type cut struct {
	n   int
	pos token.Position // the first finding cut
	sev diag.Severity  // the most severe finding cut
}

// capped reports whether the run's findings are at MaxFindings, counting f
// as cut if they are.
func (r *Result) capped(f diag.Finding) bool {
	if len(r.Findings) < MaxFindings {
		return false
	}
	if r.cuts == nil {
		r.cuts = map[string]*cut{}
	}
	c := r.cuts[f.Check]
	if c == nil {
		c = &cut{pos: f.Pos, sev: f.Severity}
		r.cuts[f.Check] = c
	}
	c.n++
	if f.Severity == diag.SeverityError || f.Severity == diag.SeverityWarning && c.sev == diag.SeverityNote {
		c.sev = f.Severity
	}
	return true
}

// cutFindings are the findings that say, for each rule, how many of its
// findings the cap cut, in rule order, after the run's sorted findings.
func (r *Result) cutFindings() []diag.Finding {
	var out []diag.Finding
	for _, rule := range Rules {
		c := r.cuts[rule.ID]
		if c == nil {
			continue
		}
		out = append(out, diag.Finding{Pos: c.pos, Check: rule.ID, Severity: c.sev,
			Message: fmt.Sprintf("%d more %s findings were cut, this one first: a run reports at most %d findings (D90); fix the ones reported and run again", c.n, rule.ID, MaxFindings)})
	}
	return out
}

// MaxPattern bounds the Anchor and Require cells of a claim row (D70): a
// pattern states one line of code, and compiling a 4 MB one took 5 s and
// 1 GB.
const MaxPattern = 4096

// budget is a run's one time budget (D70): a deadline, asked inside every
// loop that can run long (between the files a glob is matched against,
// between the lines and prose units an anchor reads, between files and
// between mutants), and the first place it ran out.
type budget struct {
	limit    time.Duration
	deadline time.Time
	out      atomic.Bool

	mu     sync.Mutex
	at     overrun
	unread int // files no worker read once it had run out
}

// overrun is where a budget ran out.
type overrun struct {
	claim *claim
	file  string
	line  int
	doing string // "preparing the claims", doingAnchor, "proving", ...
	pos   token.Position
}

func newBudget(limit time.Duration) *budget {
	if limit <= 0 {
		limit = DefaultBudget
	}
	return &budget{limit: limit, deadline: time.Now().Add(limit)}
}

// spent reports whether the deadline has passed. A nil budget is never
// spent.
func (b *budget) spent() bool {
	if b == nil {
		return false
	}
	if b.out.Load() {
		return true
	}
	if time.Now().Before(b.deadline) {
		return false
	}
	b.out.Store(true)
	return true
}

// stop reports whether the budget is spent, recording at as where it ran
// out when it is the first place to see it.
func (b *budget) stop(at overrun) bool {
	if !b.spent() {
		return false
	}
	b.mu.Lock()
	if b.at.doing == "" {
		b.at = at
	}
	b.mu.Unlock()
	return true
}

// firstCut names, when the budget ran out while the claims were being
// prepared on all cores, the first claim it cut in row order rather than
// whichever core saw it first, so the finding does not depend on
// scheduling.
func (b *budget) firstCut(all []*claim) {
	if !b.spent() {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.at.claim == nil || b.at.file != "" {
		return // it ran out before or after preparing
	}
	for _, c := range all {
		if c.cut {
			b.at = c.cutAt
			return
		}
	}
}

// budgetOut reports whether the run's budget is spent before reading
// file for claim cc (one of those that read it), counting the file unread.
func (r *Result) budgetOut(file string, cc *claim) bool {
	b := r.budget
	if !b.stop(overrun{claim: cc, file: file, doing: "before reading a file"}) {
		return false
	}
	b.mu.Lock()
	b.unread++
	b.mu.Unlock()
	return true
}

// meter spreads the clock reads of one loop over its steps: tick asks the
// budget once per quantum steps, or every 256 iterations.
type meter struct {
	b     *budget
	steps int64
	n     int
}

const quantum = 1 << 20

// tick adds steps and reports whether the budget is spent.
func (m *meter) tick(steps int) bool {
	if m == nil || m.b == nil {
		return false
	}
	m.steps += int64(steps)
	m.n++
	if m.steps < quantum && m.n < 256 {
		return false
	}
	m.steps, m.n = 0, 0
	return m.b.spent()
}

// finding is the one finding a run over its budget reports (D70): where
// it ran out, naming the file and the claim, and how much was left
// undone. It fails the run whatever the decision's status: the claims
// left undone are not known to hold.
func (b *budget) finding(check, undone string) diag.Finding {
	b.mu.Lock()
	at := b.at
	if undone == "" {
		undone = format.Count(b.unread, "file") + " not read"
	}
	b.mu.Unlock()
	f := diag.Finding{Check: check, Severity: diag.SeverityError, Pos: at.pos}
	var where []string
	if at.claim != nil {
		f.Decision, f.Claim = at.claim.d.FileID, at.claim.c.ID
		where = append(where, at.claim.name())
		if f.Pos.Filename == "" {
			f.Pos = at.claim.c.Pos
		}
	}
	if at.file != "" {
		file := at.file
		if at.line > 0 {
			file += fmt.Sprintf(" line %d", at.line)
		}
		where = append(where, file)
		if f.Pos.Filename == "" || at.line > 0 {
			f.Pos = token.Position{Filename: at.file, Line: max(at.line, 1), Column: 1}
		}
	}
	advice := "narrow the claims' Path globs"
	switch at.doing {
	case doingAnchor:
		advice = "anchor on a literal, or narrow Path"
	case doingMentions:
		advice = "narrow the mentions globs"
	}
	f.Message = fmt.Sprintf("the run took longer than its budget of %s: it stopped %s, at %s, with %s; raise --budget, or %s",
		b.limit, at.doing, strings.Join(where, " on "), undone, advice)
	return f
}

// doingAnchor is what a run does while a claim reads a file's lines.
const doingAnchor = "matching the Anchor"

// budgetFinding reports a budget's finding once per run, for the rule
// check whose work it cut; undone says what was left undone ("" counts
// the files not read). A rule run only because another requires it
// reports nothing: the rule asked for meets the spent budget in turn and
// reports it.
func (r *Result) budgetFinding(p *Pass, check, undone string) {
	if r.budgetReported || p.quiet {
		return
	}
	r.budgetReported = true
	p.reportUncapped(r.budget.finding(check, undone)) // the run's cap never hides it
}

// claimsUndone words the claims a budget left unevaluated.
func (r *Result) claimsUndone(n int) string {
	r.budget.mu.Lock()
	defer r.budget.mu.Unlock()
	return format.Count(n, "claim") + " not evaluated and " + format.Count(r.budget.unread, "file") + " not read"
}

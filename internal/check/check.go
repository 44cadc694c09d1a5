package check

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/claimslint/claimslint/internal/decisionid"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/snapshot"
)

// Options configure a run.
type Options struct {
	// Dir is the repository root to check.
	Dir string
	// Decision, when set, limits claim evaluation to one decision; the
	// register rules still run.
	Decision string
	// Base, when set, is a git revision: claim rows changed since Base
	// must come with a change to the lines they anchor on (CL011), and
	// rows of accepted decisions must not be deleted (CL012).
	Base string
	// Prove, when set, proves every claim that held able to fail (CL009).
	Prove bool
	// Budget bounds the run's time (DefaultBudget when zero): past it the
	// run stops, and one finding names the claim and the file it had
	// reached (D70).
	Budget time.Duration
}

// Claim states reported by list.
const (
	StateOK      = "ok"
	StateFailed  = "failed"
	StatePending = "pending"
	StateRetired = "retired"
)

// ClaimState is the outcome of one claim, the record `claimslint list` prints.
type ClaimState struct {
	Decision string `json:"decision"`
	Status   string `json:"status"`
	Claim    string `json:"claim"`
	Kind     string `json:"kind"`
	State    string `json:"state"`
	// Where lists path:line of the code lines the claim rests on now.
	Where   []string `json:"where"`
	Message string   `json:"message,omitempty"`
	Row     string   `json:"row"`

	lines bool // Where names code lines (the kind scans lines)
}

// Result is everything a run found, over the snapshot it ran on.
type Result struct {
	*snapshot.Snapshot
	Findings []diag.Finding
	// Claims are the states of the claims CL007 evaluated, when it was
	// among the rules asked for.
	Claims []ClaimState
	// Proofs are prove's outcomes (CL009), one per claim it mutated.
	Proofs []Proof
	// Notes are things the user should know that are not findings, such as
	// files skipped because they are binary.
	Notes []string

	ctx      context.Context // cancelled: the run stops between files and claims
	scanned  atomic.Int64    // files the scan has read
	prepared *prepared       // the claims, validated once per run (prepare)
	notesMu  sync.Mutex

	budget         *budget         // the run's time budget (D70)
	budgetReported bool            // its finding is made
	cuts           map[string]*cut // findings past MaxFindings, by rule (D90)
	baseCut        int             // decisions --base did not read, the budget spent
}

// Run loads the repository at opts.Dir and runs every rule on it. An error
// means the check could not be carried out (bad configuration, unreadable
// register); problems in the register's content are findings.
func Run(opts Options) (*Result, error) {
	return RunContext(context.Background(), opts)
}

// RunContext is Run, stopped when ctx is done: between decision files
// while loading, between rules, claims and files while evaluating. A
// stopped run returns ctx's error (errors.Is context.Canceled or
// context.DeadlineExceeded) and no result (D54).
//
// The run's budget (Options.Budget) starts here and covers loading too: a
// load it cuts short is an error naming the file it stopped at (D70).
func RunContext(ctx context.Context, opts Options) (*Result, error) {
	b := newBudget(opts.Budget)
	lctx, cancel := context.WithDeadline(ctx, b.deadline)
	defer cancel()
	snap, err := snapshot.LoadContext(lctx, opts.Dir)
	if err != nil {
		if ctx.Err() == nil && lctx.Err() != nil {
			return nil, fmt.Errorf("the run took longer than its budget of %s while reading the register's Markdown, before any claim was evaluated (%v): raise --budget", b.limit, err)
		}
		return nil, err
	}
	return runRules(ctx, snap, opts, b, Rules...)
}

// Claims evaluates the claims of snap (of one decision when decision is
// set) and nothing else: the claim states `list` and the MCP decision
// tools show, without the register rules.
func Claims(snap *snapshot.Snapshot, decision string) *Result {
	res, _ := RunRules(snap, Options{Dir: snap.Dir, Decision: decision}, claimRule) // claims report no errors
	return res
}

// ClaimsAndTables is Claims with the claim-table rule (CL006) run too:
// its findings name the rows that cannot be evaluated, of every decision
// (the caller picks a decision's by position), where Claims has only a
// failed state. accept reads it (D78).
func ClaimsAndTables(snap *snapshot.Snapshot, decision string) *Result {
	res, _ := RunRules(snap, Options{Dir: snap.Dir, Decision: decision}, claimRule, claimTableRule) // neither reports an error
	return res
}

// RunRules runs rules on snap, in order, each after the rules it requires
// (Rule.Requires), which run first, once each. Only the rules asked for
// report: each reports its findings and the parse findings of the
// snapshot that carry its id; a rule run only because another requires it
// hands over its result and reports nothing.
func RunRules(snap *snapshot.Snapshot, opts Options, rules ...*Rule) (*Result, error) {
	return RunRulesContext(context.Background(), snap, opts, rules...)
}

// RunRulesContext is RunRules, stopped when ctx is done (see RunContext).
// Its budget (Options.Budget) starts with the call.
func RunRulesContext(ctx context.Context, snap *snapshot.Snapshot, opts Options, rules ...*Rule) (*Result, error) {
	return runRules(ctx, snap, opts, newBudget(opts.Budget), rules...)
}

func runRules(ctx context.Context, snap *snapshot.Snapshot, opts Options, b *budget, rules ...*Rule) (*Result, error) {
	order, err := plan(rules)
	if err != nil {
		return nil, err
	}
	asked := map[*Rule]bool{}
	for _, rule := range rules {
		asked[rule] = true
	}
	res := &Result{Snapshot: snap, budget: b, ctx: ctx}
	results := map[*Rule]any{}
	for _, rule := range order { // the required rules first
		if err := ctx.Err(); err != nil {
			return nil, stoppedErr(err)
		}
		pass := &Pass{Rule: rule, Snap: snap, Opts: opts, ResultOf: map[*Rule]any{}, res: res, quiet: !asked[rule]}
		for _, req := range rule.Requires {
			pass.ResultOf[req] = results[req]
		}
		for _, f := range snap.ParseFindings {
			if f.Check == rule.ID {
				pass.Report(f)
			}
		}
		if err := rule.Run(pass); err != nil {
			return nil, err
		}
		if results[rule], err = pass.resultOf(); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, stoppedErr(err) // a rule may have skipped work
	}
	res.Findings = append(diag.Dedupe(res.Findings), res.cutFindings()...)
	sort.Slice(res.Claims, func(i, j int) bool {
		a, b := res.Claims[i], res.Claims[j]
		if a.Decision != b.Decision {
			return decisionid.Compare(a.Decision, b.Decision) < 0
		}
		return claimLess(a.Claim, b.Claim)
	})
	sort.Strings(res.Notes)
	return res, nil
}

// stoppedErr wraps the error of a done context: the run stopped, and
// errors.Is still finds context.Canceled or context.DeadlineExceeded.
func stoppedErr(err error) error { return fmt.Errorf("check stopped: %w", err) }

// stopped reports whether the run's context is done; work in progress then
// ends at the next file or claim, and RunRulesContext returns its error.
func (r *Result) stopped() bool { return r.ctx != nil && r.ctx.Err() != nil }

// claimLess orders C2 before C10.
func claimLess(a, b string) bool {
	na, nb := trailingNumber(a), trailingNumber(b)
	if na >= 0 && nb >= 0 && strings.TrimRight(a, "0123456789") == strings.TrimRight(b, "0123456789") {
		return na < nb
	}
	return a < b
}

func trailingNumber(s string) int {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	if i == len(s) || len(s)-i > 9 {
		return -1
	}
	n := 0
	for _, c := range s[i:] {
		n = n*10 + int(c-'0')
	}
	return n
}

func (r *Result) note(s string) {
	r.notesMu.Lock()
	r.Notes = append(r.Notes, s)
	r.notesMu.Unlock()
}

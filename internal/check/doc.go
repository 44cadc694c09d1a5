// Package check evaluates a decision register against a repository: the
// register rules and the claims of every decision, each rule a value (Rule)
// run on a loaded snapshot through a Pass, each claim kind a value (Kind) in
// a registry. It returns structured findings and never prints; the caller
// formats them.
//
// # Rules
//
// A rule is modelled on a golang.org/x/tools/go/analysis Analyzer. It
// names the rules whose results it reads (Rule.Requires) and reads them
// through its pass (Pass.ResultOf); a rule that others read declares the
// type of its result (Rule.ResultType) and sets it (Pass.SetResult). The
// driver (RunRules) runs the rules asked for and, first, what they
// require, transitively: each rule once per run, every rule after the
// rules it requires. Only the rules asked for report: a rule that runs
// because another requires it hands over its result and nothing else (no
// findings, notes, claim states or proofs), as go/analysis reports only
// the diagnostics of the analyzers it was given.
//
// Each rule lives in a file of its own, rule_clNNN_<name>.go, which holds
// its value, its documentation (what `claimslint explain` prints) and its
// run function; the run computes that rule's findings and no other
// rule's. What two rules share is a helper (the claims validated once per
// run, Result.prepare) or a rule of its own that reports nothing and
// exports a result (baseRowsRule).
//
// To add a rule:
//
//  1. Add its id to internal/ruleid.
//  2. Write rule_clNNN_<name>.go: a `var xRule = &Rule{ID, Name, Doc,
//     Requires, Run}` and its run function, which reports through the pass.
//  3. Add the value to Rules (rules.go), in id order.
//  4. Write a fixture under testdata/rules/<dir>, a small repository whose
//     files state the findings they expect inline (want "regexp", see
//     package checktest), with at least one finding, and name it in
//     TestEachRuleAloneOnItsFixture (rules_test.go); the test fails for a
//     rule of Rules that has no fixture.
//  5. If the rule has a decision, add its claims to the register.
//
// A claim kind is added the same way, one file that registers a Kind (see
// Kind).
package check

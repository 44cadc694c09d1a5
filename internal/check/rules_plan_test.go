package check

import (
	"go/token"
	"reflect"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/snapshot"
)

func ruleNames(rules []*Rule) string {
	var names []string
	for _, r := range rules {
		names = append(names, r.String())
	}
	return strings.Join(names, " ")
}

// TestPlanRunsRequiredRulesFirstOnce: every rule comes after the rules it
// requires, each once, in the order asked for otherwise.
func TestPlanRunsRequiredRulesFirstOnce(t *testing.T) {
	run := func(*Pass) error { return nil }
	a := &Rule{Name: "a", Run: run}
	b := &Rule{Name: "b", Run: run, Requires: []*Rule{a}}
	c := &Rule{Name: "c", Run: run, Requires: []*Rule{b, a}}
	d := &Rule{Name: "d", Run: run}
	for _, tc := range []struct {
		asked []*Rule
		want  string
	}{
		{[]*Rule{c}, "a b c"},
		{[]*Rule{d, c, b}, "d a b c"},
		{[]*Rule{c, c, a}, "a b c"},
		{[]*Rule{vacuousRule}, "CL007 CL009"},
		{[]*Rule{deletedRule, baseRule}, "base-register base-rows CL012 CL007 CL011"},
		{[]*Rule{narrowedRule, retiredRule}, "base-register CL015 CL014"},
		{Rules, ruleNames(Rules[:10]) + " base-register base-rows " + ruleNames(Rules[10:])},
	} {
		got, err := plan(tc.asked)
		if err != nil {
			t.Fatal(err)
		}
		if ruleNames(got) != tc.want {
			t.Errorf("plan(%s) = %s, want %s", ruleNames(tc.asked), ruleNames(got), tc.want)
		}
	}
}

// TestPlanRefusesCycles: rules that require each other, a nil rule and a
// rule without Run are programming errors the driver reports, not runs.
func TestPlanRefusesCycles(t *testing.T) {
	run := func(*Pass) error { return nil }
	a := &Rule{Name: "a", Run: run}
	b := &Rule{Name: "b", Run: run, Requires: []*Rule{a}}
	c := &Rule{Name: "c", Run: run, Requires: []*Rule{b}}
	a.Requires = []*Rule{c}
	self := &Rule{Name: "self", Run: run}
	self.Requires = []*Rule{self}
	for i, tc := range []struct {
		asked []*Rule
		want  string
	}{
		{[]*Rule{a}, "rules require each other: a requires c requires b requires a"},
		{[]*Rule{b}, "rules require each other: b requires a requires c requires b"},
		{[]*Rule{self}, "rules require each other: self requires self"},
		{[]*Rule{{Name: "x", Run: run, Requires: []*Rule{nil}}}, "rule x requires a nil rule"},
		{[]*Rule{nil}, "a nil rule was asked for"},
		{[]*Rule{{Name: "norun"}}, "rule norun has no Run"},
	} {
		_, err := plan(tc.asked)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("case %d: got %v, want an error containing %q", i, err, tc.want)
		}
		snap := &snapshot.Snapshot{}
		if res, err := RunRules(snap, Options{}, tc.asked...); err == nil || res != nil {
			t.Errorf("case %d: RunRules ran rules it cannot order: %v", i, err)
		}
	}
}

// TestResultsThroughThePass: a rule reads the result of each rule it
// requires, of the declared type (the zero value when none was set); a
// required rule that was not asked for reports nothing; a result of
// another type than declared is an error.
func TestResultsThroughThePass(t *testing.T) {
	snap := &snapshot.Snapshot{}
	producer := &Rule{ID: "P", Name: "producer", ResultType: reflect.TypeOf(0), Run: func(p *Pass) error {
		p.Reportf(token.Position{Filename: "x", Line: 1}, "from the producer")
		p.SetResult(42)
		return nil
	}}
	silent := &Rule{Name: "silent", ResultType: reflect.TypeOf(""), Run: func(*Pass) error { return nil }}
	var got []any
	consumer := &Rule{ID: "C", Name: "consumer", Requires: []*Rule{producer, silent}, Run: func(p *Pass) error {
		got = []any{p.ResultOf[producer], p.ResultOf[silent]}
		p.Reportf(token.Position{Filename: "x", Line: 1}, "from the consumer")
		return nil
	}}
	res, err := RunRules(snap, Options{}, consumer)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, []any{42, ""}) {
		t.Errorf("the consumer read %#v, want 42 and \"\"", got)
	}
	if len(res.Findings) != 1 || res.Findings[0].Check != "C" {
		t.Errorf("findings %+v, want the consumer's only", res.Findings)
	}
	res, err = RunRules(snap, Options{}, producer, consumer)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 2 {
		t.Errorf("findings %+v, want the producer's and the consumer's", res.Findings)
	}

	liar := &Rule{Name: "liar", ResultType: reflect.TypeOf(0), Run: func(p *Pass) error { p.SetResult("42"); return nil }}
	if _, err := RunRules(snap, Options{}, liar); err == nil || !strings.Contains(err.Error(), "result of type string, but declares int") {
		t.Errorf("a result of the wrong type: got %v", err)
	}
}

// TestClaimTablesDocListsTheKinds: CL006's documentation names the kinds
// of the registry, as CL007's does, and follows it.
func TestClaimTablesDocListsTheKinds(t *testing.T) {
	doc, _ := Explain("CL006", Rules)
	flat := strings.Join(strings.Fields(doc), " ")
	if !strings.Contains(flat, "Kind is "+kindList()+", and the kinds that read lines (present, anchored, anchored-every, absent, count, before, first and agree) take a scope suffix (:code, :test, :any, :all, :comment, :prose);") {
		t.Errorf("CL006 does not list the kinds:\n%s", doc)
	}
	for _, l := range strings.Split(doc, "\n") {
		if len(l) > 78 {
			t.Errorf("line over 78 columns: %q", l)
		}
	}
	restore := addKind("tracker", nonemptyKind{})
	doc, _ = Explain("CL006", Rules)
	restore()
	if !strings.Contains(strings.Join(strings.Fields(doc), " "), "exec, tracker, nonempty, count,") {
		t.Errorf("CL006 does not list a registered kind:\n%s", doc)
	}
	if doc, _ = Explain("CL006", Rules); strings.Contains(doc, "nonempty") {
		t.Errorf("CL006 lists an unregistered kind:\n%s", doc)
	}
}

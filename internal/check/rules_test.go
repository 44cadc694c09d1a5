package check_test

import (
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/check/checktest"
)

// Each rule runs alone on its fixture; the fixture's files state the
// findings they expect inline (want "...").
func TestRulesOnFixtures(t *testing.T) {
	byID := map[string]*check.Rule{}
	for _, r := range check.Rules {
		byID[r.ID] = r
	}
	for _, tc := range []struct {
		dir   string
		rules []string
	}{
		{"testdata/rules/claims", []string{"CL006", "CL007"}},
		{"testdata/rules/range", []string{"CL003"}},
		// D0 and lettered ids are never the n of D1..Dn (D72).
		{"testdata/rules/range_ids", []string{"CL003"}},
		{"testdata/rules/count", []string{"CL010"}},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			var rules []*check.Rule
			for _, id := range tc.rules {
				rules = append(rules, byID[id])
			}
			checktest.Run(t, tc.dir, check.Options{}, rules...)
		})
	}
}

// A rule run alone reports only its own findings: the claim rule does not
// report the claim-table rule's.
func TestRuleAlone(t *testing.T) {
	var cl007 *check.Rule
	for _, r := range check.Rules {
		if r.ID == "CL007" {
			cl007 = r
		}
	}
	res := checktest.RunQuiet(t, "testdata/rules/claims", check.Options{}, cl007)
	for _, f := range res.Findings {
		if f.Check != "CL007" {
			t.Errorf("CL007 alone reported %s: %s", f.Check, f.Message)
		}
	}
	if len(res.Findings) == 0 {
		t.Fatal("CL007 reported nothing on a fixture with failing claims")
	}
}

// TestExplainByName: explain finds a rule by the name its list shows as
// well as by its id, in any case (a stranger's `explain claims` was an
// unknown rule).
func TestExplainByName(t *testing.T) {
	t.Parallel()
	for _, r := range check.Rules {
		for _, q := range []string{r.ID, strings.ToLower(r.ID), r.Name, strings.ToUpper(r.Name)} {
			doc, err := check.Explain(q, check.Rules)
			if err != nil || !strings.HasPrefix(doc, r.ID+" "+r.Name+"\n") {
				t.Errorf("Explain(%q) = %q, %v", q, doc, err)
			}
		}
	}
	if _, err := check.Explain("no-such-rule", check.Rules); err == nil {
		t.Error("an unknown name was explained")
	}
}

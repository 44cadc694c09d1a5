package migrate

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAllowSeveral: an allow-list self-test that several lines satisfy is
// translated as a presence row is (issue 34 item 7), so prove can fail it;
// one that a single line satisfies stays present.
func TestAllowSeveral(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"t.jsonl": `{"id":"ub-1","title":"inputs are strictly deserialized"}` + "\n" +
			`{"id":"ub-2","title":"strictly deserialized, again"}` + "\n",
		"plan.md": "T2.3 shipped: inputs are strictly deserialized.\n\nT2.3 again: strictly deserialized.\n",
		"one.md":  "T2.4 shipped: inputs are strictly deserialized.\n",
		"mixed.md": "T2.5 shipped: inputs are strictly deserialized.\n\nT2.5 also names the plan.\n" +
			"T2.5 is strictly deserialized again.\n",
	})
	fam := `(?i)strictly[ ]deserialized`
	g := &Gate{Script: "g.sh", Decision: "D9", Rows: []Row{
		{Code: "ALLOW1", Rule: RuleAllow, Layout: LayoutAllow, Path: "t.jsonl", Anchor: fam},
		{Code: "ALLOW2", Rule: RuleAllow, Layout: LayoutAllow, Path: "plan.md", Anchor: fam, Regex: `T2\.3`},
		{Code: "ALLOW3", Rule: RuleAllow, Layout: LayoutAllow, Path: "one.md", Anchor: fam, Regex: `T2\.4`},
		{Code: "ALLOW4", Rule: RuleAllow, Layout: LayoutAllow, Path: "mixed.md", Anchor: fam, Regex: `T2\.5`},
	}}
	tr := Translate(g, Options{Dir: dir, ClaimsDir: "docs/claims"})
	want := []string{"ALLOW1 anchored-every:all", "ALLOW2 anchored-every:all", "ALLOW3 present:all", "ALLOW4 present:all", "X1 exec"}
	if d := cmp.Diff(want, kindsOf(tr)); d != "" {
		t.Fatalf("kinds (-want +got):\n%s", d)
	}
	if c := tr.Claims[1]; c.Anchor != `T2\.3` || c.Require != fam {
		t.Errorf("ALLOW2: the substring anchors and the family is required, got Anchor %q Require %q", c.Anchor, c.Require)
	}
	if n := tr.Claims[3].Note; !strings.Contains(n, "not every line holding the substring matches the family") {
		t.Errorf("ALLOW4 must say why it stays present: %q", n)
	}
	if len(g.Skipped) != 0 {
		t.Errorf("skipped: %+v", g.Skipped)
	}
}

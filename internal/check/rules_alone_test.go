package check_test

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/check/checktest"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/ruleid"
	"github.com/claimslint/claimslint/internal/snapshot"
)

// ruleFixtures names each rule's fixture under testdata/rules: a small
// repository whose files state, inline, the findings the rule alone
// reports there. Fixtures run as git repositories of their own (see
// fixtureDir).
var ruleFixtures = map[string]struct {
	dir  string
	opts check.Options
}{
	ruleid.Register: {dir: "register"},
	ruleid.Status:   {dir: "status"},
	ruleid.Range:    {dir: "range"},
	ruleid.Tracker:  {dir: "tracker"},
	ruleid.Scripts:  {dir: "scripts"},
	ruleid.Claims:   {dir: "claim-tables"},
	ruleid.Claim:    {dir: "claims-hold"},
	ruleid.Markdown: {dir: "markdown"},
	ruleid.Vacuous:  {dir: "vacuous", opts: check.Options{Prove: true}},
	ruleid.Count:    {dir: "count"},
	ruleid.Base:     {dir: "base-changed", opts: check.Options{Base: "base"}},
	ruleid.Deleted:  {dir: "base-deleted", opts: check.Options{Base: "base"}},
	ruleid.Retired:  {dir: "base-retired", opts: check.Options{Base: "base"}},
	ruleid.Narrowed: {dir: "base-narrowed", opts: check.Options{Base: "base"}},
	ruleid.Here:     {dir: "base-here", opts: check.Options{Base: "base"}},
}

// TestEachRuleAloneOnItsFixture runs every rule of check.Rules alone on its
// fixture: each finding it reports is expected there, each expectation
// met, and there is at least one, so the rule can fail its test.
func TestEachRuleAloneOnItsFixture(t *testing.T) {
	for _, rule := range check.Rules {
		t.Run(rule.ID, func(t *testing.T) {
			fx, ok := ruleFixtures[rule.ID]
			if !ok {
				t.Fatalf("%s %s has no fixture: add one under testdata/rules and name it in ruleFixtures", rule.ID, rule.Name)
			}
			dir := fixtureDir(t, fx.dir)
			want, err := checktest.Expectations(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) == 0 {
				t.Fatalf("fixture %s expects no finding: it cannot fail", fx.dir)
			}
			res := checktest.Run(t, dir, fx.opts, rule)
			for _, f := range res.Findings {
				if f.Check != rule.ID {
					t.Errorf("%s alone reported a %s finding: %s", rule.ID, f.Check, f.Message)
				}
			}
		})
	}
}

// fixtureDir returns a git repository in a temporary directory holding
// fixture name, all of it committed, so index modes (CL005) do not depend
// on the repository the test runs in. When name has a sibling name.base,
// the commit (tagged base) holds name.base's tree and the work tree
// name's, uncommitted: what the --base rules compare.
func fixtureDir(t *testing.T, name string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := filepath.Join("testdata", "rules", name)
	base := dir
	if _, err := os.Stat(dir + ".base"); err == nil {
		base = dir + ".base"
	}
	tmp := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", "-c", "core.fileMode=true"}, args...)...)
		cmd.Dir = tmp
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	copyTree(t, base, tmp)
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	git("tag", "base")
	if base == dir {
		return tmp
	}
	entries, _ := os.ReadDir(tmp)
	for _, e := range entries {
		if e.Name() != ".git" {
			if err := os.RemoveAll(filepath.Join(tmp, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	copyTree(t, dir, tmp)
	return tmp
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), data, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRequiredRulesRunFirst: a rule asked for alone runs what it requires
// and finds what it finds in a full run, and the rules it requires report
// nothing. CL009 alone proves the claims a full run proves (it reads
// CL007's claim states through its pass); CL011 and CL012 alone report,
// with --base, what a full run reports.
func TestRequiredRulesRunFirst(t *testing.T) {
	for _, tc := range []struct {
		id   string
		dir  string
		opts check.Options
	}{
		{ruleid.Vacuous, "vacuous", check.Options{Prove: true}},
		{ruleid.Base, "base-changed", check.Options{Base: "base"}},
		{ruleid.Deleted, "base-deleted", check.Options{Base: "base"}},
		{ruleid.Retired, "base-retired", check.Options{Base: "base"}},
		{ruleid.Narrowed, "base-narrowed", check.Options{Base: "base"}},
		{ruleid.Here, "base-here", check.Options{Base: "base"}},
	} {
		t.Run(tc.id, func(t *testing.T) {
			var rule *check.Rule
			for _, r := range check.Rules {
				if r.ID == tc.id {
					rule = r
				}
			}
			if len(rule.Requires) == 0 {
				t.Fatalf("%s requires nothing", tc.id)
			}
			dir := fixtureDir(t, tc.dir)
			snap, err := snapshot.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			opts := tc.opts
			opts.Dir = dir
			full, err := check.RunRules(snap, opts, check.Rules...)
			if err != nil {
				t.Fatal(err)
			}
			alone, err := check.RunRules(snap, opts, rule)
			if err != nil {
				t.Fatal(err)
			}
			own := func(fs []diag.Finding) []diag.Finding {
				var out []diag.Finding
				for _, f := range fs {
					if f.Check == tc.id {
						out = append(out, f)
					}
				}
				return out
			}
			if len(own(full.Findings)) == 0 {
				t.Fatalf("a full run reports no %s finding on %s: the test proves nothing", tc.id, tc.dir)
			}
			if !reflect.DeepEqual(own(alone.Findings), own(full.Findings)) || len(alone.Findings) != len(own(alone.Findings)) {
				t.Errorf("%s alone reported\n%v\na full run's %s findings are\n%v", tc.id, alone.Findings, tc.id, own(full.Findings))
			}
			if !reflect.DeepEqual(alone.Proofs, full.Proofs) {
				t.Errorf("%s alone proved %d claims %+v, a full run %d %+v", tc.id, len(alone.Proofs), alone.Proofs, len(full.Proofs), full.Proofs)
			}
			if tc.opts.Prove && len(alone.Proofs) == 0 {
				t.Errorf("%s alone proved no claim", tc.id)
			}
			if len(alone.Claims) != 0 {
				t.Errorf("CL007, run only because %s requires it, recorded %d claim states", tc.id, len(alone.Claims))
			}
		})
	}
}

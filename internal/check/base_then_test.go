package check_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/ruleid"
	"github.com/claimslint/claimslint/internal/snapshot"
)

// TestBaseRegisterMissingOrUnreadable: a base with no register (the pull
// request that starts one) retires nothing; a base whose configuration
// cannot be read is one warning of CL014, not a failure, and no CL015.
func TestBaseRegisterMissingOrUnreadable(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	register := "| ID | Decision | Status |\n|---|---|---|\n| D1 | One | accepted |\n\nD1..D1\n"
	decision := "---\nid: D1\nstatus: accepted\n---\n# D1: One\n## Confirmation\n| Claim | Kind | Path | Anchor | Require | Why |\n|---|---|---|---|---|---|\n| C1 | present | `a.go` | `package a` | | |\n"
	for _, tc := range []struct {
		name string
		base map[string]string
		want []string // severity: message prefix
	}{
		{"no register at the base", map[string]string{"a.go": "package a\n"}, nil},
		{"unreadable configuration at the base", map[string]string{"a.go": "package a\n", ".claimslint.yml": "registr: x\n"},
			[]string{"warning: the register at base cannot be read (.claimslint.yml: line 1: unknown key \"registr\""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			write := func(files map[string]string) {
				for rel, content := range files {
					p := filepath.Join(dir, rel)
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			git := func(args ...string) {
				cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
				cmd.Dir = dir
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("git %v: %v\n%s", args, err, out)
				}
			}
			write(tc.base)
			git("init", "-q")
			git("add", "-A")
			git("commit", "-q", "-m", "base")
			git("tag", "base")
			_ = os.Remove(filepath.Join(dir, ".claimslint.yml"))
			write(map[string]string{"docs/PRD.md": register, "docs/decisions/D1-one.md": decision})
			snap, err := snapshot.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			var rules []*check.Rule
			for _, r := range check.Rules {
				if r.ID == ruleid.Retired || r.ID == ruleid.Narrowed || r.ID == ruleid.Deleted || r.ID == ruleid.Base || r.ID == ruleid.Here {
					rules = append(rules, r)
				}
			}
			res, err := check.RunRules(snap, check.Options{Dir: dir, Base: "base"}, rules...)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range res.Findings {
				got = append(got, string(f.Severity)+": "+f.Message)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("findings %q, want %q", got, tc.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tc.want[i]) || res.Findings[i].Severity == diag.SeverityError {
					t.Errorf("finding %q, want it to begin %q (not an error)", got[i], tc.want[i])
				}
			}
		})
	}
}

package migrate

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/config"
	"github.com/rogpeppe/go-internal/txtar"
)

// TestExactTranslation is the property of D64: for every row of every
// fixture script, the claim migrate writes holds on the tree it was
// translated from whenever the script passes that row there. Each fixture
// of internal/lintcmd that holds gate scripts is laid out as a git
// repository, each script is run and its verdicts read from its own
// output, the scripts are migrated, and check is run on the same tree.
//
// CLAIMSLINT_EXACT_TREE names a git repository to test the same way (a
// clone is made; CLAIMSLINT_EXACT_CONFIG, if set, is copied in as its
// .claimslint.yml): the manual run on the seed team's reconstructed tree.
func TestExactTranslation(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	fixtures, err := filepath.Glob(filepath.Join("..", "lintcmd", "testdata", "script", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, fx := range fixtures {
		a, err := txtar.ParseFile(fx)
		if err != nil {
			t.Fatal(err)
		}
		var scripts []string
		for _, f := range a.Files {
			if strings.HasPrefix(f.Name, "scripts/checks/") && strings.HasSuffix(f.Name, ".sh") {
				scripts = append(scripts, f.Name)
			}
		}
		if len(scripts) == 0 {
			continue
		}
		ran++
		t.Run(strings.TrimSuffix(filepath.Base(fx), ".txtar"), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for _, f := range a.Files {
				writeTree(t, dir, map[string]string{f.Name: string(f.Data)})
			}
			for _, s := range scripts {
				if err := os.Chmod(filepath.Join(dir, s), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			git(t, dir, "init", "-q")
			git(t, dir, "add", "-A")
			git(t, dir, "commit", "-q", "-m", "fixture")
			exactOn(t, dir, scripts)
		})
	}
	if ran == 0 {
		t.Fatal("no fixture holds gate scripts")
	}
	if tree := os.Getenv("CLAIMSLINT_EXACT_TREE"); tree != "" {
		t.Run("CLAIMSLINT_EXACT_TREE", func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "tree")
			git(t, ".", "clone", "-q", tree, dir)
			if c := os.Getenv("CLAIMSLINT_EXACT_CONFIG"); c != "" {
				b, err := os.ReadFile(c)
				if err != nil {
					t.Fatal(err)
				}
				writeTree(t, dir, map[string]string{config.FileName: string(b)})
			}
			scripts, err := filepath.Glob(filepath.Join(dir, "scripts", "checks", "*.sh"))
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range scripts {
				scripts[i], _ = filepath.Rel(dir, s)
			}
			exactOn(t, dir, scripts)
		})
	}
}

// exactOn runs the scripts of the repository dir, migrates them, runs check
// and fails for every row a script passes whose claim does not hold.
func exactOn(t *testing.T, dir string, scripts []string) {
	t.Helper()
	cfg, err := config.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	type verdict struct {
		decision, code, script string
	}
	var passed []verdict
	for _, s := range scripts {
		g, err := Load(dir, s)
		if err != nil {
			t.Fatal(err)
		}
		out, exit, runErr := runScript(dir, s)
		if runErr != "" {
			t.Fatalf("%s: %s", s, runErr)
		}
		vs := readVerdicts(out, exit, rowCodes(g))
		for _, r := range g.Rows {
			if vs.verdict(r.Code) == VerdictOK {
				passed = append(passed, verdict{g.Decision, r.Code, s})
			}
		}
	}
	opts := Options{Dir: dir, ClaimsDir: cfg.ClaimsDir(), TrackerExport: cfg.Tracker.Export, Prefixes: cfg.Tracker.Prefixes}
	if _, err := Write(opts, scripts, io.Discard); err != nil {
		t.Fatal(err)
	}
	res, err := check.Run(check.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]check.ClaimState{}
	for _, st := range res.Claims {
		states[st.Decision+"/"+st.Claim] = st
	}
	held, bad := 0, []string{}
	for _, v := range passed {
		st, ok := states[v.decision+"/"+v.code]
		if !ok {
			continue // not translated: migrate lists it with its reason
		}
		if st.State != check.StateOK {
			bad = append(bad, v.decision+"/"+v.code+" ("+v.script+"): "+st.State+": "+st.Message)
			continue
		}
		held++
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Errorf("the script passes the row, the claim migrate wrote does not hold: %s", b)
	}
	t.Logf("%d rows the scripts pass, %d translated claims hold, %d do not", len(passed), held, len(bad))
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

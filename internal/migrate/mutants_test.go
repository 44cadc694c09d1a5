package migrate_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/lintcmd"
)

// mutantFixtures are the testscripts holding gates in the real shapes of
// the seed team's twelve scripts (issue 21).
var mutantFixtures = []string{"seed_team.txtar", "seed_team_exact.txtar", "seed_team_rows.txtar"}

// maxMutants caps the mutants of one fixture, to keep the test short: the
// first maxMutants lines, in file:line order, of every line a migrated
// claim rests on. No fixture reaches it today, so every line is mutated.
const maxMutants = 200

// TestMutants is issue 21's mutation test: every single-line mutant a
// gate script catches, check catches too. For each fixture it unpacks the
// tree, commits it, runs `claimslint migrate` on the gates and commits the
// claims; then for each code line a migrated line claim (present,
// anchored, anchored-every) rests on (its Where), it deletes that one
// line, runs every gate with sh (a non-zero exit catches the mutant) and
// check (an error finding catches it), and restores the line. A gate that
// fails on the unmutated tree is left out of the comparison. The figures
// are in docs/benchmarks.md ("Mutants: scripts against check").
func TestMutants(t *testing.T) {
	for _, tool := range []string{"sh", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: %v", tool, err)
		}
	}
	for _, name := range mutantFixtures {
		t.Run(strings.TrimSuffix(name, ".txtar"), func(t *testing.T) {
			mutantFixture(t, filepath.Join("..", "lintcmd", "testdata", "script", name))
		})
	}
	// A real tree, when one is named: the reconstruction of the seed
	// team's repository (its bytes are theirs and stay out of this one),
	// adopted with init --adopt as a user would, then migrated and mutated
	// like the fixtures, every line (no cap).
	if tree := os.Getenv("CLAIMSLINT_MUTANT_TREE"); tree != "" {
		t.Run("tree", func(t *testing.T) { mutantTree(t, tree) })
	}
}

// mutantTree clones the git repository at tree and runs the comparison on
// the clone: init --adopt, then migrate every scripts/checks/*.sh.
func mutantTree(t *testing.T, tree string) {
	dir := t.TempDir()
	cmd := exec.Command("git", "clone", "-q", tree, dir)
	cmd.Env = gitEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git clone %s: %v\n%s", tree, err, out)
	}
	scripts, err := filepath.Glob(filepath.Join(dir, "scripts", "checks", "*.sh"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("%s holds no gate under scripts/checks/ (%v)", tree, err)
	}
	for i, s := range scripts {
		scripts[i] = filepath.ToSlash(strings.TrimPrefix(s, dir+string(filepath.Separator)))
	}
	var out, errOut bytes.Buffer
	if code := lintcmd.Main([]string{"claimslint", "init", "--adopt", "--dir", dir}, &out, &errOut); code != lintcmd.ExitClean {
		t.Fatalf("init --adopt exit %d:\n%s%s", code, out.String(), errOut.String())
	}
	mutantGit(t, dir, "add", "-A")
	mutantGit(t, dir, "commit", "-q", "-m", "claimslint init --adopt")
	mutateTree(t, dir, scripts, filepath.Base(tree), 0)
}

func mutantFixture(t *testing.T, path string) {
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var scripts []string
	for _, f := range ar.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasPrefix(f.Name, "scripts/checks/") && strings.HasSuffix(f.Name, ".sh") {
			scripts = append(scripts, f.Name)
			mode = 0o755
		}
		if err := os.WriteFile(p, f.Data, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil { // umask
			t.Fatal(err)
		}
	}
	sort.Strings(scripts)
	if len(scripts) == 0 {
		t.Fatalf("%s holds no gate under scripts/checks/", path)
	}
	mutantGit(t, dir, "init", "-q")
	mutantGit(t, dir, "add", "-A")
	mutantGit(t, dir, "commit", "-q", "-m", "the team repository")
	mutateTree(t, dir, scripts, filepath.Base(path), maxMutants)
}

// mutateTree migrates the gates of the committed tree at dir, then deletes
// each line a migrated line claim rests on, one at a time (the first limit
// lines, or all when limit is 0), and compares the gates' verdict with
// check's.
func mutateTree(t *testing.T, dir string, scripts []string, label string, limit int) {

	args := []string{"claimslint", "migrate", "--dir", dir}
	for _, s := range scripts {
		args = append(args, filepath.Join(dir, filepath.FromSlash(s))) // migrate resolves them against the working directory
	}
	var out, errOut bytes.Buffer
	code := lintcmd.Main(args, &out, &errOut)
	if code != lintcmd.ExitClean && code != lintcmd.ExitFindings { // findings: rows left untranslated
		t.Fatalf("migrate exit %d:\n%s%s", code, out.String(), errOut.String())
	}
	mutantGit(t, dir, "add", "-A")
	mutantGit(t, dir, "commit", "-q", "-m", "claims migrated")

	// The unmutated tree: check is clean; the gates that pass are compared.
	res, err := check.Run(check.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if n := diag.Errors(res.Findings); n > 0 {
		t.Fatalf("check reports %d error(s) on the unmutated tree: %v", n, res.Findings)
	}
	var gates []string
	for _, s := range scripts {
		if runGate(dir, s) {
			t.Logf("gate %s fails on the unmutated tree: left out", s)
			continue
		}
		gates = append(gates, s)
	}

	seen := map[string]bool{}
	var sites []site
	for _, st := range res.Claims {
		switch st.Kind {
		case "present", "anchored", "anchored-every":
		default:
			continue
		}
		for _, w := range st.Where {
			if seen[w] {
				continue
			}
			seen[w] = true
			i := strings.LastIndexByte(w, ':')
			n, err := strconv.Atoi(w[i+1:])
			if i < 0 || err != nil {
				t.Fatalf("%s/%s: Where %q is not path:line", st.Decision, st.Claim, w)
			}
			sites = append(sites, site{w[:i], n})
		}
	}
	sort.Slice(sites, func(i, j int) bool {
		if sites[i].file != sites[j].file {
			return sites[i].file < sites[j].file
		}
		return sites[i].line < sites[j].line
	})
	if limit > 0 && len(sites) > limit {
		t.Logf("%d lines: mutating the first %d", len(sites), limit)
		sites = sites[:limit]
	}

	var byScripts, byCheck, missed, checkOnly int
	for _, s := range sites {
		p := filepath.Join(dir, filepath.FromSlash(s.file))
		orig, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		mut, text, ok := deleteLine(orig, s.line)
		if !ok {
			t.Fatalf("%s: no line %d", s.file, s.line)
		}
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, mut, info.Mode()); err != nil {
			t.Fatal(err)
		}
		var failed []string
		for _, g := range gates {
			if runGate(dir, g) {
				failed = append(failed, g)
			}
		}
		caught := false
		r, err := check.Run(check.Options{Dir: dir})
		switch {
		case err != nil:
			caught = true // check cannot run: exit 2 fails CI
		default:
			caught = diag.Errors(r.Findings) > 0
		}
		if err := os.WriteFile(p, orig, info.Mode()); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s:%d: scripts %v, check %v", s.file, s.line, len(failed) > 0, caught)
		if len(failed) > 0 {
			byScripts++
		}
		if caught {
			byCheck++
		}
		switch {
		case len(failed) > 0 && !caught:
			missed++
			t.Errorf("%s:%d deleted (%q): %s fail, check reports no error", s.file, s.line, text, strings.Join(failed, ", "))
		case caught && len(failed) == 0:
			checkOnly++
		}
	}
	t.Logf("%s: %d gates, %d mutants, %d caught by scripts, %d caught by check, %d by scripts not check, %d by check not scripts",
		label, len(gates), len(sites), byScripts, byCheck, missed, checkOnly)
}

type site struct {
	file string
	line int
}

// deleteLine returns src without its line n (1-based) and that line's text.
func deleteLine(src []byte, n int) ([]byte, string, bool) {
	start := 0
	for i := 1; i < n; i++ {
		k := bytes.IndexByte(src[start:], '\n')
		if k < 0 {
			return nil, "", false
		}
		start += k + 1
	}
	if start >= len(src) {
		return nil, "", false
	}
	end := len(src)
	if k := bytes.IndexByte(src[start:], '\n'); k >= 0 {
		end = start + k + 1
	}
	out := append(append([]byte{}, src[:start]...), src[end:]...)
	return out, strings.TrimRight(string(src[start:end]), "\n"), true
}

// runGate runs one gate with sh in dir and reports whether it failed
// (non-zero exit, or no exit within 10 s).
func runGate(dir, rel string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", rel)
	cmd.Dir = dir
	cmd.Env = gitEnv()
	return cmd.Run() != nil
}

func mutantGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func gitEnv() []string {
	return append(os.Environ(),
		"GIT_AUTHOR_NAME=claimslint", "GIT_AUTHOR_EMAIL=claimslint@example.com",
		"GIT_COMMITTER_NAME=claimslint", "GIT_COMMITTER_EMAIL=claimslint@example.com",
		"GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z",
		fmt.Sprintf("GIT_CONFIG_NOSYSTEM=%d", 1))
}

package migrate_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/claimslint/claimslint/internal/lintcmd"
	"github.com/claimslint/claimslint/internal/migrate"
)

// structuralMutants are the edits that break a structural check's fact,
// each with the claim that must fail: a second caller, a second call on
// the caller's line, a wildcard arm in place of a variant's, and the
// `mod tests {` line doubled.
var structuralMutants = []struct {
	name, file, old, new, claim string
}{
	{"second caller", "crates/unblock-cli/src/lib.rs", "    exit::into_exit(out, stdout_role)\n",
		"    let _ = exit::into_exit(exit::Outcome { stdout: String::new(), code: 0 }, exit::StdoutRole::Reports);\n    exit::into_exit(out, stdout_role)\n", "S1"},
	{"two calls on one line", "crates/unblock-cli/src/lib.rs", "    exit::into_exit(out, stdout_role)\n",
		"    exit::into_exit(out, stdout_role) + 0 * exit::into_exit(exit::Outcome { stdout: String::new(), code: 0 }, exit::StdoutRole::Reports)\n", "S1-line"},
	{"wildcard arm", "crates/unblock-cli/src/cli.rs", "            Self::List(_) => StdoutRole::Reports,\n",
		"            _ => StdoutRole::Reports,\n", "S2"},
	{"mod tests doubled", "crates/unblock-cli/src/commands/update.rs", "#[cfg(test)]\nmod tests {\n",
		"#[cfg(test)]\nmod tests {\n}\n\n#[cfg(test)]\nmod tests {\n", "UPDATE_TESTS_LINE"},
}

// structuralTree unpacks testdata/d48tree.txtar into a fresh directory,
// adds the gates named (path in the tree -> bytes), and commits it.
func structuralTree(t *testing.T, gates map[string][]byte) string {
	t.Helper()
	for _, tool := range []string{"sh", "git", "awk"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: %v", tool, err)
		}
	}
	ar, err := txtar.ParseFile(filepath.Join("testdata", "d48tree.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string][]byte{}
	for _, f := range ar.Files {
		files[f.Name] = f.Data
	}
	for name, b := range gates {
		files[name] = b
	}
	for name, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(name, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(p, b, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	mutantGit(t, dir, "init", "-q")
	mutantGit(t, dir, "add", "-A")
	mutantGit(t, dir, "commit", "-q", "-m", "the tree")
	return dir
}

func claimslint(dir string, args ...string) (int, string) {
	var out, errOut bytes.Buffer
	code := lintcmd.Main(append([]string{"claimslint"}, append(args, "--dir", dir)...), &out, &errOut)
	return code, out.String() + errOut.String()
}

var proveRE = regexp.MustCompile(`prove: (\d+) claims, (\d+) mutants, (\d+) vacuous`)

// migrateStructural runs gate on the tree, migrates it, and checks what
// issue 34 item 7 asks: nothing left untranslated, check clean, prove 0
// vacuous; then each of the first n mutants fails both the gate and the
// named claim.
func migrateStructural(t *testing.T, dir, gate string, want []string, n int) {
	t.Helper()
	if runGate(dir, gate) {
		t.Fatalf("%s fails on the unmutated tree", gate)
	}
	code, out := claimslint(dir, "migrate", filepath.Join(dir, gate))
	if code != lintcmd.ExitClean || !strings.Contains(out, "0 not translated") || strings.Contains(out, "not translated:") {
		t.Fatalf("migrate exit %d, want every row translated:\n%s", code, out)
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("migrate's report lacks %q:\n%s", w, out)
		}
	}
	mutantGit(t, dir, "add", "-A")
	mutantGit(t, dir, "commit", "-q", "-m", "claims migrated")
	if code, out := claimslint(dir, "check"); code != lintcmd.ExitClean {
		t.Fatalf("check exit %d on the migrated tree:\n%s", code, out)
	}
	code, out = claimslint(dir, "prove")
	m := proveRE.FindStringSubmatch(out)
	if code != lintcmd.ExitClean || m == nil || m[3] != "0" {
		t.Fatalf("prove exit %d, want 0 vacuous:\n%s", code, out)
	}
	for _, mu := range structuralMutants[:n] {
		p := filepath.Join(dir, filepath.FromSlash(mu.file))
		orig, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(orig, []byte(mu.old)) {
			t.Fatalf("%s: %s does not hold %q", mu.name, mu.file, mu.old)
		}
		if err := os.WriteFile(p, bytes.Replace(orig, []byte(mu.old), []byte(mu.new), 1), 0o644); err != nil {
			t.Fatal(err)
		}
		if !runGate(dir, gate) {
			t.Errorf("%s: the gate passes", mu.name)
		}
		code, out := claimslint(dir, "check")
		if code != lintcmd.ExitFindings || !regexp.MustCompile(`/`+regexp.QuoteMeta(mu.claim)+`\)\n`).MatchString(out) {
			t.Errorf("%s: check exit %d, want a finding of claim %s:\n%s", mu.name, code, mu.claim, out)
		}
		if err := os.WriteFile(p, orig, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestStructuralChecks: our own gate, in the shapes of the seed team's
// d48 S1 and S2 and their d55 line filter, is translated whole.
func TestStructuralChecks(t *testing.T) {
	t.Parallel()
	// The workflow runs our gate; the seed team's is not here.
	dir := structuralTree(t, map[string][]byte{".github/workflows/ci.yml": []byte("name: ci\non: [push]\njobs:\n  doc-lint:\n    runs-on: ubuntu-latest\n    steps:\n      - run: scripts/checks/own-structural-claims.sh\n")})
	migrateStructural(t, dir, "scripts/checks/own-structural-claims.sh", []string{
		"3 structural checks, 3 translated, 0 not translated",
		"S1 count:all:", "S1-line absent:all:", "S2 absent:", "S2-variants count:", "UPDATE_TESTS_LINE count:all:",
	}, len(structuralMutants))
}

// TestSeedGateD48 is the same on the seed team's own d48 gate, read from
// CLAIMSLINT_SEED_GATES (their bytes stay out of this repository): all 30
// rows and both structural checks translated, check clean, prove 0
// vacuous, and each mutant caught by the gate and by its claim.
func TestSeedGateD48(t *testing.T) {
	dirGates := os.Getenv("CLAIMSLINT_SEED_GATES")
	if dirGates == "" {
		t.Skip("CLAIMSLINT_SEED_GATES is not set: the seed team's gates are not here")
	}
	b, err := os.ReadFile(filepath.Join(dirGates, "d48-stdout-channel-claims.sh"))
	if err != nil {
		t.Fatal(err)
	}
	gate := "scripts/checks/d48-stdout-channel-claims.sh"
	dir := structuralTree(t, map[string][]byte{gate: b})
	migrateStructural(t, dir, gate, []string{
		"D48, 30 rows, 30 translated, 0 not translated",
		"2 structural checks, 2 translated, 0 not translated",
	}, 3) // the gate reads no update.rs
}

// TestSeedGatesStructural reads the seed team's twelve gates from
// CLAIMSLINT_SEED_GATES: no structural check is left as shell code, and
// the ones migrate reads are d48's S1 and S2 and the `mod tests {` line
// filters of d54 and d55.
func TestSeedGatesStructural(t *testing.T) {
	dirGates := os.Getenv("CLAIMSLINT_SEED_GATES")
	if dirGates == "" {
		t.Skip("CLAIMSLINT_SEED_GATES is not set: the seed team's gates are not here")
	}
	scripts, err := filepath.Glob(filepath.Join(dirGates, "*.sh"))
	if err != nil || len(scripts) != 12 {
		t.Fatalf("want the twelve gates in %s, got %d (%v)", dirGates, len(scripts), err)
	}
	var got []string
	for _, s := range scripts {
		b, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		g := migrate.Parse("scripts/checks/"+filepath.Base(s), b)
		for _, sk := range g.Skipped {
			if sk.Rule == migrate.RuleCheck {
				t.Errorf("%s:%d: %s left as shell: %s", filepath.Base(s), sk.Line, sk.Code, sk.Reason)
			}
		}
		for _, r := range g.Rows {
			if r.Layout == migrate.LayoutStructural {
				got = append(got, g.Decision+"/"+r.Code)
			}
		}
	}
	want := "D48/S1 D48/S2 D54/WIRE_TESTS_LINE D55/UPDATE_TESTS_LINE D55/EXIT_TESTS_LINE"
	if strings.Join(got, " ") != want {
		t.Errorf("structural checks read: %s, want %s", strings.Join(got, " "), want)
	}
}

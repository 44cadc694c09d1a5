package migrate_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/lintcmd"
	"github.com/claimslint/claimslint/internal/migrate"
)

// notTranslatedRE reads migrate's per-gate summaries: "D48, 30 rows, 30
// translated, 0 not translated" and the lines for the other tables
// ("2 sweep families, 0 translated, 2 not translated").
var notTranslatedRE = regexp.MustCompile(`(?m)^(?:scripts/checks/\S+: D\d+, )?\s*(\d+) (rows?|structural checks?|sweep famil(?:y|ies)|allow-list entr(?:y|ies)), (\d+) translated, (\d+) not translated$`)

// wholeGateRE is migrate's line for a gate it translates nothing of.
var wholeGateRE = regexp.MustCompile(`^\S+\.sh: not translated: `)

// seedTreeFigures are the acceptance's figures on one tree.
type seedTreeFigures struct {
	rows, entries, untranslated int
	notes                       []string // migrate's "not translated:" lines
	checkExit                   int
	checkOut                    string
	proveExit                   int
	proveOut                    string
	vacuous                     int // -1 when prove printed no summary
}

// TestSeedTree is issue 34's acceptance on a tree built from the seed
// team's twelve real gates: migrate leaves 0 rows untranslated, check
// exits 0, prove reports 0 vacuous, and for each gate a one-line mutant
// that fails the gate fails check. The tree is CLAIMSLINT_SEED_TREE (a
// directory holding .claimslint.yml or not, scripts/checks/*.sh and the
// files the gates read: a clone of their repository), or else it is built
// from the gates in CLAIMSLINT_SEED_GATES (migrate.BuildSeedTree: every
// gate must then pass on it, run with bash and with sh). Either way it is
// copied, committed and migrated in a temporary directory, outside this
// repository; the original is never written.
func TestSeedTree(t *testing.T) {
	src := os.Getenv("CLAIMSLINT_SEED_TREE")
	if src == "" {
		gatesDir := os.Getenv("CLAIMSLINT_SEED_GATES")
		if gatesDir == "" {
			t.Skip("neither CLAIMSLINT_SEED_TREE nor CLAIMSLINT_SEED_GATES is set: no tree of the seed team's is here")
		}
		src = builtSeedTree(t, gatesDir)
	}
	dir := copySeedTree(t, src)
	if adoptSeedTree(t, dir) {
		t.Logf("%s has no .claimslint.yml: init --adopt wrote one", src)
	}
	f := seedTreeAcceptance(t, dir, "*.sh")
	t.Logf("seed tree %s: %d rows (%d entries with structural checks, sweeps, allow-lists), %d not translated; check exit %d; prove exit %d, %d vacuous (%s)",
		src, f.rows, f.entries, f.untranslated, f.checkExit, f.proveExit, f.vacuous, proveRE.FindString(f.proveOut))
	for _, n := range f.notes {
		t.Logf("  %s", n)
	}
	if f.untranslated != 0 {
		t.Errorf("migrate left %d rows untranslated", f.untranslated)
	}
	if f.checkExit != lintcmd.ExitClean {
		t.Errorf("check exit %d, want 0:\n%s", f.checkExit, f.checkOut)
	}
	if f.proveExit != lintcmd.ExitClean || f.vacuous != 0 {
		t.Errorf("prove exit %d, %d vacuous, want 0 and 0:\n%s", f.proveExit, f.vacuous, f.proveOut)
	}
	if f.checkExit == lintcmd.ExitClean {
		seedTreeMutants(t, dir)
		if os.Getenv("CLAIMSLINT_SEED_TREE") == "" {
			seedTreeStructuralMutants(t, dir)
		}
	}
}

// seedTreeStructuralMutants applies each of structuralMutants (a second
// caller, two calls on a line, a wildcard arm, a second mod tests line) to
// the built tree, whose Rust is in those shapes, and wants a gate and the
// named claim to fail.
func seedTreeStructuralMutants(t *testing.T, dir string) {
	t.Helper()
	scripts, err := filepath.Glob(filepath.Join(dir, "scripts", "checks", "*.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, mu := range structuralMutants {
		p := filepath.Join(dir, filepath.FromSlash(mu.file))
		orig, err := os.ReadFile(p)
		if err != nil || !bytes.Contains(orig, []byte(mu.old)) {
			t.Errorf("%s: %s does not hold %q (%v)", mu.name, mu.file, mu.old, err)
			continue
		}
		if err := os.WriteFile(p, bytes.Replace(orig, []byte(mu.old), []byte(mu.new), 1), 0o644); err != nil {
			t.Fatal(err)
		}
		var failed []string
		for _, s := range scripts {
			if rel := filepath.ToSlash(strings.TrimPrefix(s, dir+string(filepath.Separator))); runGate(dir, rel) {
				failed = append(failed, path.Base(rel))
			}
		}
		code, out := claimslint(dir, "check")
		if err := os.WriteFile(p, orig, 0o644); err != nil {
			t.Fatal(err)
		}
		caught := code == lintcmd.ExitFindings && regexp.MustCompile(`/`+regexp.QuoteMeta(mu.claim)+`\)\n`).MatchString(out)
		t.Logf("structural mutant %q: gates failing %v; check exit %d, claim %s caught %v", mu.name, failed, code, mu.claim, caught)
		if len(failed) == 0 || !caught {
			t.Errorf("%s: gates failing %v, check exit %d, want a gate and the claim %s to fail:\n%s", mu.name, failed, code, mu.claim, out)
		}
	}
}

// builtSeedTree builds a tree from the gates in gatesDir and checks that
// every gate passes on it, with bash and with sh.
func builtSeedTree(t *testing.T, gatesDir string) string {
	t.Helper()
	for _, tool := range []string{"bash", "sh", "git", "awk", "sed"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: %v", tool, err)
		}
	}
	built := t.TempDir()
	gates, amended, err := migrate.BuildSeedTree(gatesDir, built)
	if err != nil {
		t.Fatalf("building a tree from %s: %v", gatesDir, err)
	}
	for _, a := range amended {
		t.Logf("brought to a newer gate's era: %s", a)
	}
	dir := copySeedTree(t, built)
	for _, g := range gates {
		for _, sh := range []string{"bash", "sh"} {
			cmd := exec.Command(sh, g)
			cmd.Dir = dir
			cmd.Env = gitEnv()
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s %s on the built tree: %v\n%s", sh, g, err, out)
			}
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	t.Logf("built from %d gates in %s; each passes with bash and sh", len(gates), gatesDir)
	return built
}

// seedTreeMutants deletes, for each gate, the first line a claim of its
// decision rests on whose deletion fails the gate, and wants check to
// report an error for that mutant too. With CLAIMSLINT_SEED_MUTANTS=all it
// deletes every such line, one at a time, and wants check to catch each
// one the gate catches.
func seedTreeMutants(t *testing.T, dir string) {
	t.Helper()
	res, err := check.Run(check.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	scripts, err := filepath.Glob(filepath.Join(dir, "scripts", "checks", "*.sh"))
	if err != nil {
		t.Fatal(err)
	}
	all := os.Getenv("CLAIMSLINT_SEED_MUTANTS") == "all"
	var tried, byGate, byCheck int
	for _, s := range scripts {
		rel := filepath.ToSlash(strings.TrimPrefix(s, dir+string(filepath.Separator)))
		g, err := migrate.Load(dir, rel)
		if err != nil {
			t.Fatal(err)
		}
		first := ""
	sites:
		for _, st := range res.Claims {
			if st.Decision != g.Decision {
				continue
			}
			for _, w := range st.Where {
				if !lineSiteRE.MatchString(w) {
					continue // a claim on a whole file (exec): no line to delete
				}
				failsGate, failsCheck := mutateSite(t, dir, rel, w)
				tried++
				if !failsGate {
					continue
				}
				byGate++
				site := fmt.Sprintf("%s (%s %s)", w, g.Decision, st.Claim)
				if failsCheck {
					byCheck++
				} else {
					t.Errorf("%s: deleting %s fails the gate, check reports no error", rel, site)
				}
				if first == "" {
					first = site
					t.Logf("%s: deleting %s fails the gate; check %v", rel, site, failsCheck)
				}
				if !all {
					break sites
				}
			}
		}
		if first == "" {
			t.Errorf("%s (%s): no line a claim of it rests on fails the gate when deleted", rel, g.Decision)
		}
	}
	t.Logf("mutants: %d gates, %d lines deleted, %d failing their gate, %d of those failing check", len(scripts), tried, byGate, byCheck)
}

// lineSiteRE is a Where that names a line: path:n.
var lineSiteRE = regexp.MustCompile(`:[0-9]+$`)

// mutateSite deletes the line at w (path:line), runs the gate rel and,
// when the gate fails, check; it restores the line and reports both.
func mutateSite(t *testing.T, dir, rel, w string) (failsGate, failsCheck bool) {
	t.Helper()
	i := strings.LastIndexByte(w, ':')
	n, err := strconv.Atoi(w[i+1:])
	if err != nil {
		t.Fatalf("Where %q is not path:line", w)
	}
	p := filepath.Join(dir, filepath.FromSlash(w[:i]))
	orig, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	mut, _, ok := deleteLine(orig, n)
	if !ok {
		t.Fatalf("%s: no line %d", w[:i], n)
	}
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, mut, info.Mode()); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := os.WriteFile(p, orig, info.Mode()); err != nil {
			t.Fatal(err)
		}
	}()
	if failsGate = runGate(dir, rel); failsGate {
		r, err := check.Run(check.Options{Dir: dir})
		failsCheck = err != nil || diag.Errors(r.Findings) > 0
	}
	return failsGate, failsCheck
}

// adoptSeedTree writes the settings of a tree that has none (a clone of
// the seed team's repository) as a team adopting claimslint would, with
// init --adopt, and commits them; it says whether it did.
func adoptSeedTree(t *testing.T, dir string) bool {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, ".claimslint.yml")); err == nil {
		return false
	}
	if code, out := claimslint(dir, "init", "--adopt", "--date", "2026-01-01"); code != lintcmd.ExitClean {
		t.Fatalf("init --adopt exit %d:\n%s", code, out)
	}
	mutantGit(t, dir, "add", "-A")
	mutantGit(t, dir, "commit", "-q", "-m", "claimslint adopted")
	return true
}

// seedTreeAcceptance migrates every gate under scripts/checks of dir (a
// committed git tree), commits the claims, and runs check and prove.
func seedTreeAcceptance(t *testing.T, dir, pattern string) seedTreeFigures {
	t.Helper()
	gates, err := filepath.Glob(filepath.Join(dir, "scripts", "checks", pattern))
	if err != nil || len(gates) == 0 {
		t.Fatalf("no gate in %s/scripts/checks (%v)", dir, err)
	}
	sort.Strings(gates)
	var f seedTreeFigures
	code, out := claimslint(dir, append([]string{"migrate"}, gates...)...)
	if code != lintcmd.ExitClean && code != lintcmd.ExitFindings {
		t.Fatalf("migrate exit %d:\n%s", code, out)
	}
	f.rows, f.entries, f.untranslated, f.notes = countMigrate(out)
	if f.entries == 0 {
		t.Fatalf("migrate printed no row summary:\n%s", out)
	}
	mutantGit(t, dir, "add", "-A")
	mutantGit(t, dir, "commit", "-q", "--allow-empty", "-m", "claims migrated")
	f.checkExit, f.checkOut = claimslint(dir, "check")
	f.proveExit, f.proveOut = claimslint(dir, "prove")
	f.vacuous = -1
	if m := proveRE.FindStringSubmatch(f.proveOut); m != nil {
		f.vacuous = atoiOr0(m[3])
	}
	return f
}

// countMigrate sums migrate's summaries: the rows of every gate, the
// entries of every table (rows, structural checks, sweep families,
// allow-list entries), those left untranslated, and the notes naming them.
func countMigrate(out string) (rows, entries, untranslated int, notes []string) {
	for _, m := range notTranslatedRE.FindAllStringSubmatch(out, -1) {
		entries += atoiOr0(m[1])
		if strings.HasPrefix(m[2], "row") {
			rows += atoiOr0(m[1])
		}
		untranslated += atoiOr0(m[4])
	}
	for _, l := range strings.Split(out, "\n") {
		if wholeGateRE.MatchString(l) {
			untranslated++ // a gate migrate could not read at all
		}
		if strings.Contains(l, "not translated: ") {
			notes = append(notes, strings.TrimSpace(l))
		}
	}
	return rows, entries, untranslated, notes
}

func atoiOr0(s string) int {
	n, _ := strconv.Atoi(s) // the pattern admits digits only
	return n
}

// copySeedTree copies src's files (not its .git, not docs/claims a
// previous migrate wrote) into a fresh committed git tree, keeping the
// executable bits the exec claims read.
func copySeedTree(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if rel == ".git" || filepath.ToSlash(rel) == "docs/claims" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), b, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
	mutantGit(t, dir, "init", "-q")
	mutantGit(t, dir, "add", "-A")
	mutantGit(t, dir, "commit", "-q", "-m", "the seed tree")
	return dir
}

// TestSeedTreeBuiltFromFixtures builds a tree from the gates of our own
// fixtures, written in the seed team's shapes (testdata/d48tree.txtar's
// gate and the seed_team testscripts' nine), and runs the acceptance on
// it: every gate passes on the built tree, migrate translates every row,
// check is clean, prove finds nothing vacuous, and each gate's mutant
// fails check.
func TestSeedTreeBuiltFromFixtures(t *testing.T) {
	t.Parallel()
	gatesDir := t.TempDir()
	var names []string
	for _, fx := range []string{"testdata/d48tree.txtar", "../lintcmd/testdata/script/seed_team.txtar", "../lintcmd/testdata/script/seed_team_exact.txtar", "../lintcmd/testdata/script/seed_team_rows.txtar"} {
		ar, err := txtar.ParseFile(fx)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if dir, name := path.Split(f.Name); dir == "scripts/checks/" && strings.HasSuffix(name, ".sh") && len(f.Data) > 200 {
				names = append(names, name)
				if err := os.WriteFile(filepath.Join(gatesDir, name), f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	src := builtSeedTree(t, gatesDir)
	dir := copySeedTree(t, src)
	adoptSeedTree(t, dir)
	f := seedTreeAcceptance(t, dir, "*.sh")
	if f.entries == 0 || f.untranslated != 0 || f.checkExit != lintcmd.ExitClean || f.proveExit != lintcmd.ExitClean || f.vacuous != 0 {
		t.Fatalf("tree built from %v: %d rows, %d not translated %v, check %d, prove %d, %d vacuous\n%s\n%s", names, f.rows, f.untranslated, f.notes, f.checkExit, f.proveExit, f.vacuous, f.checkOut, f.proveOut)
	}
	seedTreeMutants(t, dir)
}

// TestSeedTreeAcceptanceFigures runs the acceptance on our own fixture
// tree (testdata/d48tree.txtar and its gate), where every row translates,
// check is clean and prove finds nothing vacuous.
func TestSeedTreeAcceptanceFigures(t *testing.T) {
	t.Parallel()
	dir := structuralTree(t, map[string][]byte{".github/workflows/ci.yml": []byte("name: ci\non: [push]\njobs:\n  doc-lint:\n    runs-on: ubuntu-latest\n    steps:\n      - run: scripts/checks/own-structural-claims.sh\n")})
	f := seedTreeAcceptance(t, dir, "own-structural-claims.sh")
	if f.entries == 0 || f.untranslated != 0 || f.checkExit != lintcmd.ExitClean || f.proveExit != lintcmd.ExitClean || f.vacuous != 0 {
		t.Fatalf("fixture tree: %d rows, %d not translated, check %d, prove %d, %d vacuous\n%s\n%s", f.rows, f.untranslated, f.checkExit, f.proveExit, f.vacuous, f.checkOut, f.proveOut)
	}
}

// TestCountMigrate reads migrate's summaries as it prints them: every
// table's untranslated entries count, rows only from the gate lines.
func TestCountMigrate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name                        string
		out                         string
		rows, entries, untranslated int
		notes                       int
	}{
		{"clean", "scripts/checks/d48-x.sh: D48, 30 rows, 30 translated, 0 not translated\n  2 structural checks, 2 translated, 0 not translated\n", 30, 32, 0, 0},
		{"one row", "scripts/checks/d1-x.sh: D1, 1 row, 0 translated, 1 not translated\n  not translated: scripts/checks/d1-x.sh:3: P1: an unset knob\n", 1, 1, 1, 1},
		{"sweeps and allow-lists", "scripts/checks/d43-x.sh: D43, 0 rows, 0 translated, 0 not translated\n  2 sweep families, 0 translated, 2 not translated\n  1 allow-list entry, 0 translated, 1 not translated\n" +
			"  not translated: scripts/checks/d43-x.sh:37: CLM1: its exception ALLOW1-CLM1 does not hold on this tree\n", 0, 3, 3, 1},
		{"a gate of no decision", "scripts/checks/ub-x.sh: not translated: cannot tell which decision it gates\n", 0, 0, 1, 1},
		{"two gates", "scripts/checks/a.sh: D1, 4 rows, 3 translated, 1 not translated\nscripts/checks/b.sh: D2, 5 rows, 5 translated, 0 not translated\n  1 sweep family, 1 translated, 0 not translated\n", 9, 10, 1, 0},
		{"a claim id that looks like a summary is not one", "  P3 present: 2 rows, 1 translated, 1 not translated in the note\n", 0, 0, 0, 0},
	} {
		rows, entries, untranslated, notes := countMigrate(tc.out)
		if rows != tc.rows || entries != tc.entries || untranslated != tc.untranslated || len(notes) != tc.notes {
			t.Errorf("%s: %d rows, %d entries, %d untranslated, %d notes; want %d, %d, %d, %d", tc.name, rows, entries, untranslated, len(notes), tc.rows, tc.entries, tc.untranslated, tc.notes)
		}
	}
}

// TestAdoptSeedTree: a tree without settings (a plain clone) gets the
// inline register's settings from init --adopt; a tree with them is left
// as it is.
func TestAdoptSeedTree(t *testing.T) {
	t.Parallel()
	dir := structuralTree(t, nil)
	if adoptSeedTree(t, dir) {
		t.Fatal("adopted a tree that has its .claimslint.yml")
	}
	mutantGit(t, dir, "rm", "-q", ".claimslint.yml")
	mutantGit(t, dir, "commit", "-q", "-m", "no settings")
	if !adoptSeedTree(t, dir) {
		t.Fatal("a tree without .claimslint.yml was not adopted")
	}
	b, err := os.ReadFile(filepath.Join(dir, ".claimslint.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^register: docs/PRD\.md$`).Match(b) {
		t.Errorf("init --adopt did not find the inline register:\n%s", b)
	}
}

package migrate_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/lintcmd"
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
// team's twelve real gates (CLAIMSLINT_SEED_TREE: a directory holding
// .claimslint.yml, scripts/checks/*.sh and the files the gates read; it is
// built outside this repository, see testdata/seedtree-SOURCES.txt):
// migrate leaves 0 rows untranslated, check exits 0, prove reports 0
// vacuous. The tree is copied, committed and migrated in a temporary
// directory; the original is never written.
func TestSeedTree(t *testing.T) {
	src := os.Getenv("CLAIMSLINT_SEED_TREE")
	if src == "" {
		t.Skip("CLAIMSLINT_SEED_TREE is not set: no reconstruction of the seed team's tree is here")
	}
	dir := copySeedTree(t, src)
	if adoptSeedTree(t, dir) {
		t.Logf("%s has no .claimslint.yml: init --adopt wrote one", src)
	}
	f := seedTreeAcceptance(t, dir, "*.sh")
	t.Logf("seed tree %s: %d rows (%d entries with structural checks, sweeps, allow-lists), %d not translated; check exit %d; prove exit %d, %d vacuous",
		src, f.rows, f.entries, f.untranslated, f.checkExit, f.proveExit, f.vacuous)
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

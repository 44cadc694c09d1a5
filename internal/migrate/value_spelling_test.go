package migrate_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/migrate"
	"github.com/claimslint/claimslint/internal/snapshot"
)

// TestValueSpellingIsNew proves that the value Require, (?= value) (D95,
// dk-ikl), changes the meaning of no Require written before it: RE2
// rejects every pattern that starts with (?=, so no table that checks
// today holds one, and none of this repository's Requires (nor, with
// CLAIMSLINT_SEED_GATES, the seed team's twelve gates' requirements, as
// migrate reads them) is spelled so.
func TestValueSpellingIsNew(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"(?= 16 MiB)", "(?=)", "(?=a)", "(?=16 << 20)", `(?= "x")`} {
		if _, err := regexp.Compile(v); err == nil {
			t.Errorf("%s compiles as RE2: a Require spelled so could mean a pattern", v)
		}
	}
	value := func(req string) bool {
		return strings.HasPrefix(strings.TrimPrefix(strings.TrimSpace(req), "!"), "(?=")
	}
	snap, err := snapshot.Load(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range snap.Decisions {
		for _, c := range d.Claims {
			n++
			if value(c.Require) {
				t.Errorf("%s %s: Require %q is spelled as a value", d.FileID, c.ID, c.Require)
			}
		}
	}
	if n < 500 {
		t.Fatalf("read %d claims of this repository, want its register's (over 500)", n)
	}
	dir := os.Getenv("CLAIMSLINT_SEED_GATES")
	if dir == "" {
		return
	}
	scripts, _ := filepath.Glob(filepath.Join(dir, "*.sh"))
	rows := 0
	for _, s := range scripts {
		b, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range migrate.Parse("scripts/checks/"+filepath.Base(s), b).Rows {
			rows++
			if value(r.Regex) || value(r.Anchor) {
				t.Errorf("%s %s: %q is spelled as a value", filepath.Base(s), r.Code, r.Regex)
			}
		}
	}
	if rows < 400 {
		t.Errorf("read %d rows of the seed gates, want their 471", rows)
	}
}

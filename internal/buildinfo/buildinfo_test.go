package buildinfo

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestVersionNamesTheCommit: a claimslint built without VCS stamping
// (go run, GOFLAGS=-buildvcs=false) still names the commit of the clone
// it was built in; one built with -trimpath as well says no commit is
// known and what to do. A test binary itself reports none (Commit), so
// this builds real binaries.
func TestVersionNamesTheCommit(t *testing.T) {
	t.Parallel()
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	head, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not in a git clone: %v", err)
	}
	bin := t.TempDir()
	for _, tc := range []struct {
		flags []string
		want  string
	}{
		{[]string{"-buildvcs=false"}, "commit " + strings.TrimSpace(string(head)) + " (read from the source tree " + root},
		{[]string{"-buildvcs=false", "-trimpath"}, "commit unknown"},
	} {
		out := filepath.Join(bin, strings.Join(tc.flags, ""))
		build := exec.Command("go", append(append([]string{"build"}, tc.flags...), "-o", out, "./cmd/claimslint")...)
		build.Dir = root
		if b, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build %v: %v\n%s", tc.flags, err, b)
		}
		got, err := exec.Command(out, "version").Output()
		if err != nil || !strings.Contains(string(got), tc.want) {
			t.Errorf("built with %v, claimslint version printed %q (%v); want it to contain %q", tc.flags, got, err, tc.want)
		}
	}
}

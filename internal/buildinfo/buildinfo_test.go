package buildinfo

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestVersionNamesTheCommit: a claimslint built without VCS stamping
// (go run, GOFLAGS=-buildvcs=false) still names the commit of the clone
// it was built in, until that clone's HEAD moves; one built with -trimpath
// says no commit is known and what to do. A test binary itself reports
// none (Commit), so this builds real binaries, in a clone of its own.
// buildTestsEnv switches on the tests that build the binaries from a
// scratch clone.
const buildTestsEnv = "CLAIMSLINT_BUILD_TESTS"

func TestVersionNamesTheCommit(t *testing.T) {
	t.Parallel()
	if os.Getenv(buildTestsEnv) == "" {
		// It builds the binary twice in a fresh clone: about a minute on
		// two cores, so not in the default go test ./... (issue 33).
		t.Skipf("builds claimslint twice in a scratch clone; set %s=1 to run it (checks/test.sh does)", buildTestsEnv)
	}
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	if _, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output(); err != nil {
		t.Skipf("not in a git clone: %v", err)
	}
	clone := filepath.Join(t.TempDir(), "clone")
	// date is the time git records for the reflog entries of the next
	// commands: the tree is committed an hour before the build, so the
	// build is after it whatever the clock's second.
	date := time.Now().Add(-time.Hour).Format(time.RFC3339)
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", clone}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid", "GIT_COMMITTER_DATE="+date)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	// The clone holds the working tree's files as they are, so the test
	// builds the code under test, committed or not.
	files, err := exec.Command("git", "-C", root, "ls-files", "-z", "--", "go.mod", "go.sum", "cmd", "internal", "server").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range strings.Split(strings.TrimRight(string(files), "\x00"), "\x00") {
		data, err := os.ReadFile(filepath.Join(root, f))
		if os.IsNotExist(err) {
			continue // deleted in the working tree
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(clone, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(clone, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "the tree under test")
	head := git("rev-parse", "HEAD")
	bin := t.TempDir()
	version := func(flags ...string) string {
		t.Helper()
		out := filepath.Join(bin, strings.Join(flags, ""))
		build := exec.Command("go", append(append([]string{"build"}, flags...), "-o", out, "./cmd/claimslint")...)
		build.Dir = clone
		if b, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build %v: %v\n%s", flags, err, b)
		}
		got, err := exec.Command(out, "version").Output()
		if err != nil {
			t.Fatalf("claimslint version: %v", err)
		}
		return string(got)
	}
	if got, want := version("-buildvcs=false"), "commit "+head+" (read from the source tree "+clone+")"; !strings.Contains(got, want) {
		t.Errorf("built with -buildvcs=false: %q, want it to contain %q", got, want)
	}
	if got := version("-buildvcs=false", "-trimpath"); !strings.Contains(got, "commit unknown") {
		t.Errorf("built with -trimpath: %q, want commit unknown", got)
	}
	// The clone moves on after the build: its HEAD is no longer the
	// binary's commit.
	exe := filepath.Join(bin, "-buildvcs=false")
	date = time.Now().Add(time.Second).Format(time.RFC3339)
	git("commit", "-q", "--allow-empty", "-m", "moved on")
	got, err := exec.Command(exe, "version").Output()
	if err != nil || !strings.Contains(string(got), "commit unknown") || strings.Contains(string(got), head) {
		t.Errorf("after the clone moved: %q (%v), want commit unknown", got, err)
	}
}

package cli_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/claimslint/claimslint/server/cli"
	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"docket": func() {
			os.Exit(cli.Main(os.Args, cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
		},
	})
}

// TestScripts runs the end-to-end fixtures in testdata/script. Times and
// authors are pinned with DOCKET_NOW and DOCKET_AUTHOR; ids that must be
// known in advance come from imported fixtures, since created ids are
// random by design.
func TestScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("DOCKET_NOW", "2026-11-29T10:00:00Z")
			env.Setenv("DOCKET_AUTHOR", "tester")
			// Import fixtures in beads' and gh's real shapes, shared with the
			// server package's tests.
			fixtures, err := filepath.Abs(filepath.Join("..", "docket", "testdata", "import"))
			if err != nil {
				return err
			}
			env.Setenv("FIXTURES", fixtures)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// exits N prog args...: run prog and require exit code N, keeping
			// its output for stdout and stderr checks.
			"exits": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) < 2 {
					ts.Fatalf("usage: exits N prog [args...]")
				}
				want, err := strconv.Atoi(args[0])
				if err != nil {
					ts.Fatalf("exits: %v", err)
				}
				err = ts.Exec(args[1], args[2:]...)
				got := 0
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					got = ee.ExitCode()
				} else if err != nil {
					ts.Fatalf("exits: %v", err)
				}
				if got != want {
					ts.Fatalf("%s exited %d, want %d", args[1], got, want)
				}
			},
		},
	})
}

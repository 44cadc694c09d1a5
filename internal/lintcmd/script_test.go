package lintcmd_test

import (
	"flag"
	"os"
	"testing"

	"github.com/claimslint/claimslint/internal/lintcmd"
	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite cmp files in testdata/script from the actual output")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"claimslint": func() { os.Exit(lintcmd.Main(os.Args, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the end-to-end fixtures in testdata/script: one small
// repository per rule and per claim kind, each asserting exact output and
// exit code.
func TestScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		UpdateScripts:       *update,
		Setup: func(env *testscript.Env) error {
			// git needs an identity and must not read the user's config.
			env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			env.Setenv("HOME", env.WorkDir)
			env.Setenv("GIT_AUTHOR_NAME", "t")
			env.Setenv("GIT_AUTHOR_EMAIL", "t@example.invalid")
			env.Setenv("GIT_COMMITTER_NAME", "t")
			env.Setenv("GIT_COMMITTER_EMAIL", "t@example.invalid")
			return nil
		},
	})
}

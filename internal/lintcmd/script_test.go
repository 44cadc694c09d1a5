package lintcmd_test

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/lintcmd"
	"github.com/claimslint/claimslint/server/cli"
	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite cmp files in testdata/script from the actual output")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"claimslint": func() { os.Exit(lintcmd.Main(os.Args, os.Stdout, os.Stderr)) },
		// docket, for the scripts where both tools meet (tracker_prefixes).
		"docket": func() { os.Exit(cli.Main(os.Args, cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})) },
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
		Cmds:                map[string]func(ts *testscript.TestScript, neg bool, args []string){"grow": cmdGrow, "writeq": cmdWriteq, "repeat": repeat, "replace": cmdReplace},
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

// cmdGrow is the script command `grow FILE SIZE`: it appends lines of
// filler to FILE until it holds SIZE bytes (a decimal count, or with a
// MiB suffix), so a script can hold a file over a size limit without
// carrying it.
func cmdGrow(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: grow FILE SIZE")
	}
	size, mib := strings.CutSuffix(args[1], "MiB")
	n, err := strconv.ParseInt(size, 10, 64)
	ts.Check(err)
	if mib {
		n <<= 20
	}
	f, err := os.OpenFile(ts.MkAbs(args[0]), os.O_WRONLY|os.O_APPEND, 0)
	ts.Check(err)
	defer f.Close()
	st, err := f.Stat()
	ts.Check(err)
	fill := []byte(strings.Repeat("// filler\n", 1<<12))
	for have := st.Size(); have < n; {
		k := min(int64(len(fill)), n-have)
		_, err := f.Write(fill[:k])
		ts.Check(err)
		have += k
	}
}

// cmdWriteq is the script command `writeq NAME CONTENT`: it writes CONTENT
// to the file NAME, both Go string literals without their quotes, so a
// script can make a file whose name holds a newline or an ESC, which a
// txtar archive cannot name.
func cmdWriteq(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: writeq NAME CONTENT")
	}
	name, err := strconv.Unquote(`"` + args[0] + `"`)
	ts.Check(err)
	content, err := strconv.Unquote(`"` + args[1] + `"`)
	ts.Check(err)
	p := ts.MkAbs(name)
	ts.Check(os.MkdirAll(filepath.Dir(p), 0o755))
	ts.Check(os.WriteFile(p, []byte(content), 0o644))
}

// cmdReplace is the script command `replace FILE OLD NEW`: it replaces
// the one occurrence of OLD in FILE by NEW, both Go string literals
// without their quotes (\n, \t), so a script breaks a fact in a real
// file as a change would, without carrying a second copy of it. OLD must
// occur exactly once.
func cmdReplace(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: replace FILE OLD NEW")
	}
	old, err := strconv.Unquote(`"` + args[1] + `"`)
	ts.Check(err)
	repl, err := strconv.Unquote(`"` + args[2] + `"`)
	ts.Check(err)
	src := ts.ReadFile(args[0])
	if n := strings.Count(src, old); n != 1 {
		ts.Fatalf("replace: %q occurs %d times in %s, want once", old, n, args[0])
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(strings.Replace(src, old, repl, 1)), 0o644))
}

// repeat appends text to a file n times, for the hostile inputs that are
// too large to keep in a txtar file:
//
//	repeat FILE N TEXT          TEXT N times (\n in TEXT is a newline)
//	repeat -indent FILE N TEXT  each time indented two spaces more
//	repeat -file FILE N SRC     the contents of the file SRC N times
func repeat(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! repeat")
	}
	var indent, file bool
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "-indent":
			indent = true
		case "-file":
			file = true
		default:
			ts.Fatalf("repeat: unknown flag %s", args[0])
		}
		args = args[1:]
	}
	if len(args) != 3 {
		ts.Fatalf("usage: repeat [-indent] [-file] FILE N TEXT")
	}
	n, err := strconv.Atoi(args[1])
	if err != nil {
		ts.Fatalf("repeat: count %q: %v", args[1], err)
	}
	text := strings.ReplaceAll(args[2], `\n`, "\n")
	if file {
		text = ts.ReadFile(args[2])
	}
	var b strings.Builder
	for i := range n {
		if indent {
			b.WriteString(strings.Repeat("  ", i))
		}
		b.WriteString(text)
	}
	f, err := os.OpenFile(ts.MkAbs(args[0]), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	ts.Check(err)
	_, err = f.WriteString(b.String())
	ts.Check(err)
	ts.Check(f.Close())
}

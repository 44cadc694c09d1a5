package clikit

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNearest(t *testing.T) {
	cmds := []string{"check", "prove", "init", "new", "audit", "list", "version", "help"}
	for _, tc := range []struct{ given, want string }{
		{"chek", "check"},
		{"lsit", "list"}, // a swap of neighbours is one edit
		{"prov", "prove"},
		{"version", "version"},
		{"frobnicate", ""},
		{"x", ""},
		{"", ""},
		{"ls", ""}, // two edits from list: more than a third of four
		{strings.Repeat("check", 1<<18), ""},
	} {
		if got := Nearest(tc.given, cmds); got != tc.want {
			t.Errorf("Nearest(%q) = %q, want %q", tc.given, got, tc.want)
		}
	}
}

// TestNearestLongArgument: an argument of a mebibyte is not compared
// with every name (a table of its length times theirs); it costs what a
// name does.
func TestNearestLongArgument(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	allocs := testing.AllocsPerRun(5, func() { Nearest(long, []string{"check", "prove"}) })
	if allocs > 0 {
		t.Errorf("Nearest of a 1 MiB argument made %v allocations, want none", allocs)
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"list", "list", 0},
		{"list", "lsit", 1}, {"kitten", "sitting", 3}, {"all", "al", 1},
	} {
		if got := distance(tc.a, tc.b); got != tc.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func testApp(out, errw *bytes.Buffer) *App {
	return New(Spec{
		Name: "tool", Version: func() string { return "v1.2.3 commit abc" }, Stdout: out, Stderr: errw,
		Flags: []Flag{&StringFlag{Name: "db"}},
		Commands: []*Command{
			{Name: "create", Flags: []Flag{&IntFlag{Name: "p"}, &BoolFlag{Name: "json"}, &StringSliceFlag{Name: "l"}},
				Action: func(c *Context) error {
					_, err := out.WriteString(strings.Join(append(c.Args().Slice(), c.StringSlice("l")...), "|") + "\n")
					return err
				}},
			{Name: "dep", Subcommands: []*Command{{Name: "add", Flags: []Flag{&BoolFlag{Name: "json"}},
				Action: func(c *Context) error {
					_, err := out.WriteString("add " + strings.Join(c.Args().Slice(), " ") + "\n")
					return err
				}}}},
		},
		UsageError: func(cmd string, err error) error {
			if err == nil {
				return errors.New("usage")
			}
			return errors.New("[" + cmd + "] " + err.Error())
		},
	})
}

func TestRun(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		out    string
		err    string
		outHas string
	}{
		{name: "version flag", args: []string{"--version"}, out: "tool v1.2.3 commit abc\n"},
		{name: "version command", args: []string{"version"}, out: "tool v1.2.3 commit abc\n"},
		{name: "flags after arguments", args: []string{"create", "a title", "-p", "1", "-l", "x,y", "--json"}, out: "a title|x,y\n"},
		{name: "global flag first", args: []string{"--db", "f", "create", "t"}, out: "t\n"},
		{name: "single-dash long flag", args: []string{"create", "t", "-json"}, out: "t\n"},
		{name: "subcommand flags after arguments", args: []string{"dep", "add", "a", "b", "--json"}, out: "add a b\n"},
		{name: "unknown command", args: []string{"craete"}, err: `[] unknown command "craete": did you mean "create"? (run tool help)`},
		{name: "unknown command, nothing near", args: []string{"zzzzzz"}, err: `[] unknown command "zzzzzz" (run tool help)`},
		{name: "unknown flag", args: []string{"create", "--jsn"}, err: "[create] flag provided but not defined: -jsn; did you mean --json?"},
		{name: "unknown short flag", args: []string{"create", "-q"}, err: "[create] flag provided but not defined: -q; did you mean -p?"},
		{name: "unknown flag of a subcommand", args: []string{"dep", "add", "--jsonn"}, err: "[dep add] flag provided but not defined: -jsonn; did you mean --json?"},
		{name: "unknown global flag", args: []string{"--dbb", "x"}, err: "[] flag provided but not defined: -dbb; did you mean --db?"},
		{name: "help for no command", args: []string{"help", "craete"}, err: `[] unknown command "craete": did you mean "create"? (run tool help)`},
		{name: "help for a command", args: []string{"help", "create"}, outHas: "tool create [command options]"},
		{name: "no command", args: nil, err: "usage", outHas: "USAGE:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errw bytes.Buffer
			err := Run(testApp(&out, &errw), append([]string{"tool"}, tc.args...))
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if gotErr != tc.err {
				t.Errorf("error %q, want %q", gotErr, tc.err)
			}
			if tc.outHas != "" {
				if !strings.Contains(out.String(), tc.outHas) {
					t.Errorf("stdout %q does not hold %q", out.String(), tc.outHas)
				}
			} else if out.String() != tc.out {
				t.Errorf("stdout %q, want %q", out.String(), tc.out)
			}
		})
	}
}

func TestFlagsFirst(t *testing.T) {
	var out, errw bytes.Buffer
	app := testApp(&out, &errw)
	for _, tc := range []struct{ in, want []string }{
		{[]string{"tool"}, []string{"tool"}},
		{[]string{"tool", "create", "T", "-p", "1"}, []string{"tool", "create", "-p", "1", "T"}},
		{[]string{"tool", "create", "T", "--json", "U"}, []string{"tool", "create", "--json", "T", "U"}},
		{[]string{"tool", "create", "T", "--", "-p"}, []string{"tool", "create", "T", "--", "-p"}},
		{[]string{"tool", "create", "-", "-p=2"}, []string{"tool", "create", "-p=2", "-"}},
		{[]string{"tool", "--db", "x", "create", "T", "-p", "1"}, []string{"tool", "--db", "x", "create", "-p", "1", "T"}},
		{[]string{"tool", "dep", "add", "A", "B", "--json"}, []string{"tool", "dep", "add", "--json", "A", "B"}},
		{[]string{"tool", "nope", "A", "-p", "1"}, []string{"tool", "nope", "A", "-p", "1"}},
	} {
		if diff := cmp.Diff(tc.want, FlagsFirst(app, tc.in)); diff != "" {
			t.Errorf("FlagsFirst(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

// FuzzFlagsFirst: whatever the arguments, FlagsFirst neither panics nor
// loses, adds or changes one; it only reorders them, and keeps the
// program name first.
func FuzzFlagsFirst(f *testing.F) {
	f.Add("create\x00T\x00-p\x001")
	f.Add("--db\x00x\x00dep\x00add\x00A\x00--json\x00B")
	f.Add("create\x00--\x00-p")
	f.Add("--db")
	var out, errw bytes.Buffer
	app := testApp(&out, &errw)
	f.Fuzz(func(t *testing.T, joined string) {
		args := append([]string{"tool"}, strings.Split(joined, "\x00")...)
		got := FlagsFirst(app, args)
		if len(got) == 0 || got[0] != "tool" {
			t.Fatalf("FlagsFirst(%q) = %q: the program name is not first", args, got)
		}
		a, b := slices.Clone(args), slices.Clone(got)
		slices.Sort(a)
		slices.Sort(b)
		if !slices.Equal(a, b) {
			t.Fatalf("FlagsFirst(%q) = %q: not a reordering", args, got)
		}
	})
}

// TestVersionReadOnlyWhenPrinted: reading the version may run git, so a
// command other than version and --version never reads it.
func TestVersionReadOnlyWhenPrinted(t *testing.T) {
	var out, errw bytes.Buffer
	reads := 0
	app := New(Spec{Name: "tool", Stdout: &out, Stderr: &errw, Commands: []*Command{{Name: "create", Action: func(*Context) error { return nil }}},
		Version:    func() string { reads++; return "v" },
		UsageError: func(_ string, err error) error { return err }})
	for _, args := range [][]string{{"tool", "create"}, {"tool", "help"}, {"tool", "create", "--help"}} {
		if err := Run(app, args); err != nil {
			t.Fatalf("%q: %v", args, err)
		}
	}
	if reads != 0 {
		t.Errorf("the version was read %d times by commands that do not print it", reads)
	}
	for _, args := range [][]string{{"tool", "--version"}, {"tool", "version"}} {
		if err := Run(app, args); err != nil {
			t.Fatalf("%q: %v", args, err)
		}
	}
	if reads != 2 {
		t.Errorf("the version was read %d times by --version and version, want 2", reads)
	}
}

package lintcmd_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/lintcmd"
	"github.com/claimslint/claimslint/server/cli"
	"github.com/google/go-cmp/cmp"
)

// helpShape is the structure of a help page: its section headings in
// order, and the shape of each option line (how it spells its flag).
type helpShape struct {
	Sections []string
	Flags    []string // one entry per distinct option-line shape
}

var (
	heading   = regexp.MustCompile(`^([A-Z][A-Z ]*):$`)
	longFlag  = regexp.MustCompile(`^   --[a-z]`)
	shortFlag = regexp.MustCompile(`^   -[a-z]( |,|$)`)
	oneDash   = regexp.MustCompile(`^   -[a-z]`) // -all: a long flag with one dash
)

func shape(t *testing.T, help string) helpShape {
	t.Helper()
	var s helpShape
	seen := map[string]bool{}
	section := ""
	for _, l := range strings.Split(help, "\n") {
		if m := heading.FindStringSubmatch(l); m != nil {
			section = m[1]
			s.Sections = append(s.Sections, section)
			continue
		}
		if !strings.HasSuffix(section, "OPTIONS") || strings.TrimSpace(l) == "" {
			continue
		}
		kind := "other"
		switch {
		case longFlag.MatchString(l):
			kind = "--long"
		case shortFlag.MatchString(l):
			kind = "-x"
		case oneDash.MatchString(l):
			kind = "-long"
		}
		if !seen[kind] {
			seen[kind] = true
			s.Flags = append(s.Flags, kind)
		}
	}
	return s
}

func runHelp(t *testing.T, main func([]string, *bytes.Buffer, *bytes.Buffer) int, args ...string) string {
	t.Helper()
	var out, errw bytes.Buffer
	if code := main(args, &out, &errw); code != 0 {
		t.Fatalf("%s: exit %d, stderr %q", strings.Join(args, " "), code, errw.String())
	}
	return out.String()
}

func claimslintMain(args []string, out, errw *bytes.Buffer) int { return lintcmd.Main(args, out, errw) }
func docketMain(args []string, out, errw *bytes.Buffer) int {
	return cli.Main(args, cli.Env{Stdout: out, Stderr: errw})
}

// TestHelpStyle: docket --help, docket list --help and claimslint check
// --help share one style (D77): the same sections in the same order for a
// tool's page and for a command's, and every long flag spelled with two
// dashes.
func TestHelpStyle(t *testing.T) {
	root := map[string]helpShape{
		"claimslint --help": shape(t, runHelp(t, claimslintMain, "claimslint", "--help")),
		"docket --help":     shape(t, runHelp(t, docketMain, "docket", "--help")),
	}
	command := map[string]helpShape{
		"claimslint check --help": shape(t, runHelp(t, claimslintMain, "claimslint", "check", "--help")),
		"docket list --help":      shape(t, runHelp(t, docketMain, "docket", "list", "--help")),
		"docket help list":        shape(t, runHelp(t, docketMain, "docket", "help", "list")),
	}
	for name, want := range map[string]helpShape{
		"claimslint --help":       {Sections: []string{"NAME", "USAGE", "COMMANDS", "GLOBAL OPTIONS"}, Flags: []string{"--long"}},
		"docket --help":           {Sections: []string{"NAME", "USAGE", "DESCRIPTION", "COMMANDS", "GLOBAL OPTIONS"}, Flags: []string{"--long"}},
		"claimslint check --help": {Sections: []string{"NAME", "USAGE", "OPTIONS"}, Flags: []string{"--long"}},
		"docket list --help":      {Sections: []string{"NAME", "USAGE", "OPTIONS"}, Flags: []string{"--long"}},
		"docket help list":        {Sections: []string{"NAME", "USAGE", "OPTIONS"}, Flags: []string{"--long"}},
	} {
		got, ok := root[name]
		if !ok {
			got = command[name]
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: help structure (-want +got):\n%s", name, diff)
		}
	}
	// A command's page is the same shape in both tools.
	if diff := cmp.Diff(command["claimslint check --help"], command["docket list --help"]); diff != "" {
		t.Errorf("claimslint check --help and docket list --help differ in structure (-claimslint +docket):\n%s", diff)
	}
}

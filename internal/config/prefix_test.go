package config

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAddPrefix(t *testing.T) {
	t.Parallel()
	// init's own file: the shape claimslint init writes.
	initFile := "# claimslint settings\nregister: docs/PRD.md\ntracker:\n  export: .knowledge/tracker/issues.jsonl\n  format: docket\n  prefixes: [dk]\nrange_sites: [docs/PRD.md]\n"
	for _, tc := range []struct {
		name, in, prefix string
		out              string // "" with err set
		line             int
		old, new         []string
		err              string
	}{
		{name: "flow list", in: initFile, prefix: "cli",
			out:  strings.Replace(initFile, "prefixes: [dk]", "prefixes: [dk, cli]", 1),
			line: 6, old: []string{"  prefixes: [dk]"}, new: []string{"  prefixes: [dk, cli]"}},
		{name: "flow list with a comment", in: "tracker:\n  prefixes: [dk, ub]   # ours\n", prefix: "cli",
			out: "tracker:\n  prefixes: [dk, ub, cli]   # ours\n", line: 2,
			old: []string{"  prefixes: [dk, ub]   # ours"}, new: []string{"  prefixes: [dk, ub, cli]   # ours"}},
		{name: "empty flow list", in: "tracker:\n  prefixes: []\n", prefix: "cli",
			out: "tracker:\n  prefixes: [cli]\n", line: 2, old: []string{"  prefixes: []"}, new: []string{"  prefixes: [cli]"}},
		{name: "block list", in: "tracker:\n  prefixes:\n    - dk\n    # more\n    - ub\nrange_sites: [a.md]\n", prefix: "cli",
			out: "tracker:\n  prefixes:\n    - dk\n    # more\n    - ub\n    - cli\nrange_sites: [a.md]\n", line: 5, new: []string{"    - cli"}},
		{name: "tracker without prefixes keeps the default", in: "tracker:\n    export: x.jsonl\n", prefix: "cli",
			out: "tracker:\n    prefixes: [dk, cli]\n    export: x.jsonl\n", line: 1, new: []string{"    prefixes: [dk, cli]"}},
		{name: "no tracker", in: "register: docs/PRD.md", prefix: "cli",
			out: "register: docs/PRD.md\ntracker:\n  prefixes: [dk, cli]\n", line: 2, new: []string{"tracker:", "  prefixes: [dk, cli]"}},
		{name: "empty file", in: "", prefix: "cli", out: "tracker:\n  prefixes: [dk, cli]\n", line: 1, new: []string{"tracker:", "  prefixes: [dk, cli]"}},
		{name: "CRLF", in: "tracker:\r\n  prefixes: [dk]\r\n", prefix: "cli",
			out: "tracker:\r\n  prefixes: [dk, cli]\r\n", line: 2, old: []string{"  prefixes: [dk]"}, new: []string{"  prefixes: [dk, cli]"}},
		{name: "a YAML word is quoted", in: "tracker:\n  prefixes: [dk]\n", prefix: "no",
			out: "tracker:\n  prefixes: [dk, \"no\"]\n", line: 2, old: []string{"  prefixes: [dk]"}, new: []string{"  prefixes: [dk, \"no\"]"}},
		{name: "flow mapping", in: "tracker: {prefixes: [dk]}\n", prefix: "cli", err: ErrCannotEdit.Error()},
		{name: "anchored list", in: "tracker:\n  prefixes: &p [dk]\n", prefix: "cli", err: ErrCannotEdit.Error()},
		{name: "prefixes of a nested mapping are not the tracker's", in: "tracker:\n  workflow:\n    prefixes: closed\n", prefix: "cli", err: ErrCannotEdit.Error()},
		{name: "already listed", in: initFile, prefix: "dk", err: "already lists dk"},
		{name: "not a prefix", in: initFile, prefix: "a-b", err: "is not a prefix"},
		{name: "bad configuration", in: "registr: x\n", prefix: "cli", err: "unknown key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e, err := AddPrefix([]byte(tc.in), tc.prefix)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.out, string(e.Out)); diff != "" {
				t.Errorf("out (-want +got):\n%s", diff)
			}
			if e.Line != tc.line || !slices.Equal(e.Old, tc.old) || !slices.Equal(e.New, tc.new) {
				t.Errorf("edit at line %d %q -> %q, want line %d %q -> %q", e.Line, e.Old, e.New, tc.line, tc.old, tc.new)
			}
		})
	}
}

// FuzzAddPrefix: whatever the file, AddPrefix never panics, and an edit it
// returns parses to the same configuration with the prefix added at the
// end of tracker.prefixes.
func FuzzAddPrefix(f *testing.F) {
	for _, s := range []string{
		"tracker:\n  prefixes: [dk]\n", "tracker:\n  prefixes:\n  - dk\n", "tracker:\n  export: x\n", "",
		"register: a.md\n", "tracker: {prefixes: [dk]}\n", "tracker:\r\n  prefixes: [dk] # c\r\n",
		"tracker:\n  prefixes: [dk\n  , ub]\n", "tracker:\n\tprefixes: [dk]\n", "tracker: # t\n  prefixes: # p\n    - dk",
	} {
		f.Add(s, "cli")
	}
	f.Fuzz(func(t *testing.T, in, prefix string) {
		before, perr := Parse([]byte(in), Default())
		e, err := AddPrefix([]byte(in), prefix)
		if err != nil {
			if perr == nil && errors.Is(err, ErrCannotEdit) && len(e.Out) != 0 {
				t.Fatal("an edit refused still returned bytes")
			}
			return
		}
		after, err := Parse(e.Out, Default())
		if err != nil {
			t.Fatalf("the edited file does not parse: %v\n%q", err, e.Out)
		}
		want := append(slices.Clone(before.Tracker.Prefixes), prefix)
		if !slices.Equal(after.Tracker.Prefixes, want) {
			t.Fatalf("prefixes %q, want %q", after.Tracker.Prefixes, want)
		}
	})
}

package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestNearest: the did-you-mean of an unknown key is the key within a
// third of the word's length in edits (at least one), else none (D76).
func TestNearest(t *testing.T) {
	keys := knownKeys()["config.Config"]
	for _, tc := range []struct{ word, want string }{
		{"registr", "register"},
		{"Register", "register"},
		{"range-sites", "range_sites"},
		{"workflow", "workflows"},
		{"colour", ""},
		{"x", ""},
		{"", ""},
		{strings.Repeat("register", 20), ""},
	} {
		if got := nearest(tc.word, keys); got != tc.want {
			t.Errorf("nearest(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
	if len(knownKeys()["config.Tracker"]) == 0 || len(knownKeys()["config.Marker"]) == 0 {
		t.Errorf("knownKeys lacks a nested mapping: %v", knownKeys())
	}
}

func TestParse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		want     func(*Config)
		err      string
	}{
		{name: "empty keeps defaults", in: "", want: func(*Config) {}},
		{name: "override", in: "register: PRD.md\ntracker:\n  format: github\n  prefixes: []\n", want: func(c *Config) {
			c.Register = "PRD.md"
			c.Tracker.Format = "github"
			c.Tracker.Prefixes = []string{}
		}},
		{name: "unknown key", in: "registr: x\n", err: `.claimslint.yml: line 1: unknown key "registr": did you mean "register"? (docs/guide/configuration.md lists the keys)`},
		{name: "unknown keys, one line", in: "registr: x\nfoo: 1\n", err: `line 1: unknown key "registr": did you mean "register"?; line 2: unknown key "foo" (`},
		{name: "unknown nested key", in: "tracker:\n  prefix: [dk]\n", err: `line 2: unknown key "prefix": did you mean "prefixes"? (`},
		{name: "unknown key in a list", in: "frozen_ranges:\n  - path: a\n    rnge: D1..D2\n", err: `line 3: unknown key "rnge": did you mean "range"? (`},
		{name: "unknown key, nothing near", in: "colour: blue\n", err: `line 1: unknown key "colour" (`},
		{name: "a list for a string", in: "register: [a]\n", err: "line 1: a list where a string belongs"},
		{name: "a string for a list, not quoted", in: "range_sites: s3cr3t\n", err: ".claimslint.yml: line 1: a string where a list belongs"},
		{name: "a number for a mapping", in: "inline: 3\n", err: "line 1: a number where a mapping belongs"},
		{name: "a word for a bool", in: "require_claims: maybe\n", err: "line 1: a string where true or false belongs"},
		{name: "register in .git", in: "register: .git/config\n", err: `register: ".git/config" is inside .git, git's own directory`},
		{name: "export in .GIT", in: "tracker: {export: a/../.GIT/config}\n", err: `tracker.export: "a/../.GIT/config" is inside .git`},
		{name: "NUL in a path", in: "register: \"a\\0b\"\n", err: `register: "a\x00b" holds a NUL byte`},
		{name: "newline in a path", in: "range_sites: [\"a\\n::error file=x::y\"]\n", err: `range_sites: "a\n::error file=x::y" holds a control character`},
		{name: "bad format", in: "tracker: {format: jira}\n", err: `tracker.format "jira"`},
		{name: "escape", in: "decisions: a/../../b\n", err: "escapes the repository"},
		{name: "absolute", in: "range_sites: [/etc/passwd]\n", err: "is absolute"},
		{name: "bad prefix", in: "tracker: {prefixes: [a-b]}\n", err: "is not a prefix"},
		{name: "statuses add to the defaults", in: "statuses:\n  Parked:  proposed\n  'On  Ice': deprecated\n", want: func(c *Config) {
			c.Statuses["parked"] = "proposed"
			c.Statuses["on ice"] = "deprecated"
		}},
		{name: "statuses override a default", in: "statuses: {draft: rejected}\n", want: func(c *Config) {
			c.Statuses["draft"] = "rejected"
		}},
		{name: "status mapped to a non-status", in: "statuses: {parked: later}\n", err: `statuses: "parked" maps to "later"`},
		{name: "workflow adds to docket's", in: "tracker:\n  workflow:\n    review: blocked\n    done: closed\n    hooked: open\n", want: func(c *Config) {
			c.Tracker.Workflow = map[string]string{"review": "blocked", "done": "closed", "hooked": "open"}
			c.Tracker.Classes["review"] = "blocked"
			c.Tracker.Classes["done"] = "closed"
			c.Tracker.Classes["hooked"] = "open"
		}},
		{name: "workflow class unknown", in: "tracker: {workflow: {review: later}}\n", err: `tracker.workflow: "review": class "later": use one of open, active, blocked, deferred, closed`},
		{name: "workflow remaps docket's own", in: "tracker: {workflow: {closed: open}}\n", err: `"closed" is docket's own status and always counts as closed`},
		{name: "workflow every problem", in: "tracker: {workflow: {Review: open, x: y}}\n", err: "\"Review\" is not a status a record can carry: use lower-case letters, digits, - and _, starting with a letter\ntracker.workflow: \"x\": class \"y\""},
		{name: "a marker past its program size", in: "inline:\n  markers:\n    - {pattern: '" + strings.Repeat("[a-z]{1000}", 11) + "', status: accepted}\n", err: "inline.markers[0].pattern: compiles to 11002 instructions, over the 10000 a pattern may compile to (D90)"},
		{name: "markers past the run's", in: "inline:\n  markers:\n" + strings.Repeat("    - {pattern: '"+strings.Repeat("[a-z]{1000}", 9)+"', status: accepted}\n", 120), err: "inline.markers[111].pattern: compiles to about 9004 instructions, and the patterns before it already use about 999444: a run compiles at most 1000000 (D90)"},
		{name: "status redefined", in: "statuses: {accepted: proposed}\n", err: `"accepted" is itself a status`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse([]byte(tc.in), Default())
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.err)
				}
				// A message about the file's YAML is one line, names no Go
				// type and quotes no value it refuses.
				if msg := err.Error(); !strings.Contains(msg, "workflow") && strings.Contains(msg, "\n") || strings.Contains(msg, "config.") || strings.Contains(msg, "s3cr3t") {
					t.Errorf("err = %q: not one line, or names a Go type or the value", msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := Default()
			tc.want(&want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestLoadRefusesLinkOut: a .claimslint.yml that is a link out of the
// repository is not read (issue 16); one that links inside is.
func TestLoadRefusesLinkOut(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	repo, out := filepath.Join(base, "repo"), filepath.Join(base, "outside.yml")
	if err := os.MkdirAll(filepath.Join(repo, "conf"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, []byte("register: outside.md\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../outside.yml", filepath.Join(repo, FileName)); err != nil {
		t.Fatal(err)
	}
	if cfg, err := Load(repo); err == nil {
		t.Fatalf("Load followed a link out of the repository: register %q", cfg.Register)
	}
	os.Remove(filepath.Join(repo, FileName))
	if err := os.WriteFile(filepath.Join(repo, "conf", "c.yml"), []byte("register: docs/inside.md\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("conf/c.yml", filepath.Join(repo, FileName)); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(repo)
	if err != nil || cfg.Register != "docs/inside.md" {
		t.Fatalf("Load of a link inside: %q, %v", cfg.Register, err)
	}
}

// TestLoadBounded: a .claimslint.yml over MaxSize is refused before it is
// read, naming the file and the limit, and a named pipe, a directory or a
// socket in its place is refused at once, never waited on (issue 22).
func TestLoadBounded(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		make func(p string) error
		want string
	}{
		{"over the limit", func(p string) error {
			f, err := os.Create(p)
			if err != nil {
				return err
			}
			defer f.Close()
			f.WriteString("register: docs/PRD.md\n")
			return f.Truncate(MaxSize + 1) // sparse: nothing to write
		}, "read .claimslint.yml: file too large (1048577 bytes, limit 1048576): a configuration is at most 1 MiB"},
		{"a named pipe", func(p string) error { return mkfifo(p) }, "read .claimslint.yml: not a regular file: a named pipe (FIFO)"},
		{"a directory", func(p string) error { return os.Mkdir(p, 0o755) }, "read .claimslint.yml: not a regular file: a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if err := tc.make(filepath.Join(dir, FileName)); err != nil {
				t.Skipf("cannot make one here: %v", err)
			}
			done := make(chan error, 1)
			go func() { _, err := Load(dir); done <- err }()
			select {
			case err := <-done:
				if err == nil || err.Error() != tc.want {
					t.Fatalf("Load: %v, want %q", err, tc.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Load blocked")
			}
		})
	}
}

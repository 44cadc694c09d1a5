package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

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
		{name: "unknown key", in: "registr: x\n", err: "field registr not found"},
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
		{name: "status redefined", in: "statuses: {accepted: proposed}\n", err: `"accepted" is itself a status`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse([]byte(tc.in), Default())
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.err)
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

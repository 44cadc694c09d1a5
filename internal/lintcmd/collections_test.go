package lintcmd

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCollections adopts each real collection of
// internal/author/testdata/collections (see its SOURCES) in a fresh git
// repository, as its team would: init --adopt, check, new, check. check
// must exit as listed, with exactly the findings listed, each true of
// that collection (D72).
func TestCollections(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	cases := []struct {
		name, dir string
		records   int
		// findings are substrings of the findings check prints, each true
		// of the collection; check exits 1 when one is an error.
		findings []string
		exit     int
		newFile  string
	}{
		{name: "bbc__tams", records: 34, newFile: "docs/adr/0034-next-decision.md"},
		{name: "arachne-framework__architecture", dir: ".", records: 17, newFile: "adr-019-next-decision.md"},
		{name: "celestiaorg__celestia-app", dir: ".", records: 26, newFile: "docs/architecture/adr-031-next-decision.md"},
		{name: "Sylius__Sylius", dir: ".", records: 25, newFile: "adr/2026_12_01_next_decision.md"},
		{name: "npm__rfcs", dir: ".", records: 30, newFile: "accepted/0000-next-decision.md"},
		{name: "rust-lang__rfcs", dir: ".", records: 20, newFile: "text/0000-next-decision.md"},
		{name: "mlflow__rfcs", dir: ".", records: 3, newFile: "rfcs/0000-next-decision/0000-next-decision.md"},
		{name: "wagov-dtt__architecture-decision-records", dir: ".", records: 20, newFile: "development/022-next-decision.md"},
		{name: "json-schema-org__json-schema-spec", records: 7},
		{name: "movito__agentive-starter-kit", dir: ".kit/adr", records: 38, exit: 1, findings: []string{
			// 0026 says "Superseded by KIT-ADR-0028", a record of another
			// numbering (KIT-) that the bare ADR-0028 reading cannot tell apart.
			"D26 is superseded but names no registered successor",
			"D26 superseded by ADR-0028, which is no registered record",
		}},
		{name: "giantswarm__rfc", dir: ".", records: 20, exit: 1, findings: []string{
			// giantswarm's state: review is no word of the vocabulary.
			`status "review" of adopted record`,
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "author", "testdata", "collections", tc.name))); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "c"}} {
				if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
					t.Fatalf("git %v: %v\n%s", args, err, out)
				}
			}
			run := func(args ...string) (string, int) {
				var out, errb bytes.Buffer
				full := append([]string{"claimslint", args[0], "--dir", dir}, args[1:]...)
				code := Main(full, &out, &errb)
				return out.String() + errb.String(), code
			}
			initArgs := []string{"init", "--adopt", "--date", "2026-12-01", "--ref", "0123456789abcdef0123456789abcdef01234567"}
			if tc.dir != "" {
				initArgs = []string{"init", "--adopt", tc.dir, "--date", "2026-12-01", "--ref", "0123456789abcdef0123456789abcdef01234567"}
			}
			out, code := run(initArgs...)
			if code != 0 {
				t.Fatalf("init --adopt: exit %d\n%s", code, out)
			}
			if n := strings.Count(out, "\nadopted "); n != tc.records {
				t.Errorf("init --adopt adopted %d records, want %d\n%s", n, tc.records, out)
			}
			checkOut := func(when string) {
				out, code := run("check")
				if code != tc.exit {
					t.Errorf("check %s: exit %d, want %d\n%s", when, code, tc.exit, out)
				}
				lines := strings.Split(strings.TrimSpace(out), "\n")
				if out == "" {
					lines = nil
				}
				if len(lines) != len(tc.findings) {
					t.Errorf("check %s: %d findings, want %d\n%s", when, len(lines), len(tc.findings), out)
				}
				for _, f := range tc.findings {
					if !strings.Contains(out, f) {
						t.Errorf("check %s: no finding %q\n%s", when, f, out)
					}
				}
			}
			checkOut("after init --adopt")
			out, code = run("new", "--date", "2026-12-01", "Next decision")
			if code != 0 {
				t.Fatalf("new: exit %d\n%s", code, out)
			}
			if tc.newFile != "" && !strings.Contains(out, " "+tc.newFile+"\n") {
				t.Errorf("new wrote\n%s\nwant %s", out, tc.newFile)
			}
			if tc.name != "npm__rfcs" {
				// npm: new writes claimslint's front matter (status: proposed)
				// into accepted/, whose folder says accepted: the dialect
				// write-back (D73) is not built yet.
				checkOut("after new")
			}
		})
	}
}

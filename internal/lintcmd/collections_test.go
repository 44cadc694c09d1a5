package lintcmd

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
		// ids are register rows init --adopt must write: the collection's
		// own numbers (D72), as "| D4a | [title](link)".
		ids []string
		// supersede is the id new --supersedes retires, and marked the
		// line its file must say afterwards, as its tool writes it (D73).
		supersede, marked string
	}{
		{name: "bbc__tams", supersede: "D5", marked: "status: \"superseded by [ADR-0035](0035-a-replacement.md)\"", records: 34, newFile: "docs/adr/0034-next-decision.md", ids: []string{
			"| D0 | [Use Markdown ADRs to record design decisions](adr/0000-",
			"| D4 | [Deletion of Content and IDs](adr/0004-content-deletion.md)",
			"| D4a | [Flow and Source References](adr/0004a-ancestry-relationships.md)",
			"| D5 | ",
		}},
		{name: "opendatahub-io__architecture-decision-records", dir: "architecture-decision-records", records: 40, exit: 1, supersede: "D3", marked: "| Status         | Superseded by [ODH-ADR-Operator-0017](operator/ODH-ADR-Operator-0017-a-replacement.md) |",
			newFile: "architecture-decision-records/operator/ODH-ADR-Operator-0016-next-decision.md",
			ids: []string{
				// Numbers repeat across the component folders: each folder
				// is a block of ids (its base), the number its last digits.
				"| D1 | [Use Architecture Decision Records for Open Data Hub]",
				"| D130007 | ",
				// A number repeated inside one folder takes an id above
				// every block.
				"| D140000 | ",
				"(<../architecture-decision-records/operator/ODH-ADR-Operator-0010-Observability-component metrics scraping.md>)",
			},
			findings: []string{
				// Status words of the team's own process that the
				// vocabulary does not map: the team says what they mean.
				`status "Review" of adopted record D80001`,
				`status "Refinement completed. TP in 3.4" of adopted record D110001`,
				`status "Review" of adopted record D120001`,
				`status "TBD" of adopted record D130008`,
				// "| Supersedes | <a pull request URL> |" and "Data
				// Connections (pre-2.16)": no record of the collection.
				"D130005 supersedes https://github.com/opendatahub-io/architecture-decision-records/pull/23, which is no registered record",
				"D130009 supersedes Data Connections (pre-2.16), which is no registered record",
			}},
		{name: "arachne-framework__architecture", supersede: "D3", marked: "\nSuperseded by [20. A replacement](adr-020-a-replacement.md)\n", dir: ".", records: 17, newFile: "adr-019-next-decision.md"},
		{name: "celestiaorg__celestia-app", supersede: "D3", marked: "\nSuperseded by [32. A replacement](adr-032-a-replacement.md)\n", dir: ".", records: 26, newFile: "docs/architecture/adr-031-next-decision.md"},
		{name: "Sylius__Sylius", supersede: "D3", marked: "* Status: superseded by [2026_12_02_a_replacement](2026_12_02_a_replacement.md)\n", dir: ".", records: 25, newFile: "adr/2026_12_01_next_decision.md"},
		{name: "npm__rfcs", dir: ".", records: 30, newFile: "accepted/0000-next-decision.md"},
		{name: "rust-lang__rfcs", dir: ".", records: 20, newFile: "text/0000-next-decision.md"},
		{name: "mlflow__rfcs", dir: ".", records: 3, newFile: "rfcs/0000-next-decision/0000-next-decision.md"},
		{name: "wagov-dtt__architecture-decision-records", supersede: "D3", marked: "**Status:** Superseded by [ADR-023](023-a-replacement.md) | **Date:** 2025-03-26 | **Review:** 2026-03-26", dir: ".", records: 20, newFile: "development/022-next-decision.md"},
		{name: "json-schema-org__json-schema-spec", records: 7},
		{name: "movito__agentive-starter-kit", dir: ".kit/adr", records: 38, exit: 1, ids: []string{"| D21 | ", "| D21b | "}, findings: []string{
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
			if len(tc.ids) > 0 {
				reg, err := os.ReadFile(filepath.Join(dir, "docs", "PRD.md"))
				if err != nil {
					t.Fatal(err)
				}
				for _, want := range tc.ids {
					if !bytes.Contains(reg, []byte(want)) {
						t.Errorf("register has no row %q\n%s", want, reg)
					}
				}
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
			if tc.supersede == "" {
				return
			}
			out, code = run("new", "--date", "2026-12-02", "--supersedes", tc.supersede, "A replacement")
			if code != 0 {
				t.Fatalf("new --supersedes: exit %d\n%s", code, out)
			}
			// The old record is retired when the new one is accepted (D78):
			// until then it is the decision and stays as written.
			created := regexp.MustCompile(`(?m)^created (\S+): (.*)$`).FindStringSubmatch(out)
			if created == nil {
				t.Fatalf("new --supersedes printed no created line\n%s", out)
			}
			if strings.Contains(out, "\nupdated "+tc.newFile) {
				t.Errorf("new --supersedes changed the old record before the new one is accepted\n%s", out)
			}
			newPath := filepath.Join(dir, created[2])
			src, err := os.ReadFile(newPath)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(src, []byte("---\n")) {
				t.Fatalf("%s has no front matter\n%s", created[2], src)
			}
			src = append([]byte("---\nclaims: none, the fixture's replacement\n"), src[4:]...)
			if err := os.WriteFile(newPath, src, 0o644); err != nil {
				t.Fatal(err)
			}
			out, code = run("accept", created[1])
			if code != 0 {
				t.Fatalf("accept %s: exit %d\n%s", created[1], code, out)
			}
			m := regexp.MustCompile(`(?m)^updated (.*\.md)$`).FindAllStringSubmatch(out, -1)
			var old []byte
			for _, f := range m {
				if f[1] != "docs/PRD.md" && f[1] != created[2] {
					old, _ = os.ReadFile(filepath.Join(dir, f[1]))
				}
			}
			if !bytes.Contains(old, []byte(tc.marked)) {
				t.Errorf("new --supersedes %s: the old record does not say %q\n%s\n%s", tc.supersede, tc.marked, out, old)
			}
			checkOut("after new --supersedes")
		})
	}
}

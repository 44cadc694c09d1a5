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
		// wrote are what the new record must say, in the collection's
		// template or dialect (D73); supWrote what the superseding one
		// says of the record it retires, as the tool writes it.
		wrote    []string
		supWrote string
		// after is a file and what it says after accept, when the
		// record's status is kept in another file (a KEP's kep.yaml).
		after [2]string
	}{
		{name: "bbc__tams", wrote: []string{"---\nstatus: proposed\n---\n\n# Next decision\n"}, supWrote: "\n# A replacement\n\nSupersedes [ADR-0005](0005-flow-read-write-permissions.md)\n", supersede: "D5", marked: "status: \"superseded by [ADR-0035](0035-a-replacement.md)\"", records: 34, newFile: "docs/adr/0034-next-decision.md", ids: []string{
			"| D0 | [Use Markdown ADRs to record design decisions](adr/0000-",
			"| D4 | [Deletion of Content and IDs](adr/0004-content-deletion.md)",
			"| D4a | [Flow and Source References](adr/0004a-ancestry-relationships.md)",
			"| D5 | ",
		}},
		{name: "opendatahub-io__architecture-decision-records", wrote: []string{"# Next decision\n", "| Date           | 2026-12-01 |\n", "| Status         | Proposed |\n"}, supWrote: "| Supersedes     | [ODH-ADR-0003](../ODH-ADR-0003-use-apache-2-0-licence.md) |\n", dir: "architecture-decision-records", records: 40, exit: 1, supersede: "D3", marked: "| Status         | Superseded by [ODH-ADR-Operator-0017](operator/ODH-ADR-Operator-0017-a-replacement.md) |",
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
				// vocabulary does not map: the team says what they mean
				// ("Review" is in the vocabulary since D97).
				`status "Refinement completed. TP in 3.4" of adopted record D110001`,
				`status "TBD" of adopted record D130008`,
				// "| Supersedes | <a pull request URL> |" and "Data
				// Connections (pre-2.16)": no record of the collection.
				"D130005 supersedes https://github.com/opendatahub-io/architecture-decision-records/pull/23, which is no registered record",
				"D130009 supersedes Data Connections (pre-2.16), which is no registered record",
			}},
		{name: "arachne-framework__architecture", wrote: []string{"# Next decision\n\nDate: 2026-12-01\n\n## Status\n\nPROPOSED\n\n## Context\n"}, supWrote: "## Status\n\nPROPOSED\n\nSupersedes [3. Architecture Decision Record: Datomic-based Configuration](adr-003-config-implementation.md)\n", supersede: "D3", marked: "\nSuperseded by [20. A replacement](adr-020-a-replacement.md)\n", dir: ".", records: 17, newFile: "adr-019-next-decision.md"},
		{name: "celestiaorg__celestia-app", wrote: []string{"# ADR 031: Next decision\n\nDate: 2026-12-01\n\n## Status\n\nProposed\n"}, supWrote: "## Status\n\nProposed\n\nSupersedes [3. QGB Data Commitments](adr-003-qgb-data-commitments.md)\n", supersede: "D3", marked: "\nSuperseded by [32. A replacement](adr-032-a-replacement.md)\n", dir: ".", records: 26, newFile: "docs/architecture/adr-031-next-decision.md"},
		{name: "Sylius__Sylius", wrote: []string{"# Next decision\n\n* Status: proposed\n* Date: 2026-12-01\n\n## Context and Problem Statement\n\n## Decision Drivers\n"}, supWrote: "* Status: proposed\n* Supersedes [2020_03_03_feature_coverage_in_api](2020_03_03_feature_coverage_in_api.md)\n", supersede: "D3", marked: "* Status: superseded by [2026_12_02_a_replacement](2026_12_02_a_replacement.md)\n", dir: ".", records: 25, newFile: "adr/2026_12_01_next_decision.md"},
		{name: "npm__rfcs", wrote: []string{"---\ntitle: 'Next decision'\nnumber: null\nstatus: proposed\n", "\n# Next decision\n\n## Summary\n"}, dir: ".", records: 30, newFile: "accepted/0000-next-decision.md"},
		{name: "rust-lang__rfcs", wrote: []string{"- Feature Name: next_decision\n- Start Date: 2026-12-01\n", "- Status: proposed\n\n# Summary\n"}, dir: ".", records: 20, newFile: "text/0000-next-decision.md"},
		{name: "mlflow__rfcs", wrote: []string{"start_date:   2026-12-01\n", "status: proposed\n\n# Summary\n"}, dir: ".", records: 3, newFile: "rfcs/0000-next-decision/0000-next-decision.md"},
		{name: "wagov-dtt__architecture-decision-records", wrote: []string{"# ADR 022: Next decision\n\n**Status:** Proposed | **Date:** 2026-12-01 | **Review:**\n"}, supWrote: "| **Review:**\n\nSupersedes [ADR-003](../development/003-apis.md)\n", supersede: "D3", marked: "**Status:** Superseded by [ADR-023](../operations/023-a-replacement.md) | **Date:** 2025-03-26 | **Review:** 2026-03-26", dir: ".", records: 20, newFile: "operations/022-next-decision.md"},
		{name: "json-schema-org__json-schema-spec", wrote: []string{"# Next decision\n\n- Status: proposed\n- Deciders: Ada Lovelace\n- Date: 2026-12-01\n\nTechnical Story:\n\n## Context and Problem Statement\n\n## Decision Drivers\n"}, records: 7},
		{name: "movito__agentive-starter-kit", wrote: []string{"# Next decision\n\n**Status**: Proposed\n**Type**:\nDate: 2026-12-01\n"}, dir: ".kit/adr", records: 38, exit: 1, ids: []string{"| D21 | ", "| D21b | "}, findings: []string{
			// 0026 says "Superseded by KIT-ADR-0028", a record of another
			// numbering (KIT-) that the bare ADR-0028 reading cannot tell apart.
			"D26 is superseded but names no registered successor",
			"D26 superseded by ADR-0028, which is no registered record",
		}},
		// The folder is the status and no folder means proposed: new
		// writes to text/, whose records state theirs (dk-zcp), and the
		// superseded record, whose folder says accepted, says what
		// replaced it in its own file (D96).
		{name: "yarnpkg__rfcs", wrote: []string{"- Start Date: 2026-12-01\n- RFC PR:\n- Yarn Issue:\n- Status: proposed\n\n# Summary\n\n# Motivation\n"}, supWrote: "Supersedes [RFC-0000](../accepted/0000-better-why.md)\n", supersede: "D10000", marked: "Superseded by [RFC-0000](../text/0000-a-replacement.md)\n\n# Summary\n", dir: ".", records: 25, newFile: "text/0000-next-decision.md"},
		// A KEP's status is in the kep.yaml beside its README.md (dk-tl6):
		// read from it, and superseding writes replaced there, the
		// successor below the README's title (D96). new fills the KEP
		// template beside keps/sig-cli (keps/NNNN-kep-template/README.md,
		// a template by its title), its id spelled KEP- (dk-70n).
		{name: "kubernetes__enhancements", wrote: []string{"# KEP-2385: Next decision\n\nStatus: proposed\n\n## Release Signoff Checklist\n"}, supWrote: "Supersedes [KEP-1020](../1020-kubectl-staging/README.md)\n", supersede: "D1020", marked: "# KEP-1020: Move Kubectl Code into Staging\n\nSuperseded by [KEP-2386](../2386-a-replacement/README.md)\n", after: [2]string{"keps/sig-cli/1020-kubectl-staging/kep.yaml", "\nstatus: replaced\n"}, dir: "keps", records: 15, newFile: "keps/sig-cli/2385-next-decision/README.md",
			ids: []string{"| D2229 | [kubectl xdg base dir](../keps/sig-cli/2229-kubectl-xdg-base-dir/README.md) | rejected |", "| D2380 | [data driven commands](../keps/sig-cli/2380-data-driven-commands-for-kubectl/README.md) | proposed |"}},
		// Three folders found with none named, each a block of ids; two
		// server records name successors the sample does not hold (true,
		// SOURCES). The successor fills the collection's own empty
		// supersedes: key with the record's name, as its records write it
		// (D96), so accept retires the old record in its front matter.
		{name: "mycelian-ai__mycelian-memory", wrote: []string{"---\ntitle: 'Next decision'\nstatus: proposed\n"}, supWrote: "\nsupersedes: 0001-client-sdk\n---\n", supersede: "D10001", marked: "status: \"superseded by [ADR-0031](0031-a-replacement.md)\"\n", records: 58, exit: 1, newFile: "docs/client/adr/0030-next-decision.md",
			ids: []string{"| D10001 | [Adopt Go client SDK, deprecate pkg/memoryclient](client/adr/0001-client-sdk.md) | accepted |", "| D30000 | "},
			findings: []string{
				"D20010 superseded by [0017-vector-store-abstraction.md](0017-vector-store-abstraction.md), which is no registered record",
				"adopted record D20010 is superseded but names no registered successor",
				"D20015 superseded by [0020-open-source-pivot.md](0020-open-source-pivot.md), which is no registered record",
				"adopted record D20015 is superseded but names no registered successor",
			}},
		// giantswarm's state: review is proposed (D97), and new writes its word (D96).
		{name: "giantswarm__rfc", wrote: []string{"---\ncreation_date: 2026-12-01\n", "\nstate: review\n", "---\n\n# Next decision\n"}, dir: ".", records: 20},
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
			out, code = run("new", "--date", "2026-12-01", "--author", "Ada Lovelace", "Next decision")
			if code != 0 {
				t.Fatalf("new: exit %d\n%s", code, out)
			}
			if tc.newFile != "" && !strings.Contains(out, " "+tc.newFile+"\n") {
				t.Errorf("new wrote\n%s\nwant %s", out, tc.newFile)
			}
			created := func(out string) []byte {
				m := regexp.MustCompile(`(?m)^created D[0-9a-z]+: (.*\.md)$`).FindStringSubmatch(out)
				if m == nil {
					t.Fatalf("new created no record\n%s", out)
				}
				b, err := os.ReadFile(filepath.Join(dir, m[1]))
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
			rec := created(out)
			for _, w := range tc.wrote {
				if !bytes.Contains(rec, []byte(w)) {
					t.Errorf("the new record does not say %q\n%s", w, rec)
				}
			}
			checkOut("after new")
			if tc.supersede == "" {
				return
			}
			out, code = run("new", "--date", "2026-12-02", "--author", "Ada Lovelace", "--supersedes", tc.supersede, "A replacement")
			if code != 0 {
				t.Fatalf("new --supersedes: exit %d\n%s", code, out)
			}
			if rec := created(out); !bytes.Contains(rec, []byte(tc.supWrote)) {
				t.Errorf("new --supersedes %s: the new record does not say %q\n%s", tc.supersede, tc.supWrote, rec)
			}
			// The old record is retired when the new one is accepted (D78):
			// until then it is the decision and stays as written.
			cr := regexp.MustCompile(`(?m)^created (\S+): (.*)$`).FindStringSubmatch(out)
			if cr == nil {
				t.Fatalf("new --supersedes printed no created line\n%s", out)
			}
			for _, f := range regexp.MustCompile(`(?m)^updated (.*\.md)$`).FindAllStringSubmatch(out, -1) {
				if f[1] != "docs/PRD.md" && f[1] != cr[2] {
					t.Errorf("new --supersedes changed %s before the new record is accepted\n%s", f[1], out)
				}
			}
			checkOut("after new --supersedes")
			out, code = run("accept", cr[1])
			if code != 0 {
				t.Fatalf("accept %s: exit %d\n%s", cr[1], code, out)
			}
			m := regexp.MustCompile(`(?m)^updated (.*\.md)$`).FindAllStringSubmatch(out, -1)
			var old []byte
			for _, f := range m {
				if f[1] != "docs/PRD.md" && f[1] != cr[2] {
					old, _ = os.ReadFile(filepath.Join(dir, f[1]))
				}
			}
			if !bytes.Contains(old, []byte(tc.marked)) {
				t.Errorf("accept %s: the old record %s does not say %q\n%s\n%s", cr[1], tc.supersede, tc.marked, out, old)
			}
			if tc.after[0] != "" {
				if b, _ := os.ReadFile(filepath.Join(dir, tc.after[0])); !bytes.Contains(b, []byte(tc.after[1])) {
					t.Errorf("accept %s: %s does not say %q\n%s", cr[1], tc.after[0], tc.after[1], b)
				}
			}
			checkOut("after accept")
		})
	}
}

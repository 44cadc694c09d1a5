package lintcmd

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCollectionsSurvey2 adopts each collection of the second survey
// (issue 35; internal/author/testdata/collections/SOURCES, "Survey 2") as
// its team would, naming at most the folder: init --adopt, check,
// decisions --format json against what each record says (the golden
// <name>.decisions beside the collection: id, status, title, path of
// every record, read by hand from the records), new, check, new
// --supersedes + accept, check. check's findings are each true of the
// collection (D96, D97). -update-collections rewrites the goldens from the output;
// review the diff against the records before committing it.
var updateCollections = flag.Bool("update-collections", false, "rewrite the <name>.decisions goldens of testdata/collections from the output")

func TestCollectionsSurvey2(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	cases := []struct {
		name, dir string
		// discovered is the folder init --adopt finds with none named
		// (D96); empty is dir.
		discovered string
		// findings are substrings of what check prints, each true of the
		// collection; check exits 1 when there are any (they are errors
		// or warnings with an error among them).
		findings []string
		// newFile is where new writes the next record.
		newFile string
		// marked is what the retired record's file says after accept,
		// "" where its dialect states no status (the register row says
		// it).
		marked string
		// wrote are what the new record says, in the collection's shape
		// (D96): its template's fields filled, its instructions gone, or
		// the newest record's fields with the new record's values.
		wrote []string
	}{
		{wrote: []string{"# Next decision\n\n* Proposal: [SE-0548](0548-next-decision.md)\n* Authors: Ada Lovelace\n* Review Manager:\n* Status: **Proposed**\n",
			// The sections its newest proposals share, not claimslint's.
			"\n## Introduction\n\n## Motivation\n\n## Proposed solution\n\n## Detailed design\n"}, name: "swiftlang__swift-evolution", dir: "proposals", newFile: "proposals/0548-next-decision.md", marked: "superseded by",
			findings: []string{
				// SE-0258 is not in the sample (see the listing).
				"D30 superseded by [SE-0258](0258-property-wrappers.md), which is no registered record",
				// "Previewing" is the process's own word: the team maps it.
				`status "Previewing" of adopted record D288`,
			}},
		{wrote: []string{"---\nstage: proposed\nstart-date: 2026-12-01T00:00:00.000Z\nrelease-date:\n"}, name: "emberjs__rfcs", dir: "text", newFile: "text/1189-next-decision.md", marked: "superseded"},
		{wrote: []string{"# Next decision\n\n* **Type**:\n* **Author**: Ada Lovelace\n* **Status**: Draft\n"}, name: "Kotlin__KEEP", dir: "proposals", newFile: "proposals/KEEP-0463-next-decision.md", marked: "superseded",
			findings: []string{
				`status "Unknown" of adopted record D33`,
				`status "Unknown" of adopted record D75`,
				`status "Unknown" of adopted record D340`,
				// A link to a file outside the folder of records.
				"D75 supersedes [Script Definition Template](https://github.com/Kotlin/KEEP/blob/master/proposals/script-definition-template.md), which is no registered record",
				// Sentences, not status words: reported, never guessed.
				`status "Nested type aliases are **stable in 2.3.0**`,
				`status "Working on the implementation, it’s not public yet" of adopted record D438`,
				// KEEP-0455 is not in the sample (see the listing).
				"adopted record D452 is superseded but names no registered successor",
				"D452 superseded by [KEEP-0455](https://github.com/Kotlin/KEEP/blob/main/proposals/KEEP-0455-lateinit-val.md), which is no registered record",
			}},
		{name: "vuejs__rfcs", dir: "active-rfcs", discovered: ".", newFile: "active-rfcs/0046-next-decision.md"},
		{name: "NixOS__rfcs", dir: "rfcs", newFile: "rfcs/0182-next-decision.md"},
		{wrote: []string{"---\neip: 8252\ntitle: 'Next decision'\ndescription:\nauthor: 'Ada Lovelace'\ndiscussions-to:\nstatus: Draft\ntype:\ncategory:\ncreated: 2026-12-01\nrequires:\n---\n"}, name: "ethereum__EIPs", dir: "EIPS", newFile: "EIPS/eip-8252-next-decision.md", marked: "superseded"},
		// Its six "Moved" files say only where the EIP moved (to the ERCs
		// repository): redirect stubs, not records (D96).
		{name: "cardano-foundation__CIPs", dir: ".", newFile: "CIP-1856/README.md", marked: "superseded"},
		{wrote: []string{"# ADR-0015: Next decision\n\n## Status\n\nVorgeschlagen\n\n## Kontext\n\n## Entscheidung\n"}, name: "StefanMoCoAt__Meldestelle", dir: "docs/01_Architecture/adr", newFile: "docs/01_Architecture/adr/0015-next-decision.md", marked: "superseded"},
		{wrote: []string{"---\nstatus: draft\ndate: 2026-12-01\n", "\ndescription:\n", "# ADR-0008: Next decision\n\n## Status\n\nVorgeschlagen\n\n## Kontext\n\n## Entscheidung\n"}, name: "HubEvolution__EvolutionHub", dir: "docs/architecture/adrs", newFile: "docs/architecture/adrs/0008-next-decision.md", marked: "superseded"},
		{wrote: []string{"# Next decision\n\n- Estado: propuesto\n- Fecha: 01/12/26\n\n## Contexto\n\n## Decisión\n"}, name: "KikoNet13__Cuentos-Cosmere", dir: "docs/adr", newFile: "docs/adr/0010-next-decision.md", marked: "reemplazado por"},
		{wrote: []string{"author: 'Ada Lovelace'\ndate: 2026-12-01\nstatus: proposé\n---\n# Next decision\n\n## Contexte et problème\n\n## Facteurs décisionnels\n"}, name: "CQEN-QDCE__wiki-innovation", dir: "Decisions", newFile: "Decisions/2026-12-01-next-decision.md", marked: "remplacé par"},
		{name: "maehwasoo__AILSS", dir: "docs/adr", newFile: "docs/adr/0009-next-decision.md", marked: "superseded"},
		{name: "phodal__adr", dir: "docs/adr", newFile: "docs/adr/0026-next-decision.md", marked: "被替代为 [27. a replacement](0027-a-replacement.md)"},
		// The template's prose value (関連: Issue/PR/ドキュメントへのリンク),
		// which no record writes, is left empty (D96).
		{wrote: []string{"# Next decision\n\n- 日付: 2026-12-01\n- ステータス: Proposed\n- 関連:\n\n## 背景 (Context)\n"}, name: "kani3camp__mine-party", dir: "docs/adr", newFile: "docs/adr/0006-next-decision.md", marked: "superseded"},
		{name: "eziocdl__cloud-provisioning-manager", dir: "docs/adr", newFile: "docs/adr/0007-next-decision.md", marked: "superseded"},
		{name: "tikv__rfcs", dir: "text", newFile: "text/0120-next-decision.md"},
		{wrote: []string{"---\ncreated: 2026-12-01\nlast updated: 2026-12-01\nstatus: Draft\nreviewers:\ntitle: 'Next decision'\nauthors:\n  - 'Ada Lovelace'\n---\n\n# Abstract\n\n# Background\n"}, name: "bazelbuild__proposals", dir: "designs", newFile: "designs/2026-12-01-next-decision.md", marked: "superseded",
			findings: []string{
				// Front matter that is not YAML, as any YAML reader says.
				"designs/2021-08-10-rules-authors-sig.md:1:1: front matter is not valid YAML",
				"designs/2022-03-06-representation-of-repeatable-starlark-flags.md:1:1: front matter is not valid YAML",
				"designs/2022-07-07_global_exec_groups.md:1:1: front matter is not valid YAML",
				"designs/2023-12-07-remote-local-fallback-respects-declarations.md:1:1: front matter is not valid YAML",
			}},
		{name: "jupyter__enhancement-proposals", dir: ".", newFile: "124-next-decision/next-decision.md",
			findings: []string{
				// "issue-number: [#117](https://...)" is no YAML.
				"118-restart-clarification/restart-clarification.md:1:1: front matter is not valid YAML",
			}},
		{name: "hyperledger__fabric-rfcs", dir: ".", newFile: "text/0000-next-decision.md"},
		{name: "reactjs__rfcs", dir: "text", newFile: "text/0229-next-decision.md"},
		{wrote: []string{"# Next decision\n\nStatus: proposed\n\n**Authors:** Ada Lovelace\n\n## **Summary**\n\n## **Motivation**\n"}, name: "pytorch__rfcs", dir: ".", newFile: "RFC-0056-next-decision.md", marked: "superseded"},
		{name: "golang__proposal", dir: "design", newFile: "design/48431-next-decision.md"},
		{name: "fanticheli__threat-modeler-ai", dir: "docs/adr", newFile: "docs/adr/007-next-decision.md", marked: "substituído por"},
		{name: "GabrielRezendeCoelho__Tech_Academy_7", dir: "docs/01-arquitetura/adr", newFile: "docs/01-arquitetura/adr/0005-next-decision.md", marked: "substituído por"},
		{wrote: []string{"# Next decision\n\n* Statut : proposé\n* Décideurs : Ada Lovelace\n* Date : 2026-12-01\n* Ticket Trello / Notion :\n* PRs :\n\n## Contexte et Définition du Problème\n\n## Facteurs de Décision\n"}, name: "SocialGouv__pass_emploi_app", dir: "docs/decisions", newFile: "docs/decisions/ADR-003-next-decision.md", marked: "remplacé par"},
		{name: "wer-inc__gogooku3", dir: "docs/governance/adr", newFile: "docs/governance/adr/ADR-0003-next-decision.md", marked: "superseded"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			src := filepath.Join("..", "author", "testdata", "collections", tc.name)
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "c"}} {
				if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
					t.Fatalf("git %v: %v\n%s", args, err, out)
				}
			}
			run := func(args ...string) (string, int) {
				var out, errb bytes.Buffer
				code := Main(append([]string{"claimslint", args[0], "--dir", dir}, args[1:]...), &out, &errb)
				return out.String() + errb.String(), code
			}
			// With no folder named, init finds the same records and says
			// where and why (D96).
			out, code := run("init", "--adopt", "--dry-run", "--date", "2026-12-01")
			where := tc.discovered
			if where == "" {
				where = tc.dir
			}
			if m := regexp.MustCompile(`(?m)^found [0-9]+ records? in (\S+) `).FindStringSubmatch(out); code != 0 || m == nil || m[1] != where {
				t.Errorf("init --adopt --dry-run: exit %d, want the records found in %s\n%s", code, where, out)
			}
			out, code = run("init", "--adopt", tc.dir, "--date", "2026-12-01", "--ref", "0123456789abcdef0123456789abcdef01234567")
			if code != 0 {
				t.Fatalf("init --adopt %s: exit %d\n%s", tc.dir, code, out)
			}
			var first []string
			for _, m := range regexp.MustCompile(`(?m)^created (\S+\.md)$`).FindAllStringSubmatch(out, -1) {
				if m[1] != "docs/PRD.md" {
					first = m
				}
			}
			if first == nil {
				t.Fatalf("init --adopt wrote no first record\n%s", out)
			}
			check := func(when string, extra int) {
				t.Helper()
				out, code := run("check")
				want := 0
				if len(tc.findings) > 0 {
					want = 1
				}
				if code != want {
					t.Errorf("check %s: exit %d, want %d\n%s", when, code, want, out)
				}
				lines := strings.Split(strings.TrimSpace(out), "\n")
				if strings.TrimSpace(out) == "" {
					lines = nil
				}
				if len(lines) != len(tc.findings)+extra {
					t.Errorf("check %s: %d findings, want %d\n%s", when, len(lines), len(tc.findings)+extra, out)
				}
				for _, f := range tc.findings {
					if !strings.Contains(out, f) {
						t.Errorf("check %s: no finding %q\n%s", when, f, out)
					}
				}
			}
			check("after init --adopt", 0)
			// Every record as it says: id, status, title, path.
			js, code := run("decisions", "--format", "json")
			if code != 0 {
				t.Fatalf("decisions: exit %d\n%s", code, js)
			}
			var got struct {
				Decisions []struct{ ID, Status, Title, Path string }
			}
			if err := json.Unmarshal([]byte(js), &got); err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for _, d := range got.Decisions {
				fmt.Fprintf(&b, "%s\t%s\t%s\t%s\n", d.ID, d.Status, d.Title, d.Path)
			}
			golden := src + ".decisions"
			if *updateCollections {
				if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if b.String() != string(want) {
				t.Errorf("decisions differ from %s (-update-collections rewrites it; check each row against its record):\n%s", golden, lineDiff(string(want), b.String()))
			}
			out, code = run("new", "--date", "2026-12-01", "--author", "Ada Lovelace", "Next decision")
			if code != 0 {
				t.Fatalf("new: exit %d\n%s", code, out)
			}
			if tc.newFile != "" && !strings.Contains(out, " "+tc.newFile+"\n") {
				t.Errorf("new wrote\n%s\nwant %s", out, tc.newFile)
			}
			rec, err := os.ReadFile(filepath.Join(dir, tc.newFile))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.wrote {
				if !bytes.Contains(rec, []byte(w)) {
					t.Errorf("the new record does not say %q\n%s", w, rec)
				}
			}
			// init's first record is in the same shape: the same section
			// headings and front matter keys as the new one (D96).
			initRec, err := os.ReadFile(filepath.Join(dir, first[1]))
			if err != nil {
				t.Fatal(err)
			}
			if a, b := shapeOf(string(initRec)), shapeOf(string(rec)); a != b {
				t.Errorf("init's first record %s is not in the shape of the new one:\n%s\nnew:\n%s", first[1], a, b)
			}
			// A template's instructions are not copied (D96).
			if bytes.Contains(rec, []byte("<!--")) {
				t.Errorf("the new record keeps a template's comment\n%s", rec)
			}
			check("after new", 0)
			// Retire the first accepted record.
			old := ""
			var oldPath string
			for _, d := range got.Decisions {
				if d.Status == "accepted" {
					old, oldPath = d.ID, d.Path
					break
				}
			}
			if old == "" {
				return
			}
			before, err := os.ReadFile(filepath.Join(dir, oldPath))
			if err != nil {
				t.Fatal(err)
			}
			out, code = run("new", "--date", "2026-12-02", "--author", "Ada Lovelace", "--supersedes", old, "A replacement")
			if code != 0 {
				t.Fatalf("new --supersedes %s: exit %d\n%s", old, code, out)
			}
			cr := regexp.MustCompile(`(?m)^created (\S+): `).FindStringSubmatch(out)
			if cr == nil {
				t.Fatalf("new --supersedes printed no created line\n%s", out)
			}
			if out, code := run("accept", cr[1]); code != 0 {
				t.Fatalf("accept %s: exit %d\n%s", cr[1], code, out)
			}
			after, err := os.ReadFile(filepath.Join(dir, oldPath))
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.marked == "" && !bytes.Equal(before, after):
				t.Errorf("accept %s changed %s, whose dialect states no status:\n%s", cr[1], oldPath, after)
			case tc.marked != "" && (bytes.Equal(before, after) || !bytes.Contains(bytes.ToLower(after), []byte(tc.marked))):
				t.Errorf("accept %s: the retired record %s does not say %q:\n%s", cr[1], oldPath, tc.marked, after)
			}
			check("after accept", 0)
		})
	}
}

// lineDiff lists the lines only in want (-) and only in got (+).
func lineDiff(want, got string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var b strings.Builder
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			b.WriteString("- " + l + "\n")
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			b.WriteString("+ " + l + "\n")
		}
	}
	return b.String()
}

// shapeOf is a record's shape: its front matter keys and its headings
// below the title, one a line, but the Confirmation section init adds.
func shapeOf(rec string) string {
	var b strings.Builder
	lines := strings.Split(rec, "\n")
	inFM := len(lines) > 0 && lines[0] == "---"
	for i, l := range lines {
		switch {
		case inFM && i > 0 && l == "---":
			inFM = false
		case inFM:
			if k, _, ok := strings.Cut(l, ":"); ok && !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "-") {
				b.WriteString(k + ":\n")
			}
		case strings.HasPrefix(l, "##") && !strings.Contains(l, "Confirmation"):
			b.WriteString(l + "\n") // init adds its claims' section
		}
	}
	return b.String()
}

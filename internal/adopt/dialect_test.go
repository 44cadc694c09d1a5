package adopt

import (
	"strings"
	"testing"
	"time"

	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/register"
)

func testDialect(tmpl string, sup bool) *dialectNew {
	n := &dialectNew{
		col:     &collection{dir: "docs/adr", schemes: []register.Scheme{{Dir: "docs/adr"}}},
		file:    "docs/adr/0012-next-decision.md",
		title:   "Next decision",
		status:  "proposed",
		date:    time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC),
		vocab:   config.DefaultStatuses(),
		inFile:  true,
		tmplRel: tmpl,
		author:  "Ada Lovelace",
	}
	if sup {
		n.sup = &register.Decision{Path: "docs/adr/0003-old.md", Title: "Old", StatusFrom: "heading", Adopted: true}
	}
	return n
}

// TestFill fills templates as the collections write them: the status in
// the template's own place and spelling, the date placeholder, the number
// placeholder of the title, and reads back as proposed (D73).
func TestFill(t *testing.T) {
	cases := []struct {
		name, tmpl string
		want       []string
	}{
		{"madr 2 choices", "# [short title]\n\n* Status: [proposed | rejected | accepted | deprecated | … | superseded by [ADR-0005](0005-example.md)]\n* Date: [YYYY-MM-DD when the decision was last updated] <!-- optional -->\n\n## Context\n",
			[]string{"# Next decision\n\n* Status: proposed\n* Date: 2026-12-01\n\n## Context\n"}},
		// A template's instructions go; its fields are filled in their
		// places, a placeholder left empty (D96).
		{"instructions (German)", "# ADR-NNNN: [Titel]\n\n## Status\n\n[Vorgeschlagen | Akzeptiert]\n\nFalls sie ersetzt wird, fügen Sie einen Verweis ein.\n\n## Kontext\n\nBeschreiben Sie den Kontext.\n\n- [Link zu Dokumentation]\n",
			[]string{"# ADR-0012: Next decision\n\n## Status\n\nVorgeschlagen\n\n## Kontext\n"}},
		{"braces and comments (French MADR)", "---\nauthor: {qui}\nstatus: {proposé | accepté}\ndate: {AAAA-MM-JJ}\n---\n# {Titre}\n\n## Contexte\n\n{Décrivez le contexte.}\n\n<!-- Cet élément est facultatif. -->\n## Options\n\n### {titre de l'option 1}\n\n* {option}\n",
			[]string{"---\nauthor: 'Ada Lovelace'\nstatus: proposé\n", "---\n# Next decision\n\n## Contexte\n\n## Options\n"}},
		{"the template's own heading, HTML blocks", "<details>\n<summary>Instructions</summary>\n\n- Fork the repo: https://example.com\n</details>\n\n# Proposal template\n\nThis document is a template.\n\n# Title\n\n* **Proposal**: [SE-NNNN](NNNN-filename.md)\n* **Author**: author name\n* **Contributors**: (optional) names\n* **Status**: Submitted\n* **Prototype**: Not started / In progress / Implemented\n\n## Summary\n\nProvide a brief description.\n",
			[]string{"# Next decision\n\n* **Proposal**: [SE-0012](0012-next-decision.md)\n* **Author**: Ada Lovelace\n* **Contributors**:\n* **Status**: Proposed\n* **Prototype**:\n\n## Summary\n"}},
		{"bold line with columns", "# ADR ###: Specific Decision Title\n\n**Status:** Proposed | **Date:** YYYY-MM-DD\n",
			[]string{"# ADR 0012: Next decision\n\n**Status:** Proposed | **Date:** 2026-12-01\n"}},
		{"metadata table", "# Template\n\n| | |\n|---|---|\n| Date | insert data |\n| Status | Approved |\n",
			[]string{"| Date | 2026-12-01 |\n| Status | Proposed |\n"}},
		{"front matter", "---\ntitle: A human-readable title\nstatus: draft\ndate: 20XX-XX-XX\n---\n\n# {{TITLE}}\n",
			// The template's own word for proposed (D96).
			[]string{"---\ntitle: 'Next decision'\nstatus: draft\ndate: 2026-12-01\n---\n\n# Next decision\n"}},
		{"no status (Rust)", "- Feature Name: (fill me in)\n- Start Date: (fill me in with today's date, YYYY-MM-DD)\n\n# Summary\n",
			[]string{"- Feature Name: next_decision\n- Start Date: 2026-12-01\n- Status: proposed\n\n# Summary\n"}},
		{"status heading", "# NNNN. Title\n\n## Status\n\n[Proposed | Accepted | Rejected]\n\n## Context\n",
			[]string{"# 0012. Next decision\n\n## Status\n\nProposed\n"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := testDialect("docs/adr/template.md", false)
			out, err := n.fill(tc.tmpl)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("filled\n%s\nwant %q", out, w)
				}
			}
			if d := register.ParseAdopted(n.file, out, n.vocab); d.Status != "proposed" {
				t.Errorf("reads back as %q (%q from %s), want proposed\n%s", d.Status, d.RawStatus, d.StatusFrom, out)
			}
		})
	}
}

// FuzzFill fills any template and any latest record without a panic, and
// the record it writes states its status where check reads it.
func FuzzFill(f *testing.F) {
	f.Add("# [t]\n\n* Status: [proposed | rejected]\n* Date: [YYYY-MM-DD]\n", true)
	f.Add("---\nstatus: x\n---\n# T\n", false)
	f.Add("| Status | A |\n", true)
	f.Add("## Status\n\nAccepted\n", true)
	f.Add("- Feature Name: x\n# Summary\n", false)
	f.Add("<details>\n<!-- a\nb -->\n# Proposal template\n\n# T\n* **Author**: {x}\n\n## Status\n\nA | B | C\n", true)
	f.Add("---\nauthors:\n  - x\ndate: '2020-01-01'\n---\n\n# [T]\n\n### [option]\n", false)
	f.Fuzz(func(t *testing.T, src string, sup bool) {
		n := testDialect("t.md", sup)
		_, _ = n.fill(src)
		ex := register.ParseAdopted("docs/adr/0011-x.md", []byte(src), n.vocab)
		n.tmplRel = ""
		_ = n.shape(src, ex)
	})
}

package register

import "testing"

// TestTemplateByContent: a template is known by its text, its name only
// breaking a tie; a folder's index by its links and no status (D97).
func TestTemplateByContent(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, path, src string
		template        bool
		index           bool
	}{
		{"real record named template", "docs/adr/0007-template-engine.md",
			"# Use a template engine\n\n* Status: accepted\n* Date: 2024-01-02\n\n## Context\n", false, false},
		{"real record, template in its name, date instruction left", "text/0278-template-only-components.md",
			"---\nstage: recommended\n---\n\n<!-- Start Date: Fill in with today's date, YYYY-MM-DD -->\n\n# Template-only components\n", false, false},
		{"choices status, any name", "docs/adr/0001-example.md",
			"# Example\n\n* Status: [proposed | accepted | rejected]\n", true, false},
		{"placeholder title, no name hint", "docs/adr/0009-x.md",
			"# [short title of solved problem and solution]\n\n* Status: proposed\n", true, false},
		{"title ###", "adr/adr-000.md", "# ADR ###: Specific Decision Title\n\n**Status:** Proposed\n", true, false},
		{"# Title in a real record", "text/0049-rawkv.md", "# Title\n\n- Status: accepted\n", false, false},
		{"# Title in a template folder", "rfcs/template/README.md", "---\nstate: review\n---\n\n# Title\n", true, false},
		{"template name, placeholder date", "0000-template.md",
			"- Start Date: (fill me in with today's date, YYYY-MM-DD)\n\n# Summary\n", true, false},
		{"template name, real status and title, numbered zero", "accepted/0000-template.md",
			"---\nstatus: withdrawn\n---\n\n# Withdrawal Amendment\n", true, false},
		{"template name, title says template", "docs/adrs/0001-adr-template-de.md",
			"---\nstatus: draft\n---\n\n# ADR-0001: Vorlage für Entscheidungen\n", true, false},
		{"index of a category folder", "adr/backend/README.md",
			"# Backend decisions\n\n- [ADR 1](0001-use-go/README.md)\n- [ADR 2](./0002-use-sqlite/)\n", false, true},
		{"record folder README linking out", "adr/2024-01-02-x/README.md",
			"# X\n\nSee [one](../2023-01-01-y/README.md) and [two](../2023-02-01-z/README.md).\n", false, false},
		{"flat folder index", "docs/adr/README.md",
			"# Decisions\n\n- [one](0001-a.md)\n- [two](./2024-01-02-b.md)\n", false, true},
		// OpenUSD-proposals' multiple-animations/README.md: a proposal in
		// two parts of its own folder is a record, not an index.
		{"record README linking its parts", "proposals/_notPublished/draft/multiple-animations/README.md",
			"# Multiple Animation Support\n\nThe proposal is split into two parts.\n\n1. [USDSkel support](usdskel.md)\n2. [General support](general.md)", false, false},
		{"index with a status is a record", "adr/0003-x/README.md",
			"# X\n\nStatus: accepted\n\n- [a](a.md)\n- [b](b.md)\n", false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			d := ParseAdopted(c.path, []byte(c.src), nil)
			if got := d.Template != ""; got != c.template {
				t.Errorf("template = %v (%q), want %v", got, d.Template, c.template)
			}
			if d.Index != c.index {
				t.Errorf("index = %v, want %v", d.Index, c.index)
			}
		})
	}
}

func TestTemplateName(t *testing.T) {
	t.Parallel()
	for rel, want := range map[string]bool{
		"0000-template.md": true, "docs/adr/0000-adr-template-de.md": true, "TEMPLATE.md": true,
		"_template.md": true, "PLANTILLA.md": true, "rfcs/template/README.md": true, "RFC-0000-template.md": true,
		"0007-template-engine.md": false, "0278-template-only-components.md": false, "0001-x.md": false,
		"adr/0002-x/README.md": false,
	} {
		if got := TemplateName(rel); got != want {
			t.Errorf("TemplateName(%q) = %v, want %v", rel, got, want)
		}
	}
}

// FuzzTemplateByContent: any name and text are classified without a panic,
// and a file is never both a template and an index of its own accord.
func FuzzTemplateByContent(f *testing.F) {
	f.Add("0000-template.md", "# [Title]\n\n* Status: [a | b]\n")
	f.Add("adr/x/README.md", "# X\n\n- [a](a.md)\n- [b](b/)\n")
	f.Fuzz(func(t *testing.T, rel, src string) {
		d := ParseAdopted(rel, []byte(src), nil)
		_ = TemplateName(rel)
		if d.Index && d.RawStatus != "" {
			t.Fatalf("index with a status %q", d.RawStatus)
		}
	})
}

// TestSupersededByPhraseReadBack: the phrase accept writes for each
// language of the world's statuses is one check reads back as superseded
// by (D96, D97), Chinese, Japanese and Korean included.
func TestSupersededByPhraseReadBack(t *testing.T) {
	t.Parallel()
	for lang, words := range map[string][]string{
		"de": {"ersetzt", "abgelöst"},
		"zh": {"已替代", "替代", "已取代", "取代", "被取代", "被替代"},
		"ja": {"置き換え", "置き換え済み"},
		"ko": {"대체", "대체됨"},
	} {
		p := SupersededByPhrase(words)
		if p == "" {
			t.Errorf("%s: no superseded-by phrase", lang)
			continue
		}
		src := "# Old\n\n## Status\n\naccepted\n\n" + p + " [2. New](0002-new.md)\n\n## Context\n"
		d := ParseAdopted("docs/adr/0001-old.md", []byte(src), nil)
		found := false
		for _, l := range d.Links {
			found = found || l.Verb == RelSupersededBy
		}
		if !found {
			t.Errorf("%s: %q is not read back as superseded by: %+v", lang, p, d.Links)
		}
	}
}

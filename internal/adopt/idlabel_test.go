package adopt

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/claimslint/claimslint/internal/register"
)

// TestIDSpelling: a record named by a bare number is labelled as the
// collection writes its ids (D96): its own text's prefix, else the
// acronym its README's title names its records by; ADR- where neither
// says.
func TestIDSpelling(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"keps/README.md":       "# Kubernetes Enhancement Proposals (KEPs)\n",
		"README.md":            "# Yarn RFCs\n\nThe RFC process.\n",
		"docs/adr/README.md":   "# Architecture decisions\n\nSee ADR 12 and PR 3510.\n",
		"accepted/0000-why.md": "- Start Date: 2018\n\n# Summary\n",
	}
	read := func(p string) ([]byte, error) {
		if s, ok := files[p]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}
	cases := []struct {
		name, old, src, file, want string
	}{
		{"own text", "keps/sig-cli/1020-staging/README.md", "# KEP-1020: Move Kubectl\n", "keps/sig-cli/2386-a/README.md", "KEP-2386"},
		{"README's acronym", "keps/sig-cli/1020-staging/README.md", "# Move Kubectl\n", "keps/sig-cli/2386-a/README.md", "KEP-2386"},
		{"zero number: the README", "accepted/0000-why.md", "- Start Date: 2018\n", "text/0000-a.md", "RFC-0000"},
		// Another record's number in the text is not the record's own.
		{"other numbers", "docs/adr/0003-x.md", "# Three\n\nReplaces ADR-0002 and fixes CVE-2019.\n", "docs/adr/0004-y.md", "ADR-0004"},
		{"a prefixed name stays", "docs/adr/0003-x.md", "# KEP-3: x\n", "docs/adr/ODH-ADR-0004-y.md", "ODH-ADR-0004"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			old := &register.Decision{Path: tc.old, StatusFrom: "line"}
			if got := spelledLabel(read, old, []byte(tc.src), tc.file, "T"); got != tc.want {
				t.Errorf("spelledLabel = %q, want %q", got, tc.want)
			}
		})
	}
}

func FuzzIDSpelling(f *testing.F) {
	f.Add("keps/a/1020-x/README.md", "# KEP-1020: x\n", "# Yarn RFCs\n")
	f.Add("0000-x.md", "", "# ADRs")
	f.Fuzz(func(t *testing.T, p, src, readme string) {
		read := func(q string) ([]byte, error) {
			if q == "README.md" {
				return []byte(readme), nil
			}
			return nil, errors.New("no file")
		}
		_ = idSpelling(read, p, []byte(src))
	})
}

// TestOwnClassWord: the collection's own word for the new record's
// status where no record writes the status's name (D96), a first stage
// for proposed, never a review stage.
func TestOwnClassWord(t *testing.T) {
	t.Parallel()
	rec := func(raw, status string) *record {
		return &record{d: &register.Decision{RawStatus: raw, Status: status, StatusFrom: "front matter"}}
	}
	cases := []struct {
		name, status string
		records      []*record
		want         string
	}{
		{"EIPs: draft before review", "proposed", []*record{rec("Review", "proposed"), rec("Stagnant", "proposed"), rec("Draft", "proposed"), rec("Final", "accepted")}, "draft"},
		{"EIPs: final before living", "accepted", []*record{rec("Living", "accepted"), rec("Final", "accepted")}, "final"},
		{"the status's name is written", "proposed", []*record{rec("Draft", "proposed"), rec("Proposed", "proposed")}, ""},
		{"swift: a review stage only", "proposed", []*record{rec("Active Review (Aug 10...Aug 24)", "proposed")}, ""},
		{"KEP: provisional", "proposed", []*record{rec("provisional", "proposed"), rec("implementable", "accepted")}, "provisional"},
		{"a folder says it", "proposed", []*record{{d: &register.Decision{RawStatus: "draft", Status: "proposed", StatusFrom: "folder"}}}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			n := &dialectNew{col: &collection{records: tc.records}, status: tc.status}
			if got := n.ownClassWord(); got != tc.want {
				t.Errorf("ownClassWord = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestProseValue: a template's field value no record writes is prose for
// its writer, left empty; a constant the records share, and what the
// new record says, are kept (D96).
func TestProseValue(t *testing.T) {
	t.Parallel()
	n := testDialect("", false)
	n.values = map[string]map[string]bool{
		"関連":   {"ADR-0003（ランタイム選定）, 設計書 01/02/04": true},
		"type": {"Standards Track": true},
	}
	cases := []struct {
		k, v string
		want bool
	}{
		{"関連", "Issue/PR/ドキュメントへのリンク", true},
		{"**Type**", "Standards Track", false},
		{"Type", "Meta", true},
		{"Owner", "who owns it", false}, // no record writes the key: not known
		{"関連", "", false},
		{"関連", "01/12/26", false},
		{"関連", "Ada Lovelace", false},
		{"関連", "[SE-0012](0012-next-decision.md)", false},
	}
	for _, tc := range cases {
		if got := n.proseValue(tc.k, tc.v); got != tc.want {
			t.Errorf("proseValue(%q, %q) = %v, want %v", tc.k, tc.v, got, tc.want)
		}
	}
}

// TestFillEmptyKey: a front matter key left empty takes the value; one
// key, never two.
func TestFillEmptyKey(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in, want string
		ok       bool
	}{
		{"---\ntitle: x\nsupersedes:\n---\n\n# x\n", "---\ntitle: x\nsupersedes: 0001-a\n---\n\n# x\n", true},
		{"---\nsupersedes: 0002-b\n---\n", "---\nsupersedes: 0002-b\n---\n", false},
		{"# no front matter\nsupersedes:\n", "# no front matter\nsupersedes:\n", false},
	}
	for _, tc := range cases {
		got, ok := fillEmptyKey(tc.in, "supersedes", "0001-a")
		if got != tc.want || ok != tc.ok {
			t.Errorf("fillEmptyKey(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestSiblingTemplate: a folder beside the records' folder whose README's
// text says template is the collection's template (a KEP's; D96); a
// record's README beside it is not.
func TestSiblingTemplate(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for p, s := range map[string]string{
		"keps/sig-cli/1020-x/README.md":     "# KEP-1020: X\n",
		"keps/aaa-notes/README.md":          "# Notes\n\nStatus: accepted\n",
		"keps/NNNN-kep-template/README.md":  "<!-- how to -->\n# KEP-NNNN: Your short, descriptive title\n\n## Summary\n",
		"other/NNNN-kep-template/README.md": "# KEP-NNNN: Your short, descriptive title\n",
	} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := siblingTemplate(root, "keps/sig-cli"); got != "keps/NNNN-kep-template/README.md" {
		t.Errorf("siblingTemplate = %q", got)
	}
	if got := siblingTemplate(root, "."); got != "" {
		t.Errorf("siblingTemplate(.) = %q, want none", got)
	}
	if got := siblingTemplate(root, "keps/aaa-notes"); got != "keps/NNNN-kep-template/README.md" {
		t.Errorf("siblingTemplate beside a record folder = %q", got)
	}
}

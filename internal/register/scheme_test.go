package register

import (
	"go/token"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestBuiltinPatterns: each built-in pattern reads the number, letter
// suffix or date of real record names from the surveyed collections
// (testdata/collections of internal/author), and refuses the names that
// are not its shape.
func TestBuiltinPatterns(t *testing.T) {
	t.Parallel()
	cases := []struct {
		pattern, rel string
		ok           bool
		number       int
		suffix, date string
	}{
		{PatternNumbered, "0000-use-markdown-adrs-to-record-design-decisions.md", true, 0, "", ""},
		{PatternNumbered, "0004a-ancestry-relationships.md", true, 4, "a", ""},
		{PatternNumbered, "0032-specifying-storage-backend.md", true, 32, "", ""},
		{PatternNumbered, "adr-019-x.md", false, 0, "", ""},
		{PatternPrefixed, "adr-019-use-edn.md", true, 19, "", ""},
		{PatternPrefixed, "ODH-ADR-Operator-0007-auth-crd.md", true, 7, "", ""},
		{PatternPrefixed, "ODH-ADR-ART-001.md", true, 1, "", ""},
		{PatternPrefixed, "KIT-ADR-0021-B-realtime-agent-communication.md", true, 21, "-B", ""},
		{PatternPrefixed, "KIT-ADR-0021-realtime-agent-communication.md", true, 21, "", ""},
		{PatternPrefixed, "ADR-0012-Big-title.md", true, 12, "", ""},
		{PatternDatedUnder, "2022_07_21_name.md", true, -1, "", "20220721"},
		{PatternDatedDash, "2022-07-21_name.md", true, -1, "", "20220721"},
		{PatternDatedDash, "2022-07-21-name.md", true, -1, "", "20220721"},
		{PatternDated, "20200925-title.md", true, -1, "", "20200925"},
		{PatternDated, "2022-07-21_name.md", false, 0, "", ""},
		{PatternNumFolder, "0001-first/README.md", true, 1, "", ""},
		{PatternSlugFolder, "my-rfc/index.md", true, -1, "", ""},
	}
	for _, c := range cases {
		s := Scheme{Dir: "d", Pattern: c.pattern}
		if err := s.Compile(); err != nil {
			t.Fatalf("%s: %v", c.pattern, err)
		}
		n, ok := s.Match(c.rel)
		if ok != c.ok {
			t.Errorf("%s: Match(%q) ok = %v, want %v", c.pattern, c.rel, ok, c.ok)
			continue
		}
		if ok && (n.Number != c.number || n.Suffix != c.suffix || n.Date != c.date) {
			t.Errorf("%s: Match(%q) = number %d suffix %q date %q, want %d %q %q", c.pattern, c.rel, n.Number, n.Suffix, n.Date, c.number, c.suffix, c.date)
		}
	}
}

// TestStatusWords: emoji and decorations go before the vocabulary reads
// a status (D72), a supersession keeps only its word, and a template's
// list of choices is a placeholder.
func TestStatusWords(t *testing.T) {
	t.Parallel()
	cases := []struct {
		raw, words string
		status     string
		ok         bool
		template   bool
	}{
		{"✅ Accepted", "accepted", "accepted", true, false},
		{"⌛️ Superseded by [036](0036-x.md)", "superseded", "superseded", true, false},
		{"**Draft**", "draft", "proposed", true, false},
		{"Refinement completed. TP in 3.4", "refinement completed", "", false, false},
		{"[proposed, accepted, rejected, deprecated, superseded]", "", "", false, true},
		{"Accepted, superseded by [ADR-5](0005-x.md)", "accepted", "accepted", true, false},
		{"[proposed | rejected | accepted | deprecated | … | superseded by ADR-0005]", "", "", false, true},
		{"{proposed | rejected}", "", "", false, true},
		// KEEP-0446's: a link is its text, its address no choices.
		{"[Declined](https://github.com/Kotlin/KEEP/discussions/462#discussioncomment-16907110)", "declined", "rejected", true, false},
		{"[proposed | accepted | superseded by [ADR-0005](0005-example.md)]", "", "", false, true},
	}
	vocab := map[string]string{"draft": "proposed", "declined": "rejected"}
	for _, c := range cases {
		if got := StatusWords(c.raw); got != c.words {
			t.Errorf("StatusWords(%q) = %q, want %q", c.raw, got, c.words)
		}
		st, ok := MapStatus(c.raw, vocab)
		if st != c.status || ok != c.ok {
			t.Errorf("MapStatus(%q) = %q, %v; want %q, %v", c.raw, st, ok, c.status, c.ok)
		}
		if got := PlaceholderStatus(c.raw); got != c.template {
			t.Errorf("PlaceholderStatus(%q) = %v, want %v", c.raw, got, c.template)
		}
	}
}

// FuzzSchemePattern: any configured pattern either compiles or is refused
// with an error naming the setting, never a panic; a compiled scheme
// reads any path without a panic, and what it reads is inside the path.
func FuzzSchemePattern(f *testing.F) {
	for _, p := range []string{PatternNumbered, PatternPrefixed, PatternDatedUnder, PatternNumFolder, "adr-*.md", "**/{a,b}-?.md", "^(?P<num>[0-9]+)(?P<x>.)", "{", "[a]"} {
		f.Add(p, "adr-019-use-edn.md")
	}
	f.Add("^(?P<date>[0-9_-]+)_.*\\.md$", "2022_07_21_x.md")
	f.Add("^(?P<num>[0-9]{1,9})(?P<suffix>[a-z]?)-.*\\.md$", "0004a-x.md")
	f.Fuzz(func(t *testing.T, pattern, rel string) {
		s := Scheme{Dir: "d", Pattern: pattern}
		if err := s.Compile(); err != nil {
			if !strings.HasPrefix(err.Error(), "pattern") {
				t.Fatalf("Compile(%q) error %q does not name the setting", pattern, err)
			}
			return
		}
		n, ok := s.Match(rel)
		if !ok {
			return
		}
		if n.Path != rel {
			t.Fatalf("Match(%q).Path = %q", rel, n.Path)
		}
		if n.Number < -1 || n.Width < 0 || n.Width > 9 && n.Date == "" {
			t.Fatalf("Match(%q) = %+v", rel, n)
		}
		if n.Date != "" && len(n.Date) != 8 {
			t.Fatalf("Match(%q) date %q", rel, n.Date)
		}
	})
}

// FuzzStatusLine: a status line, metadata table or raw status of any
// bytes is read without a panic; the words the vocabulary sees are lower
// case, single-spaced and no longer than what was written, and a mapped
// status is one of the five.
func FuzzStatusLine(f *testing.F) {
	for _, s := range []string{
		"**Status**: ✅ Accepted\n",
		"* Status: ⌛️ Superseded by [036](0036-x.md)\n",
		"| Status         | Draft |\n| Supersedes     | N/A |\n",
		"| Status | Date |\n|---|---|\n| Approved | 2024 |\n",
		"_Status: proposed_\n## Context\n",
		"Status: [proposed | accepted | deprecated]\n",
		"```\nStatus: accepted\n```\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		ln := newLines("f.md", src)
		lines := strings.Count(string(src), "\n") + 1
		for _, read := range []func() (string, int, bool){
			func() (string, int, bool) { s, p, ok := statusLine(src, ln); return s, p.Line, ok },
			func() (string, int, bool) { s, p, _, ok := tableStatus(src, ln); return s, p.Line, ok },
		} {
			raw, line, ok := read()
			if !ok {
				continue
			}
			if line < 1 || line > lines {
				t.Fatalf("status %q at line %d of %d", raw, line, lines)
			}
			words := StatusWords(raw)
			if words != strings.Join(strings.Fields(words), " ") || utf8.Valid([]byte(raw)) && words != strings.ToLower(words) {
				t.Fatalf("StatusWords(%q) = %q", raw, words)
			}
			if st, ok := MapStatus(raw, map[string]string{"draft": "proposed"}); ok && !ValidStatus(st) {
				t.Fatalf("MapStatus(%q) = %q", raw, st)
			}
			_ = PlaceholderStatus(raw)
		}
	})
}

// TestFindRecordsFolderOnce: a record that is a folder is one record, its
// README.md beside its index.md (a link to it, in a collection of one
// folder per record) not a second (D96).
func TestFindRecordsFolderOnce(t *testing.T) {
	t.Parallel()
	files := []string{
		"docs/adr/2023-05-12-queue/README.md",
		"docs/adr/2023-05-12-queue/index.md",
		"docs/adr/2024-01-02-cache/README.md",
	}
	schemes := []Scheme{{Dir: "docs/adr", Pattern: PatternDatedFolder}}
	var got []string
	for _, fr := range FindRecords(files, schemes) {
		got = append(got, fr.Path)
	}
	want := []string{"docs/adr/2023-05-12-queue/index.md", "docs/adr/2024-01-02-cache/README.md"}
	if !slices.Equal(got, want) {
		t.Errorf("FindRecords = %q, want %q", got, want)
	}
}

// TestRedirectStub: a file that only says where its document moved is
// not a record; a record that mentions a move is (D96).
func TestRedirectStub(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"---\neip: 190\nstatus: Moved\n---\n\nThis file was moved to https://github.com/ethereum/ercs/blob/master/ERCS/erc-190.md\n", true},
		{"Dieses Dokument wurde nach [ADR 7](0007-x.md) verschoben.\n", true},
		{"# Move to Kubernetes\n\nWe moved to https://k8s.io.\n", false},
		{"---\nstatus: Moved\n---\n\nThis file was moved.\n", false},
		{"Status: Accepted\n\nWe moved to [the new queue](https://example.com).\n\n## Context\n", false},
		{"", false},
	} {
		if got := RedirectStub([]byte(tc.src)); got != tc.want {
			t.Errorf("RedirectStub(%q) = %v, want %v", tc.src, got, tc.want)
		}
	}
}

// FuzzSidecarAndRedirect reads any sidecar file and any record without a
// panic: a status read from the sidecar is its status: line's, placed in
// that file.
func FuzzSidecarAndRedirect(f *testing.F) {
	f.Add([]byte("title: x\nstatus: implementable\n"), []byte("This file was moved to https://example.com/x.md\n"))
	f.Add([]byte("status: provisional|implementable|implemented\n"), []byte("---\nstatus: Moved\n---\n\nmoved to [x](y)"))
	f.Add([]byte("status:\n"), []byte(""))
	f.Fuzz(func(t *testing.T, side, rec []byte) {
		_ = RedirectStub(rec)
		d := &Decision{Keys: map[string]token.Position{}}
		if ApplySidecar(d, "keps/x/kep.yaml", side, map[string]string{}) {
			if d.RawStatus == "" || d.StatusFrom != "sidecar" || d.Keys["status"].Filename != "keps/x/kep.yaml" {
				t.Errorf("sidecar status %q from %q at %v", d.RawStatus, d.StatusFrom, d.Keys["status"])
			}
		}
	})
}

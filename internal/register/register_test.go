package register

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestCellText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{" `a\\|b` ", "a|b"},
		{"``a`b``", "a`b"},
		{"plain", "plain"},
		{"`` ` ``", "`"},
		{"a \\| b", "a | b"},
		{"`x` and `y`", "`x` and `y`"},
	} {
		if got := cellText(tc.in); got != tc.want {
			t.Errorf("cellText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParseDecision(t *testing.T) {
	t.Parallel()
	src := "---\nid: D12\nstatus: Accepted\nsupersedes: [D3(6), D4]\nsuperseded-by: []\ntracker: dk-4f2\nresiduals: [dk-9xk]\n---\n# D12: Answer\n\n## Confirmation\n" +
		"| Claim | Kind | Path | Anchor | Require | Why |\n|---|---|---|---|---|---|\n" +
		"| C1 | present | `server/**/*.go` | `func recoverID\\(` | | exists |\n" +
		"| C2 | Anchored | `server/mcp/wire.go` | `a\\|b` | `!default:` | |\n\n## Later\n| x |\n|---|\n| y |\n"
	d := ParseDecision("docs/decisions/D12-answer.md", []byte(src))
	if len(d.Findings) != 0 {
		t.Fatalf("findings: %v", d.Findings)
	}
	want := &Decision{
		Path: "docs/decisions/D12-answer.md", FileID: "D12", ID: "D12", Status: "accepted", Title: "D12: Answer",
		Supersedes: []Ref{{"D3", "6"}, {"D4", ""}}, Tracker: []string{"dk-4f2"}, Residuals: []string{"dk-9xk"},
		Parsed: true, HasConfirmation: true, HasCounted: true,
		Claims: []Claim{
			{Decision: "D12", ID: "C1", Kind: "present", Path: "server/**/*.go", Anchor: `func recoverID\(`, Why: "exists"},
			{Decision: "D12", ID: "C2", Kind: "anchored", Path: "server/mcp/wire.go", Anchor: "a|b", Require: "!default:"},
		},
	}
	opts := []cmp.Option{
		cmpopts.IgnoreFields(Decision{}, "Keys", "ConfirmationPos", "Findings"),
		cmpopts.IgnoreFields(Claim{}, "Pos", "Spans"),
		cmpopts.IgnoreUnexported(Claim{}),
	}
	if diff := cmp.Diff(want, d, opts...); diff != "" {
		t.Errorf("ParseDecision mismatch (-want +got):\n%s", diff)
	}
	if p := d.Claims[1].CellPos("require"); p.Line != 15 || p.Column != 51 {
		t.Errorf("C2 Require at %d:%d, want 15:51", p.Line, p.Column)
	}
	if p := d.KeyPos("residuals"); p.Line != 7 {
		t.Errorf("residuals key at line %d, want 7", p.Line)
	}
}

func TestParseRegister(t *testing.T) {
	t.Parallel()
	src := "# PRD\n\n| Other | x |\n|---|---|\n| a | b |\n\n| ID | Decision | Status |\n|---|---|---|\n" +
		"| D1 | [One](decisions/D1-one.md) | **Accepted** |\n| D2 | Two | proposed (since 2026) |\n| x | bad | accepted |\n"
	r := ParseRegister("docs/PRD.md", []byte(src))
	if !r.Found || !r.HasStatus {
		t.Fatalf("Found=%v HasStatus=%v", r.Found, r.HasStatus)
	}
	var got []string
	for _, row := range r.Rows {
		got = append(got, row.ID+" "+row.Status+" "+row.Link)
	}
	want := []string{"D1 accepted decisions/D1-one.md", "D2 proposed "}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if len(r.Findings) != 1 || !strings.Contains(r.Findings[0].Message, `"x"`) || r.Findings[0].Pos.Line != 11 {
		t.Errorf("findings = %v, want one about row x at line 11", r.Findings)
	}
}

// FuzzParse feeds arbitrary bytes to both parsers: they must never panic,
// and every finding must point inside the file.
func FuzzParse(f *testing.F) {
	f.Add([]byte("---\nid: D1\nstatus: accepted\n---\n## Confirmation\n| Claim | Kind | Path | Anchor | Require |\n|---|---|---|---|---|\n| C1 | present | `a` | `b` | |\n"))
	f.Add([]byte("| ID | Status |\n|---|---|\n| D1 | accepted |\n"))
	f.Add([]byte("---\nid: D1\n---\n## Confirmation\n| Claim | Kind | Path | Anchor | Require | Why |\n|---|---|---|---|---|---|\n| C1 | present | `a` | `b|c` | | | <!-- x -->\n"))
	f.Add([]byte("---\nid: [\n---\n"))
	f.Add([]byte("---\ntracker: {a: 1}\n---\n\xff"))
	f.Fuzz(func(t *testing.T, src []byte) {
		lines := strings.Count(string(src), "\n") + 1
		d := ParseDecision("docs/decisions/D1-x.md", src)
		r := ParseRegister("docs/PRD.md", src)
		// The inline forms (D35): a claims file, and a register read
		// with status markers and a default.
		cf := ParseClaims("docs/claims/D1.md", "D1", src)
		ri := ParseRegisterWith("docs/PRD.md", src, RegisterOptions{Default: "accepted", Markers: []StatusMarker{{regexp.MustCompile(`SUPERSEDED`), "superseded"}}})
		for _, fs := range [][]Claim{d.Claims, cf.Claims} {
			for _, c := range fs {
				if c.Pos.Line < 1 || c.Pos.Line > lines {
					t.Fatalf("claim %s at line %d of %d", c.ID, c.Pos.Line, lines)
				}
				for sp := range c.Spans.All() {
					if sp[0] < 0 || sp[1] > len(src) || sp[0] > sp[1] {
						t.Fatalf("claim %s: span %v outside the %d-byte file", c.ID, sp, len(src))
					}
				}
			}
		}
		for _, row := range ri.Rows {
			if row.Status == "" || row.StatusFrom == "" {
				t.Fatalf("row %s has no status with a default configured", row.ID)
			}
		}
		all := append(append(d.Findings, r.Findings...), cf.Findings...)
		for _, f := range append(all, ri.Findings...) {
			if f.Pos.Line < 1 || f.Pos.Line > lines || f.Message == "" {
				t.Fatalf("finding %+v outside the file (%d lines)", f, lines)
			}
		}
	})
}

// FuzzCountedLists: any Markdown is read without a panic, and every
// counted list reports a position inside the file and a stated count of
// two or more.
func FuzzCountedLists(f *testing.F) {
	f.Add([]byte("Three residuals stay OPEN:\n\n- a\n- b\n"))
	f.Add([]byte("Text. The 4 scripts below:\n\n1. x\n"))
	f.Add([]byte("one of:\n\n* a\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, cl := range CountedLists("f.md", src) {
			if cl.Stated < 2 || cl.Pos.Offset < 0 || cl.Pos.Offset >= len(src) || cl.Items < 1 {
				t.Fatalf("bad counted list %+v in %q", cl, src)
			}
		}
	})
}

// FuzzParseAdopted: any adopted record is read without a panic; every link
// it reports is a path in the record's directory tree or a record number,
// at a line inside the file; a status is one of the five or the record's
// own words.
func FuzzParseAdopted(f *testing.F) {
	f.Add([]byte("# 2. Use MySQL\n\n## Status\n\nSuperseded by [3. Use PostgreSQL](0003-use-postgresql.md)\n"))
	f.Add([]byte("---\nstatus: accepted\n---\n# 7. X\n"))
	f.Add([]byte("* Status: proposed\n"))
	f.Add([]byte("# StAtus\nSuperseded BY](00-.md)"))
	f.Add([]byte("---\nstatus: \"superseded by [ADR-0003](0003-x.md)\"\ndecision-makers: [a]\n---\n# T\n"))
	f.Add([]byte("# T\n\n- Status: superseded by [20201016-x](20201016-x.md)\n\n## Links\n\n- Supersedes ADR-0001\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		lines := strings.Count(string(src), "\n") + 1
		d := ParseAdopted("doc/adr/0002-use-mysql.md", src, map[string]string{"on hold": "proposed"})
		if !d.Adopted {
			t.Fatal("not marked adopted")
		}
		for _, l := range d.Links {
			if l.Target == "" && l.Number < -1 || l.Target != "" && (l.Number != -1 || strings.HasPrefix(l.Target, "/")) {
				t.Fatalf("bad link %+v", l)
			}
			if l.Pos.Line < 1 || l.Pos.Line > lines || Inverse(l.Verb) == "" {
				t.Fatalf("link %+v outside the file (%d lines) or with an unknown verb", l, lines)
			}
		}
		for _, f := range d.Findings {
			if f.Pos.Line < 1 || f.Pos.Line > lines || f.Message == "" {
				t.Fatalf("finding %+v outside the file (%d lines)", f, lines)
			}
		}
		if d.Status != "" && d.Status != strings.ToLower(d.Status) {
			t.Fatalf("status %q not normalised", d.Status)
		}
	})
}

// TestParseAdoptedDialects reads one record of each dialect, shaped as its
// tool writes it, and checks the status and the links it states.
func TestParseAdoptedDialects(t *testing.T) {
	t.Parallel()
	vocab := map[string]string{"superceded": "superseded", "draft": "proposed", "on hold": "proposed", "approved": "accepted", "unstated": "accepted"}
	for _, tc := range []struct {
		name, path, src string
		status, raw     string
		links           []string // verb target-or-number
	}{
		{"adr-tools superseded", "doc/adr/0002-use-mysql.md",
			"# 2. Use MySQL\n\nDate: 2026-11-02\n\n## Status\n\nSuperceded by [3. Use PostgreSQL](0003-use-postgresql.md)\n\n## Context\n",
			"superseded", "Superceded by [3. Use PostgreSQL](0003-use-postgresql.md)", []string{"superseded-by doc/adr/0003-use-postgresql.md"}},
		{"adr-tools amends and clarifies", "doc/adr/0003-x.md",
			"# 3. X\n\n## Status\n\nAccepted\n\nSupercedes [2. Y](0002-y.md)\n\nAmended by [4. Z](0004-z.md)\n\n## Context\n",
			"accepted", "Accepted", []string{"supersedes doc/adr/0002-y.md", "amended-by doc/adr/0004-z.md"}},
		{"MADR 2 status line", "docs/adr/0001-x.md",
			"# X\n\n* Status: superseded by [ADR-0002](0002-y.md) <!-- optional -->\n* Deciders: A\n\n## Links\n\n* Refined by [ADR-0005](0005-example.md)\n",
			"superseded", "superseded by [ADR-0002](0002-y.md)", []string{"superseded-by docs/adr/0002-y.md"}},
		{"MADR 3 front matter", "docs/decisions/0001-x.md",
			"---\nstatus: approved\ndate: 2023-06-12\ndeciders: A, B\nconsulted: C\ninformed: D\n---\n# X\n",
			"accepted", "approved", nil},
		{"MADR 4 bare reference", "docs/decisions/0001-x.md",
			"---\nstatus: \"superseded by ADR-0003\"\ndecision-makers: A\n---\n\n# X\n\n### Confirmation\n\nA review.\n",
			"superseded", "superseded by ADR-0003", []string{"superseded-by #3"}},
		{"on hold is two words", "docs/decisions/0002-x.md", "---\nstatus: on hold\n---\n# X\n", "proposed", "on hold", nil},
		{"partly superseded stays live", "doc/adr/0001-x.md",
			"# 1. X\n\n## Status\n\nAccepted\n\nPartly superseded by [6. Y](0006-y.md)\n",
			"accepted", "Accepted", []string{"partly-superseded-by doc/adr/0006-y.md"}},
		{"log4brains", "docs/adr/20200926-x.md",
			"# X\n\n- Status: superseded by [20201016-y](20201016-y.md)\n- Date: 2020-09-26\n",
			"superseded", "superseded by [20201016-y](20201016-y.md)", []string{"superseded-by docs/adr/20201016-y.md"}},
		{"no status", "docs/adr/0000-x.md", "# X\n\n## Context\n", "accepted", "", nil},
		{"unknown word kept", "doc/adr/0007-x.md", "# 7. X\n\n## Status\n\nParked\n", "parked", "Parked", nil},
		{"fuzz: link without a bracket", "doc/adr/0002-x.md", "# StAtus\nSuperseded BY](00-.md)", "accepted", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := ParseAdopted(tc.path, []byte(tc.src), vocab)
			if d.Status != tc.status || d.RawStatus != tc.raw {
				t.Errorf("status %q (raw %q), want %q (raw %q)", d.Status, d.RawStatus, tc.status, tc.raw)
			}
			var got []string
			for _, l := range d.Links {
				if l.Target != "" {
					got = append(got, l.Verb+" "+l.Target)
				} else {
					got = append(got, fmt.Sprintf("%s #%d", l.Verb, l.Number))
				}
			}
			if strings.Join(got, "; ") != strings.Join(tc.links, "; ") {
				t.Errorf("links %q, want %q", got, tc.links)
			}
			if len(d.Findings) > 0 {
				t.Errorf("findings %v", d.Findings)
			}
		})
	}
}

package register

import (
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestInlineRegister(t *testing.T) {
	t.Parallel()
	src := "| ID | Decision | Rationale |\n|---|---|---|\n" +
		"| **D1** | Store in SQLite. | diffs |\n" +
		"| `D2` | Ids are hashes. | stable |\n" +
		"| [D3](#d3) | Follow edges. SUPERSEDED by D46. | was simple |\n" +
		"| _D4_ | Plain. | |\n" +
		"| Dx | not an id | |\n"
	opts := RegisterOptions{Default: "accepted", Markers: []StatusMarker{{regexp.MustCompile(`SUPERSEDED by D[0-9]+`), "superseded"}}}
	reg := ParseRegisterWith("docs/PRD.md", []byte(src), opts)
	type row struct{ ID, Status, From, Title string }
	var got []row
	for _, r := range reg.Rows {
		got = append(got, row{r.ID, r.Status, r.StatusFrom, r.Title})
	}
	want := []row{
		{"D1", "accepted", StatusFromDefault, "Store in SQLite."},
		{"D2", "accepted", StatusFromDefault, "Ids are hashes."},
		{"D3", "superseded", StatusFromMarker, "Follow edges. SUPERSEDED by D46."},
		{"D4", "accepted", StatusFromDefault, "Plain."},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("rows (-want +got):\n%s", d)
	}
	if len(reg.Findings) != 1 || !strings.Contains(reg.Findings[0].Message, `"Dx"`) {
		t.Errorf("want one finding for the Dx row, got %v", reg.Findings)
	}
	// Without a default or markers, the missing Status column is marked
	// for CL001, which says which setting reads it (D65).
	plain := ParseRegister("docs/PRD.md", []byte(src))
	if len(plain.Findings) != 1 || !plain.StatusUnread || reg.StatusUnread || plain.HeaderPos.Line != 1 {
		t.Errorf("without options: StatusUnread=%v (with: %v), header line %d, findings %v", plain.StatusUnread, reg.StatusUnread, plain.HeaderPos.Line, plain.Findings)
	}
	// Markers alone: a row no marker matches has no status, and says so.
	only := ParseRegisterWith("docs/PRD.md", []byte(src), RegisterOptions{Markers: opts.Markers})
	n := 0
	for _, f := range only.Findings {
		if strings.Contains(f.Message, "its status is unknown") {
			n++
		}
	}
	if n != 3 {
		t.Errorf("want 3 rows of unknown status with markers only, got %d: %v", n, only.Findings)
	}
}

func TestParseClaims(t *testing.T) {
	t.Parallel()
	src := "---\ntracker: [ub-cnv]\n---\n# D47: claims\n\n## Confirmation\n\n" +
		"| Claim | Kind | Path | Anchor | Require | Why |\n|---|---|---|---|---|---|\n" +
		"| P1 | present:comment | `src/wire.rs` | `ub-788` | | residual named |\n"
	d := ParseClaims("docs/claims/D47.md", "D47", []byte(src))
	if len(d.Findings) != 0 || !d.Parsed || !d.Inline {
		t.Fatalf("findings %v parsed %v inline %v", d.Findings, d.Parsed, d.Inline)
	}
	if d.ID != "D47" || len(d.Claims) != 1 || d.Claims[0].Decision != "D47" || d.Claims[0].Kind != "present:comment" {
		t.Errorf("decision %+v", d)
	}
	if !cmp.Equal(d.Tracker, []string{"ub-cnv"}) {
		t.Errorf("tracker %v", d.Tracker)
	}
	for name, want := range map[string]string{"path": "`src/wire.rs`", "anchor": "`ub-788`"} {
		sp, ok := d.Claims[0].Spans.Get(name)
		if !ok || strings.TrimSpace(src[sp[0]:sp[1]]) != want {
			t.Errorf("span of %s: %v = %q, want %q", name, sp, src[sp[0]:min(sp[1], len(src))], want)
		}
	}
	if _, ok := d.Claims[0].Spans.Get("require"); ok {
		t.Error("an empty Require cell has no span")
	}
}

func TestProseUnits(t *testing.T) {
	t.Parallel()
	md := "# A heading\n\nDuplication is the only\nroute in, they said.\n\n- one item\n  wrapped\n- two\n\n```\nfenced is not prose\n```\n\n| a | b |\n|---|---|\n| cell one | cell  two |\n\n<!-- comment -->\n"
	var got []string
	units, _ := ProseUnits("docs/x.md", []byte(md))
	for _, u := range units {
		got = append(got, u.Text)
		if !strings.Contains(md[u.Start:u.End], strings.Fields(u.Text)[0]) {
			t.Errorf("unit %q: offsets %d..%d hold %q", u.Text, u.Start, u.End, md[u.Start:u.End])
		}
	}
	want := []string{"A heading", "Duplication is the only route in, they said.", "one item wrapped", "two", "a", "b", "cell one", "cell two"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("markdown units (-want +got):\n%s", d)
	}
	html := "<html><head><title>Card</title><style>p{}</style></head><body><p>Three residuals\n  stay <b>open</b>:</p><ul><li>ub-788 &amp; more</li></ul><!-- x --><script>var a</script></body></html>"
	got = nil
	hunits, _ := ProseUnits("card.html", []byte(html))
	for _, u := range hunits {
		got = append(got, u.Text)
	}
	want = []string{"Card", "Three residuals stay open:", "ub-788 & more"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("html units (-want +got):\n%s", d)
	}
	if u, _ := ProseUnits("x.rs", []byte("// prose?")); u != nil {
		t.Error("a code file has no prose units")
	}
}

func FuzzProseUnits(f *testing.F) {
	f.Add("x.md", "# h\n\npara\ngraph\n\n| a |\n|---|\n| b |\n")
	f.Add("x.html", "<p>a<b>b</b></p><!-- <p>c</p> --><li>d")
	f.Add("x.html", "<script>unterminated")
	f.Fuzz(func(t *testing.T, name, src string) {
		units, _ := ProseUnits(name, []byte(src))
		for _, u := range units {
			if u.Start < 0 || u.End > len(src) || u.Start > u.End {
				t.Fatalf("unit %+v outside the %d-byte source", u, len(src))
			}
			if u.Text == "" || strings.Contains(u.Text, "  ") || strings.ContainsAny(u.Text, "\n\t") {
				t.Fatalf("unit text not normalised: %q", u.Text)
			}
		}
	})
}

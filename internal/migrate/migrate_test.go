package migrate

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseRows(t *testing.T) {
	t.Parallel()
	src := `#!/bin/sh
# Gate for D12.
RANGE_RE='D1\.\.D48'
LAST=$(printf '%s\n' "$RANGE_RE" | sed -e 's/.*D//')
TWICE=$(echo "$LAST" | sed -E 's/([0-9]+)/\1\1/g')
BAD=$(git ls-files | wc -l)
ROWS="
P1@a.rs@\\bD$LAST\\b@newest id
Q1@a.rs@fn x@$RANGE_RE@range on x
P2@b.rs@$BAD@uses a command
P3@b.rs@$UNSET@unset knob
Q2@b.rs@only@three@
P4@c.rs@x\\1@back-reference
P1@d.rs@dup@twice
"
ODD='P5@e.rs@fine@single quotes'
for r in 'P9@f.rs@loose@in a for list'; do :; done
`
	g := Parse("scripts/checks/gate.sh", []byte(src))
	if g.Decision != "D12" {
		t.Errorf("decision = %q, want D12 from the header", g.Decision)
	}
	type row struct{ Code, Path, Anchor, Regex, Why string }
	var got []row
	for _, r := range g.Rows {
		got = append(got, row{r.Code, r.Path, r.Anchor, r.Regex, r.Why})
	}
	want := []row{
		{"P1", "a.rs", `\bD48\b`, "", "newest id"},
		{"Q1", "a.rs", "fn x", `D1\.\.D48`, "range on x"},
		{"Q2", "b.rs", "only", "three", ""},
		{"P4", "c.rs", `x\1`, "", "back-reference"},
		{"P5", "e.rs", "fine", "", "single quotes"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("rows (-want +got):\n%s", d)
	}
	var skipped []string
	for _, s := range g.Skipped {
		skipped = append(skipped, s.Code+": "+s.Reason)
	}
	wantSkipped := []string{
		`P2: $BAD: the command "git" is not evaluated (migrate evaluates printf, echo, sed s/// and the script's own functions)`,
		"P3: $UNSET is not assigned in the script before it is used",
		"P1: row code P1 is used twice (first on line 8)",
		"P9: the row is not inside a NAME='…' or NAME=\"…\" string, which is where migrate reads rows",
	}
	if d := cmp.Diff(wantSkipped, skipped); d != "" {
		t.Errorf("skipped (-want +got):\n%s", d)
	}
	if v := read(src).knobs["TWICE"]; v.text != "4848" || v.bad != "" {
		t.Errorf("TWICE = %+v, want 4848 from sed -E with \\1", v)
	}
}

func TestDecisionFromName(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"scripts/checks/d47-envelope-id-claims.sh": "D47",
		"scripts/checks/D3_x.sh":                   "D3",
		"scripts/checks/other.sh":                  "",
	} {
		if got := Parse(name, []byte("#!/bin/sh\necho hi\n")).Decision; got != want {
			t.Errorf("%s: decision %q, want %q", name, got, want)
		}
	}
}

func TestRegexConversion(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		bre, ere bool
		in, want string
		err      bool
	}{
		{bre: true, in: `.*\.\.D`, want: `.*\.\.D`},
		{bre: true, in: `\(a\)\{2\}b+c?`, want: `(a){2}b\+c\?`},
		{bre: true, in: `*x\|y`, want: `\*x|y`},
		{bre: true, in: `\<word\>`, want: `\bword\b`},
		{bre: true, in: `\(a\)\1`, err: true},
		{ere: true, in: `\<id\>[[:space:]]+x`, want: `\bid\b[[:space:]]+x`},
		{ere: true, in: `(a)\1`, err: true},
	} {
		var got string
		var err error
		if tc.bre {
			got, err = BREToRE2(tc.in)
		} else {
			got, err = EREToRE2(tc.in)
		}
		if (err != nil) != tc.err || (!tc.err && got != tc.want) {
			t.Errorf("%q: got %q, %v; want %q (error %v)", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestPrintfSed(t *testing.T) {
	t.Parallel()
	out, err := printf([]string{`%s-%s\n`, "a", "b", "c"})
	if err != nil || out != "a-b\nc-\n" {
		t.Errorf("printf cycles its format: %q, %v", out, err)
	}
	if _, err := printf([]string{"%d", "1"}); err == nil {
		t.Errorf("printf %%d must be refused, not guessed")
	}
	out, err = sed([]string{"-e", "s/a/&&/g", "-e", `s#b#\##`}, "aab\nb\n")
	if err != nil || out != "aaaa#\n#\n" {
		t.Errorf("sed: %q, %v", out, err)
	}
	if _, err := sed([]string{"y/a/b/"}, "a"); err == nil {
		t.Error("sed y/// must be refused")
	}
}

func FuzzParse(f *testing.F) {
	f.Add("X='a'\nR=\"P1@a@$X@w\"\n")
	f.Add("K=$(printf '%s' \"$A\" | sed 's/a/b/g')\nR='Q1@p@a@!b@w'\n")
	f.Add("A=\"unterminated\nP1@x")
	f.Add("A=$((1+2)) B=${X:-y} C=`cmd`")
	// The structural shapes (issue 34): a count, a line filter.
	f.Add("# S1 — ONE CALLER\nsites() { git grep -n -E 'f\\(' -- src | grep -v -E 'fn f\\('; }\nn=\"$(sites | grep -c .)\"\nif [ \"$n\" != \"1\" ]; then echo \"[S1] no\"; fi\n")
	f.Add("L=\"$(git grep -n -E '^mod tests \\{$' -- a.rs | cut -d: -f2)\"\ncase \"$L\" in\n  ''|*[!0-9]*) exit 2 ;;\nesac\n")
	f.Fuzz(func(t *testing.T, src string) {
		g := Parse("d1-x.sh", []byte(src))
		for _, r := range g.Rows {
			if r.Layout == LayoutStructural {
				if len(r.st) == 0 {
					t.Fatalf("structural row with no claim: %+v", r)
				}
				for _, c := range r.st {
					if c.ID == "" || c.Kind == "" || c.Path == "" || c.Anchor == "" {
						t.Fatalf("structural claim with an empty field: %+v", c)
					}
				}
				continue
			}
			if r.Code == "" || r.Path == "" || r.Anchor == "" {
				t.Fatalf("row with an empty field: %+v", r)
			}
		}
	})
}

package migrate

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTablesReadByLayout: a table's rows are read by its variable's name,
// whatever their code letters; a table migrate does not know is read as
// D34 reads one (P and Q rows), and any other row there is listed.
func TestTablesReadByLayout(t *testing.T) {
	src := `#!/bin/sh
CONTRACT_RE='app\.v1\.4'
CONTRACT_FAMILY_RE='app\.v1\.[0-9]+'
REQUIRE="
R1@a.md@^\| \*\*D7\*\* \|@the row
"
REQUIRE_CODE="
PC1@src/a.rs@pub fn x\(@the predicate
"
REQUIRE_ROW="
RW1@src/a.rs@fn y@!panic@a literal !, as grep -v -E reads it
"
REQUIRE_CONTRACT="
RC1@src/a.rs@@presence
RC2@README.md@EXCLUSIVE@no retired id
RC3@plan.md@^\| .VERSION@the declaring row
"
FAMILIES="
F1@escape@the old way@D7
F2@plain@never again@
F3@sometimes@bad mode@
"
LEGACY="
P9@src/a.rs@kept@D34 reads it
Q9@src/a.rs@fn y@y@and this
Z1@src/a.rs@x@not read
"
`
	g := Parse("scripts/d7-x.sh", []byte(src))
	type row struct{ Code, Layout, Path, Anchor, Regex string }
	var got []row
	for _, r := range g.Rows {
		got = append(got, row{r.Code, fmt.Sprint(r.Layout), r.Path, r.Anchor, r.Regex})
	}
	L := func(l Layout) string { return fmt.Sprint(l) }
	want := []row{
		{"R1", L(LayoutPresence), "a.md", `^\| \*\*D7\*\* \|`, ""},
		{"PC1", L(LayoutPresence), "src/a.rs", `pub fn x\(`, ""},
		{"RW1", L(LayoutEvery), "src/a.rs", "fn y", `\!panic`},
		{"RC1", L(LayoutPresence), "src/a.rs", `app\.v1\.4`, ""},
		{"RC2", L(LayoutPresence), "README.md", `app\.v1\.4`, ""},
		{"RC2-stale", L(LayoutAbsent), "README.md", `app\.v1\.([0-9]{2,}|[012356789])($|[^0-9])`, ""},
		{"RC3", L(LayoutEvery), "plan.md", `^\| .VERSION`, `app\.v1\.4`},
		{"P9", L(LayoutPresence), "src/a.rs", "kept", ""},
		{"Q9", L(LayoutEvery), "src/a.rs", "fn y", "y"},
		{"F1", L(LayoutFamily), "", "", ""},
		{"F2", L(LayoutFamily), "", "", ""},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("rows (-want +got):\n%s", d)
	}
	var skipped []string
	for _, s := range g.Skipped {
		skipped = append(skipped, s.Code+": "+s.Reason)
	}
	for _, w := range []string{
		`F3: the mode "sometimes" is neither plain nor escape`,
		"Z1: the table LEGACY is not one migrate knows (REQUIRE, REQUIRE_CODE, REQUIRE_ROW, REQUIRE_CONTRACT, FAMILIES, SUBJECT_FAMILIES, ALLOW), and a row there is read by its code only when it is P<n> (presence) or Q<n> (anchored), as D34 reads them",
	} {
		found := false
		for _, s := range skipped {
			found = found || strings.HasPrefix(s, w)
		}
		if !found {
			t.Errorf("no skipped row starts %q in\n%s", w, strings.Join(skipped, "\n"))
		}
	}
	// Every CODE@ row is counted once, however many claims it becomes.
	if c := g.counts()[""]; c.n != 12 || c.not != 2 {
		t.Errorf("rows counted %+v, want 12 rows, 2 not translated", c)
	}
}

// TestStaleIDs: the EXCLUSIVE pattern matches a family id exactly when
// grep -o would extract one that is not the current id.
func TestStaleIDs(t *testing.T) {
	for _, cur := range []string{"4", "10", "99", "305"} {
		ere, err := staleIDs(`app\\?\.v1\\?\.`+cur, `app\\?\.v1\\?\.[0-9]+`)
		if err != nil {
			t.Fatal(err)
		}
		re2, err := EREToRE2(ere)
		if err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile(re2)
		for n := 0; n < 1200; n++ {
			for _, d := range []string{fmt.Sprint(n), fmt.Sprintf("0%d", n)} {
				for _, tail := range []string{"", " ", "x", ".1"} {
					for _, pre := range []string{"app.v1.", `app\.v1\.`} {
						line := "id " + pre + d + tail
						if got, want := re.MatchString(line), d != cur; got != want {
							t.Fatalf("current %s: %q matched %v, want %v (%s)", cur, line, got, want, re2)
						}
					}
				}
			}
		}
	}
	for _, bad := range [][2]string{
		{`app\.v1\.4`, `app\.v[0-9]+\.[0-9]+`},
		{`app\.v1\.4x`, `app\.v1\.[0-9]+`},
		{`4`, `[0-9]+`},
		{`app\\.4`, `app\\.[0-9]+`},
	} {
		if _, err := staleIDs(bad[0], bad[1]); err == nil {
			t.Errorf("%s against %s: no error", bad[0], bad[1])
		}
	}
}

// TestUnquotable: a pattern rewritten so that its own text holds no match
// means the same on every line.
func TestUnquotable(t *testing.T) {
	lines := []string{"NOT endorsed here", "not  endorsed here", "the [ ] bracket", "unblock-engine is untouched", "x y", "a\tb", "Attribution was recorded", "[u]nblock"}
	for _, p := range []string{`(?i)NOT endorsed here`, `(?i)unblock-engine.{0,40}(not touched|untouched)`, `(?i)attribution.{0,60}(recorded|persisted)`, `a[ \t]b|x y`, `[^ ]{0,3}x y`, `\bA b\b`, `[[:space:]]y`} {
		for _, enc := range []string{unquotable(p), bracketWords(unquotable(p))} {
			orig, e := regexp.MustCompile(p), regexp.MustCompile(enc)
			for _, l := range lines {
				if orig.MatchString(l) != e.MatchString(l) {
					t.Errorf("%q as %q reads %q differently", p, enc, l)
				}
			}
		}
	}
	if got := bracketWords(unquotable(`(?i)unblock-engine.{0,40}(not touched|untouched)`)); got != `(?i)[u]nblock-[e]ngine.{0,40}([n]ot[ ][t]ouched|[u]ntouched)` {
		t.Errorf("bracketWords: %s", got)
	}
	f := family{code: "F1", regex: `unblock-engine.{0,40}(not touched|untouched)`, mode: "plain"}
	pr := &gateParser{families: []family{f}}
	if enc := pr.unquoted(`(?i)unblock-engine.{0,40}(not touched|untouched)`); f.flags("docs/claims/D1.md", "| ALLOW1 | present:any | `x` | `"+enc+"` |", nil) {
		t.Errorf("the sweep still matches its claim's text %s", enc)
	}
}

// TestSweepHits: a claims file a gate's sweep would report is named, as
// the script decides it (escape, subject, allow-list).
func TestSweepHits(t *testing.T) {
	g := &Gate{Script: "scripts/d1.sh", sweeps: []family{
		{code: "F1", regex: "old way", mode: "escape", escape: "D1"},
		{code: "F2", regex: "paths? stay", mode: "subject", subject: "create"},
	}, allowList: []allowEntry{{family: "*", prefix: "docs/claims/D2.md"}}}
	text := "the old way\nthe old way (D1)\npaths stay\ncreate: paths stay\n"
	got := SweepHits("docs/claims/D1.md", text, []*Gate{g})
	if len(got) != 2 || !strings.HasPrefix(got[0], "docs/claims/D1.md:1: the sweep F1 of scripts/d1.sh") || !strings.HasPrefix(got[1], "docs/claims/D1.md:4: the sweep F2") {
		t.Errorf("hits: %q", got)
	}
	if got := SweepHits("docs/claims/D2.md", text, []*Gate{g}); len(got) != 0 {
		t.Errorf("an allow-listed path: %q", got)
	}
}

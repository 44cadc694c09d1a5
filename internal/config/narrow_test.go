package config

import (
	"strings"
	"testing"
)

// TestNarrowed: a setting that reads less than at the base is listed, one
// that only reads more is not.
func TestNarrowed(t *testing.T) {
	t.Parallel()
	parse := func(src string) Config {
		t.Helper()
		c, err := Parse([]byte(src), Default())
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	for _, tc := range []struct {
		name, base, now string
		want            []string // "key what" prefixes
	}{
		{"same", "", "", nil},
		{"register moved", "", "register: docs/ADR.md\n", []string{`register was "docs/PRD.md", now "docs/ADR.md"`}},
		{"decisions moved", "", "decisions: x\n", []string{`decisions was "docs/decisions", now "x"`}},
		{"scripts narrowed", "", "scripts: checks/*.sh\n", []string{`scripts was "checks/**"`}},
		{"scripts turned off", "", "scripts: ''\n", []string{`scripts was "checks/**", now ""`}},
		{"scripts set from unset", "scripts: ''\n", "scripts: checks/**\n", nil},
		{"range site dropped", "range_sites: [docs/PRD.md, README.md]\n", "range_sites: [docs/PRD.md]\n", []string{`range_sites drops "README.md"`}},
		{"range site added", "", "range_sites: [docs/PRD.md, README.md]\n", nil},
		{"mention added", "", "mentions: ['src/**']\n", nil},
		{"mention dropped", "mentions: ['src/**', 'lib/**']\n", "mentions: ['src/**']\n", []string{`mentions drops "lib/**"`}},
		{"prefix dropped", "tracker: {prefixes: [dk, ops]}\n", "tracker: {prefixes: [dk]}\n", []string{`tracker.prefixes drops "ops"`}},
		{"export moved", "", "tracker: {export: other.jsonl}\n", []string{`tracker.export was`}},
		{"require_claims off", "", "require_claims: false\n", []string{"require_claims was true, now false"}},
		{"require_claims on", "require_claims: false\n", "", nil},
		{"status remapped", "statuses: {shipped: accepted}\n", "statuses: {shipped: proposed}\n", []string{`statuses drops or remaps "shipped": "accepted"`}},
		{"status added", "", "statuses: {shipped: accepted}\n", nil},
		{"frozen range added", "", "frozen_ranges: [{path: docs/PRD.md, range: D1..D4}]\n", []string{"frozen_ranges adds {path: docs/PRD.md, range: D1..D4}"}},
		{"frozen range dropped", "frozen_ranges: [{path: docs/PRD.md, range: D1..D4}]\n", "", nil},
		{"adopt folder dropped", "adopt: docs/adr\n", "", []string{"adopt drops {dir: docs/adr"}},
		{"inline marker dropped", "inline: {markers: [{pattern: 'X', status: superseded}]}\n", "inline: {}\n", []string{"inline.markers drops {pattern: X, status: superseded}"}},
		{"retired: is not a setting", "", "retired: [{id: D1, reason: gone}]\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Narrowed(parse(tc.base), parse(tc.now))
			if len(got) != len(tc.want) {
				t.Fatalf("Narrowed = %+v, want %d: %q", got, len(tc.want), tc.want)
			}
			for i, n := range got {
				if s := n.Key + " " + n.What; !strings.HasPrefix(s, tc.want[i]) {
					t.Errorf("[%d] = %q, want it to begin %q", i, s, tc.want[i])
				}
			}
		})
	}
}

// TestRetired: retired: names a decision, a claim row or a setting, with a
// reason; an entry counts only when the base did not have it.
func TestRetired(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, err string }{
		{"retired: [{id: D7, reason: gone}]\n", ""},
		{"retired: [{id: D7/C2, reason: gone}]\n", ""},
		{"retired: [{id: tracker.prefixes, reason: moved}]\n", ""},
		{"retired: [{id: D7}]\n", "retired[0] (D7): give a reason"},
		{"retired: [{id: D7, reason: '  '}]\n", "give a reason"},
		{"retired: [{id: everything, reason: x}]\n", `retired[0].id "everything": want a decision (D7), a claim row (D7/C2) or a setting (register, decisions,`},
		{"retired: [{id: retired, reason: x}]\n", `retired[0].id "retired"`},
		{"retired: [{id: 'D7/', reason: x}]\n", `retired[0].id "D7/"`},
	} {
		_, err := Parse([]byte(tc.in), Default())
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.in, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want it to hold %q", tc.in, err, tc.err)
		}
	}
	base, _ := Parse([]byte("retired: [{id: D1, reason: old}]\n"), Default())
	now, _ := Parse([]byte("retired: [{id: D1, reason: old}, {id: D2, reason: new}]\n"), Default())
	if _, ok := Acknowledges(base, now, "D1"); ok {
		t.Error("an entry already at the base acknowledges D1")
	}
	if r, ok := Acknowledges(base, now, "D2"); !ok || r.Reason != "new" {
		t.Errorf("the new entry for D2: %+v, %v", r, ok)
	}
	if _, ok := Acknowledges(base, now, "D3"); ok {
		t.Error("no entry names D3")
	}
}

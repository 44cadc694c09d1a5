package check

import "testing"

func TestValueOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ a, b string }{
		{"500_000", "500000"},
		{"500 * 1000", "500000"},
		{"16 << 20", "16777216"},
		{"16 MiB", "16 << 20"},
		{"0x1000", "4096"},
		{"0o17", "15"},
		{"0b101", "5"},
		{"0755", "493"},
		{"1024u32", "1024"},
		{"1_000usize", "1000"},
		{"(1 << 10) * 4", "4 KiB"},
		{"60*time.Second", "60000000000"},
		{"time.Minute", "60 * time.Second"},
		{"-(3 - 5)", "2"},
		{`"a\tb"`, "`a\tb`"},
		{`r#"^[a-z]+$"#`, "`^[a-z]+$`"},
		{`r"x"`, `"x"`},
		{` abc `, "abc"},
		{`'\x2c'`, `','`},
		{`'\u00e9'`, `'é'`},
		{`b','`, "44"},
	} {
		va, _ := valueOf(tc.a)
		vb, _ := valueOf(tc.b)
		if va != vb {
			t.Errorf("%q = %q and %q = %q: want one value", tc.a, va, tc.b, vb)
		}
	}
	for _, tc := range []struct{ a, b string }{
		{"16 << 20", "16 << 21"},
		{"0x10", "10"},
		{`"a"`, `"b"`},
		{"1e3", "1000"}, // a float is text
		{"9223372036854775807 + 1", "-9223372036854775808"},
		{"1 << 63", "-9223372036854775808"},
		{`','`, `';'`},
		{`'ab'`, `'a'`}, // not a rune: text
	} {
		va, _ := valueOf(tc.a)
		vb, _ := valueOf(tc.b)
		if va == vb {
			t.Errorf("%q and %q are one value %q: want two", tc.a, tc.b, va)
		}
	}
}

func TestParseCount(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"= 7": "= 7", "== 7": "= 7", ">= 1": ">= 1", "<=3": "<= 3", "= 1 each file": "= 1 each file"} {
		cs, ok := parseCount(in)
		if !ok || cs.String() != want {
			t.Errorf("%q: got %v %v, want %q", in, cs, ok, want)
		}
	}
	for _, in := range []string{"", "7", "= x", "> 3", "= -1", "=1 each"} {
		if _, ok := parseCount(in); ok {
			t.Errorf("%q parsed", in)
		}
	}
}

func TestParseWithin(t *testing.T) {
	t.Parallel()
	pats, why := parseWithin("`impl Transport` > each `fn [a-z]+\\(` > ``a`b``")
	if why != "" || len(pats) != 3 || pats[0].pattern != "impl Transport" || pats[0].each || !pats[1].each || pats[1].pattern != `fn [a-z]+\(` || pats[2].pattern != "a`b" {
		t.Fatalf("got %+v %q", pats, why)
	}
	if p, why := parseWithin("switch x"); why != "" || len(p) != 1 || p[0].pattern != "switch x" {
		t.Errorf("plain cell: %+v %q", p, why)
	}
	for _, bad := range []string{"`a` `b`", "`a` > b", "`a", "``", "`a` >"} {
		if _, why := parseWithin(bad); why == "" {
			t.Errorf("%q parsed", bad)
		}
	}
}

// FuzzValueOf: any text is read as a value without a panic, and a value
// read twice is the same.
func FuzzValueOf(f *testing.F) {
	for _, s := range []string{"16 << 20", "500_000", `r#"a"#`, "((((1))))", "0x_1", "1 MiB MiB", "- - -1", "9223372036854775807 * 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, ka := valueOf(s)
		b, kb := valueOf(s)
		if a != b || ka != kb {
			t.Fatalf("%q read twice: %q %s, %q %s", s, a, ka, b, kb)
		}
	})
}

// FuzzParseWithin: any Within cell parses or is refused with a reason.
func FuzzParseWithin(f *testing.F) {
	for _, s := range []string{"`a` > `b`", "each `x`", "``a`b``", "`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pats, why := parseWithin(s)
		if why == "" && len(pats) == 0 {
			t.Fatalf("%q: no pattern and no reason", s)
		}
	})
}

// TestChangeValue: the mutant of a value is another value of the same
// spelling, never the same one (a rune ',' used to become ','x, whose
// captured value did not change).
func TestChangeValue(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"42", "9", "abc", "Z", "','", `"."`, `""`, "''", "*", `'\\'`} {
		got := changeValue(v)
		a, _ := valueOf(v)
		b, _ := valueOf(got)
		if got == v || a == b {
			t.Errorf("changeValue(%q) = %q: the same value %q", v, got, a)
		}
		if (v[0] == '\'' || v[0] == '"') && got[0] != v[0] {
			t.Errorf("changeValue(%q) = %q: the quote changed", v, got)
		}
	}
}

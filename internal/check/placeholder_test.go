package check

import "testing"

func TestExpandPlaceholders(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		bad      bool
	}{
		{in: `{{range}}`, want: `D1\.\.D55`},
		{in: `D\({{n}}\|{{n-1}}\|`, want: `D\(55\|54\|`},
		{in: `D1\\\.\\\.D{{n}}`, want: `D1\\\.\\\.D55`},
		{in: `\{\{n\}\} {{x}}`, want: `\{\{n\}\} {{x}}`}, // not placeholders
		{in: `{{range-1}}`, bad: true},
	} {
		got, err := ExpandPlaceholders(tc.in, 55)
		if (err != nil) != tc.bad || !tc.bad && got != tc.want {
			t.Errorf("%q: %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	if _, err := ExpandPlaceholders(`{{n}}`, 0); err == nil {
		t.Error("{{n}} with no register id must be refused")
	}
	if _, err := ExpandPlaceholders(`{{n-3}}`, 3); err == nil {
		t.Error("{{n-3}} below D1 must be refused")
	}
}

// TestBumpLine: the range is rewritten, a knob's single id too, and an
// alternation of the newest ids grows, so no id drops out of it.
func TestBumpLine(t *testing.T) {
	for _, tc := range []struct {
		pat, line, want string
		next            int
	}{
		{`{{range}}`, "Product truth D1..D55 (D1..D55)", "Product truth D1..D56 (D1..D56)", 56},
		{`D1\\\.\\\.D{{n}}`, `RANGE_RE='D1\.\.D55'`, `RANGE_RE='D1\.\.D56'`, 56},
		{`D\({{n}}\|{{n-1}}\|`, "D(55|54|5[0-3])", "D(56|55|54|5[0-3])", 56},
		{`D\({{n}}\|{{n-1}}\|`, "D(55|54|5[0-3])", "D(57|56|55|54|5[0-3])", 57},
		{`D\\\({{n}}\\\|{{n-1}}\\\|`, `RANGE_ALT_RE='D\(55\|54\|'`, `RANGE_ALT_RE='D\(56\|55\|54\|'`, 56},
		{`{{range}}`, "frozen D1..D46", "frozen D1..D46", 56},
	} {
		re := captureRE(tc.pat, 55)
		if re == nil {
			t.Fatalf("%q: no pattern", tc.pat)
		}
		if got := string(bumpLine([]byte(tc.line), re, 55, tc.next)); got != tc.want {
			t.Errorf("%q on %q: %q, want %q", tc.pat, tc.line, got, tc.want)
		}
	}
}

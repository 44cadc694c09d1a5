package check

import (
	"bytes"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/claimslint/claimslint/internal/relimit"
)

func TestRequiredLiteral(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`func recoverID\(`, "func recoverID("},
		{`\bsym12\b`, "sym12"},
		{`case idRecovered:`, "case idRecovered:"},
		{`a|b`, ""},
		{`(?i)hello`, ""},
		{`x*`, ""},
		{`(foo)+bar`, "foo"},
		{`reply\(id\b`, "reply(id"},
		{`const maxLine\s*=\s*16`, "const maxLine"},
	} {
		if got := requiredLiteral(tc.in); got != tc.want {
			t.Errorf("requiredLiteral(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestExactLiteral: an anchor that is one literal string, possibly between
// ^ and $, is matched as bytes, and finds what its regular expression finds
// on every line.
func TestExactLiteral(t *testing.T) {
	lines := []string{"", "needle()", "x := needle() + needle()", "Needle()", "needle(", "é needle() é", "func recoverID(id string)", "a.b", "axb", "    pub fn len(&self) -> usize {", "pub fn len(&self) -> usize {", "needle()needle()"}
	for _, tc := range []struct {
		pat   string
		exact bool
	}{
		{`needle\(\)`, true},
		{`func recoverID\(`, true},
		{`a\.b`, true},
		{`é`, true},
		{`^needle\(\)$`, true},
		{`^needle`, true},
		{`needle\(\)$`, true},
		{`^    pub fn len\(&self\) -> usize \{$`, true},
		{`^pub fn len`, true},
		{`\{$`, true},
		{`a.b`, false},
		{`(?i)needle`, false},
		{`needle\b`, false},
		{`(?m)^needle`, false},
		{`^$`, false},
		{`^`, false},
		{`needle|x`, false},
		{`(needle)`, false}, // a capture is not simplified away: compiled
		{`needle(`, false},  // does not parse: compileRE reports it
	} {
		e, ok := exactLiteral(tc.pat)
		if ok != tc.exact {
			t.Errorf("exactLiteral(%q) = %+v, %v; want exact %v", tc.pat, e, ok, tc.exact)
			continue
		}
		if !ok {
			continue
		}
		re := regexp.MustCompile(tc.pat)
		spec := &lineSpec{exact: &e, pattern: tc.pat}
		for _, l := range lines {
			if got, want := spec.find([]byte(l)), re.FindIndex([]byte(l)); !reflect.DeepEqual(got, want) {
				t.Errorf("%q on %q: find = %v, regexp finds %v", tc.pat, l, got, want)
			}
			if got, want := spec.findString(l), re.FindStringIndex(l); !reflect.DeepEqual(got, want) {
				t.Errorf("%q on %q: findString = %v, regexp finds %v", tc.pat, l, got, want)
			}
			if got, want := spec.match([]byte(l)), re.MatchString(l); got != want {
				t.Errorf("%q on %q: match = %v, regexp %v", tc.pat, l, got, want)
			}
		}
		if spec.re().String() != tc.pat {
			t.Errorf("re() = %q, want the anchor %q", spec.re(), tc.pat)
		}
	}
}

// FuzzExactLiteral: whenever an anchor is taken as a literal, matching it
// as bytes finds what its regular expression finds, on any UTF-8 line.
func FuzzExactLiteral(f *testing.F) {
	f.Add(`needle\(\)`, "x := needle() + needle()")
	f.Add(`^pub fn len\(&self\)$`, "pub fn len(&self)")
	f.Add(`^a`, "ba")
	f.Add(`b$`, "bb")
	f.Add(`\Aé\z`, "é")
	f.Add(`\x{FFFD}`, "a\uFFFDb")
	f.Fuzz(func(t *testing.T, pat, line string) {
		e, ok := exactLiteral(pat)
		if !ok || !utf8.ValidString(line) {
			// The scan skips files that are not UTF-8; on one, regexp would
			// read a stray byte as U+FFFD where bytes do not.
			return
		}
		re, err := regexp.Compile(pat)
		if err != nil {
			t.Fatalf("%q is a literal but does not compile: %v", pat, err)
		}
		if got, want := e.find([]byte(line)), re.FindIndex([]byte(line)); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q on %q: find = %v, regexp finds %v", pat, line, got, want)
		}
	})
}

// TestPlainLiteral: the anchors read without a parse are the literals
// regexp.QuoteMeta writes, between an optional ^ and $; everything else is
// left to the parse.
func TestPlainLiteral(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		pat            string
		ok             bool
		text           string
		atStart, atEnd bool
	}{
		{`needle\(\)`, true, "needle()", false, false},
		{`^func Foo\(x int\) \{$`, true, "func Foo(x int) {", true, true},
		{"^" + regexp.QuoteMeta(`a.b*c?d+e|f[g]h{i}j^k$l\m`) + "$", true, `a.b*c?d+e|f[g]h{i}j^k$l\m`, true, true},
		{`a\$`, true, "a$", false, false},
		{`a\\$`, true, `a\`, false, true},
		{`é_x`, true, "é_x", false, false},
		{`\_`, true, "_", false, false},
		{`^`, false, "", false, false},
		{`^$`, false, "", false, false},
		{`$`, false, "", false, false},
		{`a.b`, false, "", false, false},
		{`a\b`, false, "", false, false},    // \b is a word boundary
		{`a\d`, false, "", false, false},    // a class
		{`a\ b`, false, "", false, false},   // a literal space, left to the parse
		{`a\`, false, "", false, false},     // does not parse
		{`^^a`, false, "", false, false},    // a second ^ is an assertion
		{`a$$`, false, "", false, false},    // so is a second $
		{`(?i)a`, false, "", false, false},  // flags
		{"a\xffb", false, "", false, false}, // not UTF-8: the parse refuses it
	} {
		e, ok := plainLiteral(tc.pat)
		if ok != tc.ok || ok && (string(e.text) != tc.text || e.atStart != tc.atStart || e.atEnd != tc.atEnd) {
			t.Errorf("plainLiteral(%q) = %q ^%v $%v, %v; want %q ^%v $%v, %v", tc.pat, e.text, e.atStart, e.atEnd, ok, tc.text, tc.atStart, tc.atEnd, tc.ok)
		}
	}
}

// FuzzPlainLiteral: whatever the parse-free reading takes for a literal,
// regexp/syntax's parse takes for the same literal, at the same ends.
func FuzzPlainLiteral(f *testing.F) {
	f.Add(`^func Foo\(x int\) \{$`)
	f.Add(`a\\$`)
	f.Add(`a\$`)
	f.Add(`é\.`)
	f.Add(`^\^\$$`)
	f.Fuzz(func(t *testing.T, pat string) {
		e, ok := plainLiteral(pat)
		if !ok {
			return
		}
		p, pok := parsedLiteral(pat)
		if !pok || !reflect.DeepEqual(e, p) {
			t.Fatalf("%q: plainLiteral = %+v, the parse says %+v, %v", pat, e, p, pok)
		}
	})
}

// TestLiteralsNeedNoSize: sizePatterns does not size a plain literal
// anchor, because none within MaxPattern is refused by its size.
func TestLiteralsNeedNoSize(t *testing.T) {
	t.Parallel()
	pat := "^" + strings.Repeat(`\(`, (MaxPattern-2)/2) + "$"
	if _, ok := plainLiteral(pat); !ok || len(pat) > MaxPattern {
		t.Fatalf("the longest plain literal is not one (%d bytes)", len(pat))
	}
	n, _, err := relimit.Size(pat, 0)
	if err != nil || relimit.Refusal(n, false) != "" || MaxPattern+6 > relimit.MaxInsts {
		t.Fatalf("a literal of %d bytes sizes to %d instructions (%v), over relimit.MaxInsts %d", len(pat), n, err, relimit.MaxInsts)
	}
}

// TestIndexLiteral: indexLiteral finds what bytes.Index finds: the first
// place, past indentation that occurs without the literal, in a file made
// to fail every check (the fallback), at the file's ends, and where the
// literal's rarest byte is last or repeated.
func TestIndexLiteral(t *testing.T) {
	t.Parallel()
	fail := strings.Repeat("    pub fn len(&self) -> usize }\n", 2000)
	for _, tc := range []struct{ s, lit string }{
		{"fn a() {\n    pub fn len(&self) -> usize {\n    pub fn len(&self) -> usize {\n", "    pub fn len(&self) -> usize {"},
		{"    pub fn len(&self) -> usize {", "    pub fn len(&self) -> usize {"},
		{"  pub fn x\n   pub fn x\n", "   pub fn x"},
		{"\tx\t\tx", "\t\tx"},
		{fail + "    pub fn len(&self) -> usize {\n", "    pub fn len(&self) -> usize {"},
		{fail, "    pub fn len(&self) -> usize {"},
		{"x", "    x"},
		{"     ", "    "},
		{strings.Repeat(" ", 20) + "x", strings.Repeat(" ", 17) + "x"},
		{"", " x"},
		{"Qa Qb aQ", "aQ"},           // the rarest byte last
		{"eeeQ", "eeeQQ"},            // a candidate whose literal runs past the end
		{"ab\xffcd ab\xff", "b\xff"}, // a byte no source counts, found at once
		{"zzzz", "zz"},
	} {
		if got, want := indexLiteral([]byte(tc.s), []byte(tc.lit)), bytes.Index([]byte(tc.s), []byte(tc.lit)); got != want {
			t.Errorf("indexLiteral(%.40q, %q) = %d, bytes.Index %d", tc.s, tc.lit, got, want)
		}
	}
}

// FuzzIndexLiteral: indexLiteral is bytes.Index.
func FuzzIndexLiteral(f *testing.F) {
	f.Add([]byte("  a\n    ab\n    abc"), []byte("    ab"))
	f.Add([]byte("\t\t x y"), []byte("\t x"))
	f.Fuzz(func(t *testing.T, s, lit []byte) {
		if got, want := indexLiteral(s, lit), bytes.Index(s, lit); got != want {
			t.Fatalf("indexLiteral(%q, %q) = %d, bytes.Index %d", s, lit, got, want)
		}
	})
}

// TestCommonBytes: commonBytes lists each byte once, the blanks among
// them, so byteRank orders every byte it names.
func TestCommonBytes(t *testing.T) {
	t.Parallel()
	seen := map[byte]bool{}
	for i := range len(commonBytes) {
		if c := commonBytes[i]; seen[c] {
			t.Errorf("commonBytes lists %q twice", c)
		} else {
			seen[c] = true
		}
	}
	if int(byteRank[' ']) != len(commonBytes) || byteRank['\t'] == 0 || byteRank['\n'] == 0 || byteRank[0x80] != 0 {
		t.Errorf("byteRank: ' ' %d, tab %d, newline %d, 0x80 %d", byteRank[' '], byteRank['\t'], byteRank['\n'], byteRank[0x80])
	}
}

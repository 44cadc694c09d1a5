package check

import (
	"reflect"
	"regexp"
	"testing"
	"unicode/utf8"
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

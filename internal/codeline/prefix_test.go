package codeline

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
)

// clipped returns the regions of rs that start before cut, cut there.
func clipped(rs []Region, cut int) []Region {
	var out []Region
	for _, r := range rs {
		if r.Start >= cut {
			break
		}
		r.End = min(r.End, cut)
		out = append(out, r)
	}
	return out
}

// prefixDiffers returns why reading src only up to the end of the line
// after the one that ends at keep (ScanPrefix's cut) differs, for the
// bytes before keep, from reading it whole; "" when it does not. A second
// reading (Regions.Other) the whole file has and the prefix not must read
// the prefix as the first reading does.
func prefixDiffers(name string, src []byte, keep int) string {
	var whole, part Regions
	Scan(name, src, &whole)
	ScanPrefix(name, src, keep, &part)
	if why := regionsDiffer(&whole, &part, keep); why != "" {
		return why
	}
	wo, po := whole.Other(), part.Other()
	switch {
	case wo == nil && po == nil:
		return ""
	case wo == nil:
		return "the prefix has a second reading, the whole file none"
	case po == nil:
		return regionsDiffer(wo, &part, keep)
	}
	return regionsDiffer(wo, po, keep)
}

// regionsDiffer says how p differs from w before cut, or "".
func regionsDiffer(w, p *Regions, cut int) string {
	if a, b := clipped(w.Spans, cut), clipped(p.Spans, cut); !slices.Equal(a, b) {
		return fmt.Sprintf("spans %v, read whole %v", b, a)
	}
	if a, b := clipped(w.Tests, cut), clipped(p.Tests, cut); !slices.Equal(a, b) {
		return fmt.Sprintf("tests %v, read whole %v", b, a)
	}
	return ""
}

// lexerSamples are one file name per lexer.
var lexerSamples = []string{"a.go", "a.rs", "a_test.go", "a.c", "a.py", "a.rb", "a.js", "a.sh"}

// FuzzScanPrefix: what a lexer reads of a file's first lines when it is
// given them and one line more is what it reads of them in the whole
// file, in both readings: check lexes a file only as far as the lines
// its claims can match (D92).
func FuzzScanPrefix(f *testing.F) {
	for _, s := range []string{"x := 1 // c\n/* a\nb */ y\n", "s = <<EOF\nx\nEOF\ny\n", "r#\"a\n\"#\nx\n", "'''\na\n'''\n",
		"#[cfg(test)]\nmod t {\nfn a() {}\n}\n", "a / b\n/re/.test(x)\n", "x = `a\n${b}\n`\n", "def f():\n    \"\"\"d\n    \"\"\"\n"} {
		for i := range lexerSamples {
			f.Add(uint8(i), s, uint16(1))
		}
	}
	f.Fuzz(func(t *testing.T, lexer uint8, src string, line uint16) {
		name := lexerSamples[int(lexer)%len(lexerSamples)]
		b := []byte(src)
		keep, n := 0, 0
		for keep < len(b) && n < int(line) {
			i := bytes.IndexByte(b[keep:], '\n')
			if i < 0 {
				keep = len(b)
				break
			}
			keep += i + 1
			n++
		}
		if why := prefixDiffers(name, b, keep); why != "" {
			t.Fatalf("%s, %q kept to %d: %s", name, src, keep, why)
		}
	})
}

package codeline

import (
	"bytes"
	"testing"
)

// FuzzMaskLine: masking one line gives the bytes masking the whole file
// gives for that line, in every language family.
func FuzzMaskLine(f *testing.F) {
	for _, seed := range []struct{ name, src string }{
		{"a.go", "package a\n\n// c\nvar s = `x\ny\nz` // t\nfunc f() {} /* b\nc */ x()\n"},
		{"a.rs", "/* a /* nested */ b\n*/ fn f() { r#\"x\ny\"#; } // c\n#[cfg(test)]\nmod tests { fn t() {} }\n"},
		{"a.py", "s = \"\"\"\nSELECT 1\n\"\"\"  # needle()\ndef f():\n    '''doc\n    more'''\n"},
		{"a.sh", "cat <<EOF\nx # y\nEOF\necho $# # c\n"},
		{"a.md", "text <!-- c\nd --> e\n"},
	} {
		f.Add(seed.name, []byte(seed.src))
	}
	f.Fuzz(func(t *testing.T, name string, src []byte) {
		var r Regions
		Scan(name, src, &r)
		whole := r.MaskTo(nil, src)
		for start := 0; start <= len(src); {
			end := bytes.IndexByte(src[start:], '\n')
			if end < 0 {
				end = len(src)
			} else {
				end += start
			}
			if got := r.MaskLine(nil, src, start, end); !bytes.Equal(got, whole[start:end]) {
				t.Fatalf("%s: line at %d: MaskLine %q, MaskTo %q", name, start, got, whole[start:end])
			}
			start = end + 1
		}
	})
}

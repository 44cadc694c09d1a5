package codeline

import (
	"bytes"
	"strings"
)

// goSpecial marks the bytes that can open a Go comment or literal.
var goSpecial = table("/\"'`")

// skip returns the index of the first byte at or after i that t holds,
// or len(src). Four bytes a step: most bytes of a file are not special.
func skip(src []byte, i int, t *[256]bool) int {
	for ; i+4 <= len(src); i += 4 {
		b := src[i : i+4 : i+4]
		if t[b[0]] || t[b[1]] || t[b[2]] || t[b[3]] {
			break
		}
	}
	for i < len(src) && !t[src[i]] {
		i++
	}
	return i
}

// table returns a 256-entry set of the bytes of s.
func table(s string) *[256]bool {
	var t [256]bool
	for i := 0; i < len(s); i++ {
		t[s[i]] = true
	}
	return &t
}

// scanGo reads Go source as go/scanner does: `//` comments to the end of
// the line, `/* */` comments (unterminated ones to the end of the file),
// interpreted strings and rune literals that end at their quote or before
// a newline, and raw strings. `//go:` directives are comments, as
// go/scanner reports them. A file named *_test.go is one test region.
func scanGo(src []byte, r *Regions) {
	n := len(src)
	for i := 0; i < n; {
		if i = skip(src, i, goSpecial); i >= n {
			break
		}
		switch src[i] {
		case '/':
			if i+1 < n && src[i+1] == '/' {
				e := lineEnd(src, i+2)
				r.add(Comment, i, e)
				i = e
				continue
			}
			if i+1 < n && src[i+1] == '*' {
				e := closeEnd(src, i+2, "*/")
				r.add(Comment, i, e)
				i = e
				continue
			}
			i++
		case '"', '\'':
			e := goQuoted(src, i)
			r.add(String, i, e)
			i = e
		case '`':
			e := bytes.IndexByte(src[i+1:], '`')
			if e < 0 {
				e = n
			} else {
				e += i + 2
			}
			r.add(String, i, e)
			i = e
		}
	}
}

// goQuoted returns the end of the interpreted string or rune literal that
// opens at i: just past its closing quote, or at the newline or end of
// file that leaves it unterminated. As in go/scanner, a backslash escapes
// the byte after it unless that byte is a newline.
func goQuoted(src []byte, i int) int {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case q:
			return j + 1
		case '\n':
			return j
		case '\\':
			if j+1 < len(src) && src[j+1] != '\n' {
				j++
			}
		}
	}
	return len(src)
}

// isGoTest reports whether a Go file is a test file by its name.
func isGoTest(name string) bool { return strings.HasSuffix(name, "_test.go") }

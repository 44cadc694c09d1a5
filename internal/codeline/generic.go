package codeline

import (
	"bytes"
	"strings"
)

// syntax describes the comment forms of a language the package has no
// lexer of its own for (CSS, PHP, Ruby, Perl, Makefiles, INI, Lua,
// Haskell ...): line and block comments, and single-line strings.
type syntax struct {
	line   []string // line-comment openers
	blockO string   // block-comment opener
	blockC string   // block-comment closer
	quotes string   // string delimiters whose contents are never comments
	// hashWord: '#' opens a comment only at the start of a word (shell's
	// `$#` and `${#x}` are not comments).
	hashWord bool
}

var (
	hashSyntax = &syntax{line: []string{"#"}, quotes: "\"'", hashWord: true}
	dashSyntax = &syntax{line: []string{"--"}, blockO: "/*", blockC: "*/", quotes: "'\""}
	cssSyntax  = &syntax{blockO: "/*", blockC: "*/", quotes: "\"'"}
	phpSyntax  = &syntax{line: []string{"//", "#"}, blockO: "/*", blockC: "*/", quotes: "\"'"}
)

// scanGeneric reads src by s: a string ends at its closing quote or, when
// unterminated, at the end of its line, so one stray apostrophe cannot hide
// the rest of the file.
func scanGeneric(src []byte, r *Regions, s *syntax) {
	i, n := 0, len(src)
	for i < n {
		c := src[i]
		switch {
		case s.blockO != "" && hasAt(src, i, s.blockO):
			end := indexFrom(src, i+len(s.blockO), s.blockC)
			if end < 0 {
				end = n
			} else {
				end += len(s.blockC)
			}
			r.add(Comment, i, end)
			i = end
		case isLineOpener(s, src, i):
			end := lineEnd(src, i)
			r.add(Comment, i, end)
			i = end
		case strings.IndexByte(s.quotes, c) >= 0:
			end := skipLineString(src, i, c)
			r.add(String, i, end)
			i = end
		default:
			i++
		}
	}
}

func isLineOpener(s *syntax, src []byte, i int) bool {
	for _, o := range s.line {
		if !hasAt(src, i, o) {
			continue
		}
		if o == "#" && s.hashWord && i > 0 {
			p := src[i-1]
			if p != ' ' && p != '\t' && p != '\n' && p != ';' && p != '\r' {
				return false
			}
		}
		return true
	}
	return false
}

// skipLineString returns the index just past the string literal opened at
// i, or the end of its line when it is not closed on it.
func skipLineString(src []byte, i int, q byte) int {
	j := i + 1
	for j < len(src) {
		switch src[j] {
		case '\\':
			j += 2
			continue
		case q:
			return j + 1
		case '\n':
			return j
		}
		j++
	}
	return len(src)
}

func hasAt(src []byte, i int, s string) bool {
	return len(src)-i >= len(s) && string(src[i:i+len(s)]) == s
}

// indexFrom returns the index of s in src at or after from, or -1.
func indexFrom(src []byte, from int, s string) int {
	if from > len(src) {
		return -1
	}
	k := bytes.Index(src[from:], []byte(s))
	if k < 0 {
		return -1
	}
	return from + k
}

// closeEnd returns the index just past the first closer at or after from,
// or len(src) when the construct is never closed (it runs to the end).
func closeEnd(src []byte, from int, closer string) int {
	if e := indexFrom(src, from, closer); e >= 0 {
		return e + len(closer)
	}
	return len(src)
}

// lineEnd returns the index of the newline at or after i, or len(src).
func lineEnd(src []byte, i int) int {
	if i >= len(src) {
		return len(src)
	}
	k := bytes.IndexByte(src[i:], '\n')
	if k < 0 {
		return len(src)
	}
	return i + k
}

func isIdent(c byte) bool {
	return c == '_' || c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

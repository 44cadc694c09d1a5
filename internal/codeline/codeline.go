// Package codeline separates code from comments, so that a claim is never
// satisfied by a doc comment that merely mentions its token.
//
// Mask returns a copy of a file in which every comment byte is replaced by a
// space (newlines are kept), so line and column numbers stay valid and a
// pattern can be matched against code only. Go is masked exactly with
// go/scanner; other languages by their comment syntax, chosen by file
// extension, with string literals respected.
package codeline

import (
	"bytes"
	"go/scanner"
	"go/token"
	"path"
	"strings"
)

// syntax describes the comment forms of one language family.
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
	cLike    = &syntax{line: []string{"//"}, blockO: "/*", blockC: "*/", quotes: "\"'`"}
	hash     = &syntax{line: []string{"#"}, quotes: "\"'", hashWord: true}
	dashDash = &syntax{line: []string{"--"}, blockO: "/*", blockC: "*/", quotes: "'\""}
	markup   = &syntax{blockO: "<!--", blockC: "-->"}
	css      = &syntax{blockO: "/*", blockC: "*/", quotes: "\"'"}
	php      = &syntax{line: []string{"//", "#"}, blockO: "/*", blockC: "*/", quotes: "\"'"}
)

var byExt = map[string]*syntax{
	".c": cLike, ".h": cLike, ".cc": cLike, ".cpp": cLike, ".cxx": cLike, ".hpp": cLike, ".hh": cLike,
	".java": cLike, ".js": cLike, ".mjs": cLike, ".cjs": cLike, ".jsx": cLike, ".ts": cLike, ".tsx": cLike,
	".rs": cLike, ".swift": cLike, ".kt": cLike, ".kts": cLike, ".scala": cLike, ".cs": cLike,
	".proto": cLike, ".dart": cLike, ".zig": cLike, ".jsonc": cLike,
	".css": css, ".scss": cLike, ".less": cLike,
	".php": php,
	".sh":  hash, ".bash": hash, ".zsh": hash, ".ksh": hash, ".py": hash, ".rb": hash, ".pl": hash,
	".yml": hash, ".yaml": hash, ".toml": hash, ".mk": hash, ".r": hash, ".tf": hash, ".cfg": hash,
	".conf": hash, ".ini": hash, ".nix": hash, ".ps1": hash, ".awk": hash, ".cmake": hash,
	".sql": dashDash, ".lua": dashDash, ".hs": dashDash,
	".md": markup, ".markdown": markup, ".html": markup, ".htm": markup, ".xml": markup, ".svg": markup,
}

var byName = map[string]*syntax{
	"Makefile": hash, "GNUmakefile": hash, "Dockerfile": hash, "Containerfile": hash,
	"Gemfile": hash, "Rakefile": hash, "Jenkinsfile": cLike, ".gitignore": hash, ".gitattributes": hash,
	"go.mod": cLike, "go.work": cLike,
}

// Language names the comment syntax Mask applies to name: "go", "c",
// "hash", "dash", "markup", "css", "php" or "none".
func Language(name string) string {
	if strings.HasSuffix(name, ".go") {
		return "go"
	}
	switch syntaxFor(name, nil) {
	case cLike:
		return "c"
	case hash:
		return "hash"
	case dashDash:
		return "dash"
	case markup:
		return "markup"
	case css:
		return "css"
	case php:
		return "php"
	}
	return "none"
}

func syntaxFor(name string, src []byte) *syntax {
	base := path.Base(name)
	if s, ok := byName[base]; ok {
		return s
	}
	if s, ok := byExt[strings.ToLower(path.Ext(base))]; ok {
		return s
	}
	// An extension-less script is known by its shebang.
	if path.Ext(base) == "" && len(src) > 2 && src[0] == '#' && src[1] == '!' {
		return hash
	}
	return nil
}

// Mask returns src with every comment byte of the language of name replaced
// by a space. Files of unknown languages are returned unchanged: all their
// lines are code.
func Mask(name string, src []byte) []byte {
	if strings.HasSuffix(name, ".go") {
		return maskGo(src)
	}
	s := syntaxFor(name, src)
	if s == nil {
		return src
	}
	return maskGeneric(s, src)
}

func blank(out []byte, from, to int) {
	for i := from; i < to && i < len(out); i++ {
		if out[i] != '\n' && out[i] != '\r' {
			out[i] = ' '
		}
	}
}

func maskGo(src []byte) []byte {
	out := append([]byte(nil), src...)
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	// Errors are ignored: a file that does not compile is still scanned
	// token by token, and its comments are still comments.
	s.Init(file, src, func(token.Position, string) {}, scanner.ScanComments)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.COMMENT {
			off := file.Offset(pos)
			blank(out, off, off+len(lit))
		}
	}
	return out
}

func maskGeneric(s *syntax, src []byte) []byte {
	out := append([]byte(nil), src...)
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
			blank(out, i, end)
			i = end
		case isLineOpener(s, src, i):
			end := indexFrom(src, i, "\n")
			if end < 0 {
				end = n
			}
			blank(out, i, end)
			i = end
		case strings.IndexByte(s.quotes, c) >= 0:
			i = skipString(src, i, c)
		default:
			i++
		}
	}
	return out
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

// skipString returns the index just past the string literal opened at i. A
// string ends at its closing quote or, for unterminated literals, at the end
// of the line, so one stray apostrophe in a shell comment-free line cannot
// hide the rest of the file.
func skipString(src []byte, i int, q byte) int {
	j := i + 1
	for j < len(src) {
		switch src[j] {
		case '\\':
			j += 2
			continue
		case q:
			return j + 1
		case '\n':
			if q != '`' {
				return j
			}
		}
		j++
	}
	return len(src)
}

func hasAt(src []byte, i int, s string) bool {
	return len(src)-i >= len(s) && string(src[i:i+len(s)]) == s
}

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

// LineComment returns the line-comment opener of name's language ("//",
// "#", "--"), and false for languages without one (Markdown, CSS).
func LineComment(name string) (string, bool) {
	if strings.HasSuffix(name, ".go") {
		return "//", true
	}
	s := syntaxFor(name, nil)
	if s == nil || len(s.line) == 0 {
		return "", false
	}
	return s.line[0], true
}

package codeline

import "bytes"

// dialect is what sets apart the members of the C family.
type dialect struct {
	special *[256]bool
	// charLit: ' opens a char literal (C, C++, Java); otherwise a string
	// (JavaScript, TypeScript and the rest).
	charLit bool
	// template: ` opens a template literal whose ${…} holes are code
	// (JavaScript, TypeScript); backtick: ` opens a string that may span
	// lines (the other languages of the family, as before the lexers).
	template, backtick bool
	// regex: a / where an operand is expected opens a regular expression
	// literal (JavaScript, TypeScript).
	regex bool
	// textBlock: """ opens a string that may span lines (Java, Kotlin,
	// Swift, Scala, C#).
	textBlock bool
	// raw: R"delim( … )delim" raw strings (C++).
	raw bool
	// digitSep: ' between digits separates them (C++14, C23).
	digitSep bool
}

var (
	cDialect     = &dialect{special: table("/\"'"), charLit: true, digitSep: true}
	cppDialect   = &dialect{special: table("/\"'"), charLit: true, raw: true, digitSep: true}
	javaDialect  = &dialect{special: table("/\"'"), charLit: true, textBlock: true}
	jsDialect    = &dialect{special: table("/\"'`"), template: true, regex: true}
	clikeDialect = &dialect{special: table("/\"'`"), backtick: true, textBlock: true}
	// jsHole adds the braces that end a template literal's ${…} hole.
	jsHole = table("/\"'`{}")
)

// maxNest bounds the nesting of template holes; deeper input is read as
// one string.
const maxNest = 200

// scanC reads a member of the C family: `//` and `/* */` comments, and the
// dialect's string, char, template, regular-expression and raw literals.
func scanC(src []byte, r *Regions, d *dialect) {
	cCode(src, 0, r, d, false, 0)
}

// cCode reads code from i. In a template hole (hole) it stops after the
// '}' that closes the hole and returns the index after it; otherwise it
// reads to the end of src.
func cCode(src []byte, i int, r *Regions, d *dialect, hole bool, nest int) int {
	n := len(src)
	special := d.special
	depth := 0
	if hole {
		special = jsHole
	}
	for i < n {
		if i = skip(src, i, special); i >= n {
			break
		}
		switch c := src[i]; c {
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
			if d.regex && regexAllowed(src, i) {
				e := regexEnd(src, i)
				r.add(String, i, e)
				i = e
				continue
			}
			i++
		case '"':
			if d.textBlock && hasAt(src, i, `"""`) {
				e := indexFrom(src, i+3, `"""`)
				for e > 0 && backslashed(src, e) {
					e = indexFrom(src, e+1, `"""`)
				}
				if e < 0 {
					e = n
				} else {
					e += 3
				}
				r.add(String, i, e)
				i = e
				continue
			}
			if d.raw && i > 0 && src[i-1] == 'R' {
				if e := cppRaw(src, i); e > 0 {
					r.add(String, i-1, e)
					i = e
					continue
				}
			}
			e := cQuoted(src, i)
			r.add(String, i, e)
			i = e
		case '\'':
			if d.digitSep && i > 0 && isDigitSep(src, i) {
				i++
				continue
			}
			e := cQuoted(src, i)
			r.add(String, i, e)
			i = e
		case '`':
			if d.template {
				if nest >= maxNest {
					r.add(String, i, n)
					return n
				}
				i = template(src, i, r, d, nest+1)
				continue
			}
			e := bytes.IndexByte(src[i+1:], '`')
			if e < 0 {
				e = n
			} else {
				e += i + 2
			}
			r.add(String, i, e)
			i = e
		case '{':
			depth++
			i++
		case '}':
			i++
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return n
}

// template reads the template literal at i: its text is string, each
// ${…} hole code. It returns the index after the closing backtick.
func template(src []byte, i int, r *Regions, d *dialect, nest int) int {
	n := len(src)
	start := i
	for j := i + 1; j < n; j++ {
		switch src[j] {
		case '\\':
			j++
		case '`':
			r.add(String, start, j+1)
			return j + 1
		case '$':
			if j+1 < n && src[j+1] == '{' {
				r.add(String, start, j+2)
				j = cCode(src, j+2, r, d, true, nest)
				if j >= n {
					return n
				}
				// The '}' that closed the hole starts the next piece.
				start = j - 1
				j--
			}
		}
	}
	r.add(String, start, n)
	return n
}

// cQuoted returns the end of the string or char literal at i: past its
// closing quote, or at the newline (not escaped) that leaves it
// unterminated.
func cQuoted(src []byte, i int) int {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case q:
			return j + 1
		case '\n':
			return j
		case '\\':
			j++
			if j+1 < len(src) && src[j] == '\r' && src[j+1] == '\n' {
				j++
			}
		}
	}
	return len(src)
}

// backslashed reports whether the byte at i follows an odd run of
// backslashes.
func backslashed(src []byte, i int) bool {
	k := i - 1
	for k >= 0 && src[k] == '\\' {
		k--
	}
	return (i-1-k)%2 == 1
}

// cppRaw returns the end of the C++ raw string R"delim( … )delim" whose
// quote is at i, or 0 when it is not one.
func cppRaw(src []byte, i int) int {
	if i >= 2 && isIdent(src[i-2]) && !(src[i-2] == 'u' || src[i-2] == 'U' || src[i-2] == 'L' || src[i-2] == '8') {
		return 0
	}
	p := i + 1
	for p < len(src) && p < i+18 && src[p] != '(' {
		if c := src[p]; c == ' ' || c == ')' || c == '\\' || c == '\n' || c == '"' {
			return 0
		}
		p++
	}
	if p >= len(src) || src[p] != '(' {
		return 0
	}
	delim := src[i+1 : p]
	for j := p + 1; j < len(src); j++ {
		if src[j] == ')' && bytes.HasPrefix(src[j+1:], delim) && j+1+len(delim) < len(src) && src[j+1+len(delim)] == '"' {
			return j + 2 + len(delim)
		}
	}
	return len(src)
}

// isDigitSep reports whether the quote at i separates digits: it follows
// a hex digit of a number and precedes one.
func isDigitSep(src []byte, i int) bool {
	if i+1 >= len(src) || !isHex(src[i+1]) || !isHex(src[i-1]) {
		return false
	}
	// The word before the quote must be a number, not a prefix like u8.
	k := i - 1
	for k > 0 && (isIdent(src[k-1]) || src[k-1] == '\'') {
		k--
	}
	return '0' <= src[k] && src[k] <= '9'
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// regexAllowed reports whether a '/' at i stands where an operand is
// expected, so it opens a regular expression rather than dividing: after
// an operator, an opening bracket, a comma or semicolon, a keyword such as
// return, or at the start of the file.
func regexAllowed(src []byte, i int) bool {
	k := i - 1
	for k >= 0 && (src[k] == ' ' || src[k] == '\t' || src[k] == '\n' || src[k] == '\r') {
		k--
	}
	if k < 0 {
		return true
	}
	switch c := src[k]; {
	case bytes.IndexByte([]byte("(,=:[!&|?{};+-*%<>~^"), c) >= 0:
		return true
	case isIdent(c):
		e := k + 1
		for k >= 0 && isIdent(src[k]) {
			k--
		}
		switch string(src[k+1 : e]) {
		case "return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "yield", "await", "instanceof":
			return true
		}
	}
	return false
}

// regexEnd returns the end of the regular expression literal at i: past
// its closing '/' and flags, or at the end of its line.
func regexEnd(src []byte, i int) int {
	class := false
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '[':
			class = true
		case ']':
			class = false
		case '/':
			if !class {
				j++
				for j < len(src) && isIdent(src[j]) {
					j++
				}
				return j
			}
		case '\n':
			return j
		}
	}
	return len(src)
}

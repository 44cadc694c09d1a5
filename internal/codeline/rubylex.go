package codeline

import "bytes"

var (
	rbSpecial = table("#'\"`%<?/=$\\{}")
	// rbPending adds the newline at which pending here-documents start.
	rbPending = table("#'\"`%<?/=$\\{}\n")
)

// rbHeredoc is a Ruby here-document whose body starts at the next newline.
type rbHeredoc struct {
	delim  []byte
	indent bool // <<~ and <<-: the terminator may be indented
	interp bool // not single-quoted: #{…} holes are code
}

// scanRuby reads Ruby: `#` comments, =begin/=end blocks, '…' strings, and
// "…", `…`, /…/ and %-literals (%q %Q %w %W %i %I %r %x %(…)) whose #{…}
// holes are code, here-documents (<<~ID, <<-ID, <<ID, quoted or not),
// char literals (?x). A / or % after a method name with a blank before it
// and none after (`puts %(x)`, `a /b/`) is a literal or an operator by
// whether the name is a local variable, which is not known here: the file
// is read both ways (Regions.Other), a literal first.
func scanRuby(src []byte, r *Regions) {
	rbCode(src, 0, r, false, 0)
}

// rbCode reads Ruby code from i; in a hole (hole) it stops after the '}'
// that closes it and returns the index after it.
func rbCode(src []byte, i int, r *Regions, hole bool, nest int) int {
	n := len(src)
	special := rbSpecial
	var pending []rbHeredoc
	depth := 0
	for i < n {
		if i = skip(src, i, special); i >= n {
			break
		}
		switch c := src[i]; c {
		case '\\':
			i += 2
		case '\n':
			i++
			for _, h := range pending {
				i = rbHeredocBody(src, i, h, r, nest)
			}
			pending = pending[:0]
			special = rbSpecial
		case '#':
			e := lineEnd(src, i)
			r.add(Comment, i, e)
			i = e
		case '=':
			if (i == 0 || src[i-1] == '\n') && hasAt(src, i, "=begin") && (i+6 >= n || !isIdent(src[i+6])) {
				e := rbBlockCommentEnd(src, i+6)
				r.add(Comment, i, e)
				i = e
				continue
			}
			i++
		case '\'':
			e := rbQuoted(src, i+1, '\'', 0)
			r.add(String, i, e)
			i = e
		case '"', '`':
			i = rbString(src, i, i+1, c, 0, r, nest)
		case '$':
			// $' $" $` $/ … are global variables, not quotes.
			i += 2
		case '?':
			if e, ok := rbCharLiteral(src, i, r); ok {
				r.add(String, i, e)
				i = e
				continue
			}
			i++
		case '/':
			if rbOperand(src, i, r) == rbLiteral {
				i = rbString(src, i, i+1, '/', 0, r, nest)
				continue
			}
			i++
		case '%':
			if e := rbPercent(src, i, r, nest); e > 0 {
				i = e
				continue
			}
			i++
		case '<':
			if h, e, ok := rbHeredocAt(src, i, r); ok {
				pending = append(pending, h)
				special = rbPending
				i = e
				continue
			}
			i++
		case '{':
			depth++
			i++
		case '}':
			i++
			if hole && depth == 0 {
				return i
			}
			if depth > 0 {
				depth--
			}
		}
	}
	return n
}

// rbCharLiteral reports whether the ? at i opens a character literal
// (?a, ?\n) where an operand is expected, and where it ends.
func rbCharLiteral(src []byte, i int, r *Regions) (int, bool) {
	n := len(src)
	if i+2 > n || rbOperand(src, i, r) != rbLiteral || src[i+1] == ' ' || src[i+1] == '\n' || src[i+1] == '\t' {
		return 0, false
	}
	e := i + 2
	if src[i+1] == '\\' {
		e = min(i+3, n)
	}
	return e, e >= n || !isIdent(src[e])
}

// rbBlockCommentEnd returns the end of the line "=end" that closes a
// =begin block whose text starts at i, or the end of src.
func rbBlockCommentEnd(src []byte, i int) int {
	for j := lineEnd(src, i); j < len(src); j = lineEnd(src, j+1) {
		if hasAt(src, j+1, "=end") && (j+5 >= len(src) || !isIdent(src[j+5])) {
			return lineEnd(src, j+1)
		}
	}
	return len(src)
}

// What a / % ? or << at some offset is, by the token before it.
const (
	rbOperator = iota
	rbLiteral
)

// rbOperand reports whether the byte at i stands where an operand is
// expected (rbLiteral) or after one (rbOperator).
func rbOperand(src []byte, i int, r *Regions) int {
	k := i - 1
	for k >= 0 && (src[k] == ' ' || src[k] == '\t') {
		k--
	}
	if k < 0 || src[k] == '\n' {
		return rbLiteral
	}
	switch c := src[k]; {
	case bytes.IndexByte([]byte("(,=[!&|{;+-*%<>~^:?"), c) >= 0:
		return rbLiteral
	case isIdent(c):
		e := k + 1
		for k >= 0 && isIdent(src[k]) {
			k--
		}
		if k >= 0 && (src[k] == '.' || src[k] == '@' || src[k] == '$') {
			return rbOperator // a method call or a variable, never a keyword
		}
		w := string(src[k+1 : e])
		switch w {
		case "if", "unless", "while", "until", "and", "or", "not", "return", "when", "case", "then", "else", "elsif", "do", "in", "yield", "puts", "print", "p":
			return rbLiteral
		}
		if '0' <= w[0] && w[0] <= '9' || 'A' <= w[0] && w[0] <= 'Z' {
			return rbOperator // a number or a constant
		}
		// `name /x/` and `name %(x)`: a method call's argument, or a
		// local variable divided: Ruby decides by whether name is a local
		// variable. Read both ways.
		if e < i && i+1 < len(src) && src[i+1] != ' ' && src[i+1] != '=' {
			if !r.choose() {
				return rbLiteral
			}
		}
	}
	return rbOperator
}

// rbPercent reads a %-literal at i and returns its end, or 0 when the %
// is an operator.
func rbPercent(src []byte, i int, r *Regions, nest int) int {
	n := len(src)
	j := i + 1
	interp := true
	if j < n {
		switch src[j] {
		case 'q', 'w', 'i', 's':
			interp = false
			j++
		case 'Q', 'W', 'I', 'r', 'x':
			j++
		}
	}
	if j >= n {
		return 0
	}
	open := src[j]
	if isIdent(open) || open == ' ' || open == '\n' || open == '\t' || open == '\r' || open == '=' && j == i+1 {
		return 0
	}
	if rbOperand(src, i, r) != rbLiteral {
		return 0
	}
	closeq := open
	switch open {
	case '(':
		closeq = ')'
	case '[':
		closeq = ']'
	case '{':
		closeq = '}'
	case '<':
		closeq = '>'
	}
	if !interp {
		e := rbQuoted(src, j+1, closeq, open)
		r.add(String, i, e)
		return e
	}
	return rbString(src, i, j+1, closeq, open, r, nest)
}

// rbQuoted returns the end of a literal without holes whose text starts
// at j and closes on q (nesting open when it is a bracket).
func rbQuoted(src []byte, j int, q, open byte) int {
	depth := 0
	for ; j < len(src); j++ {
		switch c := src[j]; {
		case c == '\\':
			j++
		case c == q && depth == 0:
			return j + 1
		case c == q:
			depth--
		case open != 0 && open != q && c == open:
			depth++
		}
	}
	return len(src)
}

// rbString reads a literal that opened at start, whose text starts at j
// and closes on q (nesting open when it is a bracket): its text is
// string, its #{…} holes code. It returns the index after the literal.
func rbString(src []byte, start, j int, q, open byte, r *Regions, nest int) int {
	n := len(src)
	from := start
	depth := 0
	for ; j < n; j++ {
		switch c := src[j]; {
		case c == '\\':
			j++
		case c == q && depth == 0:
			e := j + 1
			if q == '/' {
				for e < n && isIdent(src[e]) {
					e++ // flags
				}
			}
			r.add(String, from, e)
			return e
		case c == q:
			depth--
		case open != 0 && open != q && c == open:
			depth++
		case c == '#' && j+1 < n && src[j+1] == '{':
			r.add(String, from, j+2)
			if nest >= maxNest {
				r.add(String, j+2, n)
				return n
			}
			j = rbCode(src, j+2, r, true, nest+1)
			if j >= n {
				return n
			}
			// The '}' that closed the hole starts the next piece.
			from = j - 1
			j--
		}
	}
	r.add(String, from, n)
	return n
}

// rbHeredocAt reads a here-document operator at i (<<~ID, <<-ID, <<ID,
// with ID quoted or not) and returns it and where it ends. << after an
// operand is a shift or an append, unless ~ or - and a word follow it.
func rbHeredocAt(src []byte, i int, r *Regions) (rbHeredoc, int, bool) {
	n := len(src)
	if i+2 >= n || src[i+1] != '<' {
		return rbHeredoc{}, 0, false
	}
	j := i + 2
	var h rbHeredoc
	h.interp = true
	if src[j] == '~' || src[j] == '-' {
		h.indent = true
		j++
	} else if rbOperand(src, i, r) != rbLiteral {
		return rbHeredoc{}, 0, false
	}
	if j >= n {
		return rbHeredoc{}, 0, false
	}
	switch q := src[j]; q {
	case '\'', '"', '`':
		e := bytes.IndexByte(src[j+1:], q)
		if e <= 0 || bytes.IndexByte(src[j+1:j+1+e], '\n') >= 0 {
			return rbHeredoc{}, 0, false
		}
		h.delim = src[j+1 : j+1+e]
		h.interp = q != '\''
		return h, j + e + 2, true
	}
	e := j
	for e < n && isIdent(src[e]) {
		e++
	}
	if e == j || '0' <= src[j] && src[j] <= '9' {
		return rbHeredoc{}, 0, false
	}
	if !h.indent && !('A' <= src[j] && src[j] <= 'Z' || src[j] == '_') {
		return rbHeredoc{}, 0, false // x <<y is a shift
	}
	h.delim = src[j:e]
	return h, e, true
}

// rbHeredocBody marks the body of h, which starts at i, as a string (its
// #{…} holes code unless single-quoted) and returns the index after its
// terminator line.
func rbHeredocBody(src []byte, i int, h rbHeredoc, r *Regions, nest int) int {
	n := len(src)
	from := i
	if i > 0 && src[i-1] == '\n' && (len(r.Spans) == 0 || r.Spans[len(r.Spans)-1].End < i) {
		from = i - 1
	}
	end, next := n, n
	for j := i; j < n; {
		e := lineEnd(src, j)
		line := bytes.TrimRight(src[j:e], "\r")
		if h.indent {
			line = bytes.TrimLeft(line, " \t")
		}
		if bytes.Equal(line, h.delim) {
			end, next = j, min(e+1, n)
			break
		}
		j = e + 1
	}
	if !h.interp || nest >= maxNest {
		r.add(String, from, end)
		return next
	}
	body := src[:end]
	for j := i; j < end; j++ {
		switch body[j] {
		case '\\':
			j++
		case '#':
			if j+1 < end && body[j+1] == '{' {
				r.add(String, from, j+2)
				e := rbCode(body, j+2, r, true, nest+1)
				if e >= end {
					return next
				}
				from, j = e-1, e-1
			}
		}
	}
	r.add(String, from, end)
	return next
}

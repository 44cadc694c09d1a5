package codeline

var (
	pySpecial = table("#\"'([{}])")
)

// scanPython reads Python: `#` comments, strings with their prefixes
// (r, b, u, f and their pairs), triple-quoted strings, and f-strings whose
// {…} fields are code. A string that is a statement of its own (it starts
// a logical line outside brackets and nothing but a comment follows it on
// its last line) is a docstring, or a comment in string form, and so a
// comment region.
func scanPython(src []byte, r *Regions) {
	pyCode(src, 0, r, false, 0)
}

// pyCode reads code from i; in an f-string field (field) it stops after
// the '}' that closes the field.
func pyCode(src []byte, i int, r *Regions, field bool, nest int) int {
	n := len(src)
	depth := 0
	for i < n {
		if i = skip(src, i, pySpecial); i >= n {
			break
		}
		switch c := src[i]; c {
		case '#':
			if field {
				// A '#' in an f-string field belongs to its format spec
				// ({x:#x}); a field holds no comment.
				i++
				continue
			}
			e := lineEnd(src, i)
			r.add(Comment, i, e)
			i = e
		case '(', '[', '{':
			depth++
			i++
		case ')', ']', '}':
			i++
			if field && depth == 0 && c == '}' {
				return i
			}
			if depth > 0 {
				depth--
			}
		case '"', '\'':
			start, fmt := pyPrefix(src, i)
			if fmt && nest < maxNest {
				i = fstring(src, start, i, r, nest+1)
				continue
			}
			e := pyString(src, i)
			kind := String
			if !field && depth == 0 && pyStatementStart(src, start) && pyStatementEnd(src, e) {
				kind = Comment
			}
			r.add(kind, start, e)
			i = e
		}
	}
	return n
}

// pyPrefix returns where the string whose quote is at i starts (its
// prefix letters included) and whether it is an f-string.
func pyPrefix(src []byte, i int) (int, bool) {
	k := i
	for k > 0 && i-k < 2 && isPrefixLetter(src[k-1]) {
		k--
	}
	if k > 0 && isIdent(src[k-1]) {
		return i, false
	}
	f := false
	for _, c := range src[k:i] {
		if c == 'f' || c == 'F' || c == 't' || c == 'T' {
			f = true
		}
	}
	return k, f
}

func isPrefixLetter(c byte) bool {
	switch c {
	case 'r', 'R', 'b', 'B', 'u', 'U', 'f', 'F', 't', 'T':
		return true
	}
	return false
}

// pyString returns the end of the string whose quote is at i. A triple-
// quoted string ends at its closing triple; any other at its quote or at
// the unescaped newline that leaves it unterminated.
func pyString(src []byte, i int) int {
	q := src[i]
	triple := i+2 < len(src) && src[i+1] == q && src[i+2] == q
	j := i + 1
	if triple {
		j = i + 3
	}
	for ; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '\n':
			if !triple {
				return j
			}
		case q:
			if !triple {
				return j + 1
			}
			if j+2 < len(src) && src[j+1] == q && src[j+2] == q {
				return j + 3
			}
		}
	}
	return len(src)
}

// fstring reads the f-string whose prefix starts at start and quote is at
// i: its text is string, each {…} field code ({{ and }} are text).
func fstring(src []byte, start, i int, r *Regions, nest int) int {
	q := src[i]
	n := len(src)
	triple := i+2 < n && src[i+1] == q && src[i+2] == q
	j := i + 1
	if triple {
		j = i + 3
	}
	for ; j < n; j++ {
		switch src[j] {
		case '\\':
			j++
		case '\n':
			if !triple {
				r.add(String, start, j)
				return j
			}
		case q:
			if !triple {
				r.add(String, start, j+1)
				return j + 1
			}
			if j+2 < n && src[j+1] == q && src[j+2] == q {
				r.add(String, start, j+3)
				return j + 3
			}
		case '{':
			if j+1 < n && src[j+1] == '{' {
				j++
				continue
			}
			r.add(String, start, j+1)
			j = pyCode(src, j+1, r, true, nest)
			if j >= n {
				return n
			}
			start = j - 1
			j--
		}
	}
	r.add(String, start, n)
	return n
}

// pyStatementStart reports whether only indentation stands between the
// start of the line and i, and the line before does not continue into it
// with a backslash.
func pyStatementStart(src []byte, i int) bool {
	k := i - 1
	for k >= 0 && (src[k] == ' ' || src[k] == '\t') {
		k--
	}
	if k < 0 {
		return true
	}
	if src[k] == ';' {
		return true
	}
	if src[k] != '\n' {
		return false
	}
	k--
	if k >= 0 && src[k] == '\r' {
		k--
	}
	return k < 0 || src[k] != '\\'
}

// pyStatementEnd reports whether nothing but blanks, a comment or a ';'
// follows position e on its line.
func pyStatementEnd(src []byte, e int) bool {
	for ; e < len(src); e++ {
		switch src[e] {
		case ' ', '\t', '\r':
		case '\n', '#', ';':
			return true
		default:
			return false
		}
	}
	return true
}

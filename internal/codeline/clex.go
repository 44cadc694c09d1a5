package codeline

import "bytes"

// dialect is what sets apart the members of the C family.
type dialect struct {
	special *[256]bool
	// holeBrace and holeParen add to special the brackets that end a hole
	// of code in a string: ${…} and {…} ('}'), Swift's \(…) (')').
	holeBrace, holeParen *[256]bool
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
	// textBlock: """ opens a string that may span lines (Java, Scala and
	// the rest of clike).
	textBlock bool
	// raw: R"delim( … )delim" raw strings (C++).
	raw bool
	// digitSep: ' between digits separates them (C++14, C23).
	digitSep bool
	// splice: a backslash at the end of a line joins it to the next
	// before comments and strings are read (C, C++; blanks between the
	// backslash and the newline too, as gcc and clang read them).
	splice bool
	// interp: the string forms whose holes are code (interpKotlin,
	// interpSwift, interpCSharp); 0 for none.
	interp byte
}

// The string interpolations of dialect.interp.
const (
	interpKotlin = 'k' // "…${…}…", "…$name…", raw """…"""
	interpSwift  = 's' // "…\(…)…", """…""", raw #"…\#(…)…"#
	interpCSharp = 'c' // $"…{…}…", @"…", $@"…", raw """…""", $$"""…{{…}}…"""
)

func newDialect(d dialect, special string) *dialect {
	d.special = table(special)
	d.holeBrace = table(special + "{}")
	d.holeParen = table(special + "()")
	return &d
}

var (
	cDialect      = newDialect(dialect{charLit: true, digitSep: true, splice: true}, "/\"'")
	cppDialect    = newDialect(dialect{charLit: true, raw: true, digitSep: true, splice: true}, "/\"'")
	javaDialect   = newDialect(dialect{charLit: true, textBlock: true}, "/\"'")
	jsDialect     = newDialect(dialect{template: true, regex: true}, "/\"'`")
	clikeDialect  = newDialect(dialect{backtick: true, textBlock: true}, "/\"'`")
	kotlinDialect = newDialect(dialect{charLit: true, backtick: true, interp: interpKotlin}, "/\"'`")
	swiftDialect  = newDialect(dialect{backtick: true, interp: interpSwift}, "/\"'`")
	csDialect     = newDialect(dialect{charLit: true, interp: interpCSharp}, "/\"'")
)

// brackets are what parens.advance reads.
var brackets = table("(){}")

// maxNest bounds the nesting of template holes; deeper input is read as
// one string.
const maxNest = 200

// scanC reads a member of the C family: `//` and `/* */` comments, and the
// dialect's string, char, template, regular-expression and raw literals.
func scanC(src []byte, r *Regions, d *dialect) {
	cCode(src, 0, r, d, 0, 0)
}

// cCode reads code from i. In a hole of code inside a string (closer '}'
// or ')') it stops after the closer that ends the hole and returns the
// index after it; otherwise (closer 0) it reads to the end of src.
func cCode(src []byte, i int, r *Regions, d *dialect, closer byte, nest int) int {
	n := len(src)
	special := d.special
	switch closer {
	case '}':
		special = d.holeBrace
	case ')':
		special = d.holeParen
	}
	depth := 0
	ps := parens{pos: i, span: len(r.Spans)}
	for i < n {
		if i = skip(src, i, special); i >= n {
			break
		}
		switch c := src[i]; c {
		case '/':
			j := i + 1
			if d.splice {
				j = spliced(src, j)
			}
			if j < n && src[j] == '/' {
				e := lineEnd(src, j+1)
				switch {
				case d.splice:
					e = spliceLineEnd(src, j+1)
				case d.regex:
					e = jsLineEnd(src, j+1, e)
				}
				r.add(Comment, i, e)
				i = e
				continue
			}
			if j < n && src[j] == '*' {
				e := closeEnd(src, j+1, "*/")
				if d.splice {
					e = spliceBlockEnd(src, j+1)
				}
				r.add(Comment, i, e)
				i = e
				continue
			}
			if d.regex && regexAllowed(src, i, r, &ps) {
				e := regexEnd(src, i)
				r.add(String, i, e)
				i = e
				continue
			}
			i++
		case '"':
			if d.interp != 0 {
				i = interpString(src, i, r, d, nest)
				continue
			}
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
			e := cQuoted(src, i, d.splice)
			r.add(String, i, e)
			i = e
		case '\'':
			if d.digitSep && i > 0 && isDigitSep(src, i) {
				i++
				continue
			}
			e := cQuoted(src, i, d.splice)
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
		case '(', '{':
			if c == opener(closer) {
				depth++
			}
			i++
		case ')', '}':
			i++
			if c == closer {
				if depth == 0 {
					return i
				}
				depth--
			}
		}
	}
	return n
}

// opener is the bracket that a hole's closer closes, so nested pairs are
// counted; 0 outside a hole.
func opener(closer byte) byte {
	switch closer {
	case '}':
		return '{'
	case ')':
		return '('
	}
	return 0
}

// advance reads the brackets of the code before to that it has not read
// yet, skipping the spans (all recorded, as they lie before to). It runs
// only when a '/' follows a ')' or '}', so a file without one pays
// nothing, and it reads each byte once.
func (p *parens) advance(src []byte, r *Regions, to int) {
	j := p.pos
	for j < to {
		lim := to
		if p.span < len(r.Spans) && r.Spans[p.span].Start < lim {
			lim = r.Spans[p.span].Start
		}
		code := src[:lim] // up to the next span
		for {
			if j = skip(code, j, brackets); j >= lim {
				break
			}
			switch code[j] {
			case '(':
				p.open(j)
			case ')':
				p.close(j)
			case '{':
				p.openBrace(j, p.span)
			case '}':
				p.closeBrace(j)
			}
			j++
		}
		if lim == to {
			break
		}
		j = max(j, r.Spans[p.span].End) // past the span
		p.span++
	}
	p.pos = max(p.pos, to)
}

// parens tracks, in JavaScript, which open parenthesis follows if, while,
// for or with: a '/' after the ')' that closes one starts a statement, so
// it opens a regular expression; after any other ')' it divides. It
// tracks braces too: a '/' after the '}' of a block opens a regular
// expression, after the '}' of an object literal it divides. Deeper than
// 64, or a brace that opens either (after a ':'), the answer is unknown
// and the file is read both ways.
type parens struct {
	// pos: the brackets before it are read; span: the first span at or
	// after pos.
	pos, span int
	// popen: where the open parenthesis at each depth is; bopen and
	// bspan: where the open brace is, and the spans before it.
	popen, bopen, bspan [64]int32
	depth, bdepth       int
	// The last ')' read, and its '(' when known; the last '}', and its
	// '{' when known.
	lastAt, lastOpen              int
	known                         bool
	braceAt, braceOpen, braceSpan int
	braceKnown                    bool
}

// The kinds of '{' (braceKind).
const (
	braceObject = iota
	braceBlock
	braceUnknown
)

func (p *parens) openBrace(i, spans int) {
	if p.bdepth < len(p.bopen) {
		p.bopen[p.bdepth], p.bspan[p.bdepth] = int32(i), int32(spans)
	}
	p.bdepth++
}

func (p *parens) closeBrace(i int) {
	p.braceAt, p.braceKnown = i, false
	if p.bdepth == 0 {
		return // unbalanced: unknown
	}
	p.bdepth--
	if p.bdepth < len(p.bopen) {
		p.braceKnown = true
		p.braceOpen, p.braceSpan = int(p.bopen[p.bdepth]), int(p.bspan[p.bdepth])
	}
}

// braceKind tells, by the token before the '{' at i, whether it opens a
// block (at the start, after ')', ';', a brace, '=>', else, do, try,
// finally or a name, as in class X {), an object literal (after an
// operator, '(', ',', '[' or a keyword such as return), or either (after
// ':', a label's or a property's).
func braceKind(src []byte, i int, spans []Region) int {
	k := prevToken(src, i, spans)
	if k < 0 {
		return braceBlock
	}
	switch c := src[k]; {
	case c == ')' || c == ';' || c == '{' || c == '}':
		return braceBlock
	case c == '>' && k > 0 && src[k-1] == '=':
		return braceBlock
	case c == ':':
		return braceUnknown
	case jsIdent(c):
		e := k + 1
		for k >= 0 && jsIdent(src[k]) {
			k--
		}
		switch string(src[k+1 : e]) {
		case "return", "typeof", "case", "in", "of", "new", "delete", "void", "throw", "yield", "await", "instanceof":
			return braceObject
		}
		return braceBlock
	}
	return braceObject
}

// prevToken returns the index of the last byte before i that is neither
// blank nor in a comment, or -1; spans are the spans before i.
func prevToken(src []byte, i int, spans []Region) int {
	k, _ := prevTokenSpans(src, i, spans)
	return k
}

// prevTokenSpans is prevToken that also returns the spans before the
// token's end (the comments between it and i dropped).
func prevTokenSpans(src []byte, i int, spans []Region) (int, []Region) {
	k := i - 1
	for {
		for k >= 0 && jsBlank(src[k]) {
			k--
		}
		// A comment before the '/' is not the token before it.
		if n := len(spans); k >= 0 && n > 0 && spans[n-1].End == k+1 && spans[n-1].Kind == Comment && spans[n-1].Start < k {
			k = spans[n-1].Start - 1
			spans = spans[:n-1]
			continue
		}
		return k, spans
	}
}

func (p *parens) open(i int) {
	if p.depth < len(p.popen) {
		p.popen[p.depth] = int32(i)
	}
	p.depth++
}

func (p *parens) close(i int) {
	p.lastAt, p.known = i, false
	if p.depth == 0 {
		return // unbalanced: unknown
	}
	p.depth--
	if p.depth < len(p.popen) {
		p.known, p.lastOpen = true, int(p.popen[p.depth])
	}
}

// keywordBefore reports whether the word before the '(' at i is if,
// while, for or with (and not a property named so).
func keywordBefore(src []byte, i int) bool {
	k := i - 1
	for k >= 0 && jsBlank(src[k]) {
		k--
	}
	if k < 1 || src[k] != 'f' && src[k] != 'e' && src[k] != 'r' && src[k] != 'h' {
		return false // the last letter of none of the keywords
	}
	e := k + 1
	for k >= 0 && jsIdent(src[k]) {
		k--
	}
	if dotBefore(src, k) {
		return false
	}
	switch string(src[k+1 : e]) {
	case "if", "while", "for", "with":
		return true
	}
	return false
}

// jsLineEnd returns where a JavaScript line comment whose text starts at
// i ends, e being the next newline: a lone carriage return, U+2028 and
// U+2029 end a line too, so the code after one is not in the comment.
func jsLineEnd(src []byte, i, e int) int {
	line := src[i:e]
	if k := bytes.IndexByte(line, '\r'); k >= 0 && i+k+1 < e {
		e = i + k // a CR before the line's own CRLF
	}
	if bytes.IndexByte(src[i:e], 0xe2) < 0 {
		return e
	}
	for _, sep := range []string{"\u2028", "\u2029"} {
		if k := bytes.Index(src[i:e], []byte(sep)); k >= 0 {
			e = i + k
		}
	}
	return e
}

// jsIdent reports whether c is part of a JavaScript name ($ is).
func jsIdent(c byte) bool { return c == '$' || isIdent(c) }

// jsBlank reports whether c is JavaScript's white space or a line end,
// in ASCII.
func jsBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// dotBefore reports whether the last byte before src[k+1:] that is not
// a blank is a '.': the word after it is a property, never a keyword.
func dotBefore(src []byte, k int) bool {
	for k >= 0 && jsBlank(src[k]) {
		k--
	}
	return k >= 0 && src[k] == '.'
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
				j = cCode(src, j+2, r, d, '}', nest)
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

// strForm is how one string literal of an interpolating language reads.
type strForm struct {
	close   string // the closing delimiter: `"`, `"""`, `"##`
	run     bool   // a longer run of quotes closes on its last ones (Kotlin and C# raw strings)
	esc     string // what opens an escape (`\`, Swift's `\##`); "" for none
	doubled bool   // "" is a quote in the text (C# verbatim strings)
	multi   bool   // the literal may span lines
	holes   bool   // the literal has holes of code
	braces  int    // C#: the braces that open a hole; 0: one, and {{ is a brace
	dollars int    // Kotlin: the $ that open a hole
}

// interpString reads the string literal of an interpolating language
// whose first quote is at i (Kotlin, Swift, C#): its text is string, its
// holes code. It returns the index after the literal.
func interpString(src []byte, i int, r *Regions, d *dialect, nest int) int {
	n := len(src)
	q := i
	for q < n && src[q] == '"' {
		q++
	}
	quotes := q - i
	start, body := i, i+1
	// The bytes before the quote that belong to the literal (Swift's #,
	// C#'s $ and @) are not in the literal before it.
	floor := 0
	if k := len(r.Spans); k > 0 {
		floor = r.Spans[k-1].End
	}
	var f strForm
	switch d.interp {
	case interpKotlin:
		// $$"…" (Kotlin 2.1): a hole takes as many $ as prefix the
		// literal.
		k := i
		for k > floor && src[k-1] == '$' {
			k--
		}
		f = strForm{close: `"`, esc: `\`, holes: true, dollars: max(i-k, 1)}
		if quotes >= 3 {
			f = strForm{close: `"""`, run: true, multi: true, holes: true, dollars: max(i-k, 1)}
			body = i + 3
		}
		start = k
	case interpSwift:
		h := 0
		for i-h > floor && src[i-h-1] == '#' {
			h++
		}
		hashes := string(src[i-h : i])
		start = i - h
		f = strForm{close: `"` + hashes, esc: `\` + hashes, holes: true}
		if quotes >= 3 {
			f.close, f.multi, body = `"""`+hashes, true, i+3
		}
	case interpCSharp:
		dollars, at, k := 0, false, i
		for k > floor && (src[k-1] == '$' || src[k-1] == '@') {
			k--
			if src[k] == '$' {
				dollars++
			} else {
				at = true
			}
		}
		start = k
		switch {
		case at:
			// Verbatim: "" is a quote, so @"""" holds one.
			f = strForm{close: `"`, doubled: true, multi: true, holes: dollars > 0}
		case quotes >= 3:
			f = strForm{close: string(src[i:q]), multi: true, holes: dollars > 0, braces: max(dollars, 1)}
			body = q
		default:
			f = strForm{close: `"`, esc: `\`, holes: dollars > 0}
		}
		if quotes == 2 {
			// "" is an empty string, not the start of a raw one.
			r.add(String, start, i+2)
			return i + 2
		}
	}
	if quotes == 2 && d.interp != interpCSharp && start == i {
		// "" is an empty string (in Swift #""…"# is not).
		r.add(String, start, i+2)
		return i + 2
	}
	return interpBody(src, start, body, r, d, &f, nest)
}

// interpBody reads the text of a string literal that opened at start,
// from body, by f.
func interpBody(src []byte, start, body int, r *Regions, d *dialect, f *strForm, nest int) int {
	n := len(src)
	from := start
	for j := body; j < n; {
		c := src[j]
		hole, closers := -1, 1
		switch {
		case c == '\n' && !f.multi:
			r.add(String, from, j)
			return j
		case c == '\\' && f.esc != "" && hasAt(src, j, f.esc):
			k := j + len(f.esc)
			if d.interp == interpSwift && k < n && src[k] == '(' {
				hole = k + 1
				break
			}
			j = k + 1
			continue
		case c == '"':
			if f.doubled && j+1 < n && src[j+1] == '"' {
				j += 2
				continue
			}
			if hasAt(src, j, f.close) {
				e := j + len(f.close)
				if f.run {
					for e < n && src[e] == '"' {
						e++
					}
				}
				r.add(String, from, e)
				return e
			}
			j++
			continue
		case c == '$' && d.interp == interpKotlin:
			k := j
			for k < n && src[k] == '$' {
				k++
			}
			if k-j < f.dollars || k >= n {
				j = k // fewer $ than a hole takes: text
				continue
			}
			if src[k] == '{' {
				hole = k + 1
				break
			}
			if b := src[k]; b == '_' || 'a' <= b|0x20 && b|0x20 <= 'z' {
				// $name: the name is code.
				r.add(String, from, k)
				e := k
				for e < n && isIdent(src[e]) {
					e++
				}
				from, j = e, e
				continue
			}
			j = k
			continue
		case c == '{' && f.holes && d.interp == interpCSharp:
			k := j
			for k < n && src[k] == '{' {
				k++
			}
			if run := k - j; f.braces == 0 && run%2 == 0 || f.braces > 1 && run < f.braces {
				j = k // {{ is a brace; in a raw string, fewer braces than $ are text
				continue
			}
			hole, closers = k, max(f.braces, 1)
		default:
			j++
			continue
		}
		// A hole of code from hole to its closer.
		r.add(String, from, hole)
		if nest >= maxNest {
			r.add(String, hole, n)
			return n
		}
		closer := byte('}')
		if d.interp == interpSwift {
			closer = ')'
		}
		j = cCode(src, hole, r, d, closer, nest+1)
		for k := 1; k < closers && j < n && src[j] == '}'; k++ {
			j++
		}
		if j >= n {
			return n
		}
		// The closer that ended the hole starts the next piece.
		from = j - 1
	}
	r.add(String, from, n)
	return n
}

// spliced returns i moved past the line splices at i: a backslash, blanks,
// and a newline, which C's translation phase 2 deletes.
func spliced(src []byte, i int) int {
	for i < len(src) && src[i] == '\\' {
		k := i + 1
		for k < len(src) && (src[k] == ' ' || src[k] == '\t' || src[k] == '\f' || src[k] == '\v' || src[k] == '\r') {
			k++
		}
		if k >= len(src) || src[k] != '\n' {
			break
		}
		i = k + 1
	}
	return i
}

// spliceLineEnd returns the end of a C line comment whose text starts at
// i: the newline of the first line that does not end in a splice.
func spliceLineEnd(src []byte, i int) int {
	for {
		e := lineEnd(src, i)
		if e >= len(src) {
			return e
		}
		k := e - 1
		for k >= i && (src[k] == ' ' || src[k] == '\t' || src[k] == '\f' || src[k] == '\v' || src[k] == '\r') {
			k--
		}
		if k < i || src[k] != '\\' {
			return e
		}
		i = e + 1
	}
}

// spliceBlockEnd returns the end of a C block comment whose text starts
// at from: past a '*' and '/', splices between them allowed.
func spliceBlockEnd(src []byte, from int) int {
	e := closeEnd(src, from, "*/")
	if bytes.IndexByte(src[from:e], '\\') < 0 {
		return e // no backslash, so no spliced closer before e
	}
	for j := from; j < len(src); {
		k := bytes.IndexByte(src[j:], '*')
		if k < 0 {
			break
		}
		j += k + 1
		if m := spliced(src, j); m < len(src) && src[m] == '/' {
			return m + 1
		}
	}
	return len(src)
}

// cQuoted returns the end of the string or char literal at i: past its
// closing quote, or at the newline (not escaped) that leaves it
// unterminated. With splice (C, C++) a backslash-newline is deleted
// before the literal is read, so the escape after `\\` and a newline is
// the first byte of the next line.
func cQuoted(src []byte, i int, splice bool) int {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case q:
			return j + 1
		case '\n':
			return j
		case '\\':
			if splice {
				if k := spliced(src, j); k > j {
					j = k - 1 // a splice, not an escape
					continue
				}
				j = spliced(src, j+1) // the escaped byte, after any splice
				continue
			}
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
// expected, so it opens a regular expression rather than dividing, by the
// token before it (as a JavaScript parser decides): after an operator, an
// opening bracket, a comma or semicolon, a keyword such as return, the ')'
// of if (…), while (…), for (…) or with (…), or at the start of the file;
// not after a name, a literal, ++ or --, or the ')' of a call. After a
// '}' (the end of a block, or of an object literal) and after a ')' whose
// '(' is not known it cannot be decided here: the file is read both ways
// (Regions.Other), a regular expression first.
func regexAllowed(src []byte, i int, r *Regions, ps *parens) bool {
	k, before := prevTokenSpans(src, i, r.Spans)
	if k < 0 {
		return true
	}
	if c := src[k]; c == ')' || c == '}' {
		ps.advance(src, r, k+1)
	}
	switch c := src[k]; {
	case c == ')' && ps.lastAt == k && ps.known:
		return keywordBefore(src, ps.lastOpen)
	case c == '}' && ps.braceAt == k && ps.braceKnown && braceKind(src, ps.braceOpen, r.Spans[:ps.braceSpan]) != braceUnknown:
		return braceKind(src, ps.braceOpen, r.Spans[:ps.braceSpan]) == braceBlock
	case c == ')' || c == '}':
		// Undecided: read both ways, a regular expression first.
		return !r.choose()
	case c == '/':
		// After a division, an operand; after a regular expression (the
		// span that ends here), an operator.
		n := len(before)
		return n == 0 || before[n-1].End != k+1
	case c == '+' || c == '-':
		// After ++ or -- an operand ended (a postfix operator).
		return k == 0 || src[k-1] != c
	case bytes.IndexByte([]byte("(,=:[!&|?{;*%<>~^"), c) >= 0:
		return true
	case jsIdent(c):
		e := k + 1
		for k >= 0 && jsIdent(src[k]) {
			k--
		}
		if dotBefore(src, k) {
			return false // a property named like a keyword
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

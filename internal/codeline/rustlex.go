package codeline

import (
	"bytes"
	"unicode/utf8"
)

var (
	rustSpecial = table("/\"'#")
	// rustItem adds the brackets and ';' that end an item gated by
	// #[cfg(test)].
	rustItem = table("/\"'#{}()[];,")
)

// scanRust reads Rust source: `//` comments (`///` and `//!` doc comments
// among them), nested `/* */` comments, strings and byte strings (which
// may span lines), raw strings r"…", r#"…"# with any number of hashes
// (br, cr too), char and byte literals as opposed to lifetimes and labels
// ('a' is a char, 'a alone a lifetime), and a `#!` shebang on the first
// line. An item gated by #[cfg(test)] (or #[cfg(all(test, …))]) is a test
// region from its attribute to the end of the item: a module, function or
// impl through its closing brace, a use, const or static through its ';'.
// #![cfg(test)] makes the enclosing module, or the whole file, a test
// region.
func scanRust(src []byte, r *Regions) {
	n := len(src)
	i := 0
	if n > 2 && src[0] == '#' && src[1] == '!' && src[2] != '[' {
		i = lineEnd(src, 0)
		r.add(Comment, 0, i)
	}
	// A pending test item: start, the kind of end it waits for, and the
	// bracket depth inside it.
	test, testStart, mode, depth := false, 0, itemBrace, 0
	special := rustSpecial
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
				e := rustBlockComment(src, i)
				r.add(Comment, i, e)
				i = e
				continue
			}
			i++
		case '"':
			start := i
			if p := rawPrefix(src, i); p > 0 {
				// r"…": no escapes, ends at the next quote.
				e := bytes.IndexByte(src[i+1:], '"')
				if e < 0 {
					e = n
				} else {
					e += i + 2
				}
				r.add(String, i-p, e)
				i = e
				continue
			}
			if i > 0 && (src[i-1] == 'b' || src[i-1] == 'c') && (i < 2 || !isIdent(src[i-2])) {
				start = i - 1
			}
			e := rustString(src, i)
			r.add(String, start, e)
			i = e
		case '\'':
			if e := rustChar(src, i); e > 0 {
				start := i
				if i > 0 && src[i-1] == 'b' && (i < 2 || !isIdent(src[i-2])) {
					start = i - 1
				}
				r.add(String, start, e)
				i = e
				continue
			}
			// A lifetime or a label: its name is code.
			i++
		case '#':
			if p := rawPrefix(src, i); p > 0 {
				h := i
				for h < n && src[h] == '#' {
					h++
				}
				if h < n && src[h] == '"' {
					e := rawEnd(src, h+1, h-i)
					r.add(String, i-p, e)
					i = e
					continue
				}
				i = h // r#ident, a raw identifier
				continue
			}
			inner, end, ok := cfgTest(src, i)
			if !ok {
				i++
				continue
			}
			if test {
				i = end
				continue
			}
			if inner {
				from, top := enclosing(src, r, i)
				if top < 0 {
					r.addTest(0, n)
					i = n
					continue
				}
				// The rest of the enclosing module, through its brace.
				test, testStart, depth, mode = true, from, 1, itemBrace
				special = rustItem
				i = end
				continue
			}
			// cfg(test): the item that follows, through its end.
			test, testStart, depth = true, i, 0
			mode = itemMode(src, end)
			special = rustItem
			i = end
		case '{', '(', '[':
			depth++
			i++
		case '}', ')', ']':
			depth--
			switch {
			case depth < 0:
				// The gated field or arm was the last before its
				// parent's closing bracket.
				r.addTest(testStart, i)
				test, special = false, rustSpecial
			case c == '}' && depth == 0 && mode == itemBrace:
				r.addTest(testStart, i+1)
				test, special = false, rustSpecial
			}
			i++
		case ';', ',':
			if depth == 0 && (c == ';' || mode == itemField) {
				r.addTest(testStart, i+1)
				test, special = false, rustSpecial
			}
			i++
		}
	}
	if test {
		r.addTest(testStart, n)
	}
}

// rustBlockComment returns the end of the nested block comment at i.
func rustBlockComment(src []byte, i int) int {
	n, d := len(src), 0
	for j := i; j < n-1; {
		k := bytes.IndexByte(src[j:n-1], '/')
		l := bytes.IndexByte(src[j:n-1], '*')
		if k < 0 && l < 0 {
			break
		}
		if k < 0 || l >= 0 && l < k {
			k = l
		}
		j += k
		switch {
		case src[j] == '/' && src[j+1] == '*':
			d++
			j += 2
		case src[j] == '*' && src[j+1] == '/':
			d--
			j += 2
			if d == 0 {
				return j
			}
		default:
			j++
		}
	}
	return n
}

// rustString returns the end of the string whose quote is at i.
func rustString(src []byte, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '"':
			return j + 1
		case '\\':
			j++
		}
	}
	return len(src)
}

// rustChar returns the end of the char or byte literal at i, or 0 when
// the quote opens a lifetime or a label.
func rustChar(src []byte, i int) int {
	n := len(src)
	j := i + 1
	if j >= n {
		return 0
	}
	if src[j] == '\\' {
		// An escape: '\n', '\'', '\x7f', '\u{1F600}'.
		for k := j + 2; k < n && k < j+12; k++ {
			if src[k] == '\'' {
				return k + 1
			}
			if src[k] == '\n' {
				return 0
			}
		}
		return 0
	}
	if src[j] == '\'' || src[j] == '\n' {
		return 0
	}
	_, size := utf8.DecodeRune(src[j:])
	if j+size < n && src[j+size] == '\'' {
		return j + size + 1
	}
	return 0
}

// rawPrefix returns the length of the raw-string prefix (r, br or cr)
// that ends just before i, or 0.
func rawPrefix(src []byte, i int) int {
	if i < 1 || src[i-1] != 'r' {
		return 0
	}
	if i < 2 || !isIdent(src[i-2]) {
		return 1
	}
	if (src[i-2] == 'b' || src[i-2] == 'c') && (i < 3 || !isIdent(src[i-3])) {
		return 2
	}
	return 0
}

// rawEnd returns the end of a raw string whose content starts at j and
// that closes with a quote and hashes hashes.
func rawEnd(src []byte, j, hashes int) int {
	for {
		k := bytes.IndexByte(src[j:], '"')
		if k < 0 {
			return len(src)
		}
		j += k + 1
		h := 0
		for h < hashes && j+h < len(src) && src[j+h] == '#' {
			h++
		}
		if h == hashes {
			return j + h
		}
	}
}

// cfgTest reads the attribute at i: it reports whether it is #[cfg(test)]
// or #![cfg(test)] (inner) with a predicate that holds only under test,
// and where the attribute ends.
func cfgTest(src []byte, i int) (inner bool, end int, ok bool) {
	j := i + 1
	if j < len(src) && src[j] == '!' {
		inner = true
		j++
	}
	j = skipSpace(src, j)
	if j >= len(src) || src[j] != '[' {
		return false, 0, false
	}
	j = skipSpace(src, j+1)
	if !hasAt(src, j, "cfg") {
		return false, 0, false
	}
	j = skipSpace(src, j+3)
	if j >= len(src) || src[j] != '(' {
		return false, 0, false
	}
	// The predicate, through its closing parenthesis.
	d, k := 0, j
	for ; k < len(src) && k < j+400; k++ {
		if src[k] == '(' {
			d++
		} else if src[k] == ')' {
			d--
			if d == 0 {
				break
			}
		}
	}
	if d != 0 || k >= len(src) {
		return false, 0, false
	}
	pred := src[j+1 : k]
	e := skipSpace(src, k+1)
	if e >= len(src) || src[e] != ']' {
		return false, 0, false
	}
	return inner, e + 1, testOnly(pred)
}

// testOnly reports whether a cfg predicate holds only under test: `test`,
// or `all(…)` with `test` among its arguments.
func testOnly(pred []byte) bool {
	var buf [400]byte
	b := buf[:0]
	for _, c := range pred {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' && len(b) < len(buf) {
			b = append(b, c)
		}
	}
	if string(b) == "test" {
		return true
	}
	if !bytes.HasPrefix(b, []byte("all(")) || b[len(b)-1] != ')' {
		return false
	}
	d, from := 0, 4
	for k := 4; k < len(b); k++ {
		switch b[k] {
		case '(':
			d++
		case ')', ',':
			if d == 0 {
				if string(b[from:k]) == "test" {
					return true
				}
				from = k + 1
			}
			if b[k] == ')' {
				d--
			}
		}
	}
	return false
}

// How a gated item ends.
const (
	itemBrace = iota // mod, fn, impl, struct ...: its closing brace or ';'
	itemSemi         // use, const, static, let, type, extern crate: its ';'
	itemField        // a field, a variant, an arm, an argument: ',' or ';'
)

// itemMode tells how the item that starts after j ends.
func itemMode(src []byte, j int) int {
	for k := 0; k < 16; k++ {
		j = skipSpace(src, j)
		if j >= len(src) {
			return itemBrace
		}
		switch {
		case hasAt(src, j, "//"):
			j = lineEnd(src, j)
			continue
		case hasAt(src, j, "/*"):
			j = rustBlockComment(src, j)
			continue
		case src[j] == '#':
			// Another attribute.
			e := bytes.IndexByte(src[j:], ']')
			if e < 0 {
				return itemBrace
			}
			j += e + 1
			continue
		case src[j] == '"':
			// extern "C"
			j = rustString(src, j)
			continue
		case src[j] == '(':
			// pub(crate)
			e := bytes.IndexByte(src[j:], ')')
			if e < 0 {
				return itemBrace
			}
			j += e + 1
			continue
		}
		w := j
		for w < len(src) && isIdent(src[w]) {
			w++
		}
		switch string(src[j:w]) {
		case "pub", "unsafe", "async", "default", "extern":
			j = w
			continue
		case "use", "const", "static", "let", "type", "crate":
			return itemSemi
		case "mod", "fn", "impl", "struct", "enum", "trait", "union", "macro_rules":
			return itemBrace
		}
		return itemField
	}
	return itemBrace
}

func skipSpace(src []byte, j int) int {
	for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\n' || src[j] == '\r') {
		j++
	}
	return j
}

// enclosing returns the start of the module or block that encloses offset
// i, the unmatched '{' before it, and 0; or 0 and -1 at the top level.
// Braces in comments and strings (the spans found so far) do not count.
func enclosing(src []byte, r *Regions, i int) (int, int) {
	var open []int
	s := 0
	for k := 0; k < i; k++ {
		for s < len(r.Spans) && r.Spans[s].End <= k {
			s++
		}
		if s < len(r.Spans) && r.Spans[s].Start <= k {
			k = r.Spans[s].End - 1
			continue
		}
		switch src[k] {
		case '{':
			open = append(open, k)
		case '}':
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		}
	}
	if len(open) == 0 {
		return 0, -1
	}
	return open[len(open)-1], 0
}

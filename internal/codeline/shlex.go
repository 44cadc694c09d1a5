package codeline

import "bytes"

var (
	shSpecial = table("#'\"\\<$`()")
	// shPending adds the newline at which pending here-documents start.
	shPending = table("#'\"\\<$`()\n")
)

// heredoc is a here-document whose body starts at the next newline.
type heredoc struct {
	delim []byte
	tabs  bool // <<-: leading tabs of the body and delimiter are stripped
	// quoted: part of the word is quoted (<<'EOF', <<"EOF", <<\EOF), so
	// the body is data; otherwise its $(…) and `…` are run.
	quoted bool
}

// scanShell reads shell (POSIX sh, bash, zsh) in src[i:end]: `#` comments
// where a word starts (so $# and ${#x} are not), single quotes, $'…'
// quotes, double quotes whose $(…) is code, backslash escapes, and here-
// documents (<<, <<-, quoted or not) whose bodies are strings, except
// that an unquoted one's $(…) and `…` are code, as the shell runs them. embedded:
// the text is a block inside another file (a YAML `run: |` block), whose
// lines carry that file's indentation, so a here-document's delimiter
// line may be indented.
func scanShell(src []byte, i, end int, r *Regions, embedded bool) {
	shCode(src[:end], i, r, embedded, false, 0)
}

// shCode reads shell code from i; in a command substitution (sub) it
// stops after the ')' that closes it.
func shCode(src []byte, i int, r *Regions, embedded, sub bool, nest int) int {
	n := len(src)
	var pending []heredoc
	special := shSpecial
	depth := 0
	for i < n {
		if i = skip(src, i, special); i >= n {
			break
		}
		switch c := src[i]; c {
		case '\\':
			i += 2
		case '#':
			if i > 0 && !shBreak(src[i-1]) {
				i++
				continue
			}
			e := lineEnd(src, i)
			r.add(Comment, i, e)
			i = e
		case '\'':
			e := bytes.IndexByte(src[i+1:], '\'')
			if e < 0 {
				e = n
			} else {
				e += i + 2
			}
			r.add(String, i, e)
			i = e
		case '$':
			switch {
			case i+1 < n && src[i+1] == '\'':
				e := ansiEnd(src, i+1)
				r.add(String, i, e)
				i = e
			case i+1 < n && src[i+1] == '(' && nest < maxNest:
				i = shCode(src, i+2, r, embedded, true, nest+1)
			default:
				i++
			}
		case '"':
			i = shDouble(src, i, r, embedded, nest)
		case '`':
			e := i + 1
			for e < n && src[e] != '`' {
				if src[e] == '\\' {
					e++
				}
				e++
			}
			i = min(e+1, n)
		case '(':
			depth++
			i++
		case ')':
			i++
			if sub && depth == 0 {
				return i
			}
			if depth > 0 {
				depth--
			}
		case '<':
			if h, e, ok := heredocAt(src, i); ok {
				pending = append(pending, h)
				special = shPending
				i = e
				continue
			}
			i++
		case '\n':
			i++
			for _, h := range pending {
				i = heredocBody(src, i, h, r, embedded, nest)
			}
			pending = pending[:0]
			special = shSpecial
		}
	}
	return n
}

// shBreak reports whether c ends a word, so that a '#' after it starts a
// comment.
func shBreak(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', ';', '&', '|', '(', ')', '<', '>':
		return true
	}
	return false
}

// ansiEnd returns the end of the $'…' quote whose quote is at i.
func ansiEnd(src []byte, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '\'':
			return j + 1
		}
	}
	return len(src)
}

// shDouble reads the double-quoted string at i: its text is string, its
// $(…) substitutions code. It returns the index after the closing quote.
func shDouble(src []byte, i int, r *Regions, embedded bool, nest int) int {
	n := len(src)
	start := i
	for j := i + 1; j < n; j++ {
		switch src[j] {
		case '\\':
			j++
		case '"':
			r.add(String, start, j+1)
			return j + 1
		case '$':
			if j+1 < n && src[j+1] == '(' && nest < maxNest {
				r.add(String, start, j)
				j = shCode(src, j+2, r, embedded, true, nest+1)
				if j >= n {
					return n
				}
				start = j
				j--
			}
		}
	}
	r.add(String, start, n)
	return n
}

// heredocAt reads a here-document operator at i (<<WORD, <<-WORD,
// <<'WORD', <<"WORD", <<\WORD) and returns it and where it ends. <<< is a
// here-string, not a here-document.
func heredocAt(src []byte, i int) (heredoc, int, bool) {
	n := len(src)
	if i+1 >= n || src[i+1] != '<' || i+2 < n && src[i+2] == '<' || i > 0 && src[i-1] == '<' {
		return heredoc{}, 0, false
	}
	j := i + 2
	var h heredoc
	if j < n && src[j] == '-' {
		h.tabs = true
		j++
	}
	for j < n && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	var word []byte
	for j < n {
		c := src[j]
		switch {
		case c == '\'' || c == '"':
			e := bytes.IndexByte(src[j+1:], c)
			if e < 0 || bytes.IndexByte(src[j+1:j+1+e], '\n') >= 0 {
				return heredoc{}, 0, false
			}
			word = append(word, src[j+1:j+1+e]...)
			j += e + 2
			h.quoted = true
			continue
		case c == '\\':
			// A backslash-newline joins the word's lines; any other
			// backslash quotes the word and the byte after it.
			j++
			if j < n && src[j] != '\n' {
				h.quoted = true
				word = append(word, src[j])
			}
			j = min(j+1, n)
			continue
		case shBreak(c) || c == '"' || c == '\'':
		default:
			word = append(word, c)
			j++
			continue
		}
		break
	}
	if len(word) == 0 {
		return heredoc{}, 0, false
	}
	h.delim = word
	return h, j, true
}

// maxJoin bounds the bytes of a here-document's joined line that are
// compared with its delimiter, beyond the delimiter's own length.
const maxJoin = 256

// heredocBody marks the body of h, which starts at i, as a string (an
// unquoted one's substitutions as code) and returns the index after its
// delimiter line. As the shell does, the body ends at the first line that
// is the delimiter, whatever a substitution before it left open.
func heredocBody(src []byte, i int, h heredoc, r *Regions, embedded bool, nest int) int {
	n := len(src)
	// The region opens on the newline before the body, as a quoted
	// string opens on its quote: the body's lines lie wholly inside it.
	from := i
	if i > 0 && src[i-1] == '\n' && (len(r.Spans) == 0 || r.Spans[len(r.Spans)-1].End < i) {
		from = i - 1
	}
	end, next := n, n
	var joined []byte
	for j := i; j < n; {
		e := lineEnd(src, j)
		line := src[j:e]
		// In an unquoted here-document a backslash-newline joins lines,
		// the delimiter's too (bash's tests/heredoc.tests).
		if !h.quoted && e < n && backslashed(src, e) {
			joined = append(joined[:0], line...)
			for e < n && backslashed(src, e) {
				ne := lineEnd(src, e+1)
				if len(joined) <= len(h.delim)+maxJoin {
					// Past that it is no delimiter: stop copying.
					joined = append(joined[:len(joined)-1], src[e+1:ne]...)
				}
				e = ne
			}
			line = joined
		}
		if len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		if embedded {
			line = bytes.TrimLeft(line, " \t")
		} else if h.tabs {
			line = bytes.TrimLeft(line, "\t")
		}
		if bytes.Equal(line, h.delim) {
			end, next = j, min(e+1, n)
			break
		}
		j = e + 1
	}
	if h.quoted || nest >= maxNest {
		r.add(String, from, end)
		return next
	}
	body := src[:end]
	for j := i; j < end; j++ {
		switch body[j] {
		case '\\':
			j++
		case '`':
			e := j + 1
			for e < end && body[e] != '`' {
				if body[e] == '\\' {
					e++
				}
				e++
			}
			r.add(String, from, j)
			from = min(e+1, end)
			j = from - 1
		case '$':
			if j+1 < end && body[j+1] == '(' {
				r.add(String, from, j)
				from = shCode(body, j+2, r, embedded, true, nest+1)
				j = from - 1
			}
		}
	}
	r.add(String, from, end)
	return next
}

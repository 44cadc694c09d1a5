package codeline

import "bytes"

var (
	yamlSpecial = table("#'\"|>")
	tomlSpecial = table("#'\"")
	sqlSpecial  = table("-/'\"")
	mdSpecial   = table("`<\n")
)

// scanYAML reads YAML: `#` comments at the start of a line or after a
// blank, single- and double-quoted scalars (which may span lines) where a
// scalar starts, and block scalars (| and >), whose bodies are read with
// the shell lexer: most block scalars in the files claims name are CI
// steps' scripts, and a commented-out step must not count as run.
func scanYAML(src []byte, r *Regions) {
	n := len(src)
	for i := 0; i < n; {
		if i = skip(src, i, yamlSpecial); i >= n {
			break
		}
		c := src[i]
		switch {
		case c == '#' && (i == 0 || isBlank(src[i-1])):
			e := lineEnd(src, i)
			r.add(Comment, i, e)
			i = e
		case (c == '\'' || c == '"') && yamlScalarStart(src, i):
			e := yamlQuoted(src, i)
			r.add(String, i, e)
			i = e
		case (c == '|' || c == '>') && yamlScalarStart(src, i):
			hdr := lineEnd(src, i)
			// The header: indicators, then blanks and an optional comment.
			k := i + 1
			for k < hdr && (src[k] == '-' || src[k] == '+' || '1' <= src[k] && src[k] <= '9') {
				k++
			}
			for k < hdr && isBlank(src[k]) {
				k++
			}
			if k < hdr && src[k] != '#' {
				i++
				continue
			}
			if k < hdr {
				r.add(Comment, k, hdr)
			}
			body, end := yamlBlock(src, i, hdr)
			if body < end {
				scanShell(src, body, end, r, true)
			}
			i = max(end, hdr)
		default:
			i++
		}
	}
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// yamlScalarStart reports whether a scalar may start at i: at the start of
// a line (after indentation), or after "- ", ": ", "? ", or a flow
// bracket or comma.
func yamlScalarStart(src []byte, i int) bool {
	k := i - 1
	for k >= 0 && (src[k] == ' ' || src[k] == '\t') {
		k--
	}
	if k < 0 || src[k] == '\n' {
		return true
	}
	switch src[k] {
	case '[', '{', ',':
		return true
	case ':', '-', '?':
		return k < i-1
	}
	return false
}

// yamlQuoted returns the end of the quoted scalar at i: a doubled single quote escapes a single
// quote, a backslash escapes in double quotes.
func yamlQuoted(src []byte, i int) int {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch {
		case src[j] == '\\' && q == '"':
			j++
		case src[j] == q:
			if q == '\'' && j+1 < len(src) && src[j+1] == '\'' {
				j++
				continue
			}
			return j + 1
		}
	}
	return len(src)
}

// yamlBlock returns the body of the block scalar whose header is at i and
// ends at hdr: the lines after it that are blank or indented deeper than
// the header's line, up to the start of the first line that is not.
func yamlBlock(src []byte, i, hdr int) (int, int) {
	ls := bytes.LastIndexByte(src[:i], '\n') + 1
	parent := 0
	for ls+parent < i && (src[ls+parent] == ' ' || src[ls+parent] == '-') {
		if src[ls+parent] == '-' && ls+parent+1 < len(src) && src[ls+parent+1] != ' ' {
			break
		}
		parent++
	}
	// The parent's indentation counts the dash of "- key: |" as indent
	// only up to the dash itself.
	if d := bytes.IndexByte(src[ls:i], '-'); d >= 0 && d < parent {
		parent = d
	}
	if hdr >= len(src) {
		return hdr, hdr
	}
	body := hdr + 1
	indent := -1
	j := body
	for j < len(src) {
		e := lineEnd(src, j)
		k := j
		for k < e && src[k] == ' ' {
			k++
		}
		if k == e || k == e-1 && src[k] == '\r' {
			j = e + 1
			continue
		}
		if indent < 0 {
			indent = k - j
			if indent <= parent {
				return body, body
			}
		}
		if k-j < indent {
			return body, j
		}
		j = e + 1
	}
	return body, len(src)
}

// scanTOML reads TOML: `#` comments, basic and literal strings, and their
// multi-line forms (three double or three single quotes).
func scanTOML(src []byte, r *Regions) {
	n := len(src)
	for i := 0; i < n; {
		if i = skip(src, i, tomlSpecial); i >= n {
			break
		}
		switch c := src[i]; c {
		case '#':
			e := lineEnd(src, i)
			r.add(Comment, i, e)
			i = e
		case '"', '\'':
			var e int
			if hasAt(src, i, `"""`) || hasAt(src, i, `'''`) {
				e = tomlMulti(src, i)
			} else if c == '"' {
				e = skipLineString(src, i, c)
			} else {
				e = i + 1
				for e < n && src[e] != '\'' && src[e] != '\n' {
					e++
				}
				if e < n && src[e] == '\'' {
					e++
				}
			}
			r.add(String, i, e)
			i = e
		default:
			i++
		}
	}
}

// tomlMulti returns the end of the multi-line string at i; up to two
// extra quotes before the closing triple belong to the string.
func tomlMulti(src []byte, i int) int {
	q := src[i]
	for j := i + 3; j < len(src); j++ {
		if src[j] == '\\' && q == '"' {
			j++
			continue
		}
		if src[j] == q && hasAt(src, j, string([]byte{q, q, q})) {
			e := j + 3
			for k := 0; k < 2 && e < len(src) && src[e] == q; k++ {
				e++
			}
			return e
		}
	}
	return len(src)
}

// scanSQL reads SQL: `--` comments, `/* */` comments (not nested, as in
// SQLite and MySQL), '…' strings with a doubled quote for a quote, and "…"
// quoted identifiers. PostgreSQL's $$…$$ bodies are code: they hold
// functions.
func scanSQL(src []byte, r *Regions) {
	n := len(src)
	for i := 0; i < n; {
		if i = skip(src, i, sqlSpecial); i >= n {
			break
		}
		switch c := src[i]; c {
		case '-':
			if i+1 < n && src[i+1] == '-' {
				e := lineEnd(src, i)
				r.add(Comment, i, e)
				i = e
				continue
			}
			i++
		case '/':
			if i+1 < n && src[i+1] == '*' {
				e := closeEnd(src, i+2, "*/")
				r.add(Comment, i, e)
				i = e
				continue
			}
			i++
		case '\'', '"':
			e := i + 1
			for e < n {
				if src[e] == c {
					if e+1 < n && src[e+1] == c {
						e += 2
						continue
					}
					e++
					break
				}
				e++
			}
			r.add(String, i, min(e, n))
			i = min(e, n)
		default:
			i++
		}
	}
}

// scanHTML reads HTML and XML: `<!-- -->` comments, and CDATA sections
// as strings.
func scanHTML(src []byte, r *Regions) {
	n := len(src)
	for i := 0; i < n; {
		k := bytes.IndexByte(src[i:], '<')
		if k < 0 {
			break
		}
		i += k
		switch {
		case hasAt(src, i, "<!--"):
			e := closeEnd(src, i+4, "-->")
			r.add(Comment, i, e)
			i = e
		case hasAt(src, i, "<![CDATA["):
			e := closeEnd(src, i+9, "]]>")
			r.add(String, i, e)
			i = e
		default:
			i++
		}
	}
}

// scanMarkdown reads Markdown: `<!-- -->` comments outside code. Fenced
// code blocks (``` and ~~~) and code spans are code, so a comment marker
// shown in them is not a comment.
func scanMarkdown(src []byte, r *Regions) {
	n := len(src)
	for i := 0; i < n; {
		// At the start of a line: a fence?
		if i == 0 || src[i-1] == '\n' {
			if e, ok := fenceEnd(src, i); ok {
				i = e
				continue
			}
		}
		c := src[i]
		switch {
		case c == '`':
			k := i
			for k < n && src[k] == '`' {
				k++
			}
			run := src[i:k]
			e := codeSpanEnd(src, k, run)
			i = e
		case c == '<' && hasAt(src, i, "<!--"):
			e := closeEnd(src, i+4, "-->")
			r.add(Comment, i, e)
			i = e
		case c == '\n':
			i++
		default:
			// Skip to the next byte that matters.
			i = skip(src, i+1, mdSpecial)
		}
	}
}

// fenceEnd reports whether a fenced code block opens at line start i and
// returns the end of its closing fence line (or of the file).
func fenceEnd(src []byte, i int) (int, bool) {
	k := i
	for k < len(src) && k-i < 3 && src[k] == ' ' {
		k++
	}
	if k >= len(src) || src[k] != '`' && src[k] != '~' {
		return 0, false
	}
	f := src[k]
	m := k
	for m < len(src) && src[m] == f {
		m++
	}
	if m-k < 3 {
		return 0, false
	}
	le := lineEnd(src, m)
	if f == '`' && bytes.IndexByte(src[m:le], '`') >= 0 {
		return 0, false
	}
	width := m - k
	for j := le + 1; j < len(src); {
		e := lineEnd(src, j)
		line := bytes.TrimLeft(src[j:e], " ")
		if len(src[j:e])-len(line) < 4 {
			w := 0
			for w < len(line) && line[w] == f {
				w++
			}
			if w >= width && len(bytes.TrimSpace(line[w:])) == 0 {
				return min(e+1, len(src)), true
			}
		}
		j = e + 1
	}
	return len(src), true
}

// codeSpanEnd returns the end of the code span whose opening backtick run
// ends at k: after the same run closes it, before a blank line; a run
// that is never closed is literal text.
func codeSpanEnd(src []byte, k int, run []byte) int {
	for j := k; j < len(src); {
		c := bytes.IndexByte(src[j:], '`')
		if c < 0 {
			return k
		}
		if p := bytes.Index(src[j:j+c], []byte("\n\n")); p >= 0 {
			return k
		}
		j += c
		m := j
		for m < len(src) && src[m] == '`' {
			m++
		}
		if m-j == len(run) {
			return m
		}
		j = m
	}
	return k
}

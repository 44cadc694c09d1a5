// Package migrate turns shell claims gates into claims files: scripts whose
// rows are strings of the form P1@path@regex@why (a presence row) and
// Q1@path@anchor@regex@why (an anchored row), held in shell variables,
// with knobs such as RANGE_RE='D1\.\.D48' expanded into them.
//
// It reads the script, it never runs it (except for Compare, which runs it
// on purpose) and never edits or deletes it. What it cannot evaluate
// (a command other than printf/echo piped into sed s///, an unset
// variable, a back-reference) is not guessed: the rows that depend on it
// are listed as untranslated, each with its reason.
package migrate

import (
	"fmt"
	"regexp"
	"strings"
)

// value is the result of evaluating a shell word: its text, or why it
// could not be evaluated.
type value struct {
	text string
	bad  string // non-empty: the reason the word has no known value
}

func (v value) join(w value) value {
	out := value{text: v.text + w.text, bad: v.bad}
	if out.bad == "" {
		out.bad = w.bad
	}
	return out
}

// knobs are the variables assigned so far, in script order.
type knobs map[string]value

// script is a shell script being read.
type script struct {
	src   string
	knobs knobs
	// strings records every assignment, with the line it starts on, so
	// the rows inside them can be found.
	assigns []assign
}

type assign struct {
	name string
	val  value
	line int // 1-based line of NAME=
	// end is the offset just past the value.
	start, end int
}

var assignRE = regexp.MustCompile(`^(?:(?:export|readonly|local|declare)\s+)?([A-Za-z_][A-Za-z0-9_]*)=`)

// read evaluates every top-level NAME=value assignment of src in order.
func read(src string) *script {
	s := &script{src: src, knobs: knobs{}}
	off := 0
	for off < len(src) {
		eol := strings.IndexByte(src[off:], '\n')
		if eol < 0 {
			eol = len(src) - off
		}
		line := src[off : off+eol]
		trimmed := strings.TrimLeft(line, " \t")
		lead := len(line) - len(trimmed)
		m := assignRE.FindStringSubmatchIndex(trimmed)
		if m == nil {
			off += eol + 1
			continue
		}
		name := trimmed[m[2]:m[3]]
		start := off + lead + m[1]
		v, end := s.word(start)
		s.knobs[name] = v
		s.assigns = append(s.assigns, assign{name: name, val: v, line: strings.Count(src[:off], "\n") + 1, start: start, end: end})
		// Continue at the line after the value (the value may span lines).
		next := strings.IndexByte(src[end:], '\n')
		if next < 0 {
			break
		}
		off = end + next + 1
	}
	return s
}

// word evaluates the shell word starting at i, up to unquoted whitespace,
// ';', '&', '|' or end of line. It returns the value and the offset just
// past the word.
func (s *script) word(i int) (value, int) {
	src := s.src
	var v value
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|' || c == ')':
			return v, i
		case c == '\'':
			end := strings.IndexByte(src[i+1:], '\'')
			if end < 0 {
				return v.join(value{bad: "unterminated single-quoted string"}), len(src)
			}
			v = v.join(value{text: src[i+1 : i+1+end]})
			i += end + 2
		case c == '"':
			w, end := s.double(i + 1)
			v = v.join(w)
			i = end
		case c == '\\':
			if i+1 < len(src) && src[i+1] == '\n' {
				i += 2
				continue
			}
			if i+1 < len(src) {
				v = v.join(value{text: src[i+1 : i+2]})
			}
			i += 2
		case c == '$':
			w, end := s.dollar(i)
			v = v.join(w)
			i = end
		case c == '`':
			w, end, ok := backquoted(src, i)
			v = v.join(w)
			if !ok {
				return v, len(src)
			}
			i = end
		default:
			v = v.join(value{text: src[i : i+1]})
			i++
		}
	}
	// A backslash as the last byte steps past the end.
	return v, min(i, len(src))
}

// double evaluates a double-quoted string whose content starts at i; it
// returns the offset past the closing quote.
func (s *script) double(i int) (value, int) {
	src := s.src
	var v value
	for i < len(src) {
		c := src[i]
		switch c {
		case '"':
			return v, i + 1
		case '\\':
			if i+1 < len(src) {
				switch n := src[i+1]; n {
				case '$', '`', '"', '\\':
					v = v.join(value{text: string(n)})
				case '\n':
				default:
					v = v.join(value{text: src[i : i+2]})
				}
			}
			i += 2
		case '$':
			w, end := s.dollar(i)
			v = v.join(w)
			i = end
		case '`':
			w, end, ok := backquoted(src, i)
			v = v.join(w)
			if !ok {
				return v, len(src)
			}
			i = end
		default:
			v = v.join(value{text: src[i : i+1]})
			i++
		}
	}
	return v.join(value{bad: "unterminated double-quoted string"}), len(src)
}

var nameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*`)

// dollar evaluates the expansion at src[i] == '$'.
func (s *script) dollar(i int) (value, int) {
	src := s.src
	rest := src[i+1:]
	switch {
	case strings.HasPrefix(rest, "(("):
		end := min(matchParen(src, i+1), len(src))
		return value{bad: "an arithmetic expansion $((…)) is not evaluated"}, end
	case strings.HasPrefix(rest, "("):
		end := matchParen(src, i+1)
		if end > len(src) {
			return value{bad: "unterminated $( command substitution"}, len(src)
		}
		inner := src[i+2 : end-1]
		return s.substitute(inner), end
	case strings.HasPrefix(rest, "{"):
		close := strings.IndexByte(rest, '}')
		if close < 0 {
			return value{bad: "unterminated ${"}, len(src)
		}
		expr := rest[1:close]
		end := i + 1 + close + 1
		if !nameRE.MatchString(expr) || nameRE.FindString(expr) != expr {
			return value{bad: fmt.Sprintf("the expansion ${%s} is not evaluated (only plain ${NAME})", expr)}, end
		}
		return s.lookup(expr), end
	}
	if n := nameRE.FindString(rest); n != "" {
		return s.lookup(n), i + 1 + len(n)
	}
	if rest != "" && strings.ContainsRune("0123456789@*#?$!-", rune(rest[0])) {
		return value{bad: fmt.Sprintf("$%c is set when the script runs, not in the script", rest[0])}, i + 2
	}
	return value{text: "$"}, i + 1
}

func (s *script) lookup(name string) value {
	v, ok := s.knobs[name]
	if !ok {
		return value{bad: fmt.Sprintf("$%s is not assigned in the script before it is used", name)}
	}
	if v.bad != "" {
		return value{bad: fmt.Sprintf("$%s: %s", name, v.bad)}
	}
	return v
}

// matchParen returns the offset just past the ')' that closes the '(' at
// src[i], skipping quoted text.
func matchParen(src string, i int) int {
	depth := 0
	for j := i; j < len(src); j++ {
		switch src[j] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j + 1
			}
		case '\'':
			k := strings.IndexByte(src[j+1:], '\'')
			if k < 0 {
				return len(src) + 1
			}
			j += k + 1
		case '"':
			for j++; j < len(src) && src[j] != '"'; j++ {
				if src[j] == '\\' {
					j++
				}
			}
		case '\\':
			j++
		}
	}
	return len(src) + 1
}

// substitute evaluates the command list of a $( ) substitution: printf or
// echo, piped through any number of sed s/// commands.
func (s *script) substitute(cmd string) value {
	sub := &script{src: cmd, knobs: s.knobs}
	var stages [][]value
	i := 0
	var words []value
	for i < len(cmd) {
		c := cmd[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			i++
		case c == '|':
			if strings.HasPrefix(cmd[i:], "||") {
				return value{bad: "|| in a command substitution is not evaluated"}
			}
			stages = append(stages, words)
			words = nil
			i++
		case c == ';' || c == '&' || c == '>' || c == '<':
			return value{bad: fmt.Sprintf("%q in a command substitution is not evaluated (migrate evaluates printf or echo piped into sed s///)", c)}
		default:
			w, end := sub.word(i)
			if end == i {
				return value{bad: fmt.Sprintf("cannot read the command %q", cmd)}
			}
			words = append(words, w)
			i = end
		}
	}
	stages = append(stages, words)
	var out string
	for k, st := range stages {
		if len(st) == 0 {
			return value{bad: "an empty command in a pipeline"}
		}
		for _, w := range st {
			if w.bad != "" {
				return value{bad: w.bad}
			}
		}
		name := st[0].text
		args := make([]string, len(st)-1)
		for j, w := range st[1:] {
			args[j] = w.text
		}
		var err error
		switch {
		case k == 0 && name == "printf":
			out, err = printf(args)
		case k == 0 && name == "echo":
			out, err = echo(args)
		case k > 0 && name == "sed":
			out, err = sed(args, out)
		default:
			return value{bad: fmt.Sprintf("the command %q is not evaluated (migrate evaluates printf or echo piped into sed s///)", name)}
		}
		if err != nil {
			return value{bad: err.Error()}
		}
	}
	return value{text: strings.TrimRight(out, "\n")}
}

// printf implements the %s, %% and backslash-escape subset of printf(1).
func printf(args []string) (string, error) {
	if len(args) == 0 {
		return "", fmt.Errorf("printf without a format")
	}
	format, rest := args[0], args[1:]
	var b strings.Builder
	for {
		used := 0
		for i := 0; i < len(format); i++ {
			c := format[i]
			switch {
			case c == '\\' && i+1 < len(format):
				i++
				switch format[i] {
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				case '\\':
					b.WriteByte('\\')
				default:
					b.WriteByte('\\')
					b.WriteByte(format[i])
				}
			case c == '%' && i+1 < len(format):
				i++
				switch format[i] {
				case '%':
					b.WriteByte('%')
				case 's':
					if used < len(rest) {
						b.WriteString(rest[used])
					}
					used++
				default:
					return "", fmt.Errorf("printf conversion %%%c is not evaluated (only %%s)", format[i])
				}
			default:
				b.WriteByte(c)
			}
		}
		if used == 0 || used >= len(rest) {
			break
		}
		rest = rest[used:]
	}
	return b.String(), nil
}

func echo(args []string) (string, error) {
	nl := "\n"
	if len(args) > 0 && args[0] == "-n" {
		nl, args = "", args[1:]
	}
	return strings.Join(args, " ") + nl, nil
}

// sed applies s/re/repl/flags commands, line by line, as sed(1) does.
func sed(args []string, in string) (string, error) {
	ere := false
	var cmds []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-E" || a == "-r":
			ere = true
		case a == "-e":
			if i+1 >= len(args) {
				return "", fmt.Errorf("sed -e without a script")
			}
			cmds = append(cmds, args[i+1])
			i++
		case strings.HasPrefix(a, "-"):
			return "", fmt.Errorf("sed option %s is not evaluated", a)
		default:
			if len(cmds) > 0 && i > 0 && args[i-1] != "-e" && !strings.HasPrefix(args[i-1], "-") {
				return "", fmt.Errorf("sed with a file operand is not evaluated")
			}
			cmds = append(cmds, a)
		}
	}
	type subst struct {
		re     *regexp.Regexp
		repl   string
		global bool
	}
	var subs []subst
	for _, c := range cmds {
		for _, part := range strings.Split(c, ";") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			if len(part) < 2 || part[0] != 's' {
				return "", fmt.Errorf("sed command %q is not evaluated (only s/re/repl/flags)", part)
			}
			fields, err := splitSubst(part[2:], part[1])
			if err != nil {
				return "", err
			}
			pat := fields[0]
			var conv string
			if ere {
				conv, err = EREToRE2(pat)
			} else {
				conv, err = BREToRE2(pat)
			}
			if err != nil {
				return "", fmt.Errorf("sed pattern %q: %v", pat, err)
			}
			re, err := regexp.Compile(conv)
			if err != nil {
				return "", fmt.Errorf("sed pattern %q: %v", pat, err)
			}
			s := subst{re: re, repl: sedRepl(fields[1])}
			for _, f := range fields[2] {
				switch f {
				case 'g':
					s.global = true
				default:
					return "", fmt.Errorf("sed flag %q is not evaluated (only g)", f)
				}
			}
			subs = append(subs, s)
		}
	}
	trail := strings.HasSuffix(in, "\n")
	lines := strings.Split(strings.TrimSuffix(in, "\n"), "\n")
	for i, l := range lines {
		for _, s := range subs {
			if s.global {
				l = s.re.ReplaceAllString(l, s.repl)
			} else if loc := s.re.FindStringSubmatchIndex(l); loc != nil {
				l = l[:loc[0]] + string(s.re.ExpandString(nil, s.repl, l, loc)) + l[loc[1]:]
			}
		}
		lines[i] = l
	}
	out := strings.Join(lines, "\n")
	if trail {
		out += "\n"
	}
	return out, nil
}

// splitSubst splits "re/repl/flags" at unescaped delimiters.
func splitSubst(s string, delim byte) ([3]string, error) {
	var out [3]string
	k := 0
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			if s[i+1] == delim {
				b.WriteByte(delim)
			} else {
				b.WriteByte(c)
				b.WriteByte(s[i+1])
			}
			i++
			continue
		}
		if c == delim && k < 2 {
			out[k] = b.String()
			b.Reset()
			k++
			continue
		}
		b.WriteByte(c)
	}
	if k < 2 {
		return out, fmt.Errorf("sed command s%c%s is not terminated", delim, s)
	}
	out[2] = b.String()
	return out, nil
}

// sedRepl turns a sed replacement (& and \1..\9) into a Go template.
func sedRepl(r string) string {
	var b strings.Builder
	for i := 0; i < len(r); i++ {
		c := r[i]
		switch {
		case c == '\\' && i+1 < len(r):
			i++
			switch n := r[i]; {
			case n >= '1' && n <= '9':
				b.WriteString("${" + string(n) + "}")
			case n == 'n':
				b.WriteByte('\n')
			case n == '$':
				b.WriteString("$$")
			default:
				b.WriteByte(n)
			}
		case c == '&':
			b.WriteString("${0}")
		case c == '$':
			b.WriteString("$$")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// BREToRE2 converts a POSIX basic regular expression (with the GNU
// extensions \+ \? \| \< \>) to Go RE2 syntax.
func BREToRE2(p string) (string, error) {
	var b strings.Builder
	atStart := true
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '[':
			end := bracketEnd(p, i)
			b.WriteString(p[i:end])
			i = end - 1
			atStart = false
			continue
		case c == '\\' && i+1 < len(p):
			i++
			n := p[i]
			switch {
			case n == '(' || n == ')' || n == '{' || n == '}' || n == '+' || n == '?' || n == '|':
				b.WriteByte(n)
				atStart = n == '(' || n == '|'
				continue
			case n == '<' || n == '>':
				b.WriteString(`\b`)
			case n >= '1' && n <= '9':
				return "", fmt.Errorf("back-reference \\%c has no RE2 equivalent", n)
			default:
				b.WriteByte('\\')
				b.WriteByte(n)
			}
		case c == '*' && atStart:
			b.WriteString(`\*`)
		case strings.IndexByte("(){}+?|", c) >= 0:
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
		atStart = c == '^' && b.Len() == 1
	}
	return b.String(), nil
}

// EREToRE2 converts a POSIX extended regular expression, as grep -E reads
// it (with GNU's \< \> \b \w \s), to Go RE2 syntax.
func EREToRE2(p string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '[':
			end := bracketEnd(p, i)
			b.WriteString(p[i:end])
			i = end - 1
		case c == '\\' && i+1 < len(p):
			i++
			n := p[i]
			switch {
			case n == '<' || n == '>':
				b.WriteString(`\b`)
			case n >= '1' && n <= '9':
				return "", fmt.Errorf("back-reference \\%c has no RE2 equivalent", n)
			default:
				b.WriteByte('\\')
				b.WriteByte(n)
			}
		default:
			b.WriteByte(c)
		}
	}
	if _, err := regexp.Compile(b.String()); err != nil {
		return "", fmt.Errorf("not valid as RE2: %s", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	return b.String(), nil
}

// bracketEnd returns the offset just past the bracket expression at p[i].
func bracketEnd(p string, i int) int {
	j := i + 1
	if j < len(p) && p[j] == '^' {
		j++
	}
	if j < len(p) && p[j] == ']' {
		j++
	}
	for j < len(p) {
		if p[j] == '[' && j+1 < len(p) && (p[j+1] == ':' || p[j+1] == '.' || p[j+1] == '=') {
			close := strings.Index(p[j+2:], string(p[j+1])+"]")
			if close >= 0 {
				j += 2 + close + 2
				continue
			}
		}
		if p[j] == ']' {
			return j + 1
		}
		j++
	}
	return len(p)
}

// backquoted reads the `command substitution` at i, which migrate does not
// evaluate. It returns the value that says so and the index after the
// closing backquote; ok is false when the backquote is never closed.
func backquoted(src string, i int) (v value, end int, ok bool) {
	v = value{bad: "a `backquoted` command substitution is not evaluated (write $(printf … | sed …))"}
	k := strings.IndexByte(src[i+1:], '`')
	if k < 0 {
		return v, len(src), false
	}
	return v, i + k + 2, true
}

package migrate

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
)

// The commands migrate runs the way sh's utilities do (D34, D63): printf
// with %s, echo without backslashes, and sed's s/re/repl/flags, with the
// regular expressions converted to RE2 and matched leftmost-longest, as
// POSIX says.

// printf implements the %s and %% conversions and the backslash escapes
// of printf(1)'s format, reusing the format until the arguments are used.
func printf(args []string) (string, error) {
	if len(args) == 0 {
		return "", fmt.Errorf("printf without a format")
	}
	format, rest := args[0], args[1:]
	if strings.HasPrefix(format, "-") && format != "-" {
		return "", fmt.Errorf("printf option %s is not evaluated", format)
	}
	var b strings.Builder
	for {
		used := 0
		for i := 0; i < len(format); i++ {
			c := format[i]
			switch {
			case c == '\\' && i+1 < len(format):
				i++
				switch n := format[i]; n {
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				case 'r':
					b.WriteByte('\r')
				case 'a':
					b.WriteByte('\a')
				case 'b':
					b.WriteByte('\b')
				case 'f':
					b.WriteByte('\f')
				case 'v':
					b.WriteByte('\v')
				case '\\':
					b.WriteByte('\\')
				case '0', '1', '2', '3', '4', '5', '6', '7':
					// \ddd: one to three octal digits.
					v, k := 0, 0
					for k < 3 && i+k < len(format) && format[i+k] >= '0' && format[i+k] <= '7' {
						v = v*8 + int(format[i+k]-'0')
						k++
					}
					b.WriteByte(byte(v))
					i += k - 1
				default:
					// sh's printf keeps an unknown escape as written.
					b.WriteByte('\\')
					b.WriteByte(n)
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
			case c == '%':
				return "", fmt.Errorf("printf format %q ends with %%", format)
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

// echo is sh's echo for arguments without a backslash: dash's echo reads
// backslash escapes and bash's does not, so such text is not evaluated.
func echo(args []string) (string, error) {
	nl := "\n"
	if len(args) > 0 && args[0] == "-n" {
		nl, args = "", args[1:]
	}
	if len(args) > 0 && (args[0] == "-e" || args[0] == "-E") {
		return "", fmt.Errorf("echo %s differs between shells: write printf", args[0])
	}
	for _, a := range args {
		if strings.Contains(a, `\`) {
			return "", fmt.Errorf("echo %q: sh's echo reads backslash escapes and bash's does not: write printf '%%s'", a)
		}
	}
	return strings.Join(args, " ") + nl, nil
}

type sedSubst struct {
	re     *regexp.Regexp
	repl   string
	global bool
}

// sed applies s/re/repl/flags commands, line by line, as sed(1) does.
func sed(args []string, in string) (string, error) {
	ere := false
	var scripts []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-E" || a == "-r":
			ere = true
		case a == "-e":
			if i+1 >= len(args) {
				return "", fmt.Errorf("sed -e without a script")
			}
			scripts = append(scripts, args[i+1])
			i++
		case strings.HasPrefix(a, "-") && a != "-":
			return "", fmt.Errorf("sed option %s is not evaluated", a)
		case len(scripts) == 0:
			scripts = append(scripts, a)
		default:
			return "", fmt.Errorf("sed with a file operand is not evaluated")
		}
	}
	if len(scripts) == 0 {
		return "", fmt.Errorf("sed without a script")
	}
	var subs []sedSubst
	for _, sc := range scripts {
		s, err := parseSedScript(sc, ere)
		if err != nil {
			return "", err
		}
		subs = append(subs, s...)
	}
	if in == "" {
		return "", nil
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

// parseSedScript reads a sed script of s commands separated by ; or
// newlines.
func parseSedScript(sc string, ere bool) ([]sedSubst, error) {
	var subs []sedSubst
	i := 0
	for {
		for i < len(sc) && (sc[i] == ' ' || sc[i] == '\t' || sc[i] == ';' || sc[i] == '\n') {
			i++
		}
		if i >= len(sc) {
			return subs, nil
		}
		start := i
		if sc[i] != 's' || i+1 >= len(sc) || sc[i+1] == '\\' || sc[i+1] == '\n' {
			end := strings.IndexAny(sc[i:], ";\n")
			if end < 0 {
				end = len(sc) - i
			}
			return nil, fmt.Errorf("sed command %q is not evaluated (only s/re/repl/flags)", sc[i:i+end])
		}
		delim := sc[i+1]
		fields, next, err := splitSubst(sc, i+2, delim)
		if err != nil {
			return nil, err
		}
		i = next
		flagsEnd := i
		for flagsEnd < len(sc) && sc[flagsEnd] != ';' && sc[flagsEnd] != '\n' {
			flagsEnd++
		}
		flags := strings.TrimRight(sc[i:flagsEnd], " \t")
		i = flagsEnd
		pat := fields[0]
		var conv string
		if ere {
			conv, err = EREToRE2(pat)
		} else {
			conv, err = BREToRE2(pat)
		}
		if err != nil {
			return nil, fmt.Errorf("sed pattern %q: %v", pat, err)
		}
		re, err := regexp.Compile(conv)
		if err != nil {
			return nil, fmt.Errorf("sed pattern %q: %v", pat, err)
		}
		// POSIX regular expressions match leftmost-longest.
		re.Longest()
		s := sedSubst{re: re, repl: sedRepl(fields[1])}
		for _, f := range flags {
			switch f {
			case 'g':
				s.global = true
			default:
				return nil, fmt.Errorf("sed flag %q in %q is not evaluated (only g)", f, sc[start:flagsEnd])
			}
		}
		subs = append(subs, s)
	}
}

// splitSubst reads "re/repl/" from sc[i:] at unescaped delimiters and
// returns the two fields and the offset past the third delimiter. An
// escaped delimiter stands for itself; one that is also a regular
// expression operator is not evaluated, since sed reads it as a literal
// and the conversion would not.
func splitSubst(sc string, i int, delim byte) ([2]string, int, error) {
	var out [2]string
	k := 0
	var b strings.Builder
	for ; i < len(sc); i++ {
		c := sc[i]
		if c == '\\' && i+1 < len(sc) {
			if sc[i+1] == delim {
				if k == 0 && strings.IndexByte(`.[]*^$+?(){}|`, delim) >= 0 {
					return out, 0, fmt.Errorf("sed command with an escaped %c in its pattern is not evaluated", delim)
				}
				b.WriteByte(delim)
			} else {
				b.WriteByte(c)
				b.WriteByte(sc[i+1])
			}
			i++
			continue
		}
		if c == '\n' {
			return out, 0, fmt.Errorf("sed command s%c… is not terminated on its line", delim)
		}
		if c == delim {
			out[k] = b.String()
			b.Reset()
			k++
			if k == 2 {
				return out, i + 1, nil
			}
			continue
		}
		b.WriteByte(c)
	}
	return out, 0, fmt.Errorf("sed command s%c… is not terminated", delim)
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
			br, end, err := bracket(p, i)
			if err != nil {
				return "", err
			}
			b.WriteString(br)
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
			br, end, err := bracket(p, i)
			if err != nil {
				return "", err
			}
			b.WriteString(br)
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
		return "", fmt.Errorf("not valid as RE2: %s", reProblem(err))
	}
	return b.String(), nil
}

// bracket converts the POSIX bracket expression at p[i] == '[' to RE2 and
// returns the offset past it. Inside a bracket expression a backslash is
// a literal backslash, and a ] right after [ or [^ is a literal ].
func bracket(p string, i int) (string, int, error) {
	var b strings.Builder
	b.WriteByte('[')
	j := i + 1
	if j < len(p) && p[j] == '^' {
		b.WriteByte('^')
		j++
	}
	if j < len(p) && p[j] == ']' {
		b.WriteString(`\]`)
		j++
	}
	for j < len(p) {
		c := p[j]
		switch {
		case c == ']':
			b.WriteByte(']')
			return b.String(), j + 1, nil
		case c == '[' && j+1 < len(p) && (p[j+1] == ':' || p[j+1] == '.' || p[j+1] == '='):
			end := strings.Index(p[j+2:], string(p[j+1])+"]")
			if end < 0 {
				return "", 0, fmt.Errorf("unterminated [%c in a bracket expression", p[j+1])
			}
			if p[j+1] != ':' {
				return "", 0, fmt.Errorf("[%c…%c] in a bracket expression has no RE2 equivalent", p[j+1], p[j+1])
			}
			b.WriteString(p[j : j+2+end+2])
			j += 2 + end + 2
		case c == '\\' || c == '[':
			b.WriteByte('\\')
			b.WriteByte(c)
			j++
		default:
			b.WriteByte(c)
			j++
		}
	}
	return "", 0, fmt.Errorf("unmatched [ in %q", p)
}

// reProblem words a regexp compile error without Go's "error parsing
// regexp" opening: its code and the expression, from the error's fields.
func reProblem(err error) string {
	if e, ok := errors.AsType[*syntax.Error](err); ok {
		return string(e.Code) + ": `" + e.Expr + "`"
	}
	return err.Error()
}

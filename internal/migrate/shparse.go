package migrate

import (
	"fmt"
	"sort"
	"strings"
)

// This file parses a shell script by the POSIX sh grammar, far enough to
// evaluate it the way sh does (D63): the commands of each list in order,
// and/or chains, pipelines, function definitions (name() compound and
// bash's function name), the compound commands (if, while, until, for,
// case, { }, ( )), here-documents, comments, and the exact byte span of
// every word. It does not expand anything: shell.go evaluates the words.

// span is a byte range [start, end) of the script.
type span struct{ start, end int }

// shAssign is a NAME=value word: the name and the span of the value.
type shAssign struct {
	name             string
	start            int // offset of NAME
	valStart, valEnd int
}

// shRedir is a redirection: [fd]op target.
type shRedir struct {
	fd, op string
	target span
}

type cmdKind int

const (
	cmdSimple cmdKind = iota
	cmdFunc
	cmdBrace
	cmdSubshell
	cmdIf
	cmdWhile
	cmdUntil
	cmdFor
	cmdCase
)

// keyword names a compound command in messages.
func (k cmdKind) keyword() string {
	return [...]string{"command", "function", "{ … }", "( … )", "if", "while", "until", "for", "case"}[k]
}

// shCmd is one command.
type shCmd struct {
	kind       cmdKind
	start, end int
	// simple: leading assignments, then the command's words.
	assigns []shAssign
	words   []span
	redirs  []shRedir
	// cmdFunc: the function's name and its body; cmdFor: the variable.
	name string
	body *shCmd
	// keyword: the function is defined as function name, bash's form.
	keyword bool
	// compound commands: their lists, in source order.
	lists []*shList
}

// shPipe is a pipeline: cmd | cmd | …
type shPipe struct {
	bang bool
	cmds []*shCmd
}

// shAndOr is pipelines joined by && and ||, ended by ; & or a newline.
type shAndOr struct {
	pipes []*shPipe
	ops   []string // ops[i] joins pipes[i] and pipes[i+1]
	async bool
	start int
	// after is the offset just past the terminator (and past any
	// here-document bodies that follow it).
	after int
}

// shList is a sequence of and/or lists.
type shList struct{ items []*shAndOr }

// shError is the first construct the parser cannot read.
type shError struct {
	pos int
	msg string
}

type heredoc struct {
	delim string
	strip bool // <<-: leading tabs are stripped
}

// maxShDepth bounds the nesting of compound commands and substitutions.
const maxShDepth = 100

type shParser struct {
	src      string
	pos      int
	heredocs []heredoc
	err      *shError
	depth    int
}

func (p *shParser) fail(pos int, format string, args ...any) {
	if p.err == nil {
		p.err = &shError{pos: pos, msg: fmt.Sprintf(format, args...)}
	}
}

// parseSh parses a whole script; on an error it returns the commands read
// before it.
func parseSh(src string) (*shList, *shError) {
	p := &shParser{src: src}
	l := p.list(nil)
	if p.err == nil && p.pos < len(src) {
		p.fail(p.pos, "unexpected %q", p.peekText())
	}
	return l, p.err
}

// peekText is the text at pos, for messages.
func (p *shParser) peekText() string {
	if op := p.peekOp(); op != "" {
		return op
	}
	end := p.pos
	for end < len(p.src) && end < p.pos+20 && p.src[end] != '\n' {
		end++
	}
	return p.src[p.pos:end]
}

// skipSpace skips blanks, line continuations and a comment, not newlines.
func (p *shParser) skipSpace() {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; {
		case c == ' ' || c == '\t':
			p.pos++
		case c == '\\' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '\n':
			p.pos += 2
		case c == '#':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		default:
			return
		}
	}
}

var shOps = []string{"&&", "||", ";;", "<<-", "<<", ">>", "<&", ">&", "<>", ">|", ";", "&", "|", "(", ")", "<", ">", "\n"}

// peekOp returns the operator at pos, or "".
func (p *shParser) peekOp() string {
	p.skipSpace()
	rest := p.src[p.pos:]
	for _, op := range shOps {
		if strings.HasPrefix(rest, op) {
			return op
		}
	}
	return ""
}

func isRedirOp(op string) bool {
	switch op {
	case "<<-", "<<", ">>", "<&", ">&", "<>", ">|", "<", ">":
		return true
	}
	return false
}

func isMeta(c byte) bool {
	switch c {
	case ' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>':
		return true
	}
	return false
}

// peekWord returns the word at pos when it is plain (no quotes, no
// expansions, no escapes), else "": reserved words are plain.
func (p *shParser) peekWord() string {
	p.skipSpace()
	end := p.pos
	for end < len(p.src) && !isMeta(p.src[end]) {
		switch p.src[end] {
		case '\'', '"', '\\', '$', '`':
			return ""
		}
		end++
	}
	return p.src[p.pos:end]
}

// newline consumes a newline and the bodies of the here-documents that
// wait for it.
func (p *shParser) newline() {
	p.pos++
	docs := p.heredocs
	p.heredocs = nil
	for _, d := range docs {
		for {
			if p.pos >= len(p.src) {
				// sh ends a here-document at the end of the script too.
				return
			}
			eol := strings.IndexByte(p.src[p.pos:], '\n')
			line := p.src[p.pos:]
			next := len(p.src)
			if eol >= 0 {
				line, next = p.src[p.pos:p.pos+eol], p.pos+eol+1
			}
			p.pos = next
			if d.strip {
				line = strings.TrimLeft(line, "\t")
			}
			if line == d.delim {
				break
			}
		}
	}
}

// linebreaks skips newlines (and the here-documents after them).
func (p *shParser) linebreaks() {
	for p.err == nil && p.peekOp() == "\n" {
		p.newline()
	}
}

// atStop reports whether pos is at the end, or at a word or operator that
// ends the list being read.
func (p *shParser) atStop(stop map[string]bool) bool {
	p.skipSpace()
	if p.pos >= len(p.src) {
		return true
	}
	switch op := p.peekOp(); op {
	case ")", ";;":
		return stop[op]
	}
	w := p.peekWord()
	return w != "" && stop[w]
}

func stops(words ...string) map[string]bool {
	m := map[string]bool{}
	for _, w := range words {
		m[w] = true
	}
	return m
}

// list reads and/or lists until a stop word or the end.
func (p *shParser) list(stop map[string]bool) *shList {
	l := &shList{}
	for p.err == nil {
		p.linebreaks()
		if p.err != nil || p.atStop(stop) {
			return l
		}
		start := p.pos
		ao := p.andOr()
		if ao == nil {
			if p.err == nil {
				p.fail(p.pos, "unexpected %q", p.peekText())
			}
			return l
		}
		ao.start = start
		l.items = append(l.items, ao)
		switch op := p.peekOp(); op {
		case ";", "&":
			ao.async = op == "&"
			p.pos++
			ao.after = p.pos
		case "\n":
			p.newline()
			ao.after = p.pos
		default:
			ao.after = p.pos
			if p.err == nil && !p.atStop(stop) {
				p.fail(p.pos, "unexpected %q", p.peekText())
			}
			return l
		}
	}
	return l
}

func (p *shParser) andOr() *shAndOr {
	first := p.pipeline()
	if first == nil {
		return nil
	}
	ao := &shAndOr{pipes: []*shPipe{first}}
	for p.err == nil {
		op := p.peekOp()
		if op != "&&" && op != "||" {
			break
		}
		p.pos += 2
		p.linebreaks()
		next := p.pipeline()
		if next == nil {
			p.fail(p.pos, "a command must follow %s", op)
			break
		}
		ao.ops = append(ao.ops, op)
		ao.pipes = append(ao.pipes, next)
	}
	return ao
}

func (p *shParser) pipeline() *shPipe {
	pp := &shPipe{}
	if p.peekWord() == "!" {
		pp.bang = true
		p.pos++
	}
	for p.err == nil {
		c := p.command()
		if c == nil {
			if len(pp.cmds) > 0 || pp.bang {
				p.fail(p.pos, "a command must follow %s", map[bool]string{true: "|", false: "!"}[len(pp.cmds) > 0])
			}
			return nil
		}
		pp.cmds = append(pp.cmds, c)
		if p.peekOp() != "|" {
			break
		}
		p.pos++
		p.linebreaks()
	}
	if len(pp.cmds) == 0 {
		return nil
	}
	return pp
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func (p *shParser) enter() bool {
	p.depth++
	if p.depth > maxShDepth {
		p.fail(p.pos, "commands nested more than %d deep", maxShDepth)
		return false
	}
	return true
}

// command reads one command, or returns nil when none starts at pos.
func (p *shParser) command() *shCmd {
	if !p.enter() {
		return nil
	}
	defer func() { p.depth-- }()
	p.skipSpace()
	start := p.pos
	if p.pos >= len(p.src) {
		return nil
	}
	op := p.peekOp()
	if op == "(" {
		return p.compound()
	}
	if op != "" && !isRedirOp(op) {
		return nil
	}
	switch w := p.peekWord(); w {
	case "{", "if", "while", "until", "for", "case":
		return p.compound()
	case "function":
		// bash's and ksh's form: function name [()] compound.
		p.pos += len(w)
		name := p.peekWord()
		if !isName(name) {
			p.fail(p.pos, "function must be followed by a name")
			return nil
		}
		p.pos += len(name)
		if p.peekOp() == "(" {
			p.pos++
			if p.peekOp() != ")" {
				p.fail(p.pos, "function %s ( must be followed by )", name)
				return nil
			}
			p.pos++
		}
		c := p.funcBody(start, name)
		if c != nil {
			c.keyword = true
		}
		return c
	case "then", "else", "elif", "fi", "do", "done", "esac", "}", "!":
		return nil
	default:
		if isName(w) {
			save := p.pos
			p.pos += len(w)
			if p.peekOp() == "(" {
				p.pos++
				if p.peekOp() != ")" {
					p.fail(p.pos, "%s( must be followed by ) to define a function", w)
					return nil
				}
				p.pos++
				return p.funcBody(start, w)
			}
			p.pos = save
		}
	}
	return p.simple()
}

func (p *shParser) funcBody(start int, name string) *shCmd {
	p.linebreaks()
	body := p.compound()
	if body == nil {
		p.fail(p.pos, "the body of function %s must be a compound command ({ …; } or ( … ))", name)
		return nil
	}
	return &shCmd{kind: cmdFunc, start: start, end: p.pos, name: name, body: body}
}

// expect consumes the reserved word w, or fails.
func (p *shParser) expect(w string, what string, at int) bool {
	p.linebreaks()
	if p.err != nil {
		return false
	}
	if p.peekWord() != w {
		p.fail(p.pos, "%s on line %d has no %s", what, lineAt(p.src, at), w)
		return false
	}
	p.pos += len(w)
	return true
}

// compound reads a compound command and its redirections.
func (p *shParser) compound() *shCmd {
	p.skipSpace()
	start := p.pos
	c := &shCmd{start: start}
	if p.peekOp() == "(" {
		p.subshell(c, start)
	} else {
		w := p.peekWord()
		p.pos += len(w)
		ok := true
		switch w {
		case "{":
			c.kind = cmdBrace
			c.add(p.list(stops("}")))
			p.expect("}", "the {", start)
		case "if":
			p.ifClause(c, start)
		case "while", "until":
			p.whileClause(c, w, start)
		case "for":
			ok = p.forClause(c, start)
		case "case":
			ok = p.caseClause(c, start)
		default:
			p.pos -= len(w)
			return nil
		}
		if !ok {
			return nil
		}
	}
	p.redirects(c)
	c.end = p.pos
	return c
}

// add appends a list of commands to c's.
func (c *shCmd) add(l *shList) { c.lists = append(c.lists, l) }

// subshell reads ( list ), at the (.
func (p *shParser) subshell(c *shCmd, start int) {
	p.pos++
	c.kind = cmdSubshell
	c.add(p.list(stops(")")))
	p.linebreaks()
	if p.err == nil && p.peekOp() != ")" {
		p.fail(p.pos, "the ( on line %d has no )", lineAt(p.src, start))
	}
	p.pos = min(p.pos+1, len(p.src))
}

// ifClause reads the rest of if ... then ... [elif ...] [else ...] fi.
func (p *shParser) ifClause(c *shCmd, start int) {
	c.kind = cmdIf
	c.add(p.list(stops("then")))
	p.expect("then", "the if", start)
	c.add(p.list(stops("elif", "else", "fi")))
	for p.err == nil {
		switch p.peekWord() {
		case "elif":
			p.pos += 4
			c.add(p.list(stops("then")))
			p.expect("then", "the elif", start)
			c.add(p.list(stops("elif", "else", "fi")))
			continue
		case "else":
			p.pos += 4
			c.add(p.list(stops("fi")))
		}
		break
	}
	p.expect("fi", "the if", start)
}

// whileClause reads the rest of while (or until, w) ... do ... done.
func (p *shParser) whileClause(c *shCmd, w string, start int) {
	c.kind = cmdWhile
	if w == "until" {
		c.kind = cmdUntil
	}
	c.add(p.list(stops("do")))
	p.expect("do", "the "+w, start)
	c.add(p.list(stops("done")))
	p.expect("done", "the "+w, start)
}

// forClause reads the rest of for name [in words] do ... done; false
// when it is not one.
func (p *shParser) forClause(c *shCmd, start int) bool {
	c.kind = cmdFor
	name := p.peekWord()
	if !isName(name) {
		p.fail(p.pos, "for must be followed by a name")
		return false
	}
	c.name = name
	p.pos += len(name)
	p.linebreaks()
	if p.peekWord() == "in" {
		p.pos += 2
		p.forWords(c)
	}
	if p.peekOp() == ";" {
		p.pos++
	}
	if !p.expect("do", "the for", start) {
		return false
	}
	c.add(p.list(stops("done")))
	p.expect("done", "the for", start)
	return true
}

// forWords reads the words after for name in, up to an operator.
func (p *shParser) forWords(c *shCmd) {
	for p.err == nil {
		p.skipSpace()
		if op := p.peekOp(); op != "" {
			break
		}
		s := p.pos
		end := p.scanWord(s)
		if end == s {
			break
		}
		c.words = append(c.words, span{s, end})
		p.pos = end
	}
}

// caseClause reads the rest of case word in [(]pattern[|pattern]) list
// ;; ... esac; false when it is not one.
func (p *shParser) caseClause(c *shCmd, start int) bool {
	c.kind = cmdCase
	p.skipSpace()
	s := p.pos
	end := p.scanWord(s)
	if end == s {
		p.fail(p.pos, "case must be followed by a word")
		return false
	}
	c.words = append(c.words, span{s, end})
	p.pos = end
	if !p.expect("in", "the case", start) {
		return false
	}
	for p.err == nil {
		p.linebreaks()
		if p.peekWord() == "esac" {
			p.pos += 4
			break
		}
		if p.pos >= len(p.src) {
			p.fail(start, "the case on line %d has no esac", lineAt(p.src, start))
			break
		}
		if !p.caseItem(c, start) {
			break
		}
	}
	return true
}

// caseItem reads one item of a case: its patterns, ) and its list, up to
// ;; or esac; false when it cannot go on.
func (p *shParser) caseItem(c *shCmd, start int) bool {
	if p.peekOp() == "(" {
		p.pos++
	}
	p.casePatterns()
	if p.err != nil {
		return false
	}
	if p.peekOp() != ")" {
		p.fail(p.pos, "a case pattern on line %d must end with )", lineAt(p.src, p.pos))
		return false
	}
	p.pos++
	c.add(p.list(stops(";;", "esac")))
	if p.peekOp() == ";;" {
		p.pos += 2
	} else if p.err == nil && p.peekWord() != "esac" {
		p.fail(p.pos, "the case on line %d has no esac", lineAt(p.src, start))
	}
	return true
}

// casePatterns reads a case item's patterns, pattern|pattern.
func (p *shParser) casePatterns() {
	for p.err == nil {
		p.skipSpace()
		s := p.pos
		end := p.scanWord(s)
		if end == s {
			p.fail(p.pos, "a case pattern is missing on line %d", lineAt(p.src, p.pos))
			break
		}
		p.pos = end
		if p.peekOp() == "|" {
			p.pos++
			continue
		}
		break
	}
}

// redirects reads the redirections after a compound command.
func (p *shParser) redirects(c *shCmd) {
	for p.err == nil {
		p.skipSpace()
		j := p.pos
		for j < len(p.src) && p.src[j] >= '0' && p.src[j] <= '9' {
			j++
		}
		if j >= len(p.src) || (p.src[j] != '<' && p.src[j] != '>') {
			return
		}
		fd := p.src[p.pos:j]
		p.pos = j
		p.redirect(c, fd)
	}
}

// redirect reads one redirection at pos (after its fd).
func (p *shParser) redirect(c *shCmd, fd string) {
	op := p.peekOp()
	p.pos += len(op)
	p.skipSpace()
	s := p.pos
	end := p.scanWord(s)
	if end == s {
		p.fail(p.pos, "%s must be followed by a word", op)
		return
	}
	p.pos = end
	c.redirs = append(c.redirs, shRedir{fd: fd, op: op, target: span{s, end}})
	if op == "<<" || op == "<<-" {
		d := p.src[s:end]
		// A quoted delimiter is its text without the quotes.
		d = strings.NewReplacer(`'`, "", `"`, "", `\`, "").Replace(d)
		p.heredocs = append(p.heredocs, heredoc{delim: d, strip: op == "<<-"})
	}
}

// simple reads a simple command: assignments, words and redirections.
func (p *shParser) simple() *shCmd {
	c := &shCmd{kind: cmdSimple, start: p.pos}
	for p.err == nil {
		p.skipSpace()
		if p.pos >= len(p.src) {
			break
		}
		op := p.peekOp()
		if isRedirOp(op) {
			p.redirect(c, "")
			continue
		}
		if op != "" {
			break
		}
		s := p.pos
		end := p.scanWord(s)
		if end == s {
			break
		}
		if end < len(p.src) && (p.src[end] == '<' || p.src[end] == '>') && allDigits(p.src[s:end]) {
			p.pos = end
			p.redirect(c, p.src[s:end])
			continue
		}
		p.pos = end
		if len(c.words) == 0 {
			if a, ok := assignWord(p.src, s, end); ok {
				c.assigns = append(c.assigns, a)
				continue
			}
		}
		c.words = append(c.words, span{s, end})
	}
	c.end = p.pos
	if len(c.words) == 0 && len(c.assigns) == 0 && len(c.redirs) == 0 {
		return nil
	}
	return c
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// assignWord reads NAME=value from the word src[s:end].
func assignWord(src string, s, end int) (shAssign, bool) {
	eq := strings.IndexByte(src[s:end], '=')
	if eq <= 0 || !isName(src[s:s+eq]) {
		return shAssign{}, false
	}
	return shAssign{name: src[s : s+eq], start: s, valStart: s + eq + 1, valEnd: end}, true
}

// scanWord returns the end of the word that starts at i.
func (p *shParser) scanWord(i int) int {
	src := p.src
	for i < len(src) && p.err == nil {
		switch c := src[i]; c {
		case ' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>':
			return i
		default:
			i = p.skipQuoting(i)
		}
	}
	return min(i, len(src))
}

// skipQuoting returns the offset past the escape, quoted string or
// expansion that starts at src[i], or i+1 when src[i] starts none: the
// quoting a word and a ${…} read alike.
func (p *shParser) skipQuoting(i int) int {
	src := p.src
	switch src[i] {
	case '\\':
		return i + 2
	case '\'':
		j := strings.IndexByte(src[i+1:], '\'')
		if j < 0 {
			p.fail(i, "an unterminated single-quoted string")
			return len(src)
		}
		return i + j + 2
	case '"':
		return p.scanDouble(i + 1)
	case '`':
		return p.scanBackquote(i)
	case '$':
		return p.scanDollar(i)
	}
	return i + 1
}

// scanDouble returns the offset past the " that closes the double-quoted
// string whose content starts at i.
func (p *shParser) scanDouble(i int) int {
	src := p.src
	for i < len(src) && p.err == nil {
		switch src[i] {
		case '"':
			return i + 1
		case '\\':
			i += 2
		case '$':
			i = p.scanDollar(i)
		case '`':
			i = p.scanBackquote(i)
		default:
			i++
		}
	}
	p.fail(len(src), "an unterminated double-quoted string")
	return len(src)
}

func (p *shParser) scanBackquote(i int) int {
	src := p.src
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '`':
			return j + 1
		}
	}
	p.fail(i, "an unterminated `backquoted` command")
	return len(src)
}

// scanDollar returns the offset past the expansion at src[i] == '$'.
func (p *shParser) scanDollar(i int) int {
	src := p.src
	rest := src[i+1:]
	switch {
	case strings.HasPrefix(rest, "(("):
		depth := 0
		for j := i + 1; j < len(src); j++ {
			switch src[j] {
			case '(':
				depth++
			case ')':
				depth--
				if depth == 0 {
					return j + 1
				}
			case '\\':
				j++
			}
		}
		p.fail(i, "an unterminated $((")
		return len(src)
	case strings.HasPrefix(rest, "("):
		_, end := p.subst(i + 2)
		return end
	case strings.HasPrefix(rest, "{"):
		for j := i + 2; j < len(src) && p.err == nil; {
			if src[j] == '}' {
				return j + 1
			}
			j = p.skipQuoting(j)
		}
		p.fail(i, "an unterminated ${")
		return len(src)
	}
	return i + 1
}

// subst parses the command list of a $( substitution whose content starts
// at i, and returns it with the offset past its ).
func (p *shParser) subst(i int) (*shList, int) {
	if !p.enter() {
		return nil, len(p.src)
	}
	defer func() { p.depth-- }()
	savePos, saveDocs := p.pos, p.heredocs
	p.pos, p.heredocs = i, nil
	l := p.list(stops(")"))
	p.linebreaks()
	if p.err == nil && p.peekOp() != ")" {
		p.fail(i-2, "an unterminated $( command substitution")
	}
	end := min(p.pos+1, len(p.src))
	p.pos, p.heredocs = savePos, saveDocs
	return l, end
}

// lineAt is the 1-based line of offset off.
func lineAt(src string, off int) int {
	return strings.Count(src[:min(off, len(src))], "\n") + 1
}

// lines answers lineAt fast for one source.
type lines []int

func newLines(src string) lines {
	ls := lines{0}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			ls = append(ls, i+1)
		}
	}
	return ls
}

func (ls lines) at(off int) int {
	return sort.Search(len(ls), func(i int) bool { return ls[i] > off })
}

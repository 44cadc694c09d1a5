// Package migrate turns shell claims gates into claims files: scripts whose
// rows are strings such as P1@path@regex@why (a presence row) and
// Q1@path@anchor@regex@why (an anchored row), held in shell variables,
// with knobs such as RANGE_RE='D1\.\.D48' expanded into them.
//
// It reads the script, it never runs it (except for Compare, which runs it
// on purpose) and never edits or deletes it. It evaluates the script's
// assignments the way sh does, for a subset of sh: quoting, parameter
// expansion of assigned names, command substitution of printf, echo and
// sed s/// pipelines and of the script's own shell functions (D63). What
// it cannot evaluate (another command, an unset variable, an assignment
// inside a loop, a back-reference) is not guessed: the rows that depend on
// it are listed as untranslated, each with its reason.
package migrate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/claimslint/claimslint/internal/register"
)

// value is the result of evaluating a shell word: its text, or why it
// could not be evaluated.
type value struct {
	text string
	bad  string // non-empty: the reason the word has no known value
}

// knobs are the variables assigned so far, in script order.
type knobs map[string]value

func (k knobs) clone() knobs {
	out := make(knobs, len(k))
	for n, v := range k {
		out[n] = v
	}
	return out
}

// shFunc is a function the script defines.
type shFunc struct {
	owner *script // the script whose source holds the body
	body  *shCmd
	line  int
	bad   string // non-empty: why the function's definition is not known
}

// script is a shell script being read.
type script struct {
	src   string
	ln    lines
	knobs knobs
	funcs map[string]*shFunc
	// assigns records every assignment, top level or not, with the line
	// it starts on, so the rows inside them can be found.
	assigns []assign
	// parseErr is the first construct the parser could not read; nothing
	// after it is read.
	parseErr *shError
	substs   map[int]parsedSubst
	// exited says where an unconditional exit ran.
	exited string
	// shell is the interpreter the shebang names ("sh" without one).
	shell string
}

type parsedSubst struct {
	list *shList
	end  int
	err  *shError
}

type assign struct {
	name string
	val  value
	line int // 1-based line of NAME=
	// start, end is the span of the value.
	start, end int
	// runs is true for an assignment sh runs once at the top level, in
	// order; val is then its value. Otherwise val says where it is.
	runs bool
	// after is where the value stands at the top level: the offset past
	// the command's terminator; -1 when another assignment on the same
	// command may change it.
	after int
	// knobs are the variables in effect, kept when a top-level value is
	// bad so its lines can be read one by one.
	knobs knobs
}

func newScript(src string) *script {
	return &script{src: src, ln: newLines(src), knobs: knobs{}, funcs: map[string]*shFunc{}, substs: map[int]parsedSubst{}, shell: shebang(src)}
}

// shebang names the interpreter of a script's #! line, "sh" without one.
func shebang(src string) string {
	first, _, _ := strings.Cut(src, "\n")
	if !strings.HasPrefix(first, "#!") {
		return "sh"
	}
	f := strings.Fields(strings.TrimPrefix(first, "#!"))
	if len(f) == 0 {
		return "sh"
	}
	name := f[0][strings.LastIndexByte(f[0], '/')+1:]
	if name == "env" && len(f) > 1 {
		name = f[1]
	}
	return name
}

func (s *script) line(off int) int { return s.ln.at(off) }

// read parses src and evaluates its top-level assignments in order.
func read(src string) *script {
	s := newScript(src)
	prog, err := parseSh(src)
	s.parseErr = err
	s.walk(prog, walkMode{})
	sort.SliceStable(s.assigns, func(i, j int) bool { return s.assigns[i].start < s.assigns[j].start })
	return s
}

// walkMode says how the commands being walked run.
type walkMode struct {
	// cond: they may not run, or run more than once (inside an if, a loop,
	// after && or ||): the names they assign have no known value after.
	cond string
	// noEffect: they run in a subshell, or in a function body: they do not
	// change the script's variables here.
	noEffect string
}

func (m walkMode) where() string {
	if m.noEffect != "" {
		return m.noEffect
	}
	return m.cond
}

func (s *script) walk(l *shList, m walkMode) {
	if l == nil {
		return
	}
	for _, ao := range l.items {
		for k, pipe := range ao.pipes {
			mm := m
			line := s.line(pipe.cmds[0].start)
			if mm.noEffect == "" && ao.async {
				mm.noEffect = fmt.Sprintf("in the background (&) on line %d", line)
			}
			if mm.cond == "" && k > 0 {
				word := "succeeds"
				if ao.ops[k-1] == "||" {
					word = "fails"
				}
				mm.cond = fmt.Sprintf("only when the command before %s on line %d %s", ao.ops[k-1], line, word)
			}
			if mm.noEffect == "" && len(pipe.cmds) > 1 {
				mm.noEffect = fmt.Sprintf("in the pipeline on line %d, whose commands sh runs in subshells", line)
			}
			after := ao.after
			if len(ao.pipes) > 1 {
				after = -1
			}
			for _, c := range pipe.cmds {
				s.exec(c, mm, after)
			}
		}
	}
}

// exec runs one command at the top level as far as variables go.
func (s *script) exec(c *shCmd, m walkMode, after int) {
	line := s.line(c.start)
	switch c.kind {
	case cmdSimple:
		s.simple(c, m, after)
	case cmdFunc:
		switch {
		case m.where() != "":
			s.funcs[c.name] = &shFunc{bad: fmt.Sprintf("the function %s is defined %s", c.name, m.where()), line: line}
		case s.exited != "":
			s.funcs[c.name] = &shFunc{bad: s.exited, line: line}
		case c.keyword && s.shell != "bash" && s.shell != "ksh" && s.shell != "zsh":
			// dash, sh on Debian and Ubuntu, does not read it.
			s.funcs[c.name] = &shFunc{bad: fmt.Sprintf("function %s { … } (line %d) is bash's and ksh's form, which sh does not read: write %s() { … }, or name bash in the script's #! line", c.name, line, c.name), line: line}
		default:
			s.funcs[c.name] = &shFunc{owner: s, body: c.body, line: line}
		}
		s.exec(c.body, walkMode{cond: m.cond, noEffect: fmt.Sprintf("inside the function %s (line %d), which runs only when it is called", c.name, line)}, -1)
	case cmdBrace:
		for _, l := range c.lists {
			s.walk(l, m)
		}
	case cmdSubshell:
		if m.noEffect == "" {
			m.noEffect = fmt.Sprintf("inside the ( … ) subshell on line %d, whose assignments do not reach the script", line)
		}
		for _, l := range c.lists {
			s.walk(l, m)
		}
	default:
		if m.cond == "" {
			how := "which runs it or not as the run goes"
			if c.kind == cmdWhile || c.kind == cmdUntil || c.kind == cmdFor {
				how = "which runs it as often as the run goes"
			}
			m.cond = fmt.Sprintf("inside the %s on line %d, %s", c.kind.keyword(), line, how)
		}
		if c.kind == cmdFor && m.noEffect == "" {
			s.knobs[c.name] = value{bad: fmt.Sprintf("it is the variable of the for loop on line %d", line)}
		}
		for _, l := range c.lists {
			s.walk(l, m)
		}
	}
}

// specialBuiltins keep the assignments written before them (POSIX 2.14).
var specialBuiltins = map[string]bool{":": true, ".": true, "eval": true, "exec": true, "exit": true, "export": true, "readonly": true, "return": true, "set": true, "shift": true, "times": true, "trap": true, "unset": true, "break": true, "continue": true}

// simple runs a simple command: its assignments, and what a declaring
// built-in, unset, read, eval, exit or a function call does to the
// variables.
func (s *script) simple(c *shCmd, m walkMode, after int) {
	line := s.line(c.start)
	if len(c.words) == 0 {
		s.assignOnly(c, m, after)
		return
	}
	name := s.plain(c.words[0])
	for _, a := range c.assigns {
		if specialBuiltins[name] {
			s.set(a, walkMode{cond: fmt.Sprintf("before the special built-in %s on line %d", name, line), noEffect: m.noEffect}, -1)
		} else {
			s.record(a, value{bad: fmt.Sprintf("it is assigned for the command %s on line %d only", name, line)}, false, -1)
		}
	}
	args := c.words[1:]
	if s.declare(name, args, m, line, after) || m.noEffect != "" {
		return
	}
	s.builtin(name, args, m, line)
}

// assignOnly runs a command of assignments alone; an assignment a later
// one of the command overrides does not hold after it.
func (s *script) assignOnly(c *shCmd, m walkMode, after int) {
	for i, a := range c.assigns {
		at := after
		for _, b := range c.assigns[i+1:] {
			if b.name == a.name {
				at = -1
			}
		}
		s.set(a, m, at)
	}
}

// declare runs the assignments in the arguments of export, readonly,
// declare, typeset and local, and says whether name was one of them.
func (s *script) declare(name string, args []span, m walkMode, line, after int) bool {
	decl := func(mm walkMode) {
		for _, w := range args {
			if a, ok := assignWord(s.src, w.start, w.end); ok {
				s.set(a, mm, after)
			}
		}
	}
	bash := s.shell == "bash" || s.shell == "ksh" || s.shell == "zsh"
	switch {
	case name == "export" || name == "readonly" || (name == "declare" || name == "typeset") && bash:
		decl(m)
	case name == "declare" || name == "typeset":
		decl(walkMode{noEffect: fmt.Sprintf("by %s on line %d, which sh does not have (it is bash's)", name, line)})
	case name == "local" && m.noEffect == "":
		decl(walkMode{noEffect: fmt.Sprintf("by local outside a function on line %d, which sh refuses", line)})
	case name == "local":
		decl(m)
	default:
		return false
	}
	return true
}

// builtin runs what unset, read, getopts, eval, ., source, exit or a call
// of a function does to the variables.
func (s *script) builtin(name string, args []span, m walkMode, line int) {
	maybe := ""
	if m.cond != "" {
		maybe = ", " + m.cond
	}
	switch name {
	case "unset":
		for _, w := range args {
			if n := s.plain(w); isName(n) {
				s.knobs[n] = value{bad: fmt.Sprintf("it is unset on line %d%s", line, maybe)}
				delete(s.funcs, n)
			}
		}
	case "read", "getopts":
		for _, w := range args {
			if n := s.plain(w); isName(n) {
				s.knobs[n] = value{bad: fmt.Sprintf("%s sets it on line %d from what the run reads", name, line)}
			}
		}
	case "eval", ".", "source":
		s.opaque(fmt.Sprintf("after the %s on line %d, which can assign any variable", name, line))
	case "exit":
		if m.cond == "" && s.exited == "" {
			s.exited = fmt.Sprintf("the script exits on line %d, before it", line)
		}
	default:
		if fn := s.funcs[name]; fn != nil && fn.bad == "" {
			names, opaque := fn.assigned(map[*shFunc]bool{})
			if opaque {
				s.opaque(fmt.Sprintf("after the call of %s on line %d, which runs eval or .", name, line))
			}
			for _, n := range names {
				s.knobs[n] = value{bad: fmt.Sprintf("the function %s, called on line %d, may assign it", name, line)}
			}
		}
	}
}

// opaque forgets every variable and function: something ran that can
// assign any of them.
func (s *script) opaque(reason string) {
	for n := range s.knobs {
		s.knobs[n] = value{bad: reason}
	}
	for n := range s.funcs {
		s.funcs[n] = &shFunc{bad: reason}
	}
}

// assigned lists the names a function's body may assign when it is
// called, through the functions it calls; opaque is true when it runs
// eval or . (which may assign anything).
func (fn *shFunc) assigned(seen map[*shFunc]bool) (names []string, opaque bool) {
	if seen[fn] || fn.body == nil {
		return nil, false
	}
	seen[fn] = true
	a := &assignedWalk{s: fn.owner, seen: seen}
	a.cmd(fn.body)
	return a.names, a.opaque
}

// assignedWalk gathers what assigned reports over a function's commands.
type assignedWalk struct {
	s      *script
	seen   map[*shFunc]bool
	names  []string
	opaque bool
}

func (a *assignedWalk) list(l *shList) {
	if l == nil {
		return
	}
	for _, ao := range l.items {
		for _, p := range ao.pipes {
			for _, c := range p.cmds {
				a.cmd(c)
			}
		}
	}
}

func (a *assignedWalk) cmd(c *shCmd) {
	if c == nil {
		return
	}
	for _, as := range c.assigns {
		a.names = append(a.names, as.name)
	}
	if c.kind == cmdFor {
		a.names = append(a.names, c.name)
	}
	if c.kind == cmdSimple && len(c.words) > 0 {
		a.simple(c)
	}
	a.cmd(c.body)
	for _, l := range c.lists {
		a.list(l)
	}
}

// simple is what a simple command assigns: the names a declaring
// built-in, read or getopts names, what a function it calls assigns;
// eval, . and source may assign anything.
func (a *assignedWalk) simple(c *shCmd) {
	s := a.s
	switch name := s.plain(c.words[0]); name {
	case "eval", ".", "source":
		a.opaque = true
	case "export", "readonly", "read", "getopts", "local":
		for _, w := range c.words[1:] {
			if as, ok := assignWord(s.src, w.start, w.end); ok {
				a.names = append(a.names, as.name)
			} else if n := s.plain(w); isName(n) {
				a.names = append(a.names, n)
			}
		}
	default:
		if callee := s.funcs[name]; callee != nil {
			if callee.bad != "" {
				a.opaque = true
			} else {
				n, o := callee.assigned(a.seen)
				a.names = append(a.names, n...)
				a.opaque = a.opaque || o
			}
		}
	}
}

// plain is a word's text when it has no quote, escape or expansion, else "".
func (s *script) plain(w span) string {
	t := s.src[w.start:w.end]
	if strings.ContainsAny(t, "'\"\\$`") {
		return ""
	}
	return t
}

// set runs (or records) one assignment.
func (s *script) set(a shAssign, m walkMode, after int) {
	switch {
	case m.noEffect != "":
		s.record(a, value{bad: "it is assigned " + m.noEffect}, false, -1)
	case m.cond != "":
		v := value{bad: "it is assigned " + m.cond}
		s.knobs[a.name] = v
		s.record(a, v, false, -1)
	case s.exited != "":
		v := value{bad: s.exited}
		s.knobs[a.name] = v
		s.record(a, v, false, -1)
	default:
		f := &frame{s: s, globals: s.knobs, funcs: s.funcs}
		v, _ := f.word(a.valStart, a.valEnd, modeAssign)
		s.knobs[a.name] = v
		s.record(a, v, true, after)
	}
}

func (s *script) record(a shAssign, v value, runs bool, after int) {
	as := assign{name: a.name, val: v, line: s.line(a.start), start: a.valStart, end: a.valEnd, runs: runs, after: after}
	if runs && v.bad != "" {
		as.knobs = s.knobs.clone()
	}
	s.assigns = append(s.assigns, as)
}

// frame is where words are evaluated: the top level, a command
// substitution (a subshell) or a function called from one.
type frame struct {
	s       *script // whose source the spans index
	globals knobs
	funcs   map[string]*shFunc
	// params are the positional parameters of a function call; fn names
	// the function (params are nil at the top level).
	params []string
	fn     string
	// vars are assigned inside a command substitution, which is a subshell.
	vars  knobs
	depth int
	// steps counts the substitutions and calls of one top-level word.
	steps *int
}

// maxEvalDepth bounds nested substitutions and function calls, and
// maxEvalSteps their number in one word: a function that calls itself
// twice would take 2^depth steps.
const (
	maxEvalDepth = 50
	maxEvalSteps = 10000
)

// step counts one substitution or call; it reports false past the bound.
func (f *frame) step() bool {
	if f.steps == nil {
		f.steps = new(int)
	}
	*f.steps++
	return f.depth < maxEvalDepth && *f.steps <= maxEvalSteps
}

const tooDeep = "command substitutions and function calls nested too deep, or too many"

// maxValue bounds the text of one evaluated word (D90): a gate that runs
// A="$A$A" forty times would hold 2^40 bytes. A value a claim is made of
// (a path, a pattern, a command's output) is far shorter.
const maxValue = 64 << 10

var tooLong = fmt.Sprintf("its value grows past %d KiB, more than migrate evaluates (D90)", maxValue>>10)

// bounded is w, appended to n bytes already built, or tooLong when that
// would pass maxValue.
func bounded(n int, w value) value {
	if n+len(w.text) > maxValue {
		return value{bad: tooLong}
	}
	return w
}

func (f *frame) lookup(name string) value {
	v, ok := f.vars[name]
	if !ok {
		v, ok = f.globals[name]
	}
	if !ok {
		return value{bad: fmt.Sprintf("$%s is not assigned in the script before it is used", name)}
	}
	if v.bad != "" {
		return value{bad: fmt.Sprintf("$%s: %s", name, v.bad)}
	}
	return v
}

type wordMode int

const (
	modeAssign wordMode = iota // NAME=word: no field splitting, no pathname expansion
	modeArg                    // a command's word: both, so migrate refuses what they would change
)

// word evaluates the word src[i:end]. keep is false when the word has no
// quote and no literal character, so an empty result is no word at all.
func (f *frame) word(i, end int, mode wordMode) (v value, keep bool) {
	src := f.s.src
	start := i
	var b strings.Builder
	setBad := func(r string) {
		if v.bad == "" {
			v.bad = r
		}
	}
	for i < end {
		c := src[i]
		switch {
		case c == '\\':
			if i+1 < end && src[i+1] == '\n' {
				i += 2
				continue
			}
			if i+1 < end {
				b.WriteByte(src[i+1])
			}
			keep = true
			i += 2
		case c == '\'':
			j := strings.IndexByte(src[i+1:end], '\'')
			if j < 0 {
				setBad("unterminated single-quoted string")
				i = end
				continue
			}
			b.WriteString(src[i+1 : i+1+j])
			keep = true
			i += j + 2
		case c == '"':
			w, next := f.double(i+1, end)
			w = bounded(b.Len(), w)
			b.WriteString(w.text)
			if w.bad != "" {
				setBad(w.bad)
			}
			keep = true
			i = next
		case c == '$':
			w, next := f.dollar(i, end, false)
			w = bounded(b.Len(), w)
			if w.bad != "" {
				setBad(w.bad)
			} else if mode == modeArg {
				if r := f.splits(w.text); r != "" {
					setBad(fmt.Sprintf("sh splits the unquoted %s into fields and expands it as file names (%s): quote it", src[i:next], r))
				}
			}
			b.WriteString(w.text)
			i = next
		case c == '`':
			setBad(backquoteMsg)
			i = skipBackquote(src, i, end)
		case c == '~' && i == start:
			setBad("sh expands a ~ at the start of a word (tilde expansion), which migrate does not evaluate")
			b.WriteByte(c)
			keep = true
			i++
		case mode == modeArg && (c == '*' || c == '?' || c == '['):
			setBad(fmt.Sprintf("sh expands the unquoted %c in %s as a file name pattern: quote it", c, src[start:end]))
			b.WriteByte(c)
			keep = true
			i++
		default:
			b.WriteByte(c)
			keep = true
			i++
		}
	}
	v.text = b.String()
	return v, keep
}

const backquoteMsg = "a `backquoted` command substitution is not evaluated (write $(printf … | sed …))"

func skipBackquote(src string, i, end int) int {
	for j := i + 1; j < end; j++ {
		switch src[j] {
		case '\\':
			j++
		case '`':
			return j + 1
		}
	}
	return end
}

// splits says why sh would change the text of an unquoted expansion, or "".
func (f *frame) splits(text string) string {
	ifs := " \t\n"
	v, ok := f.vars["IFS"]
	if !ok {
		v, ok = f.globals["IFS"]
	}
	if ok {
		if v.bad != "" {
			if text != "" {
				return "IFS has no known value"
			}
			return ""
		}
		ifs = v.text
	}
	if ifs != "" && strings.ContainsAny(text, ifs) {
		return "it holds a character of IFS"
	}
	if strings.ContainsAny(text, "*?[") {
		return "it holds * ? or ["
	}
	return ""
}

// double evaluates a double-quoted string whose content starts at i; it
// returns the offset past the closing quote.
func (f *frame) double(i, end int) (value, int) {
	src := f.s.src
	var b strings.Builder
	bad := ""
	for i < end {
		c := src[i]
		switch c {
		case '"':
			return value{text: b.String(), bad: bad}, i + 1
		case '\\':
			if i+1 < end {
				switch n := src[i+1]; n {
				case '$', '`', '"', '\\':
					b.WriteByte(n)
				case '\n':
				default:
					b.WriteByte('\\')
					b.WriteByte(n)
				}
			}
			i += 2
		case '$':
			w, next := f.dollar(i, end, true)
			w = bounded(b.Len(), w)
			b.WriteString(w.text)
			if bad == "" {
				bad = w.bad
			}
			i = next
		case '`':
			if bad == "" {
				bad = backquoteMsg
			}
			i = skipBackquote(src, i, end)
		default:
			b.WriteByte(c)
			i++
		}
	}
	if bad == "" {
		bad = "unterminated double-quoted string"
	}
	return value{text: b.String(), bad: bad}, end
}

var nameRE = register.LazyRE(`^[A-Za-z_][A-Za-z0-9_]*`)

// dollar evaluates the expansion at src[i] == '$'.
func (f *frame) dollar(i, end int, quoted bool) (value, int) {
	src := f.s.src
	rest := src[i+1 : end]
	switch {
	case strings.HasPrefix(rest, "(("):
		p := &shParser{src: src[:end]}
		return value{bad: "an arithmetic expansion $((…)) is not evaluated"}, min(p.scanDollar(i), end)
	case strings.HasPrefix(rest, "("):
		ps := f.s.substAt(i, end)
		if ps.err != nil {
			return value{bad: fmt.Sprintf("cannot read the command substitution on line %d: %s", f.s.line(i), ps.err.msg)}, ps.end
		}
		return f.runSubst(ps.list), ps.end
	case strings.HasPrefix(rest, "{"):
		p := &shParser{src: src[:end]}
		close := min(p.scanDollar(i), end)
		expr := strings.TrimSuffix(src[min(i+2, close):close], "}")
		switch {
		case isName(expr):
			return f.lookup(expr), close
		case allDigits(expr):
			return f.param(expr), close
		}
		return value{bad: fmt.Sprintf("the expansion ${%s} is not evaluated (only plain ${NAME})", expr)}, close
	}
	if n := nameRE().FindString(rest); n != "" {
		return f.lookup(n), i + 1 + len(n)
	}
	if rest == "" {
		return value{text: "$"}, i + 1
	}
	switch c := rest[0]; {
	case c >= '0' && c <= '9':
		return f.param(rest[:1]), i + 2
	case c == '#' && f.params != nil:
		return value{text: fmt.Sprint(len(f.params))}, i + 2
	case c == '*' && f.params != nil && quoted:
		sep := " "
		if v, ok := f.globals["IFS"]; ok {
			if v.bad != "" {
				return value{bad: "$* joins with IFS, which has no known value"}, i + 2
			}
			sep = v.text[:min(1, len(v.text))]
		}
		return value{text: strings.Join(f.params, sep)}, i + 2
	case strings.IndexByte("@*#?$!-", c) >= 0:
		if f.params != nil {
			return value{bad: fmt.Sprintf("$%c in the function %s is not evaluated", c, f.fn)}, i + 2
		}
		return value{bad: fmt.Sprintf("$%c is set when the script runs, not in the script", c)}, i + 2
	case c == '\'' || c == '"':
		return value{bad: fmt.Sprintf("$%c…%c is bash's quoting, which sh reads as a $ and a string: not evaluated", c, c)}, i + 1
	}
	return value{text: "$"}, i + 1
}

// param is positional parameter n.
func (f *frame) param(n string) value {
	if f.params == nil {
		return value{bad: fmt.Sprintf("$%s is set when the script runs, not in the script", n)}
	}
	k := 0
	fmt.Sscan(n, &k)
	if k == 0 {
		return value{bad: fmt.Sprintf("$0 in the function %s is set when the script runs", f.fn)}
	}
	if k > len(f.params) {
		return value{bad: fmt.Sprintf("the function %s is called with %d argument(s), so $%s is unset", f.fn, len(f.params), n)}
	}
	return value{text: f.params[k-1]}
}

// substAt parses the $( substitution at src[i] once.
func (s *script) substAt(i, end int) parsedSubst {
	if ps, ok := s.substs[i]; ok {
		return ps
	}
	p := &shParser{src: s.src[:end]}
	l, e := p.subst(i + 2)
	ps := parsedSubst{list: l, end: e, err: p.err}
	s.substs[i] = ps
	return ps
}

// runSubst runs the commands of a command substitution in a subshell and
// returns their output without its trailing newlines.
func (f *frame) runSubst(l *shList) value {
	if !f.step() {
		return value{bad: tooDeep}
	}
	sub := f.subshell()
	out, bad := sub.runList(l, nil)
	if bad != "" {
		return value{bad: bad}
	}
	return value{text: strings.TrimRight(out, "\n")}
}

func (f *frame) subshell() *frame {
	sub := *f
	sub.vars = f.vars.clone()
	sub.depth++
	return &sub
}

// runList runs a command list; stdin is what it reads (nil: the script's
// own standard input, which migrate does not know).
func (f *frame) runList(l *shList, stdin *string) (string, string) {
	var out strings.Builder
	if l == nil {
		return "", ""
	}
	for _, ao := range l.items {
		if ao.async {
			return "", fmt.Sprintf("a command run in the background (&) on line %d is not evaluated", f.s.line(ao.start))
		}
		if len(ao.ops) > 0 {
			return "", fmt.Sprintf("%s in a command substitution is not evaluated (line %d)", ao.ops[0], f.s.line(ao.start))
		}
		o, bad := f.runPipe(ao.pipes[0], stdin)
		if bad != "" {
			return "", bad
		}
		out.WriteString(o)
	}
	return out.String(), ""
}

func (f *frame) runPipe(pp *shPipe, stdin *string) (string, string) {
	in := stdin
	var out string
	for _, c := range pp.cmds {
		fr := f
		if len(pp.cmds) > 1 {
			fr = f.subshell()
		}
		o, bad := fr.runCmd(c, in)
		if bad != "" {
			return "", bad
		}
		next := o
		in, out = &next, o
	}
	return out, ""
}

func (f *frame) runCmd(c *shCmd, in *string) (string, string) {
	discard, bad := f.redirs(c)
	if bad != "" {
		return "", bad
	}
	var out string
	switch c.kind {
	case cmdSimple:
		out, bad = f.runSimple(c, in)
	case cmdBrace:
		out, bad = f.runList(c.lists[0], in)
	case cmdSubshell:
		out, bad = f.subshell().runList(c.lists[0], in)
	default:
		return "", fmt.Sprintf("the %s on line %d is not evaluated in a command substitution (migrate evaluates printf, echo, sed s/// and the script's own functions)", c.kind.keyword(), f.s.line(c.start))
	}
	if discard {
		out = ""
	}
	return out, bad
}

// redirs accepts the redirections that leave standard output as it is, or
// discard it (>&2, >/dev/null).
func (f *frame) redirs(c *shCmd) (discard bool, bad string) {
	for _, r := range c.redirs {
		t, keep := f.word(r.target.start, r.target.end, modeArg)
		if t.bad != "" || !keep {
			return false, fmt.Sprintf("the redirection %s%s%s is not evaluated", r.fd, r.op, f.s.src[r.target.start:r.target.end])
		}
		out := r.fd == "" || r.fd == "1"
		switch {
		case r.fd == "2" && (r.op == ">" && t.text == "/dev/null" || r.op == ">&" && t.text == "1"):
		case out && (r.op == ">&" && t.text == "2" || r.op == ">" && t.text == "/dev/null"):
			discard = true
		default:
			return false, fmt.Sprintf("the redirection %s%s%s is not evaluated", r.fd, r.op, t.text)
		}
	}
	return discard, ""
}

func (f *frame) runSimple(c *shCmd, in *string) (string, string) {
	line := f.s.line(c.start)
	if len(c.words) == 0 {
		for _, a := range c.assigns {
			v, _ := f.word(a.valStart, a.valEnd, modeAssign)
			if v.bad != "" {
				return "", v.bad
			}
			if f.vars == nil {
				f.vars = knobs{}
			}
			f.vars[a.name] = v
		}
		return "", ""
	}
	if len(c.assigns) > 0 {
		return "", fmt.Sprintf("the assignment %s before a command on line %d is not evaluated", f.s.src[c.assigns[0].start:c.assigns[0].valEnd], line)
	}
	var args []string
	for _, w := range c.words {
		v, keep := f.word(w.start, w.end, modeArg)
		if v.bad != "" {
			return "", v.bad
		}
		if keep || v.text != "" {
			args = append(args, v.text)
		}
	}
	if len(args) == 0 {
		return "", ""
	}
	name, rest := args[0], args[1:]
	var out string
	var err error
	if fn := f.funcs[name]; fn != nil {
		if fn.bad != "" {
			return "", fmt.Sprintf("the function %s: %s", name, fn.bad)
		}
		if !f.step() {
			return "", tooDeep
		}
		callee := &frame{s: fn.owner, globals: f.globals, funcs: f.funcs, params: rest, fn: name, vars: f.vars, depth: f.depth + 1, steps: f.steps}
		if callee.vars == nil {
			callee.vars = knobs{}
			f.vars = callee.vars
		}
		return callee.runCmd(fn.body, in)
	}
	switch name {
	case "printf":
		out, err = printf(rest)
	case "echo":
		out, err = echo(rest)
	case "sed":
		if in == nil {
			return "", fmt.Sprintf("sed on line %d reads the script's standard input, which migrate does not know", line)
		}
		out, err = sed(rest, *in)
		*in = ""
	case ":", "true":
	default:
		return "", fmt.Sprintf("the command %q is not evaluated (migrate evaluates printf, echo, sed s/// and the script's own functions)", name)
	}
	if err != nil {
		return "", err.Error()
	}
	return out, ""
}

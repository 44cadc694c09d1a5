// Package region finds the block a line opens (D94): braces for the C
// family, indentation for Python and YAML, keyword pairs and braces for
// shell, a heading's section for Markdown. It reads a file through the
// regions its lexer found (codeline.Regions), so a brace, keyword or
// heading inside a comment or a string opens and closes nothing.
//
// An Index is built once per file in one pass, with a stack of openers, so
// the block any line opens is then a binary search (braces, shell) or a
// lookup (indentation, headings): no file, however it nests, makes finding
// its blocks superlinear.
package region

import (
	"bytes"
	"sort"

	"github.com/claimslint/claimslint/internal/codeline"
)

// Family is how a language delimits its blocks.
type Family uint8

// The families. None is a language whose blocks claimslint does not know.
const (
	None Family = iota
	Braces
	Indent
	Shell
	Headings
)

// FamilyOf returns the family of the lexer named lexer (codeline.Name).
func FamilyOf(lexer string) Family {
	switch lexer {
	case "go", "rust", "c", "cpp", "java", "js", "ts", "clike", "kotlin", "swift", "csharp", "css", "php":
		return Braces
	case "python", "yaml":
		return Indent
	case "shell":
		return Shell
	case "markdown":
		return Headings
	}
	return None
}

// Block is the lines a block holds: First..Last, 1-based and inclusive
// (Last = First-1 for an empty block). Open is the line of the match that
// opened it.
type Block struct {
	Open, First, Last int
}

// Empty reports whether the block holds no line.
func (b Block) Empty() bool { return b.Last < b.First }

// maxSkip is how many unclosed openers of another class a closer looks
// past for its own.
const maxSkip = 8

// tok is one structural token of a braces or shell file: an opener or a
// closer (or, for braces, a statement-ending ';'), and for an opener the
// index of its closer (-1 while unclosed).
type tok struct {
	off   int
	open  bool
	semi  bool
	class byte // the pair class: a closer closes an opener of its class
	match int
	depth int32 // braces: the parenthesis depth at the token
}

// Index is the block structure of one file.
type Index struct {
	fam    Family
	src    []byte
	code   []byte // src with every comment and string byte blanked
	starts []int  // line starts, as far as read (allStarts: all of them)
	toks   []tok  // braces and shell
	// next[l] is, for indentation and headings, the 0-based line at which
	// the block line l opens ends (the first line not in it); hdr[l] the
	// last line of l's header (Python's bracketed continuation).
	next []int32
	hdr  []int32
	// depth[l] is the parenthesis depth at the end of 0-based line l
	// (braces).
	depth []int32
	// groups maps the offset of a '(' that ends its line to its ')': Go's
	// grouped declarations, const ( ... ), open blocks too.
	groups map[int]int
	// spans are the file's comments and strings (codeline.Regions); full
	// is set once the whole structure is built; scanned counts the bytes
	// the block scans read before it was (lazy.go).
	spans   []codeline.Region
	full    bool
	scanned int
	// joins: a line ending in a backslash outside a string or comment
	// continues on the next (Python's explicit line joining).
	joins bool
	// r holds the spans; only its bytes before lexed are lexed
	// (codeline.ScanPrefix), and more lexes the rest into r once a scan
	// reaches lexed (lazy.go). allStarts is set once starts holds every
	// line.
	r         *codeline.Regions
	lexed     int
	more      func()
	allStarts bool
	// cur is a byte and curLine its 0-based line: where line numbers are
	// counted from until the structure is built (lazy.go).
	cur, curLine int
}

// maxHeader is how many lines a block's header (a signature over several
// lines) may take between the line that opens it and its brace.
const maxHeader = 64

// New indexes src, whose regions (lexer, comments and strings) r holds.
func New(src []byte, r *codeline.Regions) *Index {
	return NewPrefix(src, r, len(src), nil)
}

// NewPrefix indexes src when r holds the regions of its bytes before
// lexed only (codeline.ScanPrefix): more must lex the whole of src into r,
// and is called once a block's scan reaches lexed. A braces file is read
// only as far as its blocks' scans go, its line starts too (lazy.go);
// another family is built whole at once.
func NewPrefix(src []byte, r *codeline.Regions, lexed int, more func()) *Index {
	x := &Index{fam: FamilyOf(r.Lexer), src: src, spans: r.Spans, r: r, lexed: lexed, more: more, starts: []int{0}, joins: r.Lexer == "python"}
	if x.fam == None {
		return x
	}
	if x.fam == Braces {
		return x // the whole structure is built only if scans cost too much (lazy.go)
	}
	x.build()
	return x
}

// build computes the whole block structure of the file in one pass.
func (x *Index) build() {
	x.full = true
	x.need(len(x.src))
	x.grow()
	src := x.src
	x.code = append([]byte(nil), src...)
	for _, s := range x.spans {
		blank := x.code[min(s.Start, len(x.code)):min(s.End, len(x.code))]
		for i, c := range blank {
			if c != '\n' && c != '\r' {
				blank[i] = ' '
			}
		}
	}
	switch x.fam {
	case Braces:
		x.braces()
	case Shell:
		x.shell()
	case Indent:
		x.indent()
	case Headings:
		x.headings()
	}
}

// Family returns the file's family.
func (x *Index) Family() Family { return x.fam }

// Lines returns the number of lines of the file.
func (x *Index) Lines() int {
	x.grow()
	return len(x.starts)
}

// line returns the 0-based line holding byte off.
func (x *Index) line(off int) int {
	if !x.full {
		return x.count(off) // the lines are not indexed (lazy.go)
	}
	return sort.SearchInts(x.starts, off+1) - 1
}

// lineText returns line l (0-based) of the code view, without its newline.
func (x *Index) lineText(l int) []byte {
	s := x.starts[l]
	e := len(x.code)
	if l+1 < len(x.starts) {
		e = x.starts[l+1] - 1
	}
	if e > s && x.code[e-1] == '\r' {
		e--
	}
	return x.code[s:e]
}

// blank reports whether line l holds no code.
func (x *Index) blank(l int) bool {
	return len(bytes.TrimSpace(x.lineText(l))) == 0
}

// pair links the openers and closers of toks with a stack: a closer closes
// the innermost opener of its class; openers of other classes left inside
// it stay unclosed.
func (x *Index) pair() {
	var stack []int
	for i, t := range x.toks {
		switch {
		case t.semi:
		case t.open:
			stack = append(stack, i)
		default:
			c := t.class
			// A closer looks a few openers down for its own (an if left
			// open inside a loop), no further: an unmatched closer costs
			// a bounded search, so no nesting makes pairing quadratic.
			for k := len(stack) - 1; k >= 0 && k >= len(stack)-maxSkip; k-- {
				if x.toks[stack[k]].class == c {
					x.toks[stack[k]].match = i
					stack = stack[:k]
					break
				}
			}
		}
	}
}

func (x *Index) braces() {
	depth := 0
	code := x.code
	x.depth = make([]int32, 0, len(x.starts))
	var parens []int // offsets of the open '(', innermost last
	for i, c := range code {
		if !braceBytes[c] {
			continue
		}
		switch c {
		case '\n':
			x.depth = append(x.depth, int32(depth))
		case '(':
			depth++
			parens = append(parens, i)
		case ')':
			depth-- // unclamped: depths are compared, relative to the match's
			if n := len(parens); n > 0 {
				open := parens[n-1]
				parens = parens[:n-1]
				if endsLine(code, open+1) {
					if x.groups == nil {
						x.groups = map[int]int{}
					}
					x.groups[open] = i
				}
			}
		case '{':
			x.toks = append(x.toks, tok{off: i, open: true, match: -1, depth: int32(depth)})
		case '}':
			x.toks = append(x.toks, tok{off: i, match: -1, depth: int32(depth)})
		case ';':
			// A statement ends here (a declaration without a body), unless
			// inside parentheses (C's for) or followed by more on its line
			// (Go's if x := f(); x {).
			if depth == 0 {
				k := i + 1
				for k < len(code) && (code[k] == ' ' || code[k] == '\t' || code[k] == '\r') {
					k++
				}
				if k == len(code) || code[k] == '\n' {
					x.toks = append(x.toks, tok{off: i, semi: true, match: -1, depth: int32(depth)})
				}
			}
		}
	}
	x.depth = append(x.depth, int32(depth))
	x.pair()
}

// braceBytes are the bytes braces reads; the rest are skipped.
var braceBytes = [256]bool{'\n': true, '(': true, ')': true, '{': true, '}': true, ';': true}

// endsLine reports whether only blanks follow byte i on its line.
func endsLine(code []byte, i int) bool {
	for ; i < len(code) && code[i] != '\n'; i++ {
		if code[i] != ' ' && code[i] != '\t' && code[i] != '\r' {
			return false
		}
	}
	return true
}

// group returns the offsets of the '(' that ends line l and its ')',
// when line l opens a grouped declaration, const ( or var (.
func (x *Index) group(l int) (open, close int, ok bool) {
	t := bytes.TrimRight(x.lineText(l), " \t")
	if len(t) == 0 || t[len(t)-1] != '(' {
		return 0, 0, false
	}
	open = x.starts[l] + len(t) - 1
	close, ok = x.groups[open]
	return open, close, ok
}

// braceAfter returns the index in toks of the brace that opens the block
// of a match at byte at on 0-based line l, or -1: the first structural
// token from at on, outside the header's parentheses, must be a '{' (not
// a '}' or a statement's ';'), on the line where the header's parentheses
// close (within maxHeader lines), or first on the line after it (a brace
// on its own line).
func (x *Index) braceAfter(at, l int) int {
	d := int32(0)
	if l > 0 {
		d = x.depth[l-1]
	}
	for _, c := range x.code[x.starts[l]:at] {
		switch c {
		case '(':
			d++
		case ')':
			d--
		}
	}
	// h is the line the header ends on: the first whose end is back at
	// the match's depth. A header still open after maxHeader lines takes
	// a brace on any of its lines up to there, and none on the next.
	h, closed := l+maxHeader+1, false
	for k := l; k < len(x.depth) && k <= l+maxHeader; k++ {
		if x.depth[k] <= d {
			h, closed = k, true
			break
		}
	}
	// The first token at the header's own depth: braces inside its
	// parentheses (func f(x interface{ M() }) {) are the parameters'.
	// The tokens looked at lie within the header's lines, so the search
	// is bounded by them.
	limit := len(x.src)
	if h+2 < len(x.starts) {
		limit = x.starts[h+2]
	}
	i := sort.Search(len(x.toks), func(i int) bool { return x.toks[i].off >= at })
	for ; i < len(x.toks) && x.toks[i].off < limit; i++ {
		if x.toks[i].depth > d {
			continue
		}
		if !x.toks[i].open {
			return -1
		}
		bl := x.line(x.toks[i].off)
		switch {
		case bl <= h:
			return i
		case closed && bl == h+1 && len(bytes.TrimSpace(x.code[x.starts[bl]:x.toks[i].off])) == 0:
			return i
		}
		return -1
	}
	return -1
}

// shell words: openers and the closers that close them.
var shellPairs = map[string]string{"if": "fi", "case": "esac", "do": "done", "{": "}"}

var shellClass = map[string]byte{"if": 'i', "fi": 'i', "case": 'c', "esac": 'c', "do": 'd', "done": 'd', "{": 'b', "}": 'b'}

func shellDelim(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', ';', '&', '|', '(', ')':
		return true
	}
	return false
}

func (x *Index) shell() {
	code := x.code
	for i := 0; i < len(code); {
		if shellDelim(code[i]) {
			i++
			continue
		}
		j := i
		for j < len(code) && !shellDelim(code[j]) {
			j++
		}
		if cl, ok := shellClass[string(code[i:j])]; ok {
			_, open := shellPairs[string(code[i:j])]
			x.toks = append(x.toks, tok{off: i, open: open, class: cl, match: -1})
		}
		i = j
	}
	x.pair()
}

// indentOf returns the indentation of line l: its leading blanks (a YAML
// sequence entry "- a: 1" is at its dash, so the keys under it, aligned
// with a, are inside it).
func (x *Index) indentOf(l int) int {
	t := x.lineText(l)
	n := 0
	for n < len(t) && (t[n] == ' ' || t[n] == '\t') {
		n++
	}
	return n
}

func (x *Index) indent() {
	nl := len(x.starts)
	x.next = make([]int32, nl)
	x.hdr = make([]int32, nl)
	// depth[l] is the bracket depth at the start of line l: a line that
	// starts inside brackets continues the statement above it.
	cont := make([]bool, nl)
	depth := 0
	joined := false
	for l := 0; l < nl; l++ {
		cont[l] = depth > 0 || joined
		t := x.lineText(l)
		for _, c := range t {
			switch c {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth = max(depth-1, 0)
			}
		}
		// A backslash that ends a line joins the next to it, whatever
		// that line's indentation (a backslash in a comment or a string
		// is blanked in code).
		joined = x.joins && len(t) > 0 && t[len(t)-1] == '\\'
	}
	for l := nl - 1; l >= 0; l-- {
		x.hdr[l] = int32(l)
		if l+1 < nl && cont[l+1] {
			x.hdr[l] = x.hdr[l+1]
		}
	}
	type open struct{ line, ind int }
	var stack []open
	for l := 0; l < nl; l++ {
		x.next[l] = int32(nl)
		if cont[l] || x.blank(l) {
			continue
		}
		ind := x.indentOf(l)
		for len(stack) > 0 && stack[len(stack)-1].ind >= ind {
			x.next[stack[len(stack)-1].line] = int32(l)
			stack = stack[:len(stack)-1]
		}
		stack = append(stack, open{l, ind})
	}
}

// heading returns the level of an ATX heading on line l, or 0.
func (x *Index) heading(l int) int {
	t := x.lineText(l)
	k := 0
	for k < len(t) && k < 3 && t[k] == ' ' {
		k++
	}
	n := 0
	for k+n < len(t) && t[k+n] == '#' {
		n++
	}
	if n == 0 || n > 6 || k+n < len(t) && t[k+n] != ' ' && t[k+n] != '\t' {
		return 0
	}
	return n
}

// fence returns the fence marker a line opens or closes with, or "".
func (x *Index) fence(l int) string {
	t := bytes.TrimLeft(x.lineText(l), " ")
	if len(x.lineText(l))-len(t) > 3 {
		return ""
	}
	for _, m := range []string{"```", "~~~"} {
		if bytes.HasPrefix(t, []byte(m)) {
			return m
		}
	}
	return ""
}

func (x *Index) headings() {
	nl := len(x.starts)
	x.next = make([]int32, nl)
	x.hdr = make([]int32, nl)
	type open struct{ line, level int }
	var stack []open
	inFence := ""
	for l := 0; l < nl; l++ {
		x.next[l] = int32(nl)
		x.hdr[l] = int32(l)
		if f := x.fence(l); f != "" {
			switch inFence {
			case "":
				inFence = f
			case f:
				inFence = ""
			}
			continue
		}
		if inFence != "" {
			continue
		}
		lv := x.heading(l)
		if lv == 0 {
			continue
		}
		for len(stack) > 0 && stack[len(stack)-1].level >= lv {
			x.next[stack[len(stack)-1].line] = int32(l)
			stack = stack[:len(stack)-1]
		}
		stack = append(stack, open{l, lv})
	}
}

// Open returns the block opened by a match at byte at, on the line whose
// 0-based number is the line holding at. ok is false when the line opens
// no block: no opener follows before the statement ends (braces), no
// opener word on it or the next line (shell), a line that is no heading
// (Markdown), or a language without blocks.
func (x *Index) Open(at int) (b Block, ok bool) {
	if at < 0 || at > len(x.src) {
		return Block{}, false
	}
	l := x.line(at)
	b.Open = l + 1
	x.need(x.lineEnd(at))
	switch x.fam {
	case Braces, Shell:
		if x.fam == Braces && !x.full {
			if x.scanned <= 2*len(x.src)+lazyFloor {
				return x.openScan(at, l)
			}
			x.build() // scans cost more than building: build once
		}
		i := -1
		if x.fam == Braces {
			i = x.braceAfter(at, l)
			if i < 0 {
				if open, close, ok := x.group(l); ok && open >= at {
					return x.span(b, l, close), true
				}
			}
		} else if k := sort.Search(len(x.toks), func(i int) bool { return x.toks[i].off >= at }); k < len(x.toks) && x.toks[k].open {
			i = k
		}
		if i < 0 {
			return b, false
		}
		ol := x.line(x.toks[i].off)
		if x.fam == Shell && ol > l+1 {
			return b, false
		}
		end := len(x.src)
		if m := x.toks[i].match; m >= 0 {
			end = x.toks[m].off
		}
		return x.span(b, ol, end), true
	case Indent, Headings:
		if x.fam == Headings && x.heading(l) == 0 {
			return b, false
		}
		h := int(x.hdr[l])
		nx := int(x.next[l])
		last := nx - 1
		for last > h && x.blank(last) {
			last--
		}
		b.First, b.Last = h+2, last+1
		return b, true
	}
	return b, false
}

// span sets b to the lines of a block opened on 0-based line ol and
// closed at byte end (len(src): unclosed, to the end of the file).
func (x *Index) span(b Block, ol, end int) Block {
	cl := x.line(end)
	if end >= len(x.src) {
		cl = x.line(len(x.src)) + 1 // unclosed: to the end of the file
	}
	if cl == ol {
		b.First, b.Last = ol+1, ol+1 // opened and closed on one line
		return b
	}
	b.First, b.Last = ol+2, cl
	if end < len(x.src) && !x.blankRange(x.lineStart(end), end) {
		b.Last = cl + 1 // code before the closer on its line
	}
	return b
}

// LineOf returns the 1-based line holding byte off.
func (x *Index) LineOf(off int) int { return x.line(off) + 1 }

// LineBounds returns the bytes [start, end) of 1-based line l, without its
// newline or a '\r' before it.
func (x *Index) LineBounds(l int) (start, end int) {
	if !x.full {
		start = x.startOf(l - 1) // the lines are not indexed (lazy.go)
		end = x.lineEnd(start)
	} else {
		start = x.starts[l-1]
		end = len(x.src)
		if l < len(x.starts) {
			end = x.starts[l] - 1
		}
	}
	if end > start && x.src[end-1] == '\r' {
		end--
	}
	return start, end
}

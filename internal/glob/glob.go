// Package glob matches repository paths against globs with doublestar's
// syntax (D9) by an automaton, in time linear in a path's length whatever
// the pattern (D70): a claim's Path, and the scripts, workflows and
// mentions globs of the configuration.
package glob

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
)

// Max bounds the length of a glob: a claim's Path, and the scripts,
// workflows and mentions globs of the configuration (D70). A glob names
// files by a few directories and a name; 1,024 bytes is far past any, and
// keeps the automaton small.
const Max = 1024

// Glob is a compiled glob with doublestar's syntax (`*`, `?`, `[...]`,
// `{a,b}`, `**`, `\` escapes; D9), matched by an automaton instead of
// doublestar's backtracking search, so that matching a path costs time
// linear in its length whatever the pattern (D70): doublestar.Match takes
// time exponential in the alternatives a path can enter, and
// `{**/a,a}/` repeated 30 times and then `b`, against a path 30
// directories deep, ran for minutes.
//
// Its meaning, which FuzzGlobMatch checks against a translation to
// regular expressions: braces are expanded first, as a shell does; in an
// expansion, stars pair up from the left, and a pair `**` that starts a
// segment matches any number of whole segments before a `/` (the `/`
// included) and anything at the end of the pattern, while any other pair
// or lone `*` matches within one segment; `?` is one character but '/';
// a bracket expression is its set (negated, it matches '/' too, as in
// doublestar); and a path may end where the rest of the pattern can match
// nothing, or is `/**` or `/**/` (`a/**` matches `a`, as in doublestar).
// Every way of matching counts, which is where Glob and doublestar
// differ: doublestar's one pass gives up on `*[!x]*c` against `a/bc`,
// and on `?*/**` against `b`; it reads a star before a brace without the
// brace (`*{*,a}/b` is `**/b` here, not in doublestar); and it lets a
// trailing `**/` match nothing after any byte (`a**/` matches `a` in
// doublestar only). On the globs people write (every `**` a whole
// segment, no set that matches '/'), doublestar's matches are all Glob's,
// and the two agree but for a trailing `/**` or `/**/` after a star
// (TestGlobAgreesWithDoublestar).
//
// A Glob is safe for concurrent use. It keeps the sets of states it has
// met, each with its transitions, so a tree's paths cost a table lookup
// per byte; at most maxDFA sets are kept.
type Glob struct {
	pat string
	// literal: the pattern has no meta character, and matches the one
	// path it spells; no automaton is built (D92: a claim's Path is most
	// often one file, and a thousand automata cost check a third of its
	// time).
	literal bool
	toks    []gtok // per byte of pat: what starts there
	opens   []gbrace
	m       int // len(pat)

	dirMemo []int8   // per position: dirRest's answer (-1 unknown)
	dmark   []uint32 // per (position, stage): visited in this dirRest
	depoch  uint32

	mu     sync.Mutex
	states []*dstate
	index  map[string]int32
	kept   int // state ids kept, over all states (the cache's size)
	mark   []uint32
	epoch  uint32
	lmark  []uint32 // per landing: visited in this closure
	lepoch uint32
	start  int32
}

// token kinds, one per byte position of the pattern.
const (
	tLit    = iota // a literal rune (escaped or not)
	tAny           // ?
	tClass         // [...]
	tStar          // one *: alone, or half of a ** (decided where it is met)
	tOpen          // { of an alternation
	tDelim         // , or } ending an alternative
	tInside        // a byte inside a token that starts earlier
)

type gtok struct {
	kind  uint8
	r     rune // tLit: the rune
	end   int  // where the next token starts
	class []classItem
	neg   bool
	brace int // tOpen, tDelim: index into opens
}

type classItem struct{ lo, hi rune }

type gbrace struct {
	open, close int
	alts        []int // where each alternative starts
	parent      int   // enclosing brace, or -1
}

// Consuming states read one rune. A literal, ?, or bracket expression is
// the state of its position; a star that lands on token t when it reads
// is starTo(t) (every such star behaves alike); a doublestar whose
// absorbed '/' is at s is ds(s); anyAll reads the rest of the path (a
// doublestar at the end of the pattern).
type cstate = int32

func (g *Glob) starTo(t int) cstate { return cstate(g.m + 1 + t) }
func (g *Glob) ds(s int) cstate     { return cstate(2*(g.m+1) + s) }
func (g *Glob) anyAll() cstate      { return cstate(3 * (g.m + 1)) }
func (g *Glob) numStates() int      { return 3*(g.m+1) + 1 }

// dstate is a set of consuming states: one state of the lazily built
// deterministic automaton.
type dstate struct {
	set    []cstate
	accept bool // a path that ends here matches
	ascii  [128]int32
	other  map[rune]int32
}

// maxDFA bounds the kept state sets; past it the cache starts again, so a
// pattern whose sets multiply costs time, never unbounded memory.
const maxDFA = 1 << 12

// maxKept bounds the consuming-state ids kept over all sets.
const maxKept = 1 << 20

// Compile compiles a glob that Valid accepts (but for the
// inside-the-repository rule).
func Compile(pattern string) (*Glob, error) {
	if msg := Syntax(pattern); msg != "" {
		return nil, errors.New(msg)
	}
	if isLiteral(pattern) {
		return &Glob{pat: pattern, m: len(pattern), literal: true}, nil
	}
	return compileAutomaton(pattern)
}

// compileAutomaton compiles a valid glob to its automaton, literal or not.
func compileAutomaton(pattern string) (*Glob, error) {
	g := &Glob{pat: pattern, m: len(pattern)}
	g.toks = make([]gtok, g.m+1)
	if _, err := g.parse(0, -1); err != nil {
		return nil, err
	}
	g.dmark = make([]uint32, 5*(g.m+1))
	g.dirMemo = make([]int8, g.m+1)
	for i := range g.dirMemo {
		g.dirMemo[i] = -1
	}
	g.mark = make([]uint32, g.numStates())
	g.lmark = make([]uint32, 2*(g.m+1)*numModes)
	g.reset()
	return g, nil
}

// globMeta are the bytes that make a glob more than the path it spells.
const globMeta = "*?[{\\"

// isLiteral reports whether pattern is a path, with no meta character.
func isLiteral(pattern string) bool { return !strings.ContainsAny(pattern, globMeta) }

// Syntax says why pattern is not a glob claimslint matches, or "".
// Valid also asks that it stays inside the repository.
func Syntax(pattern string) string {
	switch {
	case len(pattern) > Max:
		return fmt.Sprintf("is %d bytes long, over the %d-byte limit for a glob", len(pattern), Max)
	case !utf8.ValidString(pattern):
		return fmt.Sprintf("%q is not valid UTF-8", pattern)
	case !doublestar.ValidatePattern(pattern):
		return fmt.Sprintf("%q is not a valid glob", pattern)
	}
	return ""
}

// parse tokenises pat from i until the end, or, inside brace b, until the
// delimiter that ends the current alternative; it returns that
// delimiter's position (or len(pat)). Braces, brackets and escapes nest
// as doublestar reads them.
func (g *Glob) parse(i, b int) (int, error) {
	p := g.pat
	for i < len(p) {
		switch c := p[i]; {
		case c == '\\':
			r, n := utf8.DecodeRuneInString(p[i+1:])
			g.toks[i] = gtok{kind: tLit, r: r, end: i + 1 + n}
			g.inside(i+1, i+1+n)
			i += 1 + n
		case c == '?':
			g.toks[i] = gtok{kind: tAny, end: i + 1}
			i++
		case c == '*':
			g.toks[i] = gtok{kind: tStar, end: i + 1}
			i++
		case c == '[':
			t, err := parseClass(p, i)
			if err != nil {
				return 0, err
			}
			g.toks[i] = t
			g.inside(i+1, t.end)
			i = t.end
		case c == '{':
			k := len(g.opens)
			g.opens = append(g.opens, gbrace{open: i, parent: b})
			g.toks[i] = gtok{kind: tOpen, brace: k, end: i + 1}
			j := i + 1
			for {
				g.opens[k].alts = append(g.opens[k].alts, j)
				d, err := g.parse(j, k)
				if err != nil {
					return 0, err
				}
				if d >= len(p) {
					return 0, fmt.Errorf("unclosed { at byte %d", i)
				}
				g.toks[d] = gtok{kind: tDelim, brace: k, end: d + 1}
				if p[d] == '}' {
					g.opens[k].close = d
					i = d + 1
					break
				}
				j = d + 1
			}
		case b >= 0 && (c == ',' || c == '}'):
			return i, nil
		default:
			r, n := utf8.DecodeRuneInString(p[i:])
			g.toks[i] = gtok{kind: tLit, r: r, end: i + n}
			g.inside(i+1, i+n)
			i += n
		}
	}
	return len(p), nil
}

func (g *Glob) inside(from, to int) {
	for k := from; k < to && k < len(g.toks); k++ {
		g.toks[k].kind = tInside
	}
}

// parseClass reads the bracket expression at p[i] as doublestar's matcher
// does: an optional ! or ^, then runes, escaped runes and lo-hi ranges
// up to the first ] that is not part of one.
func parseClass(p string, i int) (gtok, error) {
	t := gtok{kind: tClass}
	k := i + 1
	if k < len(p) && (p[k] == '!' || p[k] == '^') {
		t.neg = true
		k++
	}
	last := utf8.MaxRune
	for k < len(p) && p[k] != ']' {
		r, n := utf8.DecodeRuneInString(p[k:])
		k += n
		if last < utf8.MaxRune && r == '-' && k < len(p) && p[k] != ']' {
			if p[k] == '\\' {
				k++
			}
			hi, n := utf8.DecodeRuneInString(p[k:])
			k += n
			t.class = append(t.class, classItem{last, hi})
			last = utf8.MaxRune
			continue
		}
		if r == '\\' {
			r, n = utf8.DecodeRuneInString(p[k:])
			k += n
		}
		t.class = append(t.class, classItem{r, r})
		last = r
	}
	if k >= len(p) {
		return t, fmt.Errorf("unclosed [ at byte %d", i)
	}
	t.end = k + 1
	return t, nil
}

func (t *gtok) classMatch(r rune) bool {
	in := false
	for _, it := range t.class {
		if it.lo <= r && r <= it.hi {
			in = true
			break
		}
	}
	return in != t.neg
}

// isSlash reports whether a '/' is written at q, unescaped: the only
// '/' that ends a doublestar, as in doublestar.
func (g *Glob) isSlash(q int) bool { return q < g.m && g.pat[q] == '/' }

func (g *Glob) isStar(q int) bool { return q < g.m && g.toks[q].kind == tStar }

// Modes of a landing in walk: where in a run of stars the expansion is.
const (
	mNormal = iota
	mStar1  // past a first *: a second one makes a **
	mPair   // past a **: what follows decides what it is
	numModes
)

// landing is a place walk stands on: a position of the pattern, whether
// the byte before it in the expansion is a '/' (or it starts the
// pattern), and its mode. In mStar1 and mPair, flag is the one the first
// star of the run had.
type landing struct {
	p    int
	flag bool
	mode uint8
}

func (g *Glob) landingID(l landing) int {
	id := 2 * l.p
	if l.flag {
		id++
	}
	return id*numModes + int(l.mode)
}

// walk adds to set the consuming states reachable from landing on p
// without reading a rune (flag: the byte before p in the expansion is a
// '/', or p starts it), and reports whether a path that ends there
// matches: the rest of the pattern can match nothing, or is a `/**` or
// `/**/` (dirRest) once what can match nothing is skipped.
//
// A * followed, in the expansion, by a second * is a ** there. A **
// that starts a segment (flag) and ends the pattern reads the rest of
// the path; one that starts a segment and is followed by a '/' reads
// whole segments, the '/' included (ds); any other is a *. The walk
// follows braces and the ends of alternatives as it meets them, in the
// mode the run of stars is in, so each landing is visited once: the work
// of a walk is linear in the pattern.
func (g *Glob) walk(p int, flag bool, set *[]cstate) bool {
	nullable := false
	stack := []landing{{p, flag, mNormal}}
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		id := g.landingID(l)
		if g.lmark[id] == g.lepoch {
			continue
		}
		g.lmark[id] = g.lepoch
		if l.p < g.m {
			switch t := &g.toks[l.p]; t.kind {
			case tDelim:
				stack = append(stack, landing{g.opens[t.brace].close + 1, l.flag, l.mode})
				continue
			case tOpen:
				for _, a := range g.opens[t.brace].alts {
					stack = append(stack, landing{a, l.flag, l.mode})
				}
				continue
			}
		}
		// l.p is a token or the end, in the expansion.
		switch l.mode {
		case mStar1:
			if g.isStar(l.p) {
				stack = append(stack, landing{l.p + 1, l.flag, mPair})
				continue
			}
			// The star was alone: it lands on l.p when it reads.
			g.add(set, g.starTo(l.p))
			stack = append(stack, landing{l.p, false, mNormal})
			continue
		case mPair:
			switch {
			case l.flag && l.p >= g.m:
				g.add(set, g.anyAll())
				nullable = true
			case l.flag && g.isSlash(l.p):
				g.add(set, g.ds(l.p))
				stack = append(stack, landing{l.p + 1, true, mNormal})
			default:
				g.add(set, g.starTo(l.p))
				stack = append(stack, landing{l.p, false, mNormal})
			}
			continue
		}
		if l.p >= g.m || g.dirRest(l.p) {
			nullable = true
		}
		if l.p >= g.m {
			continue
		}
		if g.toks[l.p].kind == tStar {
			stack = append(stack, landing{l.p + 1, l.flag, mStar1})
			continue
		}
		g.add(set, cstate(l.p))
	}
	return nullable
}

// dirRest reports whether the pattern at p is, in some expansion, `/**`
// or `/**/` and nothing after: a path that ends there names the
// directory those match below, and matches (`a/**` matches `a`, as in
// doublestar). It walks the expansions from p as walk does, through the
// stages of that rest, each (position, stage) once; the answer is kept
// per position.
func (g *Glob) dirRest(p int) bool {
	if v := g.dirMemo[p]; v >= 0 {
		return v == 1
	}
	g.depoch++
	ok := false
	type at struct{ p, stage int } // stage: 0 '/', 1 *, 2 *, 3 end or '/', 4 end
	stack := []at{{p, 0}}
	for len(stack) > 0 && !ok {
		a := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if k := a.p*5 + a.stage; g.dmark[k] == g.depoch {
			continue
		} else {
			g.dmark[k] = g.depoch
		}
		if a.p < g.m {
			switch t := &g.toks[a.p]; t.kind {
			case tDelim:
				stack = append(stack, at{g.opens[t.brace].close + 1, a.stage})
				continue
			case tOpen:
				for _, alt := range g.opens[t.brace].alts {
					stack = append(stack, at{alt, a.stage})
				}
				continue
			}
		}
		switch {
		case a.stage == 0 && g.isSlash(a.p), a.stage == 1 && g.isStar(a.p), a.stage == 2 && g.isStar(a.p):
			stack = append(stack, at{a.p + 1, a.stage + 1})
		case a.stage == 3 && g.isSlash(a.p):
			stack = append(stack, at{a.p + 1, 4})
		case (a.stage == 3 || a.stage == 4) && a.p >= g.m:
			ok = true
		}
	}
	g.dirMemo[p] = 0
	if ok {
		g.dirMemo[p] = 1
	}
	return ok
}

// land walks from a landing and reports whether a path that ends there
// matches.
func (g *Glob) land(p int, flag bool, set *[]cstate) bool { return g.walk(p, flag, set) }

func (g *Glob) add(set *[]cstate, s cstate) {
	if g.mark[s] != g.epoch {
		g.mark[s] = g.epoch
		*set = append(*set, s)
	}
}

// reset empties the state cache and builds the start state.
func (g *Glob) reset() {
	g.states = g.states[:0]
	g.index = map[string]int32{}
	g.kept = 0
	g.epoch++
	g.lepoch++
	var set []cstate
	accept := g.land(0, true, &set)
	g.start = g.intern(set, accept)
}

// intern returns the id of the state set (sorted here), adding it.
func (g *Glob) intern(set []cstate, accept bool) int32 {
	slices.Sort(set)
	key := make([]byte, 0, 4*len(set)+1)
	if accept {
		key = append(key, 1)
	} else {
		key = append(key, 0)
	}
	for _, s := range set {
		key = strconv.AppendInt(key, int64(s), 36)
		key = append(key, ',')
	}
	if id, ok := g.index[string(key)]; ok {
		return id
	}
	d := &dstate{set: slices.Clone(set), accept: accept}
	for i := range d.ascii {
		d.ascii[i] = -1
	}
	g.states = append(g.states, d)
	g.kept += len(set)
	id := int32(len(g.states) - 1)
	g.index[string(key)] = id
	return id
}

// step computes the state reached from state id by reading r.
func (g *Glob) step(id int32, r rune) int32 {
	g.epoch++
	g.lepoch++
	var set []cstate
	accept := false
	for _, s := range g.states[id].set {
		switch k := int(s); {
		case s == g.anyAll():
			g.add(&set, s)
			accept = true
		case k >= 2*(g.m+1): // a doublestar, its '/' at k-2(m+1)
			g.add(&set, s)
			if r == '/' && g.land(k-2*(g.m+1)+1, true, &set) {
				accept = true
			}
		case k > g.m: // a star, landing on k-(m+1)
			if r != '/' {
				g.add(&set, s)
				if g.land(k-(g.m+1), false, &set) {
					accept = true
				}
			}
		default:
			t := &g.toks[k]
			var ok, flag bool
			switch t.kind {
			case tLit:
				ok, flag = r == t.r, t.r == '/'
			case tAny:
				ok = r != '/'
			case tClass:
				ok = t.classMatch(r)
			}
			if ok && g.land(t.end, flag, &set) {
				accept = true
			}
		}
	}
	if len(g.states) >= maxDFA || g.kept >= maxKept {
		// Too many sets kept: start again, keeping this one.
		cur := slices.Clone(set)
		g.reset()
		return g.intern(cur, accept)
	}
	return g.intern(set, accept)
}

// Match reports whether name matches the glob.
func (g *Glob) Match(name string) bool {
	if g.literal {
		return name == g.pat
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	id := g.start
	for i := 0; i < len(name); {
		if len(g.states[id].set) == 0 {
			return false
		}
		r, n := rune(name[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(name[i:])
		}
		i += n
		d := g.states[id]
		next := int32(-1)
		if r < 128 {
			next = d.ascii[r]
		} else if v, ok := d.other[r]; ok {
			next = v
		}
		if next < 0 {
			gen := len(g.states)
			next = g.step(id, r)
			if len(g.states) < gen {
				id = next // the cache started again: d is gone
				continue
			}
			if r < 128 {
				d.ascii[r] = next
			} else if len(d.other) < 256 {
				if d.other == nil {
					d.other = map[rune]int32{}
				}
				d.other[r] = next
			}
		}
		id = next
	}
	return g.states[id].accept
}

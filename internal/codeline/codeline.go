// Package codeline separates code from comments, strings and tests, so
// that a claim is never satisfied by a doc comment, a string that merely
// mentions its token, or a test.
//
// A hand-written lexer per language family reads a file once and reports
// its comment, string and test regions as byte-offset ranges (Scan); no
// line is split or allocated. The lexer is chosen by file name (For, Name).
// Mask derives from the regions the text a claim is matched against: a copy
// of the file in which every comment byte, and every line lying wholly
// inside a string literal (except in Go, see below), is replaced by a space,
// newlines kept, so line and column numbers stay valid.
//
// Go is lexed exactly as go/scanner does (the comment set agrees, which
// FuzzGoScanner checks); `//go:` directives are comments, as go/scanner
// reports them; and, to keep Go's behaviour from before the lexers, lines
// inside Go raw strings stay code. A file of an unknown language is all code.
package codeline

import (
	"bytes"
	"sort"
)

// Kind is the kind of a region.
type Kind uint8

// The region kinds. Code is the kind of every byte outside a region.
const (
	Code Kind = iota
	Comment
	String
	Test
)

func (k Kind) String() string {
	switch k {
	case Comment:
		return "comment"
	case String:
		return "string"
	case Test:
		return "test"
	}
	return "code"
}

// Region is the half-open byte range [Start, End) of one region.
type Region struct {
	Start, End int
	Kind       Kind
}

// Regions is what one lexer found in one file. A Regions value can be
// reused across files: Scan keeps the capacity of its slices, so scanning
// a tree allocates only when a file has more regions than any before it.
type Regions struct {
	// Lexer names the lexer that read the file (see Name).
	Lexer string
	// Spans are the comment and string regions, ordered and not
	// overlapping.
	Spans []Region
	// Tests are the test regions, ordered and not overlapping; a test
	// region may contain spans.
	Tests []Region
	// codeStrings: lines inside strings are code (Go, for compatibility).
	codeStrings bool
	// second: the lexer is reading the file the second way; ambiguous:
	// it met a construct it cannot decide locally (choose); other holds
	// the second reading when the first was ambiguous (Other).
	second, ambiguous, hasOther bool
	other                       *Regions
}

// choose is asked by a lexer at a construct it cannot decide locally (in
// JavaScript, a '/' after a '}': a regular expression after a block, a
// division after an object literal). It answers false in the first
// reading and true in the second, which Scan makes only when the first
// asked.
func (r *Regions) choose() bool {
	r.ambiguous = true
	return r.second
}

// Other returns the file's second reading when the lexer met a construct
// it cannot decide locally, else nil: every such construct read the other
// way. A claim holds only if it holds both ways: a line whose match
// differs between r and Other supports no claim and breaks any that
// forbids the match.
func (r *Regions) Other() *Regions {
	if !r.hasOther {
		return nil
	}
	return r.other
}

func (r *Regions) reset(lx *Lexer) {
	r.Lexer = lx.name
	r.Spans = r.Spans[:0]
	r.Tests = r.Tests[:0]
	r.codeStrings = lx.codeStrings
	r.ambiguous, r.hasOther = false, false
}

// add appends a span; empty spans are dropped. Lexers add in order.
func (r *Regions) add(k Kind, start, end int) {
	if end > start {
		r.Spans = append(r.Spans, Region{start, end, k})
	}
}

// addTest appends a test region, merging it with the last one when they
// touch or overlap.
func (r *Regions) addTest(start, end int) {
	if end <= start {
		return
	}
	for n := len(r.Tests); n > 0 && start <= r.Tests[n-1].End; n-- {
		// Only invalid code gives overlapping test regions; merge them.
		start, end = min(start, r.Tests[n-1].Start), max(end, r.Tests[n-1].End)
		r.Tests = r.Tests[:n-1]
	}
	r.Tests = append(r.Tests, Region{start, end, Test})
}

// KindAt returns the kind of the span holding byte off, or Code.
func (r *Regions) KindAt(off int) Kind {
	i := sort.Search(len(r.Spans), func(i int) bool { return r.Spans[i].End > off })
	if i < len(r.Spans) && r.Spans[i].Start <= off {
		return r.Spans[i].Kind
	}
	return Code
}

// InTest reports whether byte off lies in a test region.
func (r *Regions) InTest(off int) bool {
	i := sort.Search(len(r.Tests), func(i int) bool { return r.Tests[i].End > off })
	return i < len(r.Tests) && r.Tests[i].Start <= off
}

// spanHint is the bytes of source per region Scan reserves room for: a
// region every 128 bytes, about what the densest large file of the Go
// tree holds (a claimed file of 3 MB had one every 128 bytes; the Rust
// standard library averages one in 60). A denser file grows the slice by
// doubling: twice for a comment on every line of 32 bytes. Reserving for
// that density in every file had check over the Go tree allocate 3 MB of
// regions, four times what it used (D92).
const spanHint = 128

// Lexer reads one language family.
type Lexer struct {
	name        string
	scan        func(src []byte, r *Regions)
	codeStrings bool
	prefix      bool // ScanPrefix may read a prefix of a file
	// exts and names are the extensions (".go", lower case) and the base
	// names ("Makefile") of the files the lexer reads.
	exts, names []string
}

// Scan resets r and fills it with the regions of src.
func (l *Lexer) Scan(src []byte, r *Regions) {
	r.reset(l)
	if l.scan != nil {
		if hint := len(src) / spanHint; cap(r.Spans) < hint {
			// One allocation for the file instead of a dozen doublings of
			// a slice of millions of bytes, each copied and collected; at
			// least twofold, as the next file may be a little larger.
			r.Spans = make([]Region, 0, max(hint, 2*cap(r.Spans)))
		}
		l.scan(src, r)
		if r.ambiguous && !r.second {
			// Read it again, every undecided construct the other way.
			if r.other == nil {
				r.other = &Regions{}
			}
			o := r.other
			o.reset(l)
			o.second = true
			if cap(o.Spans) < cap(r.Spans) {
				o.Spans = make([]Region, 0, cap(r.Spans))
			}
			l.scan(src, o)
			r.hasOther = true
		}
	}
}

// Scan reads src with the lexer For(name, src) into r, reusing r's
// storage.
func Scan(name string, src []byte, r *Regions) {
	lx := For(name, src)
	lx.Scan(src, r)
	if lx == goLexer && isGoTest(name) {
		r.addTest(0, len(src))
		if o := r.Other(); o != nil {
			o.addTest(0, len(src))
		}
	}
}

// Name returns the name of the lexer that reads a file called name, as
// `claimslint list` prints it; "none" for an unknown language (all code).
// src is only consulted for a shebang line and may be nil.
func Name(name string, src []byte) string { return For(name, src).name }

// Language is Name without content: kept for callers written before the
// lexers.
func Language(name string) string { return Name(name, nil) }

// Mask returns a copy of src in which every comment byte is replaced by a
// space, and so is every line lying wholly inside a string literal (except
// in Go); newlines and carriage returns are kept, so positions stay valid.
// Files of unknown languages are returned unchanged: all their lines are
// code.
func Mask(name string, src []byte) []byte {
	lx := For(name, src)
	if lx.scan == nil {
		return src
	}
	var r Regions
	Scan(name, src, &r)
	return r.Masked(src)
}

// Masked returns the masked text of src (see Mask), whose regions r
// holds: src itself when nothing in it is masked, else a new copy.
func (r *Regions) Masked(src []byte) []byte {
	for _, s := range r.Spans {
		if s.Kind == Comment || s.Kind == String && !r.codeStrings && bytes.IndexByte(src[s.Start:s.End], '\n') >= 0 {
			return r.MaskTo(nil, src)
		}
	}
	return src
}

// MaskTo appends to dst[:0] the masked text of src (see Mask), whose
// regions r holds, and returns it.
func (r *Regions) MaskTo(dst, src []byte) []byte {
	out := append(dst[:0], src...)
	for _, s := range r.Spans {
		switch s.Kind {
		case Comment:
			blank(out, s.Start, s.End)
		case String:
			if r.codeStrings {
				continue
			}
			// The lines that start after the string opens and end before
			// it closes hold nothing but the string.
			a := bytes.IndexByte(src[s.Start:s.End], '\n')
			if a < 0 {
				continue
			}
			b := bytes.LastIndexByte(src[s.Start:s.End], '\n')
			blank(out, s.Start+a+1, s.Start+b)
		}
	}
	return out
}

func blank(out []byte, from, to int) {
	for i := from; i < to && i < len(out); i++ {
		if out[i] != '\n' && out[i] != '\r' {
			out[i] = ' '
		}
	}
}

// Prefixed reports whether ScanPrefix reads a prefix of a file called
// name, not the whole of it: its lexer reads a line from what comes
// before it.
func Prefixed(name string, src []byte) bool { return For(name, src).prefix }

// ScanPrefix is Scan of the lines of src up to byte keep (a line's end,
// or len(src)) and the line after them, for a lexer that reads a line
// from what comes before it (Go's and Rust's): the regions it gives for
// the bytes before keep are Scan's (FuzzScanPrefix), and it reads no
// further. Another lexer reads the whole file: Python's, for one, tells
// a docstring from a string by what follows its close. A claim whose
// candidate lines end by keep needs no more (D92).
func ScanPrefix(name string, src []byte, keep int, r *Regions) {
	cut := len(src)
	if keep < len(src) && For(name, src).prefix {
		if i := bytes.IndexByte(src[keep:], '\n'); i >= 0 {
			cut = keep + i + 1
		}
	}
	Scan(name, src[:cut], r)
}

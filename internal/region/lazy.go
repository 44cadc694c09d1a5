package region

import (
	"bytes"
	"sort"
)

// lazyFloor is the bytes the block scans of a braces file may read beyond
// twice its size before its whole structure is built instead.
const lazyFloor = 1 << 16

// A braces file is not indexed up front: a claim reads a few blocks of
// it, and scanning from the line that opens one to its closing brace
// costs the block, not the file. Once the scans have read twice the
// file, the whole structure is built in one pass (build), so no file,
// however it nests, costs more than a few passes over it.

// Until the whole structure is built, a line's number is counted from a
// cursor (cur, a byte, and curLine, its 0-based line) with bytes.Count,
// and a line's start found by stepping from it: the lines between the
// blocks a claim reads are never indexed one by one. The cursor moves
// only as far as the scans read (or, for a line asked by number, the
// lines stepped), so it costs no more than they do.

// grow reads every line start of the file.
func (x *Index) grow() {
	for !x.allStarts {
		last := x.starts[len(x.starts)-1]
		k := bytes.IndexByte(x.src[last:], '\n')
		if k < 0 {
			x.allStarts = true
			return
		}
		x.starts = append(x.starts, last+k+1)
	}
}

// lineStart returns where the line holding byte off starts.
func (x *Index) lineStart(off int) int {
	return bytes.LastIndexByte(x.src[:off], '\n') + 1
}

// count returns the 0-based line holding byte off, counted from the
// cursor, which moves to off.
func (x *Index) count(off int) int {
	off = min(off, len(x.src))
	l := x.curLine
	if off >= x.cur {
		l += bytes.Count(x.src[x.cur:off], newline)
	} else {
		l -= bytes.Count(x.src[off:x.cur], newline)
	}
	x.cur, x.curLine = off, l
	return l
}

var newline = []byte{'\n'}

// startOf returns where 0-based line l starts (the last line's start
// when the file has fewer lines), stepping by lines from the cursor,
// which moves there.
func (x *Index) startOf(l int) int {
	s, cl := x.lineStart(x.cur), x.curLine
	for cl < l {
		k := bytes.IndexByte(x.src[s:], '\n')
		if k < 0 {
			break
		}
		s, cl = s+k+1, cl+1
	}
	for cl > l && s > 0 {
		s, cl = x.lineStart(s-1), cl-1
	}
	x.cur, x.curLine = s, cl
	return s
}

// need lexes the whole file (more) when a scan reaches byte off and the
// regions known end before it: the file was lexed only as far as its
// claims' lines (NewPrefix). It reports whether the spans changed.
func (x *Index) need(off int) bool {
	if off < x.lexed || x.lexed >= len(x.src) {
		return false
	}
	x.more()
	x.lexed, x.spans = len(x.src), x.r.Spans
	return true
}

// spanAt returns the index of the first span ending after off.
func (x *Index) spanAt(off int) int {
	return sort.Search(len(x.spans), func(i int) bool { return x.spans[i].End > off })
}

// blankRange reports whether src[a:b] holds nothing but blanks, comments
// and strings.
func (x *Index) blankRange(a, b int) bool {
	if b > a {
		x.need(b - 1)
	}
	si := x.spanAt(a)
	for i := a; i < b; {
		if si < len(x.spans) && i >= x.spans[si].Start {
			i = x.spans[si].End
			si++
			continue
		}
		if c := x.src[i]; c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return false
		}
		i++
	}
	return true
}

// lineEnd returns the offset of the newline ending the line holding off,
// or len(src).
func (x *Index) lineEnd(off int) int {
	if k := bytes.IndexByte(x.src[off:], '\n'); k >= 0 {
		return off + k
	}
	return len(x.src)
}

// openScan is Open for a braces file not built: braceAfter's rules, read
// forward from at.
func (x *Index) openScan(at, l int) (Block, bool) {
	b := Block{Open: l + 1}
	src := x.src
	si := x.spanAt(at)
	d, line, hdr := 0, l, -1
	for i := at; i < len(src); {
		if x.need(i) {
			si = x.spanAt(i)
		}
		if si < len(x.spans) && i >= x.spans[si].Start {
			e := min(x.spans[si].End, len(src))
			if nl := bytes.Count(src[i:e], []byte{'\n'}); nl > 0 {
				hdr = headerEnd(hdr, d, line)
				line += nl
			}
			x.scanned += e - i
			i, si = e, si+1
			if pastHeader(hdr, line, l) {
				return x.groupScan(b, at, l) // as a newline past the header does
			}
			continue
		}
		x.scanned++
		switch src[i] {
		case '\n':
			hdr = headerEnd(hdr, d, line)
			line++
			if pastHeader(hdr, line, l) {
				return x.groupScan(b, at, l)
			}
		case '(':
			d++
		case ')':
			d--
		case '{':
			if d > 0 {
				break
			}
			if hdr < 0 || line == hdr+1 && x.blankRange(x.lineStart(i), i) {
				blk, _ := x.closeScan(b, i, line, '{', '}')
				return blk, true // an unclosed brace runs to the end of the file
			}
			return x.groupScan(b, at, l)
		case '}':
			if d <= 0 {
				return x.groupScan(b, at, l)
			}
		case ';':
			if d <= 0 && x.blankRange(i+1, x.lineEnd(i)) {
				return x.groupScan(b, at, l)
			}
		}
		i++
	}
	return x.groupScan(b, at, l)
}

// headerEnd is the line a block's header ends on: hdr once known (not
// negative); else line, when a newline there ends it outside any
// parenthesis (depth d).
func headerEnd(hdr, d, line int) int {
	if hdr < 0 && d <= 0 {
		return line
	}
	return hdr
}

// pastHeader reports whether line is past where the block of line l could
// open: the line after its header's end (hdr, when known), or maxHeader
// lines after l.
func pastHeader(hdr, line, l int) bool {
	return hdr >= 0 && line > hdr+1 || line > l+maxHeader+1
}

// groupScan is the block of a line that ends with '(' (Go's const ( ...
// )), when no brace opens one.
func (x *Index) groupScan(b Block, at, l int) (Block, bool) {
	// The last code byte of the line, comments, strings and blanks
	// aside, must be a '(' at or after the match.
	ls := x.lineStart(at)
	e := x.lineEnd(ls)
	k := e - 1
	for k >= ls {
		if si := x.spanAt(k); si < len(x.spans) && x.spans[si].Start <= k {
			k = x.spans[si].Start - 1
			continue
		}
		if c := x.src[k]; c != ' ' && c != '\t' && c != '\r' {
			break
		}
		k--
	}
	if k < at || x.src[k] != '(' {
		return b, false
	}
	// An unclosed group opens nothing, as in the built index.
	return x.closeScan(b, k, l, '(', ')')
}

// closeScan returns the block opened by the opener at byte o on 0-based
// line ol, closed by its matching closer, or, unclosed (closed false), to
// the end of the file.
func (x *Index) closeScan(b Block, o, ol int, open, close byte) (blk Block, closed bool) {
	src := x.src
	si := x.spanAt(o + 1)
	depth := 1
	// The code between two spans is searched for the next opener and
	// closer with bytes.IndexByte, each found once per stretch (po, pc:
	// where, or end when none): no byte is read twice by either search.
	end, po, pc := -1, 0, 0
	for i := o + 1; i < len(src); {
		if x.need(i) {
			si, end = x.spanAt(i), -1
		}
		if si < len(x.spans) && i >= x.spans[si].Start {
			e := min(x.spans[si].End, len(src))
			x.scanned += e - i
			i, si, end = e, si+1, -1
			continue
		}
		if end < 0 { // a stretch of code: to the next span, or the end of the lexed prefix
			end = len(src)
			if si < len(x.spans) {
				end = min(end, x.spans[si].Start)
			}
			if i < x.lexed {
				end = min(end, x.lexed)
			}
			po, pc = i-1, i-1
		}
		if po < i {
			po = indexFrom(src, i, end, open)
		}
		if pc < i {
			pc = indexFrom(src, i, end, close)
		}
		p := min(po, pc)
		if p == end {
			x.scanned += end - i
			i, end = end, -1
			continue
		}
		x.scanned += p - i + 1
		if src[p] == open {
			depth++
		} else if depth--; depth == 0 {
			return x.span(b, ol, p), true
		}
		i = p + 1
	}
	return x.span(b, ol, len(src)), false
}

// indexFrom returns where byte c first occurs in src[i:end], or end.
func indexFrom(src []byte, i, end int, c byte) int {
	if k := bytes.IndexByte(src[i:end], c); k >= 0 {
		return i + k
	}
	return end
}

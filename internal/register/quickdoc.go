package register

import (
	"bytes"

	"github.com/yuin/goldmark"

	meta "github.com/yuin/goldmark-meta"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// quickBlock is a block of a file of quickDoc's shape: an ATX heading
// (level 1 to 6, its text) or a pipe table (level 0): cols cells a row,
// the header row first and the delimiter row left out, flat in cells; a
// cell a short row lacks (goldmark pads the row) is noCell.
type quickBlock struct {
	level int
	text  text.Segment
	cols  int
	cells []text.Segment
}

// noCell is a cell goldmark adds to a row shorter than the delimiter row:
// a cell with no text at all, where an empty one (| |) has an empty span.
var noCell = text.Segment{Start: -1, Stop: -1}

// quickDoc reads, without goldmark's block parser, the blocks goldmark
// finds in a decision file of the plainest shape: front matter, then only
// empty lines, ATX headings of plain text and pipe tables (every line
// starting with |), the shape of a file that is its title and its claims
// (D92); body is where the front matter ends, for quickFrontMatter or
// goldmark-meta to read it alone. Anything else (a paragraph, a list, a
// fence, a tab, a carriage return, a heading with a # or a backslash, a
// table goldmark would not make) returns ok false, and the caller parses
// the file with goldmark: TestBlocksOnlySame, FuzzBlocksOnly and
// FuzzQuickDoc hold the decision read from the blocks to the one read from
// goldmark's tree.
func quickDoc(src []byte) (blocks []quickBlock, body int, ok bool) {
	for _, c := range src {
		if c < 0x20 && c != '\n' {
			return nil, 0, false
		}
	}
	body = frontMatterEnd(src)
	if body < 0 {
		return nil, 0, false
	}
	var block []text.Segment // the lines of the table being read
	for off := body; off < len(src); {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src) - off
		}
		line := text.NewSegment(off, off+end)
		off += end + 1
		if line.Len() > 0 && src[line.Start] == '|' {
			block = append(block, line)
			continue
		}
		if len(block) > 0 {
			if blocks, ok = quickTable(blocks, src, block); !ok {
				return nil, 0, false
			}
		}
		block = block[:0]
		if line.Len() > 0 {
			if blocks, ok = quickHeading(blocks, src, line); !ok {
				return nil, 0, false
			}
		}
	}
	if len(block) > 0 {
		if blocks, ok = quickTable(blocks, src, block); !ok {
			return nil, 0, false
		}
	}
	return blocks, body, true
}

// frontMatterEnd is the offset after the line that closes the front
// matter goldmark-meta reads (a line of dashes, spaces around them), or -1.
// src starts with "---\n".
func frontMatterEnd(src []byte) int {
	off := bytes.IndexByte(src, '\n') + 1
	for off > 0 && off < len(src) {
		end := bytes.IndexByte(src[off:], '\n')
		next := off + end + 1
		if end < 0 {
			end, next = len(src)-off, len(src)
		}
		if l := bytes.Trim(src[off:off+end], " "); len(l) > 0 && len(bytes.Trim(l, "-")) == 0 {
			return next
		}
		off = next
	}
	return -1
}

// quickHeading appends the ATX heading line is to blocks: one to six #,
// one space, then text with no #, backslash or space at either end. Any
// other line is not read here (ok false).
func quickHeading(blocks []quickBlock, src []byte, line text.Segment) ([]quickBlock, bool) {
	v := line.Value(src)
	level := 0
	for level < len(v) && v[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || level+1 >= len(v) || v[level] != ' ' {
		return blocks, false
	}
	t := v[level+1:]
	if t[0] == ' ' || t[len(t)-1] == ' ' || bytes.ContainsAny(t, "#\\") {
		return blocks, false
	}
	return append(blocks, quickBlock{level: level, text: text.NewSegment(line.Start+level+1, line.Stop)}), true
}

// quickTable appends the table of the lines block (a paragraph of lines
// starting with |) to blocks, as goldmark's table extension reads it: the
// header row, the delimiter row, then a row a line. A block that would
// stay a paragraph, in whole or in part, is not read here (ok false).
func quickTable(blocks []quickBlock, src []byte, block []text.Segment) ([]quickBlock, bool) {
	if len(block) < 2 {
		return blocks, false
	}
	cols := quickDelimiter(block[1].Value(src))
	if cols == 0 {
		return blocks, false
	}
	cells := make([]text.Segment, 0, cols*(len(block)-1))
	cells, n := quickRow(cells, src, block[0], cols, true)
	if n > cols { // goldmark pads a short header, as it does a body row
		return blocks, false
	}
	for _, l := range block[2:] {
		cells, _ = quickRow(cells, src, l, cols, false)
	}
	return append(blocks, quickBlock{cols: cols, cells: cells}), true
}

// quickDelimiter is the number of cells of a delimiter row (| :-- | --: |),
// or 0 for any other line.
func quickDelimiter(line []byte) int {
	if len(bytes.Trim(line, "-")) == 0 || len(bytes.Trim(line, " -|:")) != 0 {
		return 0 // all dashes (a setext underline), or not a delimiter row
	}
	cols := bytes.Split(line, []byte{'|'})
	if len(bytes.Trim(cols[0], " ")) == 0 {
		cols = cols[1:]
	}
	if len(cols) > 0 && len(bytes.Trim(cols[len(cols)-1], " ")) == 0 {
		cols = cols[:len(cols)-1]
	}
	for _, col := range cols {
		c := bytes.Trim(col, " ")
		dashes := bytes.TrimSuffix(bytes.TrimPrefix(c, []byte{':'}), []byte{':'})
		if len(dashes) == 0 || len(bytes.Trim(dashes, "-")) != 0 {
			return 0
		}
	}
	return len(cols)
}

// quickRow appends to dst the cells of goldmark's table row of line:
// split at each | not after a backslash, their spaces trimmed; a body row
// is cut or padded (noCell) to the delimiter row's cols cells. n is the
// number of cells the line has, for the header's check.
func quickRow(dst []text.Segment, src []byte, segment text.Segment, cols int, isHeader bool) (out []text.Segment, n int) {
	segment = segment.TrimRightSpace(src)
	line := segment.Value(src)
	pos, limit := 0, len(line)
	if len(line) > 0 && line[pos] == '|' {
		pos++
	}
	if len(line) > 0 && line[limit-1] == '|' {
		limit--
	}
	for ; pos < limit; n++ {
		if n >= cols && !isHeader {
			return dst, n
		}
		closure := pos
		for ; closure < limit; closure++ {
			if line[closure] == '|' && (closure == 0 || line[closure-1] != '\\') {
				break
			}
		}
		seg := text.NewSegment(segment.Start+pos, segment.Start+closure)
		seg = seg.TrimLeftSpace(src)
		seg = seg.TrimRightSpace(src)
		dst = append(dst, seg)
		pos = closure + 1
	}
	for i := n; i < cols; i++ {
		dst = append(dst, noCell)
	}
	return dst, n
}

// parsedBody is a decision file's body as parsed: goldmark's tree, or,
// for a file of quickDoc's shape, its blocks (doc nil).
type parsedBody struct {
	doc   ast.Node
	quick []quickBlock
}

// parseDecisionDoc is parseWith for a decision file, within the same
// gate: quickDoc's blocks when md is blocksOnly (ParseDecision's) and the
// file has its shape, else goldmark's tree. fm and fmErr are the front
// matter's keys and values and why it is not YAML, as goldmark-meta
// reads them; a front matter of plain `key: value` lines is read by
// quickFrontMatter, without YAML (D92).
func parseDecisionDoc(md goldmark.Markdown, src []byte) (body parsedBody, fm map[string]any, release func(), fmErr error) {
	if md == blocksOnly {
		ctx := parser.NewContext()
		blocks, fm, fmNode, release := quickParse(src, ctx)
		if release != nil {
			if fm != nil {
				return parsedBody{quick: blocks}, fm, release, nil
			}
			if fm, err := meta.TryGet(ctx); err == nil && fmNode.ChildCount() == 0 {
				return parsedBody{quick: blocks}, fm, release, nil
			}
			release() // invalid YAML: goldmark's parse says where
		}
	}
	ctx := parser.NewContext()
	doc, release := parseWith(md, src, ctx)
	fm, fmErr = meta.TryGet(ctx)
	return parsedBody{doc: doc}, fm, release, fmErr
}

// quickParse is quickDoc's blocks of src and its front matter, within
// the gate charged for all of src, or a nil release (and the gate not
// held) when src is not of quickDoc's shape. The front matter is
// quickFrontMatter's map when it reads it, else fm is nil and fmNode is
// goldmark-meta's parse of the front matter alone into ctx.
func quickParse(src []byte, ctx parser.Context) (blocks []quickBlock, fm map[string]any, fmNode ast.Node, release func()) {
	release = parsing.acquire(estimate(src))
	blocks, body, ok := quickDoc(src)
	if !ok {
		release()
		return nil, nil, nil, nil
	}
	if fm := quickFrontMatter(src[:body]); fm != nil {
		return blocks, fm, nil, release
	}
	return blocks, nil, blocksOnly.Parser().Parse(text.NewReader(src[:body]), parser.WithContext(ctx)), release
}

// quickFrontMatter reads, without YAML, a front matter (src from its
// opening line through its closing one) whose every line is a plain
// `key: value`: the key (of at most maxPlainKey bytes) and the value each an ASCII letter, then letters,
// digits, _, - or . (and single spaces inside a value), neither one of
// the words YAML 1.1 reads as a boolean or null (yes, off, null, ...),
// no key twice. Those are the lines yaml.v2 reads as a string keyed by a
// string, so the map is the one goldmark-meta would give (FuzzQuickFrontMatter
// holds it to it). Any other front matter returns nil, for goldmark-meta.
func quickFrontMatter(src []byte) map[string]any {
	first := bytes.IndexByte(src, '\n') + 1
	last := bytes.LastIndexByte(bytes.TrimSuffix(src, []byte("\n")), '\n') + 1 // the closing line
	if first <= 0 || last < first {
		return nil
	}
	fm := make(map[string]any, 4)
	for off := first; off < last; {
		end := off + bytes.IndexByte(src[off:last], '\n')
		line := src[off:end]
		off = end + 1
		colon := bytes.IndexByte(line, ':')
		if colon <= 0 || colon+2 >= len(line) || line[colon+1] != ' ' {
			return nil
		}
		key, value := line[:colon], line[colon+2:]
		if len(key) > maxPlainKey || !plainWord(key, false) || !plainWord(value, true) {
			return nil
		}
		if _, twice := fm[string(key)]; twice {
			return nil
		}
		fm[string(key)] = string(value)
	}
	return fm
}

// maxPlainKey bounds a key read without YAML: yaml.v2 refuses a key of
// over 1,024 characters ("mapping values are not allowed").
const maxPlainKey = 64

// plainWord reports whether w is a plain YAML scalar that yaml.v2 reads
// as the string w: an ASCII letter, then letters, digits, _, - or . (and,
// when spaces, single spaces between words), not a word of yaml11Words.
func plainWord(w []byte, spaces bool) bool {
	if len(w) == 0 || !isLetter(w[0]) || w[len(w)-1] == ' ' {
		return false
	}
	for i := 1; i < len(w); i++ {
		c := w[i]
		switch {
		case isLetter(c), c >= '0' && c <= '9', c == '_', c == '-', c == '.':
		case c == ' ' && spaces && w[i-1] != ' ':
		default:
			return false
		}
	}
	if len(w) <= 5 {
		for _, r := range yaml11Words {
			if string(w) == r {
				return false
			}
		}
	}
	return true
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// yaml11Words are the plain scalars starting with a letter that yaml.v2
// resolves to a boolean or null, not a string (its resolve table).
var yaml11Words = []string{
	"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON",
	"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF",
	"null", "Null", "NULL",
}

package register

import (
	"bytes"

	"github.com/yuin/goldmark"

	meta "github.com/yuin/goldmark-meta"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// quickDoc builds, without goldmark's block parser, the tree goldmark
// builds for a decision file of the plainest shape: front matter, then
// only empty lines, ATX headings of plain text and pipe tables (every line
// starting with |), the shape of a file that is its title and its claims
// (D92); body is where the front matter ends, for goldmark-meta to read
// it alone. Anything else (a paragraph, a list, a fence, a tab, a carriage
// return, a heading with a # or a backslash, a table goldmark would not
// make) returns nil, and the caller parses the file with goldmark:
// TestBlocksOnlySame, FuzzBlocksOnly and FuzzQuickDoc hold the result to
// goldmark's.
func quickDoc(src []byte) (doc ast.Node, body int) {
	for _, c := range src {
		if c < 0x20 && c != '\n' {
			return nil, 0
		}
	}
	body = frontMatterEnd(src)
	if body < 0 {
		return nil, 0
	}
	doc = ast.NewDocument()
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
		if len(block) > 0 && !quickTable(doc, src, block) {
			return nil, 0
		}
		block = block[:0]
		if line.Len() > 0 && !quickHeading(doc, src, line) {
			return nil, 0
		}
	}
	if len(block) > 0 && !quickTable(doc, src, block) {
		return nil, 0
	}
	return doc, body
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

// quickHeading appends the ATX heading line is to doc: one to six #, one
// space, then text with no #, backslash or space at either end. Any other
// line is not read here.
func quickHeading(doc ast.Node, src []byte, line text.Segment) bool {
	v := line.Value(src)
	level := 0
	for level < len(v) && v[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || level+1 >= len(v) || v[level] != ' ' {
		return false
	}
	t := v[level+1:]
	if t[0] == ' ' || t[len(t)-1] == ' ' || bytes.ContainsAny(t, "#\\") {
		return false
	}
	h := ast.NewHeading(level)
	h.Lines().Append(text.NewSegment(line.Start+level+1, line.Stop))
	doc.AppendChild(doc, h)
	return true
}

// quickTable appends the table of the lines block (a paragraph of lines
// starting with |) to doc, as goldmark's table extension makes it: the
// header row, the delimiter row, then a row a line. A block that would stay
// a paragraph, in whole or in part, is not read here.
func quickTable(doc ast.Node, src []byte, block []text.Segment) bool {
	if len(block) < 2 {
		return false
	}
	alignments := quickDelimiter(block[1].Value(src))
	if alignments == nil {
		return false
	}
	header := quickRow(src, block[0], alignments, true)
	if header.ChildCount() != len(alignments) {
		return false
	}
	table := east.NewTable()
	table.Alignments = alignments
	table.AppendChild(table, east.NewTableHeader(header))
	for _, l := range block[2:] {
		table.AppendChild(table, quickRow(src, l, alignments, false))
	}
	doc.AppendChild(doc, table)
	return true
}

// quickDelimiter is the alignments of a delimiter row (| :-- | --: |), or
// nil for any other line.
func quickDelimiter(line []byte) []east.Alignment {
	if len(bytes.Trim(line, "-")) == 0 || len(bytes.Trim(line, " -|:")) != 0 {
		return nil // all dashes (a setext underline), or not a delimiter row
	}
	cols := bytes.Split(line, []byte{'|'})
	if len(bytes.Trim(cols[0], " ")) == 0 {
		cols = cols[1:]
	}
	if len(cols) > 0 && len(bytes.Trim(cols[len(cols)-1], " ")) == 0 {
		cols = cols[:len(cols)-1]
	}
	var out []east.Alignment
	for _, col := range cols {
		c := bytes.Trim(col, " ")
		left, right := bytes.HasPrefix(c, []byte{':'}), bytes.HasSuffix(c, []byte{':'})
		dashes := bytes.TrimSuffix(bytes.TrimPrefix(c, []byte{':'}), []byte{':'})
		if len(dashes) == 0 || len(bytes.Trim(dashes, "-")) != 0 {
			return nil
		}
		switch {
		case left && right:
			out = append(out, east.AlignCenter)
		case left:
			out = append(out, east.AlignLeft)
		case right:
			out = append(out, east.AlignRight)
		default:
			out = append(out, east.AlignNone)
		}
	}
	return out
}

// quickRow is goldmark's table row of line: cells split at each | not
// after a backslash, their spaces trimmed; a body row is cut or padded to
// the delimiter row's cells.
func quickRow(src []byte, segment text.Segment, alignments []east.Alignment, isHeader bool) *east.TableRow {
	segment = segment.TrimRightSpace(src)
	line := segment.Value(src)
	pos, limit := 0, len(line)
	row := east.NewTableRow(alignments)
	if len(line) > 0 && line[pos] == '|' {
		pos++
	}
	if len(line) > 0 && line[limit-1] == '|' {
		limit--
	}
	i := 0
	for ; pos < limit; i++ {
		alignment := east.AlignNone
		if i >= len(alignments) {
			if !isHeader {
				return row
			}
		} else {
			alignment = alignments[i]
		}
		cell := east.NewTableCell()
		cell.Alignment = alignment
		closure := pos
		for ; closure < limit; closure++ {
			if line[closure] == '|' && (closure == 0 || line[closure-1] != '\\') {
				break
			}
		}
		seg := text.NewSegment(segment.Start+pos, segment.Start+closure)
		seg = seg.TrimLeftSpace(src)
		seg = seg.TrimRightSpace(src)
		cell.Lines().Append(seg)
		row.AppendChild(row, cell)
		pos = closure + 1
	}
	for ; i < len(alignments); i++ {
		row.AppendChild(row, east.NewTableCell())
	}
	return row
}

// parseDecisionDoc is parseWith for a decision file, within the same
// gate: quickDoc's tree when md is blocksOnly (ParseDecision's) and the
// file has its shape, else goldmark's. fm and fmErr are the front
// matter's keys and values and why it is not YAML, as goldmark-meta
// reads them; a front matter of plain `key: value` lines is read by
// quickFrontMatter, without YAML (D92).
func parseDecisionDoc(md goldmark.Markdown, src []byte) (doc ast.Node, fm map[string]any, fmErr error, release func()) {
	if md == blocksOnly {
		ctx := parser.NewContext()
		doc, fm, fmNode, release := quickParse(src, ctx)
		if doc != nil {
			if fm != nil {
				return doc, fm, nil, release
			}
			if fm, err := meta.TryGet(ctx); err == nil && fmNode.ChildCount() == 0 {
				return doc, fm, nil, release
			}
			release() // invalid YAML: goldmark's parse says where
		}
	}
	ctx := parser.NewContext()
	doc, release = parseWith(md, src, ctx)
	fm, fmErr = meta.TryGet(ctx)
	return doc, fm, fmErr, release
}

// quickParse is quickDoc's tree of src and its front matter, within the
// gate charged for all of src, or nil (and the gate not held) when src is
// not of quickDoc's shape. The front matter is quickFrontMatter's map when
// it reads it, else fm is nil and fmNode is goldmark-meta's parse of the
// front matter alone into ctx.
func quickParse(src []byte, ctx parser.Context) (doc ast.Node, fm map[string]any, fmNode ast.Node, release func()) {
	release = parsing.acquire(estimate(src))
	doc, body := quickDoc(src)
	if doc == nil {
		release()
		return nil, nil, nil, nil
	}
	if fm := quickFrontMatter(src[:body]); fm != nil {
		return doc, fm, nil, release
	}
	return doc, nil, blocksOnly.Parser().Parse(text.NewReader(src[:body]), parser.WithContext(ctx)), release
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

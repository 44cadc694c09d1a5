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
// file has its shape, else goldmark's. ctx is the parse's context, for
// the front matter.
func parseDecisionDoc(md goldmark.Markdown, src []byte) (doc ast.Node, ctx parser.Context, release func()) {
	if md == blocksOnly {
		ctx = parser.NewContext()
		doc, fm, release := quickParse(src, ctx)
		if doc != nil {
			if _, err := meta.TryGet(ctx); err == nil && fm.ChildCount() == 0 {
				return doc, ctx, release
			}
			release() // invalid YAML: goldmark's parse says where
		}
	}
	ctx = parser.NewContext()
	doc, release = parseWith(md, src, ctx)
	return doc, ctx, release
}

// quickParse is quickDoc's tree of src and goldmark-meta's parse of its
// front matter alone into ctx, within the gate charged for all of src, or
// nil (and the gate not held) when src is not of quickDoc's shape.
func quickParse(src []byte, ctx parser.Context) (doc, fm ast.Node, release func()) {
	release = parsing.acquire(estimate(src))
	doc, body := quickDoc(src)
	if doc == nil {
		release()
		return nil, nil, nil
	}
	return doc, blocksOnly.Parser().Parse(text.NewReader(src[:body]), parser.WithContext(ctx)), release
}

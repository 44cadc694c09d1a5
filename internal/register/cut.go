package register

import (
	"bytes"
	"fmt"
	"go/token"
	"strings"
)

// A claims row is split into cells at every `|` that no backslash escapes,
// inside code spans too (GFM), and the cells past the header's are
// dropped. So an unescaped `|` in a pattern (`a|b`) cuts its cell in two:
// the claim would check `a` and lose the rest in silence, or report what
// the cut pattern does (D76). cutCell finds that row before it is read.

// cutFinding is where a row's cell was cut.
type cutFinding struct {
	at     int    // offset of the unescaped | that cut it, or that ends the header's last cell
	column string // the header cell the cut cell is under, or ""
	cells  int    // the row's cell count, when more than the header's
	header int
	last   string // the header's last cell, when only the count shows a cut
}

func (f cutFinding) message(id string) string {
	row := "claim row"
	if id != "" {
		row = "claim " + id
	}
	if f.column == "" {
		// Only the count shows it: which cell a | cut, if one did, cannot
		// be told from the row (dk-p8o), so the message says both causes.
		after := "its last"
		if f.last != "" {
			after = "its " + f.last
		}
		return fmt.Sprintf("%s: the row has %d cells and its header %d: an unescaped `|` cut a cell, or the row has an extra cell after %s cell; write `\\|` for a `|` inside a cell, as in `a\\|b`, or remove the extra cell", row, f.cells, f.header, after)
	}
	why := ""
	if f.cells > f.header {
		why = fmt.Sprintf(" (the row has %d cells, the header %d)", f.cells, f.header)
	}
	return fmt.Sprintf("%s: its %s cell was cut at an unescaped `|`%s; write `\\|` for a `|` inside a cell, as in `a\\|b`", row, f.column, why)
}

// maxCutCells bounds the cells read from a row's line: a claims row has
// six, and a hostile line of pipes is not split further.
const maxCutCells = 64

// cutCell reports whether the table row starting at pos (its line) has a
// cell cut at an unescaped `|`: a backtick code span opened in one cell
// and closed in a later one, or more cells than the header.
func cutCell(src []byte, pos token.Position, header []cell) (cutFinding, bool) {
	start := pos.Offset
	if start < 0 || start > len(src) {
		return cutFinding{}, false
	}
	end := bytes.IndexByte(src[start:], '\n')
	if end < 0 {
		end = len(src)
	} else {
		end += start
	}
	line := src[start:end]
	// The row's text starts after any indentation or blockquote marker
	// and its leading pipe, and ends before its trailing pipe.
	lead := 0
	for lead < len(line) && (line[lead] == ' ' || line[lead] == '\t' || line[lead] == '>') {
		lead++
	}
	if lead < len(line) && line[lead] == '|' {
		lead++
	}
	text := bytes.TrimRight(line, " \t\r")
	// An HTML comment after the row's last pipe is a note on the row,
	// a cell GFM drops: it is not a cut cell, whatever it holds.
	if bytes.HasSuffix(text, []byte("-->")) {
		if i := bytes.LastIndex(text, []byte("<!--")); i > lead {
			if before := bytes.TrimRight(text[:i], " \t"); bytes.HasSuffix(before, []byte("|")) {
				text = before
			}
		}
	}
	if n := len(text); n > lead && text[n-1] == '|' && (n < 2 || text[n-2] != '\\') {
		text = text[:n-1]
	}
	if lead > len(text) {
		return cutFinding{}, false
	}
	// pieces[i] is cell i, slices of the row's line, not copies (every
	// claim row is read, D92); pipes[i] the offset of the | that ends it.
	var pieceArr [8][]byte
	var pipeArr [8]int
	pieces, pipes := pieceArr[:0], pipeArr[:0]
	from := lead
	for i := lead; i < len(text) && len(pieces) < maxCutCells; i++ {
		if text[i] == '|' && (i == 0 || text[i-1] != '\\') {
			pieces = append(pieces, text[from:i])
			pipes = append(pipes, start+i)
			from = i + 1
		}
	}
	pieces = append(pieces, text[from:])
	columnOf := func(i int) string {
		if i < len(header) {
			return strings.ToUpper(header[i].text[:min(1, len(header[i].text))]) + header[i].text[min(1, len(header[i].text)):]
		}
		return ""
	}
	for i := 0; i+1 < len(pieces); i++ {
		if !openSpan(pieces[i]) {
			continue
		}
		joined := string(pieces[i])
		for j := i + 1; j < len(pieces); j++ {
			joined += "|" + string(pieces[j])
			if !openSpan(joined) {
				return cutFinding{at: pipes[i], column: columnOf(i), cells: len(pieces), header: len(header)}, true
			}
		}
	}
	if len(header) > 0 && len(pieces) > len(header) {
		return cutFinding{at: pipes[len(header)-1], cells: len(pieces), header: len(header), last: columnOf(len(header) - 1)}, true
	}
	return cutFinding{}, false
}

// openSpan reports whether s leaves a backtick code span open: a run of n
// backticks that no later run of exactly n closes.
func openSpan[T string | []byte](s T) bool {
	open := 0 // the length of the open run, 0 when none is
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '`' {
			j++
		}
		switch n := j - i; {
		case open == 0:
			open = n
		case n == open:
			open = 0
		}
		i = j
	}
	return open > 0
}

package register

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/ruleid"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Limits on the Markdown claimslint parses (D40). goldmark, like most
// CommonMark parsers, takes time quadratic in the number of unclosed inline
// openers in one paragraph ("*a_ ", "[a](<b", "![a](" repeated) and in the
// depth of containers opened on one line ("> " or "1. " repeated), and a
// table's memory grows with its columns. A register or decision file is
// prose and tables written by people; these limits sit far above any such
// file and far below what makes a run take seconds. They are checked in
// one linear pass before goldmark sees the file.
const (
	// MaxNesting bounds the block quotes and list items opened on one line.
	MaxNesting = 32
	// MaxTableColumns bounds the columns of a table's delimiter row, and
	// the cells of any row of a table.
	MaxTableColumns = 64
	// MaxInlineWork bounds the sum, over the file's inline runs (a
	// paragraph, or one table row), of the square of the inline openers
	// (* _ [ ( < ` ~ !) in the run: an estimate of goldmark's worst-case
	// work that is linear to compute. 50,000,000 is a paragraph of about
	// 7,000 openers; parsing it takes about 0.2 s.
	MaxInlineWork = 50_000_000
	// MaxTableCells bounds the cells of a file's tables, every row
	// counted (D70): a 64-column table filling 16 MiB held 8 million
	// cells, and goldmark took 3.3 GB for them. 100,000 is a register of
	// 20,000 five-column rows.
	MaxTableCells = 100_000
	// MaxNodes bounds a file's estimated syntax nodes (D70): its
	// non-blank lines, its table cells and its inline openers. goldmark
	// keeps up to about 700 bytes per node (a file of 4 million headings
	// took 2.7 GB); 200,000 keeps a parse near 130 MB and half a second,
	// ten times this repository's largest file.
	MaxNodes = 200_000
	// MaxRunNodes bounds the estimated syntax nodes of every file one run
	// parses (D90): 69 MB of claim tables, each file within MaxNodes,
	// took 49.8 s and 5.0 GB. 1,000,000 is five files at MaxNodes, or a
	// register of about 160,000 claim rows.
	MaxRunNodes = 1_000_000
	// MaxListDepth bounds the list items and block quotes open at a line,
	// however they were opened: a list nested 4,000 levels by indentation,
	// one level a line, took goldmark 58 s and 1.3 GB (D70).
	MaxListDepth = MaxNesting
)

// utf8BOM is the byte order mark some editors write at the start of a file.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// checkSource is what every parse runs first: the file must be UTF-8 and
// within the limits above. A leading byte order mark is dropped, so front
// matter after one is still front matter; positions keep their lines.
func checkSource(path string, src []byte) ([]byte, diag.Finding, bool) {
	src = bytes.TrimPrefix(src, utf8BOM)
	if f, ok := checkUTF8(path, src); !ok {
		return src, f, false
	}
	if off, msg := screen(src); msg != "" {
		return src, finding(posOf(path, src, off), ruleid.Markdown, "%s", msg), false
	}
	return src, diag.Finding{}, true
}

// screen walks src once, line by line, and returns the offset and a
// message for the first limit exceeded, or "" when none is.
func screen(src []byte) (int, string) {
	var (
		work      int64 // sum of squares of closed runs
		run       int64 // openers in the current run
		runStart  int   // offset of the current run
		worst     int64
		worstAt   int
		fence     byte // '`' or '~' while inside a fenced code block
		fenceLen  int
		inTable   bool
		prevBlank = true
		prevLine  []byte
		cells     int64 // table cells so far
		nodes     int64 // estimated syntax nodes so far
		items     []int // content columns of the list items open (depth)
	)
	closeRun := func() {
		work += run * run
		if run*run > worst {
			worst, worstAt = run*run, runStart
		}
		run = 0
	}
	for off := 0; off < len(src); {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src) - off
		}
		line := src[off : off+end]
		start := off
		off += end + 1
		body := bytes.TrimLeft(line, " \t")
		if nodes++; nodes > MaxNodes {
			return start, nodesMsg()
		}
		if fence != 0 {
			if n := fenceRun(body, fence); n >= fenceLen && len(bytes.TrimSpace(body[n:])) == 0 {
				fence = 0
			}
			continue
		}
		if c, n := fenceOpen(body); n > 0 {
			closeRun()
			fence, fenceLen = c, n
			prevBlank, inTable = true, false
			continue
		}
		if len(bytes.TrimSpace(line)) == 0 {
			nodes--
			closeRun()
			prevBlank, inTable = true, false
			continue
		}
		if d := nesting(line); d > MaxNesting {
			return start, fmt.Sprintf("%d block quotes or list items opened on one line (limit %d): claimslint refuses Markdown nested this deep, which takes quadratic time to parse; flatten it", d, MaxNesting)
		}
		var quotes int
		if quotes, items = openItems(line, items, prevBlank); quotes+len(items) > MaxListDepth {
			return start, fmt.Sprintf("%d list items and block quotes open at this line (limit %d): claimslint refuses Markdown nested this deep, which takes quadratic time to parse; flatten the list", quotes+len(items), MaxListDepth)
		}
		if !inTable && !prevBlank && delimiterRow(line) && bytes.IndexByte(prevLine, '|') >= 0 {
			// prevLine was a table header, parsed as its own run; its
			// cells count with the delimiter row's.
			inTable = true
			cells += max(int64(bytes.Count(prevLine, []byte{'|'}))-1, 1)
			run -= openers(prevLine)
			closeRun()
			run = openers(prevLine)
			runStart = start - len(prevLine) - 1
			closeRun()
		}
		if inTable || delimiterRow(line) {
			n := int64(bytes.Count(line, []byte{'|'})) - 1
			if n > MaxTableColumns {
				return start, fmt.Sprintf("a table row with about %d cells (limit %d): claimslint refuses tables this wide; split the table", n, MaxTableColumns)
			}
			if cells += max(n, 1); cells > MaxTableCells {
				return start, fmt.Sprintf("more than %d table cells in the file, every row counted (the limit): claimslint refuses tables this large, which take gigabytes to parse; split the file", MaxTableCells)
			}
			if nodes += max(n, 1); nodes > MaxNodes {
				return start, nodesMsg()
			}
		}
		op := openers(line)
		if nodes += op; nodes > MaxNodes {
			return start, nodesMsg()
		}
		if inTable {
			closeRun()
			runStart = start
			run = op
			closeRun()
		} else {
			if run == 0 {
				runStart = start
			}
			run += op
		}
		if work+run*run > MaxInlineWork {
			closeRun()
			return worstAt, fmt.Sprintf("too many unclosed inline openers (* _ [ ( < ` ~ !) in one paragraph: estimated parse work %d, limit %d; claimslint refuses Markdown that takes quadratic time to parse; split the paragraph or put the text in a code block", work, int64(MaxInlineWork))
		}
		prevBlank, prevLine = false, line
	}
	closeRun()
	if work > MaxInlineWork {
		return worstAt, fmt.Sprintf("too many inline openers (* _ [ ( < ` ~ !) in the file's paragraphs: estimated parse work %d, limit %d; split the paragraphs or put the text in code blocks", work, int64(MaxInlineWork))
	}
	return 0, ""
}

func nodesMsg() string {
	return fmt.Sprintf("more than %d lines, table cells and inline openers in the file (an estimate of its syntax nodes, and the limit): claimslint refuses Markdown this large, which takes gigabytes to parse; split the file", MaxNodes)
}

// openItems follows the list items open across lines (D70): items holds
// the content columns of those open before line, and the result those
// open after it, with the block quotes the line opens. A list marker at
// column k closes the items whose content starts right of k and opens one;
// a line of text closes them only after a blank line (before one it can
// be a lazy continuation, which closes nothing). The count is never below
// goldmark's: an item's content column is taken at its least (one space
// after the marker), so fewer items are closed than may be.
func openItems(line []byte, items []int, afterBlank bool) (quotes int, open []int) {
	col, k := 0, 0
	first := true
	for k < len(line) {
		switch c := line[k]; {
		case c == ' ':
			col++
			k++
			continue
		case c == '\t':
			col += 4 - col%4
			k++
			continue
		case c == '>':
			quotes++
			col++
			k++
			continue
		}
		w := listMarker(line[k:])
		if w == 0 {
			break
		}
		if first {
			items = closeItems(items, col)
			first = false
		}
		items = append(items, col+w+1)
		col += w
		k += w
	}
	if first && afterBlank {
		items = closeItems(items, col)
	}
	return quotes, items
}

func closeItems(items []int, col int) []int {
	for len(items) > 0 && items[len(items)-1] > col {
		items = items[:len(items)-1]
	}
	return items
}

// listMarker returns the width of the list marker (-, *, + or 1. 1) up to
// 9 digits) at the start of b, followed by a space, a tab or the end of
// the line, or 0.
func listMarker(b []byte) int {
	ends := func(i int) bool { return i == len(b) || b[i] == ' ' || b[i] == '\t' || b[i] == '\r' }
	switch {
	case len(b) == 0:
		return 0
	case b[0] == '-' || b[0] == '*' || b[0] == '+':
		if ends(1) {
			return 1
		}
		return 0
	}
	j := 0
	for j < len(b) && j < 9 && b[j] >= '0' && b[j] <= '9' {
		j++
	}
	if j > 0 && j < len(b) && (b[j] == '.' || b[j] == ')') && ends(j+1) {
		return j + 1
	}
	return 0
}

// estimate is a file's estimated syntax nodes, as screen counts them: what
// a parse of it weighs in parsing.
// Estimate is the syntax nodes goldmark is estimated to build for src (its
// lines, table cells and inline openers), at most MaxNodes, counted in one
// pass without parsing: what a run's MaxRunNodes is charged for a file.
func Estimate(src []byte) int64 { return estimate(src) }

func estimate(src []byte) int64 {
	n := int64(bytes.Count(src, []byte{'\n'})) + 1
	for _, c := range src {
		n += int64(nodeByte[c])
	}
	return min(n, MaxNodes)
}

// nodeByte is 1 for the bytes estimate counts (the openers and the cell
// separator): a table, not a switch, since each file is counted twice,
// by the run's budget and by the parse gate (D92).
var nodeByte = [256]uint8{'*': 1, '_': 1, '[': 1, '(': 1, '<': 1, '`': 1, '~': 1, '!': 1, '|': 1}

// parseMarkdown parses src with goldmark, every parse of this package
// does, within the parse gate: release gives its nodes back once the tree
// is no longer read. A caller holds one tree at a time, so that a parse
// never waits on its own caller's.
func parseMarkdown(src []byte, ctx parser.Context) (doc ast.Node, release func()) {
	return parseWith(markdown, src, ctx)
}

// parseWith is parseMarkdown with another goldmark configuration: the
// site's (RenderHTML), through the same gate.
func parseWith(md goldmark.Markdown, src []byte, ctx parser.Context) (doc ast.Node, release func()) {
	release = parsing.acquire(estimate(src))
	return md.Parser().Parse(text.NewReader(src), parser.WithContext(ctx)), release
}

// parsing bounds the goldmark parses in flight by their estimated nodes
// (D70): at most MaxNodes at once, whatever the cores, so that parsing
// decision files on all of them cannot hold more than one largest file's
// memory. A parse larger than that waits for the others to end.
var parsing = &parseGate{size: MaxNodes}

type parseGate struct {
	mu      sync.Mutex
	size    int64
	used    int64
	waiters []*gateWaiter
}

type gateWaiter struct {
	n     int64
	ready chan struct{}
}

// acquire waits until n nodes fit, first come first served, and returns
// the function that gives them back.
func (g *parseGate) acquire(n int64) (release func()) {
	n = min(max(n, 1), g.size)
	g.mu.Lock()
	if len(g.waiters) == 0 && g.used+n <= g.size {
		g.used += n
		g.mu.Unlock()
		return func() { g.release(n) }
	}
	w := &gateWaiter{n: n, ready: make(chan struct{})}
	g.waiters = append(g.waiters, w)
	g.mu.Unlock()
	<-w.ready
	return func() { g.release(n) }
}

func (g *parseGate) release(n int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.used -= n
	for len(g.waiters) > 0 && g.used+g.waiters[0].n <= g.size {
		w := g.waiters[0]
		g.waiters = g.waiters[1:]
		g.used += w.n
		close(w.ready)
	}
}

// openers counts the bytes of a line that can open an inline construct
// whose closer goldmark searches for.
func openers(line []byte) int64 {
	var n int64
	for _, c := range line {
		switch c {
		case '*', '_', '[', '(', '<', '`', '~', '!':
			n++
		}
	}
	return n
}

// nesting counts the block quote and list markers that open containers at
// the start of a line.
func nesting(line []byte) int {
	d := 0
	for k := 0; k < len(line); {
		for k < len(line) && (line[k] == ' ' || line[k] == '\t') {
			k++
		}
		if k >= len(line) {
			break
		}
		switch c := line[k]; {
		case c == '>':
			k++
		case (c == '-' || c == '*' || c == '+') && k+1 < len(line) && (line[k+1] == ' ' || line[k+1] == '\t'):
			k += 2
		case c >= '0' && c <= '9':
			j := k
			for j < len(line) && j-k < 9 && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j+1 < len(line) && (line[j] == '.' || line[j] == ')') && (line[j+1] == ' ' || line[j+1] == '\t') {
				k = j + 2
			} else {
				return d
			}
		default:
			return d
		}
		d++
	}
	return d
}

// delimiterRow reports whether line is a GFM table delimiter row such as
// |---|:--:|.
func delimiterRow(line []byte) bool {
	s := bytes.TrimSpace(line)
	if len(s) == 0 || bytes.IndexByte(s, '-') < 0 {
		return false
	}
	for _, c := range s {
		switch c {
		case '|', '-', ':', ' ', '\t':
		default:
			return false
		}
	}
	return bytes.IndexByte(s, '|') >= 0
}

// fenceOpen returns the fence character and length when body opens a fenced
// code block.
func fenceOpen(body []byte) (byte, int) {
	if len(body) == 0 || (body[0] != '`' && body[0] != '~') {
		return 0, 0
	}
	n := fenceRun(body, body[0])
	if n < 3 || (body[0] == '`' && bytes.IndexByte(body[n:], '`') >= 0) {
		return 0, 0
	}
	return body[0], n
}

func fenceRun(body []byte, c byte) int {
	n := 0
	for n < len(body) && body[n] == c {
		n++
	}
	return n
}

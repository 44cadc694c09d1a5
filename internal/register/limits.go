package register

import (
	"bytes"
	"fmt"

	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/ruleid"
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
		return src, finding(newLines(path, src).pos(off), ruleid.Markdown, "%s", msg), false
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
			closeRun()
			prevBlank, inTable = true, false
			continue
		}
		if d := nesting(line); d > MaxNesting {
			return start, fmt.Sprintf("%d block quotes or list items opened on one line (limit %d): claimslint refuses Markdown nested this deep, which takes quadratic time to parse; flatten it", d, MaxNesting)
		}
		if !inTable && !prevBlank && delimiterRow(line) && bytes.IndexByte(prevLine, '|') >= 0 {
			// prevLine was a table header, parsed as its own run.
			inTable = true
			run -= openers(prevLine)
			closeRun()
			run = openers(prevLine)
			runStart = start - len(prevLine) - 1
			closeRun()
		}
		if inTable || delimiterRow(line) {
			if cells := int64(bytes.Count(line, []byte{'|'})) - 1; cells > MaxTableColumns {
				return start, fmt.Sprintf("a table row with about %d cells (limit %d): claimslint refuses tables this wide; split the table", cells, MaxTableColumns)
			}
		}
		if inTable {
			closeRun()
			runStart = start
			run = openers(line)
			closeRun()
		} else {
			if run == 0 {
				runStart = start
			}
			run += openers(line)
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

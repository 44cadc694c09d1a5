// Package register parses a decision register: the table of D-rows in the
// register file (docs/PRD.md) and the MADR-style decision files, each with
// YAML front matter and a Confirmation table of claims.
//
// Parsing never fails on bad content: what cannot be understood is returned
// as findings that point at the Markdown row or front-matter key, so one
// broken file does not hide the state of all the others. An error means the
// file could not be read.
package register

import (
	"bytes"
	"fmt"
	"go/token"
	"iter"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/claimslint/claimslint/internal/decisionid"
	"github.com/claimslint/claimslint/internal/ruleid"

	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/register/gfm"
	"github.com/yuin/goldmark"
	meta "github.com/yuin/goldmark-meta"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Statuses a decision may have.
var Statuses = []string{"proposed", "accepted", "rejected", "deprecated", "superseded"}

// ValidStatus reports whether s is one of Statuses.
func ValidStatus(s string) bool {
	for _, v := range Statuses {
		if v == s {
			return true
		}
	}
	return false
}

// Where a row's status came from.
const (
	StatusFromColumn  = "column"
	StatusFromMarker  = "marker"
	StatusFromDefault = "default"
)

// Row is one D-row of the register table.
type Row struct {
	ID string // "D12", "D0", "D4a"
	N  int    // 12
	// Plain is true when the id has no letter suffix (D72).
	Plain  bool
	Title  string
	Status string // normalised: lower case, emphasis stripped; "" if unknown
	// StatusFrom says where Status came from: the Status column, a marker
	// in the row's text, or the configured default (D35).
	StatusFrom string
	// Text is the row's cells joined, as the markers see them.
	Text string
	// IDCell is the id cell as written (**D12**, `D12`, D12): the shape
	// claimslint new gives the next row of an inline register (D65).
	IDCell string
	// Cells is how many cells the row has.
	Cells int
	Link  string // destination of the first link in the row, if any
	Pos   token.Position
	// StatusPos and LinkPos point at their cells.
	StatusPos token.Position
	LinkPos   token.Position
}

// Register is the parsed register file.
type Register struct {
	Path string
	// Found reports whether a table whose first header cell is ID exists.
	Found     bool
	HasStatus bool
	// StatusUnread is set when the table has no Status column and no
	// marker or default says a row's status: check says which setting
	// reads it (CL001, D65).
	StatusUnread bool
	// HeaderPos is the table's header row.
	HeaderPos token.Position
	Rows      []Row
	Findings  []diag.Finding
	// Counted are the counts stated before a list (CL010); HasCounted says
	// the file was parsed.
	Counted    []CountedList
	HasCounted bool
}

// Ref names a decision, optionally one clause of it: D3 or D3(6).
type Ref struct {
	ID     string
	Clause string
}

func (r Ref) String() string {
	if r.Clause != "" {
		return r.ID + "(" + r.Clause + ")"
	}
	return r.ID
}

// Claim is one row of a Confirmation table.
type Claim struct {
	Decision string
	ID       string
	Kind     string
	Path     string
	Anchor   string
	Require  string
	Why      string
	// Within is the optional Within cell as written, code spans and all
	// (D94): the regions the claim is confined to, outer first. A table
	// without the column leaves it empty.
	Within string
	// Pos is the row; cells holds the position of each cell, which
	// CellPos gives by lower-case column name, so a bad regex is reported
	// at its own cell.
	Pos   token.Position
	cells cellPositions
	// Spans holds the byte range [start, end) of the Path, Anchor,
	// Require and Within cells in the file: they are patterns, never
	// mention sites nor prose (D36).
	Spans CellSpans
}

// spanColumns are the columns whose cells CellSpans holds, in its order.
var spanColumns = [...]string{"path", "anchor", "require", "within"}

// CellSpans holds the byte ranges of a claim row's pattern cells, set
// saying which the row has: in the claim itself, not in a map of its own
// (a map a claim was a third of a decision file's parse, D92).
type CellSpans struct {
	at  [len(spanColumns)][2]int
	set uint8
}

// Get returns the span of the named cell (path, anchor, require or
// within), false when the row has none.
func (s *CellSpans) Get(col string) ([2]int, bool) {
	for i, name := range spanColumns {
		if name == col {
			return s.at[i], s.set&(1<<i) != 0
		}
	}
	return [2]int{}, false
}

// All yields the spans the row has, in column order.
func (s *CellSpans) All() iter.Seq[[2]int] {
	return func(yield func([2]int) bool) {
		for i := range spanColumns {
			if s.set&(1<<i) != 0 && !yield(s.at[i]) {
				return
			}
		}
	}
}

// cellPositions holds the positions of a claim row's cells in the order
// of cellColumns, set saying which were read: in the claim itself, not in
// a map of its own, two allocations and half a kilobyte a claim (D92).
type cellPositions struct {
	at  [len(cellColumns)]token.Position
	set uint8
}

// cellColumns are the columns whose cell positions a claim keeps.
var cellColumns = [...]string{"claim", "kind", "path", "anchor", "require", "within"}

func (cp *cellPositions) put(col int, p token.Position) {
	cp.at[col] = p
	cp.set |= 1 << col
}

// CellPos returns the position of the named cell, or the row's.
func (c *Claim) CellPos(col string) token.Position {
	for i, name := range cellColumns {
		if name == col {
			if c.cells.set&(1<<i) != 0 {
				return c.cells.at[i]
			}
			break
		}
	}
	return c.Pos
}

// Decision is one parsed decision file.
type Decision struct {
	Path   string // repository-relative
	FileID string // from the file name
	ID     string // from front matter
	Status string
	Title  string
	// BodyTitle is an adopted record's title read without its front
	// matter's title: (its heading, else its name), for a collection
	// whose front matter title is the same in every record (D97).
	BodyTitle string
	// Supersedes and SupersededBy are the front-matter references.
	Supersedes   []Ref
	SupersededBy []Ref
	Tracker      []string
	Residuals    []string
	// Keys holds the position of each front-matter key.
	Keys map[string]token.Position
	// Inline is set for a register row without a decision file; Path is
	// then its claims file, or the register when it has none (D35).
	Inline bool
	// Parsed is false when the file could not be understood at all (not
	// UTF-8, no front matter); its claims are then unknown, not absent.
	Parsed bool
	// Counted are the counts stated before a list (CL010), found in the
	// same parse as everything else; HasCounted says the file was parsed.
	Counted    []CountedList
	HasCounted bool
	Claims     []Claim
	// ConfirmationPos is the Confirmation heading, when there is one.
	ConfirmationPos token.Position
	HasConfirmation bool
	// ClaimsNone is the reason given by "claims: none, <reason>" in the
	// front matter: an accepted decision that has no claims on purpose.
	ClaimsNone string
	// Adopted is set for a record of an existing collection read in place
	// (docs/adr/0007-x.md, 20200925-x.md): history, never rewritten.
	Adopted bool
	// RawStatus is the status as an adopted record wrote it.
	RawStatus string
	// Placeholder is set when an adopted file's status is a template's
	// list of choices: the file is a template, not a record (D72).
	Placeholder bool
	// Template says why an adopted file is a template, not a record, by
	// its content (a placeholder status, title or date), its name only
	// breaking a tie (D97); "" for a record.
	Template string
	// Index is set when an adopted file is its folder's index: a README.md
	// or index.md with no status that links the records below it (D97).
	Index bool
	// Redirect is set when an adopted file only says where its document
	// moved: a redirect stub, not a record (D96).
	Redirect bool
	// StatusFrom says where an adopted record's status was read: "front
	// matter", "heading", "line", "table", "folder", "unstated" (D72).
	StatusFrom string
	// Date is the record's date: front matter, for ordering date-named
	// records.
	Date string
	// Links are an adopted record's relations as written; the check
	// resolves them into Supersedes, SupersededBy and Relations.
	Links []RecordLink
	// Relations are the resolved relations other than whole supersession.
	Relations []Relation
	Findings  []diag.Finding
}

// KeyPos returns the position of a front-matter key, or line 1.
func (d *Decision) KeyPos(key string) token.Position {
	if p, ok := d.Keys[key]; ok {
		return p
	}
	return token.Position{Filename: d.Path, Line: 1, Column: 1}
}

// FileNameRE matches a decision file name, D<n>-<slug>.md; its first
// group is the id.
var FileNameRE = regexp.MustCompile(`^(` + decisionid.Pattern + `)-[A-Za-z0-9][A-Za-z0-9._-]*\.md$`)

var (
	refRE    = lazyRE(`^(` + decisionid.Pattern + `)(?:\(([^()\s]+)\))?$`)
	markdown = goldmark.New(goldmark.WithExtensions(gfm.Table, meta.Meta))
	// blocksOnly is markdown without inline parsers, for decision and
	// claims files: what they yield (front matter, title, Confirmation
	// table, counted lists) is read from block nodes and the source, never
	// from a code span, link or emphasis, and goldmark settles every block
	// (tables' cells included) before it parses inlines, so the tree's
	// blocks are the same and the inline pass, a third of a claim table's
	// parse, is skipped (D92; TestBlocksOnlySame and FuzzBlocksOnly hold
	// it to markdown's result).
	blocksOnly = goldmark.New(goldmark.WithParser(parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...))),
		goldmark.WithExtensions(gfm.Table, meta.Meta))
)

// Lines maps byte offsets of one file to positions in O(log n); every
// package that reports on Markdown positions uses it.
type Lines = lines

// NewLines indexes the line starts of src.
func NewLines(file string, src []byte) *Lines { return newLines(file, src) }

// Pos returns the position of byte offset off.
func (l *lines) Pos(off int) token.Position { return l.pos(off) }

// lines maps byte offsets to positions.
type lines struct {
	file   string
	starts []int
}

func newLines(file string, src []byte) *lines {
	// Sized once: growing by doubling through the 4 million lines of a
	// hostile file cost twice the index in garbage (D70).
	l := &lines{file: file, starts: make([]int, 1, bytes.Count(src, []byte{'\n'})+1)}
	for i := 0; ; {
		k := bytes.IndexByte(src[i:], '\n')
		if k < 0 {
			break
		}
		i += k + 1
		l.starts = append(l.starts, i)
	}
	return l
}

// posOf is the position of byte off of src, found without an index: a
// file refused at one offset needs no line index of its own.
func posOf(file string, src []byte, off int) token.Position {
	off = min(max(off, 0), len(src))
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	return token.Position{Filename: file, Offset: off, Line: bytes.Count(src[:off], []byte{'\n'}) + 1, Column: off - start + 1}
}

func (l *lines) pos(off int) token.Position {
	i := sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return token.Position{Filename: l.file, Offset: off, Line: i + 1, Column: off - l.starts[i] + 1}
}

func finding(pos token.Position, rule, format string, args ...any) diag.Finding {
	return diag.Finding{Pos: pos, Check: rule, Severity: diag.SeverityError, Message: fmt.Sprintf(format, args...)}
}

// checkUTF8 returns a finding at the first invalid byte of src, if any.
func checkUTF8(path string, src []byte) (diag.Finding, bool) {
	if utf8.Valid(src) {
		return diag.Finding{}, true
	}
	off := 0
	for off < len(src) {
		r, size := utf8.DecodeRune(src[off:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		off += size
	}
	p := posOf(path, src, off)
	return finding(p, ruleid.Markdown, "file is not valid UTF-8 (invalid byte 0x%02x at offset %d); save it as UTF-8", src[off], off), false
}

// cell is the decoded text of a table cell and its position.
type cell struct {
	text       string
	raw        string
	pos        token.Position
	node       ast.Node
	start, end int // byte offsets of raw in the file
}

// cellText decodes a GFM table cell: surrounding whitespace is trimmed, a
// cell that is one code span yields the span's content, and the table
// escape `\|` becomes `|`.
func cellText(raw string) string {
	s := strings.TrimSpace(raw)
	if n := leadingTicks(s); n > 0 && len(s) >= 2*n && trailingTicks(s) >= n {
		inner := s[n : len(s)-n]
		if !hasTickRun(inner, n) {
			if len(inner) >= 2 && inner[0] == ' ' && inner[len(inner)-1] == ' ' && strings.TrimSpace(inner) != "" {
				inner = inner[1 : len(inner)-1]
			}
			return strings.ReplaceAll(inner, `\|`, "|")
		}
	}
	return strings.ReplaceAll(s, `\|`, "|")
}

func leadingTicks(s string) int {
	n := 0
	for n < len(s) && s[n] == '`' {
		n++
	}
	return n
}

// trailingTicks is the length of the run of backticks s ends with.
func trailingTicks(s string) int {
	n := 0
	for n < len(s) && s[len(s)-1-n] == '`' {
		n++
	}
	return n
}

// hasTickRun reports whether s holds n backticks in a row, as
// strings.Contains(s, strings.Repeat("`", n)) does, without building the
// run (cellText reads every cell of every claim row, D92).
func hasTickRun(s string, n int) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '`' {
			run = 0
			continue
		}
		if run++; run >= n {
			return true
		}
	}
	return false
}

// rowCells appends the cells of a table row to dst[:0]. text is src as a
// string, made once a file: a cell's raw text is a slice of it, not a copy
// of its own (D92).
func rowCells(dst []cell, row ast.Node, src []byte, text string, ln *lines, fallback token.Position) []cell {
	out := dst[:0]
	for c := row.FirstChild(); c != nil; c = c.NextSibling() {
		tc, ok := c.(*east.TableCell)
		if !ok {
			continue
		}
		ce := cell{pos: fallback, node: tc}
		if l := tc.Lines(); l.Len() == 1 && l.At(0).Padding == 0 {
			ce.span(text, l.At(0), ln) // the usual cell: one segment
		} else if l.Len() > 0 {
			var b bytes.Buffer
			for i := 0; i < l.Len(); i++ {
				seg := l.At(i)
				b.Write(seg.Value(src))
			}
			ce.raw = b.String()
			ce.text = cellText(ce.raw)
			ce.pos = ln.pos(l.At(0).Start)
			ce.start, ce.end = l.At(0).Start, l.At(l.Len()-1).Stop
		}
		out = append(out, ce)
	}
	return out
}

// span makes ce the cell of the one segment seg of the file whose text
// is src: sliced, not copied (D92).
func (ce *cell) span(src string, seg text.Segment, ln *lines) {
	ce.raw = src[seg.Start:seg.Stop]
	ce.text = cellText(ce.raw)
	ce.pos = ln.pos(seg.Start)
	ce.start, ce.end = seg.Start, seg.Stop
}

// rowPos returns the position of the start of a table row's line.
func rowPos(cells []cell, ln *lines, fallback token.Position) token.Position {
	for _, c := range cells {
		if c.pos.Line > 0 && c.pos != fallback {
			p := c.pos
			p.Offset -= p.Column - 1
			p.Column = 1
			return p
		}
	}
	return fallback
}

func normStatus(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.Trim(s, "*_`~ ")
	// "accepted (2026-11-29)" or "accepted, by D5" keep the first word.
	if i := strings.IndexAny(s, " (,;"); i > 0 {
		s = s[:i]
	}
	return s
}

func firstLink(n ast.Node) string {
	var dest string
	_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if l, ok := n.(*ast.Link); ok && entering {
			dest = string(l.Destination)
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return dest
}

// RegisterOptions configure how register rows get their status when the
// table has no Status column, or a row says it in its own text (D35).
type RegisterOptions struct {
	// Markers are tried in order on each row's text; the first that
	// matches sets the status, over the Status column's.
	Markers []StatusMarker
	// Default is the status of a row with no Status column and no
	// marker. When it is empty and markers are unset, a register without
	// a Status column is a finding.
	Default string
}

// StatusMarker is a pattern in a row's text that sets its status.
type StatusMarker struct {
	Pattern *regexp.Regexp
	Status  string
}

// idCellRE reads the id cell: D12, **D12**, `D12`, [D12](…), _D12_.
var idCellRE = lazyRE("^[\\[*_`\\s]*(" + decisionid.Pattern + ")(?:[^0-9A-Za-z]|$)")

// ParseRegister parses the register file's source with a Status column
// required. path is repository-relative.
func ParseRegister(path string, src []byte) *Register {
	return ParseRegisterWith(path, src, RegisterOptions{})
}

// ParseRegisterWith parses the register file's source. path is
// repository-relative.
func ParseRegisterWith(path string, src []byte, opts RegisterOptions) *Register {
	reg := &Register{Path: path}
	top := token.Position{Filename: path, Line: 1, Column: 1}
	src, f, ok := checkSource(path, src)
	if !ok {
		reg.Findings = append(reg.Findings, f)
		return reg
	}
	ln := newLines(path, src)
	ctx := parser.NewContext()
	doc, release := parseMarkdown(src, ctx)
	defer release()
	reg.Counted, reg.HasCounted = countedIn(doc, ln, src), true
	text := string(src)
	table := registerTable(doc, src, text, ln, top)
	if table == nil {
		reg.Findings = append(reg.Findings, finding(top, ruleid.Register,
			"no register table: add a GFM table whose first header cell is ID, one D<n> row per decision"))
		return reg
	}
	reg.Found = true
	header := rowCells(nil, table.FirstChild(), src, text, ln, top)
	rt := registerTableCols{status: -1, title: -1, opts: opts}
	for i, c := range header {
		switch strings.ToLower(c.text) {
		case "status":
			rt.status = i
		case "decision", "title":
			if rt.title < 0 {
				rt.title = i
			}
		}
	}
	statusCol := rt.status
	reg.HasStatus = statusCol >= 0
	reg.HeaderPos = rowPos(header, ln, top)
	if statusCol < 0 && opts.Default == "" && len(opts.Markers) == 0 {
		// Reported by CL001, which knows whether the rows have decision
		// files and so which setting would read them (D65).
		reg.StatusUnread = true
	}
	for r := table.FirstChild().NextSibling(); r != nil; r = r.NextSibling() {
		cells := rowCells(nil, r, src, text, ln, top)
		if len(cells) == 0 {
			continue
		}
		pos := rowPos(cells, ln, top)
		m := idCellRE().FindStringSubmatch(cells[0].raw)
		if m == nil {
			reg.Findings = append(reg.Findings, finding(cells[0].pos, ruleid.Register,
				"register row %q: first cell must be a decision id: D<n>, **D<n>**, `D<n>` or [D<n>](link)", cells[0].text))
			continue
		}
		row := rt.row(m[1], cells, pos)
		if row.StatusFrom == "" && statusCol < 0 && (opts.Default != "" || len(opts.Markers) > 0) {
			reg.Findings = append(reg.Findings, finding(pos, ruleid.Register,
				"%s: no Status column, no status marker in the row and no inline.status default in %s: its status is unknown", row.ID, ".claimslint.yml"))
		}
		reg.Rows = append(reg.Rows, row)
	}
	return reg
}

// registerTable is the register's table: the first whose first header
// cell is ID, or nil.
func registerTable(doc ast.Node, src []byte, text string, ln *lines, top token.Position) *east.Table {
	var table *east.Table
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		t, ok := n.(*east.Table)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		if h, ok := t.FirstChild().(*east.TableHeader); ok {
			cells := rowCells(nil, h, src, text, ln, top)
			if len(cells) > 0 && strings.EqualFold(cells[0].text, "ID") {
				table = t
				return ast.WalkStop, nil
			}
		}
		return ast.WalkContinue, nil
	})
	return table
}

// registerTableCols are the register table's Status and title columns
// (-1 when it has none) and how a row's status is read.
type registerTableCols struct {
	status, title int
	opts          RegisterOptions
}

// row is the register row of decision id whose cells are cells, at pos.
func (rt registerTableCols) row(id string, cells []cell, pos token.Position) Row {
	statusCol, titleCol, opts := rt.status, rt.title, rt.opts
	pid, _ := decisionid.Parse(id)
	row := Row{ID: id, N: pid.N, Plain: pid.Plain(), Pos: pos, StatusPos: pos, LinkPos: pos, IDCell: strings.TrimSpace(cells[0].raw), Cells: len(cells)}
	if titleCol >= 0 && titleCol < len(cells) {
		row.Title = cells[titleCol].text
	} else if len(cells) > 1 {
		row.Title = cells[1].text
	}
	texts := make([]string, len(cells))
	for i, c := range cells {
		texts[i] = c.text
	}
	row.Text = strings.Join(texts, " | ")
	// An empty Status cell, or one of emphasis marks alone (`*`),
	// states nothing: a marker or the default still applies to it.
	if statusCol >= 0 && statusCol < len(cells) {
		row.Status = normStatus(cells[statusCol].text)
	}
	if row.Status != "" {
		row.StatusPos = cells[statusCol].pos
		row.StatusFrom = StatusFromColumn
	}
	for _, mk := range opts.Markers {
		if loc := mk.Pattern.FindStringIndex(row.Text); loc != nil {
			row.Status, row.StatusFrom = mk.Status, StatusFromMarker
			break
		}
	}
	if row.StatusFrom == "" && opts.Default != "" {
		row.Status, row.StatusFrom = opts.Default, StatusFromDefault
	}
	for _, c := range cells {
		if l := firstLink(c.node); l != "" {
			row.Link, row.LinkPos = l, c.pos
			break
		}
	}
	return row
}

// ParseDecision parses one decision file's source. path is repository-relative.
func ParseDecision(path string, src []byte) *Decision {
	return parseDecision(blocksOnly, path, src)
}

// parseDecision is ParseDecision with the goldmark configuration md.
func parseDecision(md goldmark.Markdown, path string, src []byte) *Decision {
	d := &Decision{Path: path, Keys: map[string]token.Position{}}
	base := path[strings.LastIndexByte(path, '/')+1:]
	if m := FileNameRE.FindStringSubmatch(base); m != nil {
		d.FileID = m[1]
	}
	top := token.Position{Filename: path, Line: 1, Column: 1}
	src, bad, ok := checkSource(path, src)
	if !ok {
		d.Findings = append(d.Findings, bad)
		return d
	}
	ln := newLines(path, src)
	if !bytes.HasPrefix(src, []byte("---\n")) && !bytes.HasPrefix(src, []byte("---\r\n")) {
		d.Findings = append(d.Findings, finding(top, ruleid.Markdown,
			"no YAML front matter: start the file with a '---' block holding at least id: and status:"))
		return d
	}
	body, fm, release, err := parseDecisionDoc(md, src)
	defer release()
	if body.doc != nil { // quickDoc's blocks hold no list to count
		d.Counted = countedIn(body.doc, ln, src)
	}
	d.HasCounted = true
	if err != nil {
		d.Findings = append(d.Findings, finding(top, ruleid.Markdown,
			"front matter is not valid YAML: %s", oneLine(err.Error())))
		return d
	}
	d.Parsed = true
	d.keyPositions(src, ln)
	d.readFrontMatter(fm)
	if body.doc == nil {
		d.readQuickBody(body.quick, src, ln)
	} else {
		d.readBody(body.doc, src, ln)
	}
	return d
}

// ParseClaims parses a claims file: the Confirmation table of the inline
// decision id, with optional front matter naming tracker: and residuals:
// (D35). path is repository-relative.
func ParseClaims(path, id string, src []byte) *Decision {
	return parseClaims(blocksOnly, path, id, src)
}

// parseClaims is ParseClaims with the goldmark configuration md.
func parseClaims(md goldmark.Markdown, path, id string, src []byte) *Decision {
	d := &Decision{Path: path, FileID: id, ID: id, Inline: true, Keys: map[string]token.Position{}}
	src, refused, ok := checkSource(path, src) // UTF-8 and the limits of D40, like a decision file
	if !ok {
		d.Findings = append(d.Findings, refused)
		return d
	}
	ln := newLines(path, src)
	ctx := parser.NewContext()
	doc, release := parseWith(md, src, ctx)
	defer release()
	if bytes.HasPrefix(src, []byte("---\n")) || bytes.HasPrefix(src, []byte("---\r\n")) {
		fm, err := meta.TryGet(ctx)
		if err != nil {
			d.Findings = append(d.Findings, finding(token.Position{Filename: path, Line: 1, Column: 1}, ruleid.Markdown,
				"front matter is not valid YAML: %s", oneLine(err.Error())))
			return d
		}
		d.keyPositions(src, ln)
		d.readFrontMatter(fm)
	}
	d.Parsed = true
	d.readBody(doc, src, ln)
	title := d.Title
	d.Title = ""
	if title != "" && !strings.HasPrefix(title, id+":") {
		d.Title = title
	}
	return d
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// keyPositions records the line of each top-level front-matter key, which
// goldmark-meta does not expose.
func (d *Decision) keyPositions(src []byte, ln *lines) {
	off := bytes.IndexByte(src, '\n') + 1
	for off < len(src) {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src) - off
		}
		line := strings.TrimRight(string(src[off:off+end]), "\r")
		if line == "---" || line == "..." {
			return
		}
		if i := strings.IndexByte(line, ':'); i > 0 && line[0] != ' ' && line[0] != '#' && line[0] != '-' {
			d.Keys[strings.TrimSpace(line[:i])] = ln.pos(off)
		}
		off += end + 1
	}
}

func (d *Decision) readFrontMatter(fm map[string]any) {
	str := func(key string) string {
		v, ok := fm[key]
		if !ok || v == nil {
			return ""
		}
		switch v := v.(type) {
		case string:
			return strings.TrimSpace(v)
		case int, float64, bool:
			return fmt.Sprint(v)
		default:
			d.Findings = append(d.Findings, finding(d.KeyPos(key), ruleid.Markdown, "front matter %s: want a string, got %s", key, yamlKind(v)))
			return ""
		}
	}
	if d.Inline {
		// A claims file's decision is its register row: id and status
		// come from there; the front matter may name issues.
		d.Tracker = d.fmList(fm, "tracker")
		d.Residuals = d.fmList(fm, "residuals")
		return
	}
	d.ID = str("id")
	d.Status = strings.ToLower(str("status"))
	if d.ID == "" {
		d.Findings = append(d.Findings, finding(d.KeyPos("id"), ruleid.Markdown, "front matter has no id: add id: %s", orDefault(d.FileID, "D<n>")))
	} else if !decisionid.Valid(d.ID) {
		d.Findings = append(d.Findings, finding(d.KeyPos("id"), ruleid.Register, "front matter id %q is not a decision id D<n>", d.ID))
	}
	if d.Status == "" {
		d.Findings = append(d.Findings, finding(d.KeyPos("status"), ruleid.Markdown, "front matter has no status: add status: proposed (or %s)", strings.Join(Statuses[1:], ", ")))
	}
	d.readRefs(fm)
}

// readRefs reads the keys every decision file may have, adopted or not:
// supersedes, superseded-by, tracker, residuals and claims.
func (d *Decision) readRefs(fm map[string]any) {
	list := func(key string) []string { return d.fmList(fm, key) }
	refs := func(key string) []Ref {
		var out []Ref
		for _, s := range list(key) {
			m := refRE().FindStringSubmatch(s)
			if m == nil {
				d.Findings = append(d.Findings, finding(d.KeyPos(key), ruleid.Status, "%s: %q is not a decision reference (write D3 or D3(6))", key, s))
				continue
			}
			out = append(out, Ref{ID: m[1], Clause: m[2]})
		}
		return out
	}
	d.Supersedes = refs("supersedes")
	d.SupersededBy = refs("superseded-by")
	d.Tracker = list("tracker")
	d.Residuals = list("residuals")
	if v, ok := fm["claims"]; ok {
		s, _ := v.(string)
		m := claimsNoneRE().FindStringSubmatch(strings.TrimSpace(s))
		switch {
		case m == nil:
			d.Findings = append(d.Findings, finding(d.KeyPos("claims"), ruleid.Claims, "front matter claims: want \"none, <reason>\" (a decision with no claims on purpose); claims themselves go in the Confirmation table"))
		case strings.TrimSpace(m[1]) == "":
			d.Findings = append(d.Findings, finding(d.KeyPos("claims"), ruleid.Claims, "claims: none needs a reason: write claims: none, <why nothing in the code can check this decision>"))
		default:
			d.ClaimsNone = strings.TrimSpace(m[1])
		}
	}
}

// claimsNoneRE reads "none, reason", "none - reason", "none: reason".
var claimsNoneRE = lazyRE(`(?is)^none\b[\s,;:\-\x{2013}\x{2014}()]*(.*?)\)?$`)

// fmList reads a front-matter key that holds a list (or one string).
func (d *Decision) fmList(fm map[string]any, key string) []string {
	v, ok := fm[key]
	if !ok || v == nil {
		return nil
	}
	switch v := v.(type) {
	case string:
		if strings.TrimSpace(v) == "" {
			return nil
		}
		return []string{strings.TrimSpace(v)}
	case []any:
		var out []string
		for _, e := range v {
			switch e := e.(type) {
			case string:
				out = append(out, strings.TrimSpace(e))
			case nil:
			default:
				out = append(out, fmt.Sprint(e))
			}
		}
		return out
	default:
		d.Findings = append(d.Findings, finding(d.KeyPos(key), ruleid.Markdown, "front matter %s: want a list such as [a, b], got %s", key, yamlKind(v)))
		return nil
	}
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Columns of a Confirmation table; Why is optional.
var claimColumns = []string{"claim", "kind", "path", "anchor", "require"}

// optionalColumns are the columns a claims table may add: Within (D94)
// and Why.
var optionalColumns = []string{"within", "why"}

// readBody reads the decision's title and its Confirmation section's
// claims table from goldmark's tree doc.
func (d *Decision) readBody(doc ast.Node, src []byte, ln *lines) {
	top := token.Position{Filename: d.Path, Line: 1, Column: 1}
	table := d.confirmation(doc, src, ln)
	if table == nil {
		return
	}
	text := string(src)
	header := rowCells(nil, table.FirstChild(), src, text, ln, top)
	d.readTable(header, table.ChildCount()-1, src, text, ln, func(hpos token.Position, row func([]cell) []cell) {
		var cells []cell // one row's, read into claimRow's strings before the next
		for r := table.FirstChild().NextSibling(); r != nil; r = r.NextSibling() {
			cells = row(rowCells(cells, r, src, text, ln, hpos))
		}
	})
}

// readQuickBody is readBody for quickDoc's blocks of a file.
func (d *Decision) readQuickBody(blocks []quickBlock, src []byte, ln *lines) {
	top := token.Position{Filename: d.Path, Line: 1, Column: 1}
	table := d.quickConfirmation(blocks, src, ln)
	if table == nil {
		return
	}
	text := string(src)
	header := segCells(nil, table.cells[:table.cols], text, ln, top)
	d.readTable(header, len(table.cells)/table.cols-1, src, text, ln, func(hpos token.Position, row func([]cell) []cell) {
		var cells []cell
		for at := table.cols; at < len(table.cells); at += table.cols {
			cells = row(segCells(cells, table.cells[at:at+table.cols], text, ln, hpos))
		}
	})
}

// segCells is rowCells for a row of quickDoc's: one span a cell.
func segCells(dst []cell, segs []text.Segment, src string, ln *lines, fallback token.Position) []cell {
	out := dst[:0]
	for _, seg := range segs {
		ce := cell{pos: fallback}
		if seg != noCell {
			ce.span(src, seg, ln)
		}
		out = append(out, ce)
	}
	return out
}

// quickConfirmation is confirmation for quickDoc's blocks.
func (d *Decision) quickConfirmation(blocks []quickBlock, src []byte, ln *lines) *quickBlock {
	confLevel := 0
	for i := range blocks {
		b := &blocks[i]
		if b.level == 0 {
			if d.HasConfirmation {
				return b
			}
			continue
		}
		title := strings.TrimSpace(string(b.text.Value(src)))
		if b.level == 1 && d.Title == "" {
			d.Title = title
		}
		if d.HasConfirmation && b.level <= confLevel {
			return nil // the Confirmation section ended without a table
		}
		if d.startsConfirmation(title) {
			d.HasConfirmation = true
			confLevel = b.level
			d.confirmationLine(b.text.Start, ln)
		}
	}
	return nil
}

// readTable reads the claims table whose header row is header and which
// has n body rows, given by rows: it calls row with each body row's cells
// (positions falling back to the header's, hpos) and goes on with the
// slice row returns, for the next.
func (d *Decision) readTable(header []cell, n int, src []byte, text string, ln *lines, rows func(hpos token.Position, row func([]cell) []cell)) {
	hpos := rowPos(header, ln, d.ConfirmationPos)
	col := map[string]int{}
	for i, c := range header {
		name := strings.ToLower(c.text)
		if _, dup := col[name]; !dup {
			col[name] = i
		}
	}
	if d.Adopted && d.ID == "" {
		// A MADR 4 record's "Confirmation" section is the team's prose; a
		// table there is a claims table only if it says so.
		if _, ok := col["claim"]; !ok {
			return
		}
	}
	var missing []string
	for _, c := range claimColumns {
		if _, ok := col[c]; !ok {
			missing = append(missing, strings.ToUpper(c[:1])+c[1:])
		}
	}
	if len(missing) > 0 {
		d.Findings = append(d.Findings, finding(hpos, ruleid.Claims,
			"claims table lacks column %s: the header must be | Claim | Kind | Path | Anchor | Require | Why |",
			strings.Join(missing, ", ")))
		return
	}
	for _, c := range header {
		// A column no claim reads would be dropped silently: a misspelt
		// Within would widen each claim to its whole Path.
		if name := strings.ToLower(c.text); !slices.Contains(claimColumns, name) && !slices.Contains(optionalColumns, name) {
			d.Findings = append(d.Findings, finding(c.pos, ruleid.Claims,
				"claims table has a column %q that claimslint does not read: the columns are Claim, Kind, Path, Within (optional), Anchor, Require and Why (optional); rename it, or move what it says into Why",
				c.text))
		}
	}
	d.readClaims(src, ln, header, hpos, col, n, rows)
}

// confirmation finds the title (the first level-1 heading) and the
// Confirmation section, and returns the section's first table, or nil.
func (d *Decision) confirmation(doc ast.Node, src []byte, ln *lines) *east.Table {
	var confLevel int
	var table *east.Table
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			title := strings.TrimSpace(string(headingText(n, src)))
			if n.Level == 1 && d.Title == "" {
				d.Title = title
			}
			if d.HasConfirmation && n.Level <= confLevel && table == nil {
				// The Confirmation section ended without a table.
				return ast.WalkStop, nil
			}
			if d.startsConfirmation(title) {
				d.HasConfirmation = true
				confLevel = n.Level
				d.confirmationAt(n, ln)
			}
		case *east.Table:
			if d.HasConfirmation && table == nil {
				table = n
				return ast.WalkStop, nil
			}
		}
		return ast.WalkContinue, nil
	})
	return table
}

// startsConfirmation reports whether a heading titled title opens the
// Confirmation section: the first heading so named, in any case.
func (d *Decision) startsConfirmation(title string) bool {
	return !d.HasConfirmation && strings.EqualFold(title, "Confirmation")
}

// confirmationAt records where the Confirmation heading h starts: column 1
// of its line.
func (d *Decision) confirmationAt(h *ast.Heading, ln *lines) {
	if h.Lines().Len() > 0 {
		d.confirmationLine(h.Lines().At(0).Start, ln)
	}
}

// confirmationLine records the start of the line holding offset off as
// where the Confirmation heading is.
func (d *Decision) confirmationLine(off int, ln *lines) {
	p := ln.pos(off)
	p.Offset -= p.Column - 1
	p.Column = 1
	d.ConfirmationPos = p
}

// readClaims reads the n body rows of the claims table, given by rows,
// whose header (at hpos) names the columns col; a row cut short, without
// an id or with an id used before is a finding.
func (d *Decision) readClaims(src []byte, ln *lines, header []cell, hpos token.Position, col map[string]int, n int, rows func(hpos token.Position, row func([]cell) []cell)) {
	seen := make(map[string]token.Position, n)
	rows(hpos, func(cells []cell) []cell {
		pos := rowPos(cells, ln, hpos)
		if f, cut := cutCell(src, pos, header); cut {
			id := ""
			if i := col["claim"]; i < len(cells) {
				id = cells[i].text
			}
			d.Findings = append(d.Findings, finding(ln.pos(f.at), ruleid.Claims, "%s", f.message(id)))
			return cells
		}
		c := d.claimRow(cells, pos, col)
		if c.ID == "" {
			d.Findings = append(d.Findings, finding(pos, ruleid.Claims, "claim row has no id in the Claim column: write C1, C2..."))
			return cells
		}
		if prev, dup := seen[c.ID]; dup {
			d.Findings = append(d.Findings, finding(c.CellPos("claim"), ruleid.Claims,
				"claim id %s is used twice in %s (first at line %d)", c.ID, d.ID, prev.Line))
			return cells
		}
		seen[c.ID] = c.CellPos("claim")
		if d.Claims == nil {
			d.Claims = make([]Claim, 0, n) // nil while no row is a claim
		}
		d.Claims = append(d.Claims, c)
		return cells
	})
}

// claimRow is the claim of one row's cells, at pos, its columns col.
func (d *Decision) claimRow(cells []cell, pos token.Position, col map[string]int) Claim {
	get := func(name string) (string, token.Position) {
		i, ok := col[name]
		if !ok || i >= len(cells) {
			return "", pos
		}
		p := cells[i].pos
		if cells[i].raw == "" {
			p = pos
		}
		return cells[i].text, p
	}
	c := Claim{Decision: d.ID, Pos: pos}
	for k, name := range spanColumns {
		if i, ok := col[name]; ok && i < len(cells) && cells[i].raw != "" {
			c.Spans.at[k] = [2]int{cells[i].start, cells[i].end}
			c.Spans.set |= 1 << k
		}
	}
	var p token.Position
	c.ID, p = get("claim")
	c.cells.put(0, p)
	c.Kind, p = get("kind")
	c.Kind = strings.ToLower(c.Kind)
	c.cells.put(1, p)
	c.Path, p = get("path")
	c.cells.put(2, p)
	c.Anchor, p = get("anchor")
	c.cells.put(3, p)
	c.Require, p = get("require")
	c.cells.put(4, p)
	c.Why, _ = get("why")
	if i, ok := col["within"]; ok && i < len(cells) {
		// Within keeps its code spans: one per region pattern (D94).
		c.Within = strings.TrimSpace(cells[i].raw)
		c.cells.put(5, cells[i].pos)
	}
	return c
}

func headingText(h *ast.Heading, src []byte) []byte {
	var b bytes.Buffer
	for i := 0; i < h.Lines().Len(); i++ {
		seg := h.Lines().At(i)
		b.Write(seg.Value(src))
	}
	return b.Bytes()
}

// yamlKind names the YAML shape of a decoded value for messages.
func yamlKind(v any) string {
	switch v.(type) {
	case map[any]any, map[string]any:
		return "a mapping"
	case []any:
		return "a list"
	case bool:
		return "a boolean"
	case int, int64, uint64, float64:
		return "a number"
	}
	return "a string"
}

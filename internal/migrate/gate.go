package migrate

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/claimslint/claimslint/internal/register"
)

// Row is one row of a gate, with its knobs expanded: a CODE@ row of a
// table, or a rule migrate derives from the script (an allow-list entry).
type Row struct {
	Code   string // P1, Q3, R12, RC3
	Line   int    // 1-based line of the row in the script
	Path   string
	Anchor string // anchored rows: the anchor; presence rows: the pattern
	Regex  string // anchored rows: the requirement (may start with !); allow entries: the substring, as RE2
	Why    string
	// Table is the variable that holds the row; Layout is how it reads.
	Table  string
	Layout Layout
	// Rule is "" for a CODE@ row, else the rule it comes from (RuleAllow).
	Rule string
	// Of is the row this one is the second claim of (RC3 for RC3-stale).
	Of string
	// fam is the sweep a LayoutFamily row stands for.
	fam *family
	// st are the claims of a LayoutStructural row (structural.go).
	st []Claim
}

// Presence reports whether the row is a presence row.
func (r Row) Presence() bool {
	switch r.Layout {
	case LayoutByCode:
		return strings.HasPrefix(r.Code, "P")
	case LayoutPresence, LayoutAllow:
		return true
	}
	return false
}

// Skipped is a row (or rule) migrate could not translate.
type Skipped struct {
	Code   string // may be empty when the row has no readable code
	Line   int
	Reason string
	// Rule is "" for a CODE@ row, else RuleSweep, RuleAllow or RuleCheck.
	Rule string
}

// Gate is a parsed claims gate.
type Gate struct {
	Script   string // repository-relative path
	Decision string // D47, or "" when the script does not say
	Rows     []Row
	Skipped  []Skipped
	// sweeps are the script's sweep families and allow-list: no claim
	// says them, so the script keeps running them (D63).
	sweeps    []family
	allowList []allowEntry
	// knobs are the script's one-line top-level assignments, as written:
	// the ones that carry the live range get a claim of their own.
	knobs []knobLine
}

// knobLine is a one-line assignment NAME=value at the top level of a gate.
type knobLine struct {
	name, value string // value as written, quotes included
	line        int
}

var (
	// rowRE is a CODE@ row: upper-case letters and digits, then @.
	rowRE      = register.LazyRE(`^([A-Z]+[0-9]+[a-z]?)@`)
	looseRowRE = register.LazyRE(`(?:^|[\s'"(])([A-Z]+[0-9]+[a-z]?)@`)
	nameIDRE   = register.LazyRE(`^[dD]([1-9][0-9]*)[-_.]`)
	headerIDRE = register.LazyRE(`\bD([1-9][0-9]*)\b`)
)

// rawRow is a CODE@ line of a table before its layout reads it.
type rawRow struct {
	code, text, table string
	line              int
}

// gateParser holds what Parse reads of one script.
type gateParser struct {
	g            *Gate
	s            *script
	text         string
	rows         []rawRow
	families     []family
	allowEntries []allowEntry
}

// Parse reads a gate script's rows. rel is the script's repository-relative
// path; it names the decision when the file is called d<n>-….sh, and so does
// the first D<n> in the script's leading comment block otherwise.
//
// Every CODE@ row of every table is read by its table's layout (D63);
// the sweeps, allow-list entries and structural checks the script holds
// besides are read too, each translated or listed with the reason.
func Parse(rel string, src []byte) *Gate {
	g := &Gate{Script: rel}
	text := strings.ReplaceAll(string(src), "\r\n", "\n")
	if m := nameIDRE().FindStringSubmatch(path.Base(rel)); m != nil {
		g.Decision = "D" + m[1]
	} else {
		for _, l := range strings.Split(text, "\n") {
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, "#!") || t == "" {
				continue
			}
			if !strings.HasPrefix(t, "#") {
				break
			}
			if m := headerIDRE().FindStringSubmatch(t); m != nil {
				g.Decision = "D" + m[1]
				break
			}
		}
	}
	pr := &gateParser{g: g, s: read(text), text: text}
	inside := pr.tables()
	for _, rr := range pr.rows {
		pr.derive(rr)
	}
	pr.variableFamilies()
	pr.allows()
	pr.lineFilters()
	pr.checks(inside)
	pr.loose(inside)
	for _, a := range pr.s.assigns {
		if !a.runs || a.start >= a.end || a.end > len(text) || strings.Contains(text[a.start:a.end], "\n") {
			continue
		}
		g.knobs = append(g.knobs, knobLine{name: a.name, value: text[a.start:a.end], line: a.line})
	}
	return g
}

// tables reads the rows of every assignment whose value holds CODE@
// lines, and the entries of the allow-lists. It returns which bytes of
// the script are assignment values.
func (pr *gateParser) tables() []bool {
	s, text := pr.s, pr.text
	inside := make([]bool, len(text)+1) // bytes that belong to a read assignment
	for _, a := range s.assigns {
		for i := a.start; i < a.end && i < len(inside); i++ {
			inside[i] = true
		}
		rawLines := strings.Split(text[a.start:a.end], "\n")
		if t, ok := layoutOf(a.name); ok && t.layout == LayoutAllow {
			pr.allowTable(a, rawLines)
			continue
		}
		pr.rowTable(a, rawLines)
	}
	return inside
}

// rowTable reads the CODE@ rows of the assignment a, whose source lines
// are rawLines.
func (pr *gateParser) rowTable(a assign, rawLines []string) {
	vlines := strings.Split(a.val.text, "\n")
	hasRows := false
	for _, vl := range vlines {
		if rowRE().MatchString(strings.TrimSpace(vl)) {
			hasRows = true
		}
	}
	switch {
	case !hasRows || !a.runs:
		if a.val.bad != "" {
			// Rows inside a value that could not be read, or that sh
			// does not assign once at the top level, are listed with
			// this reason.
			for k, rl := range rawLines {
				if m := looseRowRE().FindStringSubmatch(rl); m != nil {
					pr.g.skip(Skipped{Code: m[1], Line: a.line + k, Reason: fmt.Sprintf("%s=…: %s", a.name, a.val.bad)})
				}
			}
		}
	case a.val.bad != "":
		pr.rowsOneByOne(a, rawLines)
	default:
		pr.valueRows(a, rawLines, vlines)
	}
}

// rowsOneByOne reads the rows of a value that holds an unreadable
// expansion: which row carries it? The raw lines are evaluated one by one
// to find out.
func (pr *gateParser) rowsOneByOne(a assign, rawLines []string) {
	g, s := pr.g, pr.s
	for k, rl := range rawLines {
		m := looseRowRE().FindStringSubmatch(rl)
		if m == nil {
			continue
		}
		line := strings.TrimSpace(strings.Trim(strings.TrimSpace(rl), `"'`))
		if v := s.evalLine(line, a.knobs); v.bad != "" {
			g.skip(Skipped{Code: m[1], Line: a.line + k, Reason: v.bad})
		} else if !strings.HasPrefix(v.text, m[1]+"@") {
			g.skip(Skipped{Code: m[1], Line: a.line + k, Reason: "evaluated on its own, the line does not start with its row code and @; its quoting spans lines, which migrate cannot split into rows"})
		} else {
			pr.rows = append(pr.rows, rawRow{code: m[1], text: v.text, table: a.name, line: a.line + k})
		}
	}
}

// valueRows reads the rows of a value, vlines, each mapped to its source
// line: values are written one row per line, so the k-th row line is the
// k-th raw line that holds a row.
func (pr *gateParser) valueRows(a assign, rawLines, vlines []string) {
	var rowLines []int
	for k, rl := range rawLines {
		if looseRowRE().MatchString(rl) {
			rowLines = append(rowLines, a.line+k)
		}
	}
	n := 0
	for _, vl := range vlines {
		vl = strings.TrimSpace(vl)
		if vl == "" || strings.HasPrefix(vl, "#") {
			continue
		}
		line := a.line
		if n < len(rowLines) {
			line = rowLines[n]
		}
		m := rowRE().FindStringSubmatch(vl)
		if m == nil {
			pr.g.skip(Skipped{Line: line, Reason: fmt.Sprintf("line %q in %s is not a CODE@ row", vl, a.name)})
			continue
		}
		n++
		pr.rows = append(pr.rows, rawRow{code: m[1], text: vl, table: a.name, line: line})
	}
}

// allowTable reads the entries of an ALLOW table.
func (pr *gateParser) allowTable(a assign, rawLines []string) {
	if !a.runs || a.val.bad != "" {
		for k, rl := range rawLines {
			if strings.Contains(rl, "|") {
				pr.g.skip(Skipped{Code: fmt.Sprintf("ALLOW%d", len(pr.allowEntries)+1), Line: a.line + k, Rule: RuleAllow, Reason: fmt.Sprintf("%s=…: %s", a.name, a.val.bad)})
				pr.allowEntries = append(pr.allowEntries, allowEntry{line: -1})
			}
		}
		return
	}
	t, _ := layoutOf(a.name)
	// The k-th entry is on the k-th raw line that holds a |.
	var entryLines []int
	for k, rl := range rawLines {
		if strings.Contains(rl, "|") {
			entryLines = append(entryLines, a.line+k)
		}
	}
	n := 0
	for _, vl := range strings.Split(a.val.text, "\n") {
		if vl == "" {
			continue
		}
		line := a.line
		if n < len(entryLines) {
			line = entryLines[n]
		}
		if strings.Contains(vl, "|") {
			n++
		}
		f := t.split(vl)
		if f[0] == "" {
			// The scripts skip an entry with no family.
			continue
		}
		for len(f) < len(t.fields) {
			f = append(f, "")
		}
		pr.allowEntries = append(pr.allowEntries, allowEntry{family: f[0], prefix: f[1], substr: f[2], reason: f[3], line: line})
	}
}

// loose lists the rows written anywhere else (a for-list, a heredoc, an
// echo): migrate does not read them, and says so rather than drop them.
func (pr *gateParser) loose(inside []bool) {
	off := 0
	for k, l := range strings.Split(pr.text, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "#") {
			for _, m := range looseRowRE().FindAllStringSubmatchIndex(l, -1) {
				if inside[off+m[2]] {
					continue
				}
				reason := "the row is not inside a NAME='…' or NAME=\"…\" string, which is where migrate reads rows"
				if e := pr.s.parseErr; e != nil && off+m[2] >= e.pos {
					reason = fmt.Sprintf("migrate cannot read the script past line %d (%s), so it reads no row after it", pr.s.line(e.pos), e.msg)
				}
				pr.g.skip(Skipped{Code: l[m[2]:m[3]], Line: k + 1, Reason: reason})
			}
		}
		off += len(l) + 1
	}
}

// evalLine evaluates one line of a double-quoted row string on its own,
// with the variables in effect where the string is assigned.
func (s *script) evalLine(line string, k knobs) value {
	sub := newScript(line)
	sub.funcs = s.funcs
	f := &frame{s: sub, globals: k, funcs: s.funcs}
	v, _ := f.double(0, len(line))
	v.bad = strings.TrimSuffix(v.bad, "unterminated double-quoted string")
	return v
}

func (g *Gate) skip(s Skipped) { g.Skipped = append(g.Skipped, s) }

// addRow adds a row unless its code is taken or a field is missing.
func (g *Gate) addRow(r Row) bool {
	if r.Path == "" || r.Anchor == "" {
		g.skip(Skipped{Code: r.Code, Line: r.Line, Reason: "the row's path or pattern is empty"})
		return false
	}
	for _, prev := range g.Rows {
		if prev.Code == r.Code && prev.Rule == "" {
			g.skip(Skipped{Code: r.Code, Line: r.Line, Reason: fmt.Sprintf("row code %s is used twice (first on line %d)", r.Code, prev.Line)})
			return false
		}
	}
	g.Rows = append(g.Rows, r)
	return true
}

// count is how many rules of one kind a gate has and how many are not
// translated.
type count struct{ n, not int }

// counts returns the gate's rules by kind ("" for CODE@ rows): each row
// is counted once, however many claims it becomes.
func (g *Gate) counts() map[string]count {
	type key struct {
		code string
		line int
	}
	of := map[string]string{}
	for _, r := range g.Rows {
		if r.Of != "" {
			of[r.Code] = r.Of
		}
	}
	seen := map[string]map[key]bool{}
	not := map[string]map[key]bool{}
	mark := func(m map[string]map[key]bool, rule string, k key) {
		if m[rule] == nil {
			m[rule] = map[key]bool{}
		}
		m[rule][k] = true
	}
	for _, r := range g.Rows {
		if r.Of == "" {
			mark(seen, r.Rule, key{r.Code, r.Line})
		}
	}
	for i, s := range g.Skipped {
		k := key{s.Code, s.Line}
		if b, ok := of[s.Code]; ok {
			k.code = b
		}
		if s.Code == "" {
			k.code = "#" + strconv.Itoa(i)
		}
		mark(seen, s.Rule, k)
		mark(not, s.Rule, k)
	}
	out := map[string]count{}
	for rule, m := range seen {
		out[rule] = count{n: len(m), not: len(not[rule])}
	}
	return out
}

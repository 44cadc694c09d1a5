package migrate

import (
	"fmt"
	"path"
	"regexp"
	"strings"
)

// Row is one P or Q row of a gate, with its knobs expanded.
type Row struct {
	Code   string // P1, Q3
	Line   int    // 1-based line of the row in the script
	Path   string
	Anchor string // Q rows: the anchor; P rows: the pattern
	Regex  string // Q rows: the requirement (may start with !)
	Why    string
}

// Presence reports whether the row is a P row.
func (r Row) Presence() bool { return r.Code[0] == 'P' }

// Skipped is a row migrate could not translate.
type Skipped struct {
	Code   string // may be empty when the row has no readable code
	Line   int
	Reason string
}

// Gate is a parsed claims gate.
type Gate struct {
	Script   string // repository-relative path
	Decision string // D47, or "" when the script does not say
	Rows     []Row
	Skipped  []Skipped
}

var (
	rowRE      = regexp.MustCompile(`^([PQ][0-9]+)@`)
	looseRowRE = regexp.MustCompile(`(?:^|[\s'"(])([PQ][0-9]+)@`)
	nameIDRE   = regexp.MustCompile(`^[dD]([1-9][0-9]*)[-_.]`)
	headerIDRE = regexp.MustCompile(`\bD([1-9][0-9]*)\b`)
)

// Parse reads a gate script's rows. rel is the script's repository-relative
// path; it names the decision when the file is called d<n>-….sh, and so does
// the first D<n> in the script's leading comment block otherwise.
func Parse(rel string, src []byte) *Gate {
	g := &Gate{Script: rel}
	text := strings.ReplaceAll(string(src), "\r\n", "\n")
	if m := nameIDRE.FindStringSubmatch(path.Base(rel)); m != nil {
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
			if m := headerIDRE.FindStringSubmatch(t); m != nil {
				g.Decision = "D" + m[1]
				break
			}
		}
	}
	s := read(text)
	inside := make([]bool, len(text)+1) // bytes that belong to a read assignment
	for _, a := range s.assigns {
		for i := a.start; i < a.end && i < len(inside); i++ {
			inside[i] = true
		}
		rawLines := strings.Split(text[a.start:a.end], "\n")
		vlines := strings.Split(a.val.text, "\n")
		hasRows := false
		for _, vl := range vlines {
			if rowRE.MatchString(strings.TrimSpace(vl)) {
				hasRows = true
			}
		}
		if !hasRows {
			if a.val.bad != "" {
				// Rows inside a value that could not be read are listed by
				// the raw-line sweep below, with this reason.
				for k, rl := range rawLines {
					if m := looseRowRE.FindStringSubmatch(rl); m != nil {
						g.Skipped = append(g.Skipped, Skipped{Code: m[1], Line: a.line + k, Reason: fmt.Sprintf("%s=…: %s", a.name, a.val.bad)})
					}
				}
			}
			continue
		}
		if a.val.bad != "" {
			// Which row carries the unreadable expansion? Evaluate the
			// raw lines one by one to find out.
			for k, rl := range rawLines {
				m := looseRowRE.FindStringSubmatch(rl)
				if m == nil {
					continue
				}
				line := strings.TrimSpace(strings.Trim(strings.TrimSpace(rl), `"'`))
				if v := s.evalLine(line); v.bad != "" {
					g.Skipped = append(g.Skipped, Skipped{Code: m[1], Line: a.line + k, Reason: v.bad})
				} else if !strings.HasPrefix(v.text, m[1]+"@") {
					g.Skipped = append(g.Skipped, Skipped{Code: m[1], Line: a.line + k, Reason: "evaluated on its own, the line does not start with its row code and @; its quoting spans lines, which migrate cannot split into rows"})
				} else {
					g.addRow(v.text, a.line+k)
				}
			}
			continue
		}
		// Map each value line to its source line: values are written one
		// row per line, so the k-th row line is the k-th raw line that
		// holds a row.
		var rowLines []int
		for k, rl := range rawLines {
			if looseRowRE.MatchString(rl) {
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
			if !rowRE.MatchString(vl) {
				g.Skipped = append(g.Skipped, Skipped{Line: line, Reason: fmt.Sprintf("line %q in %s is not a P or Q row", vl, a.name)})
				continue
			}
			n++
			g.addRow(vl, line)
		}
	}
	// Rows written anywhere else (a for-list, a heredoc, an echo) are not
	// read; say so rather than drop them.
	off := 0
	for k, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "#") {
			for _, m := range looseRowRE.FindAllStringSubmatchIndex(l, -1) {
				if inside[off+m[2]] {
					continue
				}
				g.Skipped = append(g.Skipped, Skipped{Code: l[m[2]:m[3]], Line: k + 1, Reason: "the row is not inside a NAME='…' or NAME=\"…\" string, which is where migrate reads rows"})
			}
		}
		off += len(l) + 1
	}
	return g
}

// evalLine evaluates one line of a double-quoted row string on its own.
func (s *script) evalLine(line string) value {
	sub := &script{src: line, knobs: s.knobs}
	v, _ := sub.double(0)
	v.bad = strings.TrimSuffix(v.bad, "unterminated double-quoted string")
	return v
}

// addRow splits one expanded row into its fields.
func (g *Gate) addRow(text string, line int) {
	fields := strings.Split(text, "@")
	code := fields[0]
	if code == "" {
		g.Skipped = append(g.Skipped, Skipped{Line: line, Reason: "the row has no code before its first @"})
		return
	}
	want := 4
	if code[0] == 'Q' {
		want = 5
	}
	if len(fields) < want {
		g.Skipped = append(g.Skipped, Skipped{Code: code, Line: line, Reason: fmt.Sprintf("a %c row has %d @-separated fields, this one has %d", code[0], want, len(fields))})
		return
	}
	r := Row{Code: code, Line: line, Path: fields[1], Anchor: fields[2]}
	if want == 5 {
		r.Regex = fields[3]
	}
	r.Why = strings.Join(fields[want-1:], "@")
	if r.Path == "" || r.Anchor == "" {
		g.Skipped = append(g.Skipped, Skipped{Code: code, Line: line, Reason: "the row's path or pattern is empty"})
		return
	}
	for _, prev := range g.Rows {
		if prev.Code == code {
			g.Skipped = append(g.Skipped, Skipped{Code: code, Line: line, Reason: fmt.Sprintf("row code %s is used twice (first on line %d)", code, prev.Line)})
			return
		}
	}
	g.Rows = append(g.Rows, r)
}

package register

import (
	"bytes"
	"go/token"
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// AdoptedNameRE matches the file names MADR and adr-tools write:
// NNNN-title.md. The number becomes the decision id: 0007 is D7.
var AdoptedNameRE = regexp.MustCompile(`^0*([1-9][0-9]*)-[^/]+\.md$`)

// AdoptedID returns the decision id of an adopted file name, or "".
func AdoptedID(base string) string {
	m := AdoptedNameRE.FindStringSubmatch(base)
	if m == nil {
		return ""
	}
	return "D" + m[1]
}

var (
	numberedTitle = regexp.MustCompile(`^(?:ADR[- ]?)?[0-9]+[.:]?\s+`)
	statusLine    = regexp.MustCompile(`(?im)^\s*[*-]?\s*status:\s*(.+)$`)
	adoptedLink   = regexp.MustCompile(`\]\(([^)]*?([0-9]{1,5})-[^)/]*\.md)\)`)
)

// ParseAdopted reads an existing decision record in place. With a front
// matter it is read as any decision (an id: is not required); without one,
// as adr-tools and MADR write them: the title from the first heading
// (without its "1. " number), the status from a "## Status" section or a
// "Status: ..." line, and "Supersedes" / "Superseded by" links to other
// NNNN-title.md records. A Confirmation table, if the team adds one, holds
// its claims as in any decision.
func ParseAdopted(path string, src []byte) *Decision {
	base := path[strings.LastIndexByte(path, '/')+1:]
	id := AdoptedID(base)
	src = bytes.TrimPrefix(src, utf8BOM)
	if bytes.HasPrefix(src, []byte("---\n")) || bytes.HasPrefix(src, []byte("---\r\n")) {
		d := ParseDecision(path, src)
		d.FileID = id
		if d.ID == "" {
			d.ID = id
		}
		d.Title = numberedTitle.ReplaceAllString(d.Title, "")
		return d
	}
	d := &Decision{Path: path, FileID: id, ID: id, Keys: map[string]token.Position{}}
	src, f, ok := checkSource(path, src)
	if !ok {
		d.Findings = append(d.Findings, f)
		return d
	}
	ln := newLines(path, src)
	doc := markdown.Parser().Parse(text.NewReader(src), parser.WithContext(parser.NewContext()))
	d.Parsed = true
	d.readBody(doc, src, ln)
	d.Title = numberedTitle.ReplaceAllString(d.Title, "")
	status := statusSection(doc, src)
	if status == "" {
		if m := statusLine.FindSubmatch(src); m != nil {
			status = string(m[1])
		}
	}
	low := strings.ToLower(status)
	for _, w := range []string{"superseded", "deprecated", "rejected", "accepted", "proposed"} {
		if strings.Contains(low, w) {
			d.Status = w
			break
		}
	}
	if d.Status == "" {
		d.Findings = append(d.Findings, finding(token.Position{Filename: path, Line: 1, Column: 1}, RuleParse,
			"adopted record has no status: add a \"## Status\" section (Accepted, Superseded by ...) or a front matter with status:"))
	}
	for _, line := range strings.Split(status, "\n") {
		l := strings.ToLower(line)
		for _, m := range adoptedLink.FindAllStringSubmatch(line, -1) {
			n, _ := strconv.Atoi(m[2])
			ref := Ref{ID: "D" + strconv.Itoa(n)}
			switch {
			case strings.Contains(l, "superseded by"):
				d.SupersededBy = append(d.SupersededBy, ref)
			case strings.Contains(l, "supersedes"):
				d.Supersedes = append(d.Supersedes, ref)
			}
		}
	}
	return d
}

// statusSection returns the raw text under a "Status" heading, up to the
// next heading.
func statusSection(doc ast.Node, src []byte) string {
	var b strings.Builder
	in := false
	level := 0
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok {
			t := strings.TrimSpace(string(headingText(h, src)))
			if in && h.Level <= level {
				break
			}
			if !in && strings.EqualFold(t, "Status") {
				in, level = true, h.Level
			}
			continue
		}
		if in && n.Lines().Len() > 0 {
			for i := 0; i < n.Lines().Len(); i++ {
				s := n.Lines().At(i)
				b.Write(s.Value(src))
			}
			b.WriteByte('\n')
		}
	}
	return strings.TrimSpace(b.String())
}

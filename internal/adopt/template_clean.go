package adopt

import (
	"path"
	"strings"
	"unicode/utf8"

	"github.com/claimslint/claimslint/internal/register"
)

// A new record from a collection's template says what a record says, not
// what the template tells its writer (D96): the template's instructions
// are removed (comments, HTML blocks, prose before the first section, the
// text under each section heading, placeholder headings) and its fields
// are filled in their own places: the authors or deciders, the record's
// id in the collection's spelling (SE-NNNN, KEEP-NNNN, ADR-###), a
// placeholder value left empty for the writer.

// authorKeys are the keys a record names its authors or deciders with, in
// the languages of the status vocabulary (D97).
var authorKeys = []string{
	"author", "authors", "deciders", "decider", "decision makers", "decision-makers",
	"autor", "autoren", "autores", "entscheider", "verfasser", "decisores",
	"auteur", "auteurs", "décideurs", "autore", "autori", "decisori",
	"作者", "决策者", "決策者", "作成者", "著者", "決定者", "작성자", "저자", "결정자",
}

func isAuthorKey(k string) bool {
	k = strings.ToLower(strings.Trim(strings.TrimSpace(k), "*_:： "))
	for _, a := range authorKeys {
		if k == a {
			return true
		}
	}
	return false
}

var (
	// fieldLineRE is a "Key: value" line of a record's header, listed,
	// bold or plain: "* **Status**: Draft", "- Estado: x", "日付: x",
	// "**Status:** Proposed | **Date:** …"; group 1 is up to the value.
	fieldLineRE = register.LazyRE(`^(\s*(?:[-*+]\s+)?(?:\*\*|__)?(\pL[^:：|\n*]{0,40}?)(?:\*\*|__)?\s*[:：](?:\*\*|__)?[ \t]*)(.*?)[ \t]*$`)
	// linkDefRE is a link reference definition ("[summary]: #summary").
	linkDefRE = register.LazyRE(`^\[[^\]\n]+\]:\s`)
	// headingRE is an ATX heading.
	headingRE = register.LazyRE(`^#{1,6}\s`)
	// idTokenRE is an id placeholder in the collection's spelling:
	// SE-NNNN, KEEP-XXXX, ADR ###, RFC-0000.
	idTokenRE = register.LazyRE(`\b([A-Z][A-Za-z]{1,8}[- ])(N{3,}|X{3,}|#{2,}|0{3,})\b`)
	// fileTokenRE is a placeholder file name in an id's link
	// (NNNN-filename.md).
	fileTokenRE = register.LazyRE(`\((?:N{3,}|X{3,}|0{3,})-[A-Za-z_-]+\.md\)`)
	// xRunRE is a run of placeholder letters (XXXXX, NNNN).
	xRunRE = register.LazyRE(`\b(?:X{3,}|N{4,}|YYYY)\b`)
	// fmDateRE is a front matter value that is a date, quoted or not.
	fmDateRE = register.LazyRE(`^['"]?(?:19|20)[0-9]{2}-[0-9]{2}-[0-9]{2}['"]?$`)
	// htmlOpenRE opens an HTML block (<details>, <summary>, …).
	htmlOpenRE = register.LazyRE(`^\s*<([a-zA-Z]+)[\s>]`)
	// choicesRE is a list of choices ("Not started / In progress /
	// Implemented").
	choicesRE = register.LazyRE(`^[^/\n]+( / [^/\n]+){2,}$`)
	// optionalRE is a value that starts by saying it is optional.
	optionalRE = register.LazyRE(`(?i)^[(\[]optional[)\]]`)
	// templateWordRE is a template word of any language.
	templateWordRE = register.LazyRE(`(?i)` + register.TemplateWords)
)

// cleanTemplate removes a template's instructions (D96), before its fields
// are filled: its HTML comments and blocks, the prose of its header (what
// comes before the first section heading, keeping the front matter, the
// title, field lines, tables and link definitions), and the text under
// each section heading, keeping nested headings, link definitions, the
// status paragraph of a Status section and status, date and author field
// lines. A heading that is itself a placeholder ("### [option 1]") goes
// with its text.
func cleanTemplate(t string) string {
	fm, body := splitFM(stripComments(t))
	lines := dropHTMLBlocks(strings.SplitAfter(body, "\n"))
	title := templateTitle(lines)
	var out []string
	section, statusPara := false, false
	fence := false
	for i, l := range lines {
		s := strings.TrimSpace(l)
		if strings.HasPrefix(s, "```") || strings.HasPrefix(s, "~~~") {
			fence = !fence
			if section || i < title {
				continue
			}
		}
		switch {
		case fence:
			if !section && i > title {
				out = append(out, l)
			}
		case i == title:
			out = append(out, l)
		case i < title && headingRE().MatchString(l):
			// The template's own heading above its title placeholder.
		case headingRE().MatchString(l):
			section = true
			h := strings.TrimSpace(strings.TrimLeft(s, "#"))
			statusPara = register.IsStatusHeading(strings.Trim(h, "*_"))
			if !placeholderValue(strings.Trim(h, "*_ ")) {
				out = append(out, l)
			}
		case s == "":
			out = append(out, l)
			if statusPara && len(out) > 1 && strings.TrimSpace(out[len(out)-2]) != "" && !headingRE().MatchString(out[len(out)-2]) {
				statusPara = false // the status paragraph is over
			}
		case statusPara:
			out = append(out, l)
		case linkDefRE().MatchString(s):
			out = append(out, l)
		case !section && (fieldLineRE().MatchString(s) || strings.HasPrefix(s, "|")):
			out = append(out, l)
		case section && metaField(l):
			out = append(out, l)
		}
	}
	if fm != "" && strings.HasPrefix(body, "\n") {
		fm += "\n" // the blank line below the front matter stays
	}
	return fm + squeezeBlank(strings.Join(out, ""))
}

// metaField reports a status, date or author field line, which a
// template may keep inside a section.
func metaField(l string) bool {
	m := fieldLineRE().FindStringSubmatch(strings.TrimRight(l, "\n"))
	if m == nil {
		return false
	}
	k := strings.ToLower(strings.Trim(m[2], "*_ "))
	return register.IsStatusHeading(k) || isAuthorKey(k) || strings.Contains(k, "date") || strings.Contains(k, "datum") || strings.Contains(k, "fecha")
}

// templateTitle is the line of the template's title placeholder: its
// first H1 outside a fence that is not a section name, passing over an H1
// that names the template itself ("# Proposal template for new API")
// when another H1 follows before the first section; -1 when none.
func templateTitle(lines []string) int {
	fence := false
	first := -1
	for i, l := range lines {
		s := strings.TrimSpace(l)
		if strings.HasPrefix(s, "```") || strings.HasPrefix(s, "~~~") {
			fence = !fence
		}
		if fence || !strings.HasPrefix(l, "# ") && !(first >= 0 && strings.HasPrefix(l, "#")) {
			continue
		}
		if first >= 0 && !strings.HasPrefix(l, "# ") {
			return first // a section: the template's heading is its title
		}
		h := strings.TrimSpace(strings.TrimPrefix(l, "# "))
		if register.IsSectionTitle(strings.TrimSpace(commentLineRE().ReplaceAllString(h, ""))) {
			return first
		}
		if first >= 0 {
			return i // the template's own heading, then its title
		}
		if !templateWordRE().MatchString(h) {
			return i
		}
		first = i
	}
	return first
}

// stripComments removes HTML comments; a line that held comments alone
// goes with them.
func stripComments(t string) string {
	if !strings.Contains(t, "<!--") {
		return t
	}
	t = commentLineRE().ReplaceAllStringFunc(t, func(c string) string {
		return "\x00" + strings.Repeat("\n\x00", strings.Count(c, "\n"))
	})
	var b strings.Builder
	for _, l := range strings.SplitAfter(t, "\n") {
		if !strings.Contains(l, "\x00") {
			b.WriteString(l)
			continue
		}
		s := strings.TrimRight(strings.ReplaceAll(strings.TrimSuffix(l, "\n"), "\x00", ""), " \t")
		if s == "" {
			continue
		}
		b.WriteString(s)
		if strings.HasSuffix(l, "\n") {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// dropHTMLBlocks removes HTML blocks (<details>…</details>, a line that
// is one tag).
func dropHTMLBlocks(lines []string) []string {
	var out []string
	closing := ""
	for _, l := range lines {
		s := strings.TrimSpace(l)
		if closing != "" {
			if strings.Contains(s, closing) {
				closing = ""
			}
			continue
		}
		if m := htmlOpenRE().FindStringSubmatch(s); m != nil {
			if c := "</" + m[1] + ">"; !strings.Contains(s, c) && !strings.HasSuffix(s, "/>") {
				closing = c
			}
			continue
		}
		out = append(out, l)
	}
	return out
}

// squeezeBlank folds runs of blank lines into one and drops leading ones.
func squeezeBlank(t string) string {
	var b strings.Builder
	blank := true
	for _, l := range strings.SplitAfter(t, "\n") {
		if strings.TrimSpace(l) == "" {
			if !blank && l != "" {
				b.WriteString("\n")
			}
			blank = true
			continue
		}
		blank = false
		b.WriteString(l)
	}
	return b.String()
}

// splitFM splits front matter (with its closing line) from the body.
func splitFM(t string) (fm, body string) {
	if !strings.HasPrefix(t, "---\n") {
		return "", t
	}
	if i := strings.Index(t[4:], "\n---\n"); i >= 0 {
		return t[:4+i+5], t[4+i+5:]
	}
	return "", t
}

// placeholderValue reports a value that only tells the writer what to
// put there: wholly in brackets or braces ("[list everyone involved]",
// "{Titre}", "(fill me in)", "<name>"), runs of placeholder letters
// (XXXXX, YYYY) or words naming a template.
func placeholderValue(v string) bool {
	v = strings.TrimSpace(strings.TrimPrefix(v, `\`))
	if v == "" {
		return false
	}
	if strings.HasPrefix(v, "# ") || xRunRE().MatchString(v) || templateWordRE().MatchString(v) || choicesRE().MatchString(v) || optionalRE().MatchString(v) {
		return true
	}
	first, _ := utf8.DecodeRuneInString(v)
	last, _ := utf8.DecodeLastRuneInString(v)
	switch {
	case first == '[' && last == ']', first == '{' && last == '}', first == '(' && last == ')', first == '<' && last == '>':
		return true
	case first == '[' && last == ')':
		// A link whose text or target is a placeholder.
		return strings.Contains(v, "](@") || strings.Contains(v, "](#)")
	}
	return false
}

// fillFields fills the fields of a new record from a template (D96): an
// author or decider field takes the author, an id placeholder the
// record's number and its link the record's file, a placeholder value is
// left empty; in front matter a date value is the record's date and a
// list is the author's or empty.
func (n *dialectNew) fillFields(t string) string {
	fm, body := splitFM(t)
	lines := strings.SplitAfter(body, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "#") && !strings.Contains(l, n.title) {
			break // the header ends at the first heading after the title
		}
		lines[i] = n.fillLine(l)
	}
	return n.fillFrontMatter(fm) + strings.Join(lines, "")
}

// fillLine fills one header line: a field line or a table row.
func (n *dialectNew) fillLine(l string) string {
	nl := strings.HasSuffix(l, "\n")
	s := strings.TrimSuffix(l, "\n")
	if num := n.number(); num != "" {
		s = idTokenRE().ReplaceAllString(s, "${1}"+num)
		s = fileTokenRE().ReplaceAllString(s, "("+path.Base(n.file)+")")
	}
	if strings.HasPrefix(strings.TrimSpace(s), "|") {
		s = n.fillRow(s)
	} else if m := fieldLineRE().FindStringSubmatch(s); m != nil && !strings.HasPrefix(s, "#") {
		switch k := m[2]; {
		case isAuthorKey(k):
			s = strings.TrimRight(m[1], " \t")
			if n.author != "" {
				s += " " + n.author
			}
		case register.IsStatusHeading(strings.Trim(k, "*_ ")):
		case placeholderValue(m[3]), n.proseValue(k, m[3]):
			s = strings.TrimRight(m[1], " \t")
		}
	}
	s = datePlaceholderRE().ReplaceAllString(s, "") // dates no field of the record fills
	if nl {
		s += "\n"
	}
	return s
}

// fillRow fills a metadata table row: the author's cell, a placeholder
// cell emptied.
func (n *dialectNew) fillRow(s string) string {
	cells := strings.Split(s, "|")
	if len(cells) < 4 {
		return s
	}
	k, v := strings.TrimSpace(cells[1]), strings.TrimSpace(cells[2])
	switch {
	case isAuthorKey(k):
		cells[2] = " " + n.author + " "
	case placeholderValue(v):
		cells[2] = " "
	}
	return strings.Join(cells, "|")
}

var fmKeyRE = register.LazyRE(`^([A-Za-z_][A-Za-z0-9_ -]*):[ \t]*(.*)$`)

// fillFrontMatter fills a template's front matter: a date value is the
// record's date, an author key's value the author, other lists empty, a
// placeholder value empty.
func (n *dialectNew) fillFrontMatter(fm string) string {
	if fm == "" {
		return ""
	}
	lines := strings.SplitAfter(fm, "\n")
	var out []string
	key := ""
	for i, l := range lines {
		s := strings.TrimRight(l, "\n")
		if i == 0 || s == "---" {
			out = append(out, l)
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(s), "- ") && strings.HasPrefix(s, " ") || strings.HasPrefix(s, "- ") {
			if isAuthorKey(key) && n.author != "" {
				out = append(out, "  - "+yamlStr(n.author)+"\n")
				key = "" // one item for the author
			}
			continue
		}
		m := fmKeyRE().FindStringSubmatch(s)
		if m == nil {
			out = append(out, l)
			continue
		}
		key = m[1]
		v := strings.TrimSpace(m[2])
		switch {
		case fmDateRE().MatchString(v):
			s = m[1] + ": " + n.date.UTC().Format("2006-01-02")
		case isAuthorKey(key) && v != "" && n.author != "":
			s = m[1] + ": " + yamlStr(n.author)
		case isAuthorKey(key) && v != "":
			s = m[1] + ":"
		case placeholderValue(strings.Trim(v, `'"`)):
			s = m[1] + ":"
		}
		out = append(out, s+"\n")
	}
	return strings.Join(out, "")
}

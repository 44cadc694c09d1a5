package adopt

import (
	"cmp"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/plan"
	"github.com/claimslint/claimslint/internal/register"
)

// dialectNew is the text of a new record of an adopted collection (D73):
// the collection's own template file filled in where it has one, else a
// record in the shape of its latest record (adr-tools' "# N. Title" and
// Status section, MADR's front matter, a Status line or metadata row).
// sup, when set, is the record it supersedes, written as its tool writes
// the relation. statuses is the vocabulary check reads the status with.
type dialectNew struct {
	dir     string
	col     *collection
	file    string
	title   string
	status  string // proposed or accepted
	date    time.Time
	sup     *register.Decision
	vocab   map[string]string
	inFile  bool // the status is written in the file (not its folder)
	tmplRel string
	author  string // the author or decider fields' value
	// sections are the level-2 headings the collection's newest records
	// share, for a record shaped without a template.
	sections []string
	// values are what the newest records write in each header field, by
	// key: a template's value none writes is prose (D96).
	values map[string]map[string]bool
}

// templateOf finds the collection's own template for scheme t: its
// template: setting, else a file named as a template (0000-template.md,
// template.md, adr-template.md, _template.md, TEMPLATE.md) in its folder,
// the collection's folder or a templates/ folder there.
func (c *collection) templateOf(root string, t int) string {
	s := c.schemes[t]
	if s.Template != "" {
		return s.Template
	}
	var dirs []string
	// A file of the collection whose placeholder status says it is a
	// template, found by its content (D96).
	for _, sk := range c.skipped {
		if strings.HasPrefix(sk.why, "template:") && path.Dir(sk.path) == s.Dir {
			return sk.path
		}
	}
	if p := siblingTemplate(root, s.Dir); p != "" {
		return p // a KEP's keps/NNNN-kep-template/README.md
	}
	// Beside the records, the collection's folder, a templates/ folder
	// there, a sibling folder of the collection, then the root.
	parent := path.Dir(c.dir)
	for _, d := range []string{s.Dir, c.dir, path.Join(c.dir, "templates"), path.Join(c.dir, "template"), path.Join(parent, "templates"), path.Join(parent, "template"), parent, "."} {
		if !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	for _, d := range dirs {
		es, err := plan.ReadDirIn(root, d)
		if err != nil {
			continue
		}
		var names []string
		for _, e := range es {
			low := strings.ToLower(e.Name())
			folder := strings.HasPrefix(path.Base(d), "template") && (low == "readme.md" || low == "index.md")
			if e.Type().IsRegular() && strings.HasSuffix(low, ".md") && (folder || templateNameRE().MatchString(low)) && !strings.Contains(low, "reference") {
				names = append(names, e.Name())
			}
		}
		slices.Sort(names)
		// The ADR template before others (reference-architecture-template.md).
		slices.SortStableFunc(names, func(a, b string) int {
			return boolInt(!strings.Contains(strings.ToLower(a), "adr")) - boolInt(!strings.Contains(strings.ToLower(b), "adr"))
		})
		if len(names) > 0 {
			return path.Join(d, names[0])
		}
	}
	return ""
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// templateNameRE is a template's file name in any of the languages of
// register.TemplateWords, with a language suffix allowed
// (0000-adr-template-de.md; D96).
var templateNameRE = register.LazyRE(`(?i)(?:^|[-_ .])(?:` + register.TemplateWords + `)(?:[-_][a-z]{2})?\.md$`)

// word is the status word in the spelling of the example: "Proposed" when
// the example is capitalised, the example's own spelling when it holds the
// word.
func word(status, example string) string {
	if allCaps(example) {
		return strings.ToUpper(status) // adr-tools' PROPOSED
	}
	ex := strings.ToLower(example)
	if i := strings.Index(ex, status); i >= 0 {
		return example[i : i+len(status)]
	}
	for _, r := range example {
		if r >= 'A' && r <= 'Z' {
			return strings.ToUpper(status[:1]) + status[1:]
		}
		if r >= 'a' && r <= 'z' {
			break
		}
	}
	return status
}

var (
	// dateValueRE is a date placeholder after a Date key: "Date: [YYYY-MM-DD
	// when …]", "Start Date: (fill me in …)", "start_date:   # fill me in",
	// "| Date | insert data |", "**Date:** YYYY-MM-DD".
	dateValueRE = register.LazyRE(`(?i)(date[* \t]*[:|][* \t]*)(\\?\[[^\]\n]*\]|\([^)\n]*\)|#[^\n|]*|YYYY-MM-DD|[0-9X]{4}-[0-9X]{2}-[0-9X]{2}|insert data|null|\{[^}\n]*\})`)
	// numberTokenRE is a number placeholder in a template's title: ###,
	// NNNN, XXXX.
	numberTokenRE = register.LazyRE(`#{2,}|N{3,}|X{3,}|\b0{3,}\b`)
	fmTitleRE     = register.LazyRE(`(?m)^title:.*$`)
	featureRE     = register.LazyRE(`(?m)^([-*] Feature Name: ).*$`)
	commentLineRE = register.LazyRE(`(?s)<!--.*?-->`)
)

// number is the new record's number as its file name writes it, "" for a
// record numbered on merge (0000) or not numbered.
func (n *dialectNew) number() string {
	base := path.Base(n.file)
	if b := strings.ToLower(base); b == "readme.md" || b == "index.md" {
		base = path.Base(path.Dir(n.file)) // one folder per record
	}
	if dateNameRE().MatchString(base) {
		return ""
	}
	m := digitsRE().FindString(base)
	if strings.Trim(m, "0") == "" {
		return ""
	}
	return m
}

// fill fills the collection's template, step by step (D96): its
// instructions removed, the status where and as the template writes it,
// the relation to the superseded record, the dates, the title, the
// fields (authors, the id), then the relation where the status is not in
// a table.
func (n *dialectNew) fill(t string) ([]byte, error) {
	t = cleanTemplate(strings.ReplaceAll(t, "\r\n", "\n"))
	d := register.ParseAdopted(n.file, []byte(t), n.vocab)
	lines, err := n.placeStatus(strings.SplitAfter(t, "\n"), d)
	if err != nil {
		return nil, err
	}
	if (d.StatusFrom == "" || d.StatusFrom == "unstated") && n.inFile {
		// A template that states no status (Rust's) gets a status line in
		// the form of its metadata lines, so check reads it as written.
		lines = addStatusLine(lines, n.status)
	}
	t = n.statusChoices(strings.Join(lines, ""), d)
	if n.sup != nil && d.StatusFrom == "table" {
		t = regexp.MustCompile(`(?m)^(\|\s*Supersedes:?\s*\|)[^|\n]*\|`).ReplaceAllString(t, "${1} "+n.supLink()+" |")
	}
	t = n.fillFields(n.fillTitle(n.fillDates(t)))
	if n.sup != nil && d.StatusFrom != "table" {
		t = n.addSupersedes(t, d.StatusFrom)
	}
	return []byte(t), nil
}

// placeStatus writes the status word on the line the template states it.
func (n *dialectNew) placeStatus(lines []string, d *register.Decision) ([]string, error) {
	pos, ok := d.Keys["status"]
	if !ok || d.StatusFrom == "" || d.StatusFrom == "unstated" || pos.Line < 1 || pos.Line > len(lines) {
		return lines, nil
	}
	line := lines[pos.Line-1]
	w := n.word(d.RawStatus)
	switch d.StatusFrom {
	case "front matter":
		k := strings.Index(line, ":")
		if k < 0 {
			return nil, fmt.Errorf("template %s: cannot place the status on line %d", n.tmplRel, pos.Line)
		}
		lines[pos.Line-1] = line[:k+1] + " " + w + "\n"
	case "table":
		cells := strings.Split(line, "|")
		for i := 1; i+1 < len(cells); i++ {
			if register.IsStatusKey(strings.Trim(strings.TrimSpace(cells[i]), "*:")) {
				cells[i+1] = " " + w + " "
				break
			}
		}
		lines[pos.Line-1] = strings.Join(cells, "|")
	case "line":
		return n.placeStatusLine(lines, d, pos.Line, w)
	case "heading":
		lines[pos.Line-1] = w + "\n"
	}
	return lines, nil
}

// placeStatusLine writes the status word after the key of a status line,
// the rest of a metadata row kept; a placeholder's choices go.
func (n *dialectNew) placeStatusLine(lines []string, d *register.Decision, at int, w string) ([]string, error) {
	line := lines[at-1]
	start, ok := register.StatusValueAt(line)
	if !ok {
		return nil, fmt.Errorf("template %s: cannot place the status on line %d", n.tmplRel, at)
	}
	for start > 0 && line[start-1] == ' ' {
		start-- // the value is written after one space
	}
	end := strings.Index(line[start:], "|")
	if d.Placeholder {
		end = -1 // "[proposed | rejected | …]": the choices go
	}
	rest := "\n"
	if end >= 0 {
		rest = " " + line[start+end:]
	} else {
		// The placeholder may run on below, indented.
		for at < len(lines) && strings.HasPrefix(lines[at], "  ") && strings.TrimSpace(lines[at]) != "" {
			lines = slices.Delete(lines, at, at+1)
		}
	}
	lines[at-1] = line[:start] + " " + w + rest
	return lines, nil
}

// statusChoices writes the status word in place of a Status section's
// list of choices ("Vorgeschlagen | **Akzeptiert** | Abgelehnt") where
// the template states its status elsewhere (its front matter).
func (n *dialectNew) statusChoices(t string, d *register.Decision) string {
	if d.StatusFrom == "heading" {
		return t
	}
	lines := strings.SplitAfter(t, "\n")
	in := false
	for i, l := range lines {
		if headingRE().MatchString(l) {
			in = register.IsStatusHeading(strings.Trim(strings.TrimSpace(strings.TrimLeft(l, "#")), "*_"))
			continue
		}
		if in && strings.Count(l, "|") >= 2 && !strings.HasPrefix(strings.TrimSpace(l), "|") {
			lines[i] = n.word(l) + "\n"
			break
		}
	}
	return strings.Join(lines, "")
}

// fillDates writes the record's date in the template's date placeholders,
// in their own layout.
func (n *dialectNew) fillDates(t string) string {
	t = dateValueRE().ReplaceAllString(t, "${1}"+n.date.UTC().Format("2006-01-02"))
	return localDateRE().ReplaceAllStringFunc(t, func(m string) string {
		sm := localDateRE().FindStringSubmatch(m)
		return sm[1] + n.date.UTC().Format(localLayout(sm[2]))
	})
}

// fillTitle writes the title in the template's title places: a front
// matter title placeholder ("subtitle: {Titre de la décision}"), its
// title: key, a Feature Name line, its first heading that is not a
// section (with the number in its number placeholder).
func (n *dialectNew) fillTitle(t string) string {
	t = fmTitlePlaceholderRE().ReplaceAllString(t, "${1}"+strings.ReplaceAll(yamlStr(n.title), "$", "$$"))
	if fmTitleRE().MatchString(t) && strings.HasPrefix(t, "---\n") {
		t = fmTitleRE().ReplaceAllLiteralString(t, "title: "+yamlStr(n.title))
	}
	t = featureRE().ReplaceAllString(t, "${1}"+strings.ReplaceAll(plan.Slug(n.title), "-", "_"))
	lines := strings.SplitAfter(t, "\n")
	if i := titleHeading(lines); i >= 0 {
		lines[i] = "# " + n.numberedHead(strings.TrimSpace(strings.TrimPrefix(lines[i], "# "))) + n.title + "\n"
	}
	return strings.Join(lines, "")
}

// titleHeading is the line of a template's title heading: its first H1
// outside front matter and fences, -1 when a section name comes first.
func titleHeading(lines []string) int {
	inFM := len(lines) > 0 && lines[0] == "---\n"
	fence := false
	for i, l := range lines {
		s := strings.TrimSpace(l)
		if inFM {
			if i > 0 && s == "---" {
				inFM = false
			}
			continue
		}
		if strings.HasPrefix(s, "```") || strings.HasPrefix(s, "~~~") {
			fence = !fence
		}
		if fence || !strings.HasPrefix(l, "# ") {
			continue
		}
		h := strings.TrimSpace(strings.TrimPrefix(l, "# "))
		if register.IsSectionTitle(strings.TrimSpace(commentLineRE().ReplaceAllString(h, ""))) {
			return -1
		}
		return i
	}
	return -1
}

// numberedHead is what a title heading h writes before the title: its
// prefix and number placeholder ("ADR-###: "), the number filled in.
func (n *dialectNew) numberedHead(h string) string {
	loc := numberTokenRE().FindStringIndex(h)
	if loc == nil || loc[0] >= 12 {
		return ""
	}
	num := n.number()
	if num == "" {
		num = h[loc[0]:loc[1]]
	}
	head := h[:loc[0]] + num
	rest := h[loc[1]:]
	if k := strings.IndexAny(rest, ":."); k >= 0 && k < 3 {
		head += rest[:k+1]
	}
	return head + " "
}

// supLink is the link to the superseded record, labelled as the
// collection names it.
func (n *dialectNew) supLink() string {
	link := relLink(path.Dir(n.file), n.sup.Path)
	return fmt.Sprintf("[%s](%s)", n.supLabel(), link)
}

func relLink(from, to string) string {
	fs := strings.Split(path.Clean(from), "/")
	ts := strings.Split(path.Clean(to), "/")
	if from == "." {
		fs = nil
	}
	i := 0
	for i < len(fs) && i < len(ts)-1 && fs[i] == ts[i] {
		i++
	}
	var up []string
	for range fs[i:] {
		up = append(up, "..")
	}
	return strings.Join(append(up, ts[i:]...), "/")
}

// addSupersedes writes the relation to the superseded record as the
// dialect does: adr-tools' "Supersedes [N. Title](file)" in the Status
// section, MADR front matter's supersedes: where the collection uses it,
// else a Supersedes line below the status.
func (n *dialectNew) addSupersedes(t, from string) string {
	lines := strings.SplitAfter(t, "\n")
	rel := "Supersedes " + n.supLink()
	switch from {
	case "heading":
		for i, l := range lines {
			if register.IsStatusHeading(strings.TrimSpace(strings.TrimLeft(l, "#"))) && strings.HasPrefix(l, "##") {
				// After the status paragraph.
				j := i + 1
				for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
					j++
				}
				for j < len(lines) && strings.TrimSpace(lines[j]) != "" {
					j++
				}
				return strings.Join(slices.Insert(lines, j, "\n", rel+"\n"), "")
			}
		}
	case "front matter":
		if n.col.usesKey("supersedes") && strings.HasPrefix(t, "---\n") {
			// The record's name, as the collection's records write it
			// (mycelian's supersedes: 0006-deletion-retention).
			v := yamlStr(strings.TrimSuffix(relLink(path.Dir(n.file), n.sup.Path), ".md"))
			if out, ok := fillEmptyKey(t, "supersedes", v); ok {
				return out // the example's own key, left empty (one key, not two)
			}
			return "---\nsupersedes: " + v + "\n" + t[4:]
		}
	case "line":
		for i, l := range lines {
			if statusLineKeyRE().MatchString(l) {
				prefix := listMarkerRE().FindString(l)
				if prefix == "" {
					// Not a list: a paragraph of its own.
					return strings.Join(slices.Insert(lines, i+1, "\n", rel+"\n"), "")
				}
				return strings.Join(slices.Insert(lines, i+1, prefix+rel+"\n"), "")
			}
		}
	}
	// No place of the dialect's own: a line after the title.
	for i, l := range lines {
		if strings.HasPrefix(l, "# ") {
			return strings.Join(slices.Insert(lines, i+1, "\n", rel+"\n"), "")
		}
	}
	return rel + "\n\n" + t
}

var listMarkerRE = register.LazyRE(`^\s*[-*+]\s+`)

var statusLineKeyRE = register.LazyRE(`(?i)^\s*(?:[-*]\s+)?(?:\*\*)?status\b`)

// usesKey reports whether a record of the collection has the front matter
// key k.
func (c *collection) usesKey(k string) bool {
	for _, r := range c.records {
		if r.d != nil && r.d.StatusFrom == "front matter" {
			if _, ok := r.d.Keys[k]; ok {
				return true
			}
		}
	}
	return false
}

// shape writes a record in the shape of the collection's latest record
// ex (its text src) where there is no template: its heading with the
// number, its status where and as it writes it, a date, and the sections
// of the dialect.
func (n *dialectNew) shape(src string, ex *register.Decision) []byte {
	src = strings.ReplaceAll(src, "\r\n", "\n")
	from := ""
	raw := "proposed"
	var statusLine, exPath string
	at := 0
	if ex != nil {
		from, raw, exPath = ex.StatusFrom, ex.RawStatus, ex.Path
		if pos, ok := ex.Keys["status"]; ok && pos.Line >= 1 {
			if ls := strings.Split(src, "\n"); pos.Line <= len(ls) {
				statusLine, at = ls[pos.Line-1], pos.Line
			}
		}
	}
	w := n.word(raw)
	date := n.date.UTC().Format("2006-01-02")
	head := "# " + n.title
	if m := numberedHeadRE().FindStringSubmatch(src); m != nil && n.number() != "" {
		num := strings.TrimLeft(n.number(), "0")
		if len(m[2]) > 1 && m[2][0] == '0' {
			num = n.number()
		}
		head = "# " + m[1] + num + m[3] + n.title
	}
	var b strings.Builder
	switch {
	case from == "front matter" && n.exampleFrontMatter(src, exPath, w) != "":
		fmt.Fprintf(&b, "%s\n%s\n\n## Context and Problem Statement\n\nWhat forces a decision, in two or three sentences.\n\n## Decision Outcome\n\nWhat we decided and why.\n\n### Consequences\n\nWhat gets easier, what gets harder.\n", n.exampleFrontMatter(src, exPath, w), head)
	case from == "front matter":
		fmt.Fprintf(&b, "---\nstatus: %s\ndate: %s\n---\n\n%s\n\n## Context and Problem Statement\n\nWhat forces a decision, in two or three sentences.\n\n## Decision Outcome\n\nWhat we decided and why.\n\n### Consequences\n\nWhat gets easier, what gets harder.\n", w, date, head)
	case from == "heading":
		fmt.Fprintf(&b, "%s\n\nDate: %s\n\n## Status\n\n%s\n\n## Context\n\nWhat forces a decision.\n\n## Decision\n\nWhat we decided.\n\n## Consequences\n\nWhat gets easier, what gets harder.\n", head, date, w)
	case (from == "line" || from == "table") && statusLine != "":
		r := strings.TrimSpace(raw)
		if i := strings.Index(r, "|"); i > 0 {
			r = strings.TrimSpace(r[:i])
		}
		line := statusLine
		if i := strings.Index(line, r); r != "" && i >= 0 {
			line = line[:i] + w + line[i+len(r):]
		}
		line = regexp.MustCompile(`(?:19|20)[0-9]{2}-[0-9]{2}-[0-9]{2}`).ReplaceAllString(line, date)
		if block, ok := n.exampleFields(src, exPath, at, line); ok {
			line = block // the example's metadata lines, filled (D96)
		}
		if from == "table" {
			fmt.Fprintf(&b, "%s\n\n| | |\n|---|---|\n%s\n| Date | %s |\n\n## Context\n\nWhat forces a decision.\n\n## Decision\n\nWhat we decided.\n\n## Consequences\n\nWhat gets easier, what gets harder.\n", head, line, date)
		} else {
			fmt.Fprintf(&b, "%s\n\n%s\n\n## Context and Problem Statement\n\nWhat forces a decision.\n\n## Decision Outcome\n\nWhat we decided and why.\n", head, line)
		}
		if !strings.Contains(line, date) {
			s := b.String()
			if from == "line" {
				prefix := listMarkerRE().FindString(line)
				s = strings.Replace(s, line+"\n", line+"\n"+prefix+"Date: "+date+"\n", 1)
			}
			b.Reset()
			b.WriteString(s)
		}
	default:
		fmt.Fprintf(&b, "%s\n\n## Summary\n\nWhat we decided, in a paragraph.\n\n## Motivation\n\nWhy.\n", head)
		if n.inFile {
			s := b.String()
			b.Reset()
			fmt.Fprintf(&b, "%s\n\n## Status\n\n%s\n%s", head, w, strings.TrimPrefix(s, head+"\n"))
			from = "heading"
		}
	}
	own := n.sections
	if own == nil {
		own = level2Headings(src)
	}
	out := ownSections(b.String(), own)
	if n.sup != nil {
		out = n.addSupersedes(out, from)
	}
	return []byte(out)
}

// ownSections writes the collection's own section headings, own, in
// place of claimslint's English ones (## Context, ## Decision, …): the
// sections its newest records share (D96), in its language (## Kontext,
// ## Contexto, ## 背景) and its process's words (swift's ## Introduction,
// ## Motivation, ## Proposed solution). The status heading stays where
// the dialect put it.
func ownSections(out string, own []string) string {
	if len(own) == 0 {
		return out
	}
	lines := strings.Split(out, "\n")
	var kept []string
	skip := false
	for _, l := range lines {
		if h, ok := strings.CutPrefix(l, "## "); ok && !register.IsStatusHeading(strings.TrimSpace(h)) {
			skip = true // an English section and its placeholder text
			continue
		}
		if strings.HasPrefix(l, "## ") || strings.HasPrefix(l, "# ") {
			skip = false
		}
		if !skip {
			kept = append(kept, l)
		}
	}
	body := strings.TrimRight(strings.Join(kept, "\n"), "\n") + "\n"
	for _, h := range own {
		body += "\n" + h + "\n"
	}
	return body
}

// numberedHeadRE is a record's title heading that carries its number:
// "# 12. Title", "# ADR 022: Title", "# ADR-0012 Title".
var numberedHeadRE = register.LazyRE(`(?m)^# ((?:[A-Za-z]{2,5}[- ])?)([0-9]{1,6})([.:]? +|: +)`)

// newInDialect is the text of the new record at file of the adopted
// collection col (D73).
func newInDialect(o NewOptions, col *collection, file, title string, old *register.Decision, vocab map[string]string) ([]byte, error) {
	t, _ := register.Owner(file, col.schemes)
	if t < 0 {
		t = col.target()
	}
	n := &dialectNew{dir: o.Dir, col: col, file: file, title: title, status: o.Status, date: o.Date, vocab: vocab, inFile: col.schemes[t].Status != "folder", author: o.Author}
	if old != nil && old.Adopted && !strings.Contains(o.Supersedes, "(") {
		n.sup = old
	}
	if n.tmplRel = col.templateOf(o.Dir, t); n.tmplRel != "" {
		src, err := plan.ReadIn(o.Dir, n.tmplRel)
		if err != nil {
			return nil, fmt.Errorf("read the collection's template: %w", err)
		}
		n.values = col.fieldValues(o.Dir, t)
		return n.fill(string(src))
	}
	// The dialect is where most of the folder's records state their
	// status; the example its latest record that states it there.
	count := map[string]int{}
	for _, r := range col.records {
		if r.scheme == t && r.d != nil {
			count[r.d.StatusFrom]++
		}
	}
	from := ""
	for _, f := range slices.Sorted(maps.Keys(count)) {
		if count[f] > count[from] || from == "" {
			from = f
		}
	}
	var last *record
	for _, r := range col.records {
		if r.scheme == t && r.d != nil && r.d.StatusFrom == from && (last == nil || register.CompareNames(last.name, r.name) < 0) {
			last = r
		}
	}
	if last == nil {
		return n.shape("", nil), nil
	}
	src, err := plan.ReadIn(o.Dir, last.path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", last.path, err)
	}
	n.sections = col.sharedSections(o.Dir, t)
	return n.shape(string(src), last.d), nil
}

// sharedSections are the level-2 headings at least two of scheme t's
// newest records write (the one's own when it has one), in the order the
// newest writes them: the collection's sections, not one record's subject
// ("## Broken Packages"; D96).
func (c *collection) sharedSections(root string, t int) []string {
	rs := c.newest(t, newestRecords)
	count := map[string]int{}
	var lists [][]string
	for _, r := range rs {
		src, err := plan.ReadIn(root, r.path)
		if err != nil {
			continue
		}
		hs := level2Headings(string(src))
		for _, h := range hs {
			count[h]++
		}
		lists = append(lists, hs)
	}
	need := min(2, len(rs))
	// In the order the records write them: by where in its record each
	// stands, on average.
	pos := map[string]float64{}
	for _, hs := range lists {
		for i, h := range hs {
			pos[h] += float64(i) / float64(len(hs)) / float64(count[h])
		}
	}
	out := []string{} // none shared: claimslint's own sections
	for h, n := range count {
		if n >= need {
			out = append(out, h)
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		if c := cmp.Compare(pos[a], pos[b]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return out
}

// level2Headings are a record's level-2 headings outside fences, each
// once, but its status heading and claimslint's Confirmation.
func level2Headings(src string) []string {
	var own []string
	fence := false
	for _, l := range strings.Split(src, "\n") {
		if s := strings.TrimSpace(l); strings.HasPrefix(s, "```") || strings.HasPrefix(s, "~~~") {
			fence = !fence
		}
		h, ok := strings.CutPrefix(l, "## ")
		if h = strings.TrimSpace(h); fence || !ok || h == "" || strings.EqualFold(h, "Confirmation") || register.IsStatusHeading(strings.Trim(h, "*_ ")) || slices.Contains(own, "## "+h) {
			continue
		}
		own = append(own, "## "+h)
	}
	return own
}

var metaLineRE = register.LazyRE(`^(?:([-*]) +[A-Z][A-Za-z ]*|[a-z_]+):`)

// addStatusLine inserts "- Status: proposed" (or "status: proposed") after
// the metadata lines at the top of a template, before its first heading;
// at the top when it has none.
func addStatusLine(lines []string, status string) []string {
	last, form := -1, ""
	for i, l := range lines {
		if strings.HasPrefix(l, "#") {
			break
		}
		if m := metaLineRE().FindStringSubmatch(l); m != nil {
			last, form = i, m[1]
		} else if last >= 0 && strings.TrimSpace(l) != "" {
			break
		}
	}
	switch {
	case last < 0:
		// Below the title heading when there is one.
		for i, l := range lines {
			if strings.HasPrefix(l, "# ") {
				return slices.Insert(lines, i+1, "\n", "Status: "+status+"\n")
			}
		}
		return append([]string{"Status: " + status + "\n", "\n"}, lines...)
	case form != "":
		return slices.Insert(lines, last+1, form+" Status: "+status+"\n")
	}
	return slices.Insert(lines, last+1, "status: "+status+"\n")
}

// word is the word the collection writes for the new record's status
// (D96): the choice of the template's list that means it ("[Vorgeschlagen
// | Akzeptiert]" gives Vorgeschlagen), the example's own word when it
// means it, a word a record of the collection writes for it, else the
// vocabulary's first word for it in the language the collection's status
// words are in (D97), spelt with the example's capitals; English as
// before when the collection writes English.
func (n *dialectNew) word(example string) string {
	if w, ok := n.exampleWord(example); ok {
		return w
	}
	w, lang := n.collectionWord()
	if w != "" {
		return capitalLike(w, example)
	}
	if w := n.ownClassWord(); w != "" {
		return capitalLike(w, example) // EIPs' Draft, not Proposed
	}
	best := ""
	for _, l := range slices.Sorted(maps.Keys(lang)) {
		if best == "" || lang[l] > lang[best] {
			best = l
		}
	}
	if best != "" && best != "en" {
		for _, row := range config.WorldStatuses {
			if row.Lang == best && row.Status == n.status {
				w, _, _ := strings.Cut(row.Words, ",")
				return capitalLike(strings.TrimSpace(w), example)
			}
		}
	}
	return word(n.status, example)
}

// mapsTo says whether the status word w means the new record's status.
func (n *dialectNew) mapsTo(w string) bool {
	st, ok := register.MapStatus(w, n.vocab)
	return ok && st == n.status
}

// exampleWord is the choice of the template's list that means the new
// status, else the example's own word when it means it.
func (n *dialectNew) exampleWord(example string) (string, bool) {
	choices := strings.FieldsFunc(example, func(r rune) bool { return strings.ContainsRune("|/,[]{}<>", r) })
	if len(choices) > 1 {
		for _, c := range choices {
			if c = strings.Trim(strings.TrimSpace(c), "*_`"); c != "" && n.mapsTo(c) && !strings.ContainsAny(c, " ") {
				return c, true
			}
		}
	}
	if n.mapsTo(example) && !strings.ContainsAny(strings.TrimSpace(example), " |") {
		return strings.Trim(strings.TrimSpace(example), "*_`"), true
	}
	return "", false
}

// collectionWord is a word, not English, a record of the collection
// writes for the new status, if any; else "" and how many of the
// records' status words are in each language.
func (n *dialectNew) collectionWord() (string, map[string]int) {
	lang := map[string]int{}
	if n.col == nil {
		return "", lang
	}
	for _, r := range n.col.records {
		if r.d == nil || r.d.StatusFrom == "folder" || r.d.StatusFrom == "unstated" {
			continue
		}
		w := register.StatusWords(r.d.RawStatus)
		l := worldLang(w)
		if r.d.Status == n.status && w != "" && !strings.Contains(w, " ") && !register.ValidStatus(w) && l != "" && l != "en" {
			return w, nil
		}
		if l != "" {
			lang[l]++
		} else if register.ValidStatus(w) {
			lang["en"]++
		}
	}
	return "", lang
}

// worldLang is the language of the world vocabulary a status word is in,
// "" when it is in none.
func worldLang(w string) string {
	for _, row := range config.WorldStatuses {
		for _, x := range strings.Split(row.Words, ",") {
			if strings.TrimSpace(x) == w {
				return row.Lang
			}
		}
	}
	return ""
}

// allCaps reports an example written in capitals: two or more letters,
// none lower case.
func allCaps(example string) bool {
	n := 0
	for _, r := range example {
		switch {
		case unicode.IsLower(r):
			return false
		case unicode.IsUpper(r):
			n++
		}
	}
	return n >= 2
}

// capitalLike capitalises w when the example starts with a capital.
func capitalLike(w, example string) string {
	if allCaps(example) {
		return strings.ToUpper(w)
	}
	for _, r := range example {
		if unicode.IsUpper(r) {
			rs := []rune(w)
			rs[0] = unicode.ToUpper(rs[0])
			return string(rs)
		}
		if unicode.IsLower(r) {
			break
		}
	}
	return w
}

var (
	// localDateRE is a date placeholder in a template's own language
	// after a date key of any language: "- Fecha: dd/mm/aa", "Datum:
	// TT.MM.JJJJ", "日期: YYYY/MM/DD" (D96).
	localDateRE = register.LazyRE(`(?im)^(\W*(?:fecha|datum|data|date|日期|日付|날짜)\W*[:：]\W*)((?:dd|jj|tt)([/.-])mm([/.-])(?:aaaa|yyyy|jjjj|aa|yy|jj)|(?:aaaa|jjjj|yyyy)([/.-])mm([/.-])dd)\b`)
	// fmTitlePlaceholderRE is a front matter line whose value is a
	// bracketed title placeholder.
	fmTitlePlaceholderRE = register.LazyRE(`(?m)^([a-z_]*title:[ \t]*)[\[{<][^\]}>\n]*(?i:tit)[^\]}>\n]*[\]}>][ \t]*$`)
)

// localLayout is the Go layout of a date placeholder: dd/mm/aa is
// 02/01/06, aaaa-mm-dd is 2006-01-02.
func localLayout(p string) string {
	p = strings.ToLower(p)
	r := strings.NewReplacer("dd", "02", "jj", "02", "tt", "02", "mm", "01", "aaaa", "2006", "yyyy", "2006", "jjjj", "2006", "aa", "06", "yy", "06")
	return r.Replace(p)
}

// newest is the newest n records of scheme t, newest first (by name, as
// the collection numbers or dates them).
func (c *collection) newest(t, n int) []*record {
	var rs []*record
	for _, r := range c.records {
		if r.scheme == t {
			rs = append(rs, r)
		}
	}
	slices.SortStableFunc(rs, func(a, b *record) int { return register.CompareNames(b.name, a.name) })
	return rs[:min(len(rs), n)]
}

package register

import (
	"bytes"
	"fmt"
	"go/token"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/claimslint/claimslint/internal/decisionid"
	"github.com/claimslint/claimslint/internal/ruleid"

	meta "github.com/yuin/goldmark-meta"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
)

// RecordName is what an adopted record's name says about it: MADR and
// adr-tools number their records (0007-title.md, any width, 0000
// included, 0004a with a letter); log4brains and others date them
// (20200925-title.md, 2022-07-21_title.md); a scheme's pattern may read a
// status from the path (D72).
type RecordName struct {
	// Number is the record number (0 for 0000-...), -1 when the name has
	// none.
	Number int
	// Width is the number of digits, so the next record keeps the style.
	Width int
	// Suffix is a letter after the number (0004a), "" for most.
	Suffix string
	// Date is YYYYMMDD (DD is 00 for a month-only date) for a date-named
	// record, "" for a numbered one.
	Date string
	// DateLayout writes a date as the record's name does (Go layout).
	DateLayout string
	// Status is the pattern's status group, "" without one.
	Status string
	// Path is the path below the scheme's folder.
	Path string
}

// ParseRecordName classifies the base name of an adopted record by the
// built-in patterns of the one-folder form of adopt: (numbered or
// YYYYMMDD-dated). ok is false for other names (README.md, template.md,
// index.md): init --adopt lists them as skipped.
func ParseRecordName(base string) (RecordName, bool) {
	var s Scheme
	return s.Match(base)
}

// Relation verbs of adopted records, as adr-tools, MADR and log4brains
// write them, normalised. Supersession becomes Supersedes/SupersededBy;
// the others are kept as Relations, and keep the older decision live.
const (
	RelSupersedes         = "supersedes"
	RelSupersededBy       = "superseded-by"
	RelPartlySupersedes   = "partly-supersedes"
	RelPartlySupersededBy = "partly-superseded-by"
	RelAmends             = "amends"
	RelAmendedBy          = "amended-by"
	RelClarifies          = "clarifies"
	RelClarifiedBy        = "clarified-by"
)

// relationVerbs maps the words records use to the normalised verbs;
// "superceded"/"supercedes" are adr-tools' own spelling. Longer phrases
// come first so "partly superseded by" is not read as "superseded by".
var relationVerbs = []struct{ words, verb string }{
	{"partly superseded by", RelPartlySupersededBy},
	{"partially superseded by", RelPartlySupersededBy},
	{"partly superceded by", RelPartlySupersededBy},
	{"partly supersedes", RelPartlySupersedes},
	{"partially supersedes", RelPartlySupersedes},
	{"superseded by", RelSupersededBy},
	{"superceded by", RelSupersededBy},
	{"replaced by", RelSupersededBy},
	// The same in the languages of the status vocabulary (D97).
	{"reemplazado por", RelSupersededBy},
	{"reemplazada por", RelSupersededBy},
	{"sustituido por", RelSupersededBy},
	{"substituído por", RelSupersededBy},
	{"substituída por", RelSupersededBy},
	{"remplacé par", RelSupersededBy},
	{"remplacée par", RelSupersededBy},
	{"ersetzt durch", RelSupersededBy},
	{"abgelöst durch", RelSupersededBy},
	{"sostituito da", RelSupersededBy},
	{"sostituita da", RelSupersededBy},
	// Chinese, Japanese, Korean: one word, the link after it ("已被替代为
	// [ADR-0005](…)"); accept writes these where the record's status words
	// are in those languages.
	{"被替代为", RelSupersededBy},
	{"被取代为", RelSupersededBy},
	{"置き換え先", RelSupersededBy},
	{"대체 문서", RelSupersededBy},
	{"supersedes", RelSupersedes},
	{"supercedes", RelSupersedes},
	{"replaces", RelSupersedes},
	{"amended by", RelAmendedBy},
	{"amends", RelAmends},
	{"clarified by", RelClarifiedBy},
	{"clarifies", RelClarifies},
}

// redirectRE is a sentence saying a document moved, in the languages of
// the status vocabulary (D97).
var redirectRE = lazyRE(`(?i)\b(?:was moved|has moved|has been moved|moved to|now lives|redirect(?:s|ed)? to|verschoben|umgezogen|se ha movido|movido a|a été déplacé|déplacé vers|è stato spostato|spostato in)\b|已移动|已迁移|移動しました|移動済み|이동했습니다|이동됨`)

// RedirectStub reports a file that only says where its document moved
// (D96): its text after any front matter is one short paragraph, no
// heading, with a link or address and a sentence saying it moved ("This
// file was moved to https://…/erc-190.md"). It is not a record.
func RedirectStub(src []byte) bool {
	body := string(src)
	if bytes.HasPrefix(src, []byte("---\n")) {
		if i := strings.Index(body[4:], "\n---\n"); i >= 0 {
			body = body[4+i+5:]
		}
	}
	body = strings.TrimSpace(body)
	if body == "" || len(body) > 300 || strings.Contains(body, "\n\n") || strings.Contains(body, "\n#") || strings.HasPrefix(body, "#") {
		return false
	}
	return (strings.Contains(body, "://") || strings.Contains(body, "](")) && redirectRE().MatchString(body)
}

// SupersededByPhrase is the phrase for "superseded by" that starts with
// one of words, a language's words for superseded (D97): "ersetzt durch"
// for ersetzt; "" when relationVerbs has none, so what accept writes is
// what check reads back.
func SupersededByPhrase(words []string) string {
	for _, r := range relationVerbs {
		first, _, _ := strings.Cut(r.words, " ")
		if r.verb == RelSupersededBy && slices.ContainsFunc(words, func(w string) bool {
			// A word of a language written without spaces starts the
			// phrase (被替代 in 被替代为, 置き換え in 置き換え先).
			return w == first || w != "" && w[0] >= 0x80 && strings.HasPrefix(r.words, w)
		}) {
			return r.words
		}
	}
	return ""
}

// RelationWords lists the phrases records may use for a relation, as
// relationVerbs reads them (the adoption guide lists the same, and a test
// keeps the two equal).
func RelationWords() []string {
	out := make([]string, len(relationVerbs))
	for i, r := range relationVerbs {
		out[i] = r.words
	}
	return out
}

// Inverse returns the verb the other record of a relation would write.
func Inverse(verb string) string {
	switch verb {
	case RelSupersedes:
		return RelSupersededBy
	case RelSupersededBy:
		return RelSupersedes
	case RelPartlySupersedes:
		return RelPartlySupersededBy
	case RelPartlySupersededBy:
		return RelPartlySupersedes
	case RelAmends:
		return RelAmendedBy
	case RelAmendedBy:
		return RelAmends
	case RelClarifies:
		return RelClarifiedBy
	case RelClarifiedBy:
		return RelClarifies
	}
	return ""
}

// RecordLink is one relation an adopted record states, before the check
// resolves its target to a decision id: a Markdown link to another record
// (Target, a repository-relative path) or a bare "ADR-0123" (Number; -1
// when the record names no number).
type RecordLink struct {
	Verb   string
	Target string
	Number int
	// Text is what the record wrote, for messages.
	Text string
	Pos  token.Position
}

// Relation is a resolved relation between two decisions that is not whole
// supersession: amends, clarifies, partly supersedes, and their inverses.
type Relation struct {
	Verb string
	Ref  Ref
	// Inferred is set when only the other record states it.
	Inferred bool
}

var (
	numberedTitle = lazyRE(`^(?:(?i:(?:[a-z]+[- ])*(?:ADR|RFC|KEP)(?:[- #]?[0-9]+[a-z]?\s*[.:：–—-]?|\s*[.:：–—]))|[A-Z][A-Za-z]{1,5}[- #][0-9]+[a-z]?\s*[.:：–—-]|[0-9]+[a-z]?(?:\s*[.:：．、–—]|\s+-|\s))\s*`)
	statusLineRE  = lazyRE(`(?i)^\s*(?:[*+-]\s+)?(?:\*\*|__|\*|_)?(` + statusKeyAlt() + `)(?:\*\*|__|\*|_)?\s*[:：]\s*(?:\*\*|__|\*|_)?\s*(.*)$`)
	tableCellRE   = lazyRE(`^\s*\|`)
	tableSepRE    = lazyRE(`^\s*\|?\s*:?-{2,}`)
	mdLinkRE      = lazyRE(`\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*<?([^()<>\s]+)>?(?:\s+"[^"]*")?\s*\)`)
	blobPathRE    = lazyRE(`^https?://[^/]+/[^/]+/[^/]+/(?:blob|tree)/[^/]+/([^?#]+)$`)
	recordNameRE  = lazyRE(`^[0-9]{1,9}[-_][^\s/]+$`)
	paddedRefRE   = lazyRE("(?:^|[\\s\x60(])(0[0-9]{2,8})(?:$|[\\s\x60).,;])")
	bareRefRE     = lazyRE(`(?i)\b(?:ADR|RFC|DR)[- #]?([0-9]{1,9})\b`)
	commentRE     = lazyRE(`(?s)<!--.*?-->`)
	dateRE        = lazyRE(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)
)

// ParseAdopted reads an existing decision record in place, in the dialect
// its tool wrote:
//
//   - MADR 3/4: YAML front matter with status, date, deciders or
//     decision-makers, consulted, informed; no id (the register row that
//     links the file gives it one).
//   - MADR 2 and log4brains: "* Status: accepted" / "- Status: draft" lines
//     under the title, and a "## Links" section.
//   - Nygard / adr-tools: a "## Status" section whose first paragraph is
//     the status and whose other lines are links: "Superceded by [2. X](0002-x.md)",
//     "Supercedes", "Amends", "Amended by", "Clarifies", "Clarified by".
//
// The status word is mapped to one of Statuses with statuses (lower-case
// word or phrase to status; see config); a word that is not in it is kept
// as written, so the check reports it instead of guessing. Links are kept
// unresolved in Links; the check maps them to decision ids through the
// register. The record's text is never changed.
func ParseAdopted(p string, src []byte, statuses map[string]string) *Decision {
	d := &Decision{Path: p, Adopted: true, Keys: map[string]token.Position{}}
	top := token.Position{Filename: p, Line: 1, Column: 1}
	src, f, ok := checkSource(p, src)
	if !ok {
		d.Findings = append(d.Findings, f)
		return d
	}
	ln := newLines(p, src)
	ctx := parser.NewContext()
	doc, release := parseMarkdown(src, ctx)
	defer release()
	d.Counted, d.HasCounted = countedIn(doc, ln, src), true
	fs := adoptedStatus{pos: top}
	if bytes.HasPrefix(src, []byte("---\n")) || bytes.HasPrefix(src, []byte("---\r\n")) {
		if !d.adoptedFrontMatter(ctx, src, ln, &fs) {
			return d
		}
	}
	d.Parsed = true
	d.readBody(doc, src, ln)
	d.Title = adoptedTitle(doc, src, fs.title, p)
	if fs.title != "" {
		d.BodyTitle = adoptedTitle(doc, src, "", p)
	}
	body := sections(doc, src, ln)
	st := body["status"]
	tstatus, tpos, trows, tok := tableStatus(src, ln)
	if fs.raw == "" {
		var found bool
		if st, found = d.bodyStatus(st, src, ln, statuses, &fs); !found && tok {
			fs.raw, fs.pos, d.StatusFrom = tstatus, tpos, "table"
			fs.links = append(fs.links, srcLine{tstatus, tpos})
		}
	}
	linkLines := fs.links
	linkLines = append(linkLines, trows...)
	linkLines = append(linkLines, relationLines(src, ln)...)
	linkLines = append(linkLines, st...)
	linkLines = append(linkLines, body["links"]...)
	d.Keys["status"] = fs.pos
	d.RawStatus = chosenOfChoices(strings.TrimSpace(commentRE().ReplaceAllString(fs.raw, "")))
	if k, ok := StatusValueAt(d.RawStatus); ok {
		// "* Status: **Status: Active Review (...)**": the key written twice.
		d.RawStatus = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(d.RawStatus[k:]), "*_"))
	}
	d.Placeholder = PlaceholderStatus(d.RawStatus)
	d.Redirect = RedirectStub(src)
	d.Status = adoptedStatusOf(d.RawStatus, statuses)
	d.Template = TemplateWhy(d, src)
	d.Index = IndexPage(p, src, d.RawStatus)
	d.addLinks(linkLines, path.Dir(p))
	return d
}

// adoptedStatus is what ParseAdopted has read of a record so far: its
// status as written and where, the title of its front matter, and the
// lines whose links relate it to other records.
type adoptedStatus struct {
	raw, title string
	pos        token.Position
	links      []srcLine
}

// adoptedFrontMatter reads a record's front matter: its key positions,
// its title, its relations and its status. It says false, with a
// finding, when the front matter is not YAML.
func (d *Decision) adoptedFrontMatter(ctx parser.Context, src []byte, ln *lines, fs *adoptedStatus) bool {
	fm, err := meta.TryGet(ctx)
	if err != nil {
		d.Findings = append(d.Findings, finding(fs.pos, ruleid.Markdown, "front matter is not valid YAML: %s", oneLine(err.Error())))
		return false
	}
	d.keyPositions(src, ln)
	for k, v := range fm {
		// title: or Title: (CIPs' capitalised keys; D97).
		if t, ok := v.(string); ok && strings.EqualFold(k, "title") && (k == "title" || fs.title == "") {
			fs.title = strings.TrimSpace(t)
		}
	}
	fs.links = append(fs.links, d.recordRefs(fm)...)
	d.readAdoptedFrontMatter(fm)
	key := frontMatterStatusKey(fm)
	if v, ok := fm[key]; ok && v != nil && key != "" {
		if s, ok := v.(string); ok {
			fs.raw = s
		} else {
			fs.raw = strings.TrimSpace(strings.Trim(strings.ReplaceAll(yamlString(v), "\n", " "), "[]"))
		}
		fs.pos = d.KeyPos(key)
		d.StatusFrom = "front matter"
		fs.links = append(fs.links, srcLine{fs.raw, fs.pos})
	}
	return true
}

// bodyStatus reads the status of a record whose front matter states
// none: from its Status section st, else its status line. It returns the
// Status section's lines that still relate it to other records, and
// whether either stated the status.
func (d *Decision) bodyStatus(st []srcLine, src []byte, ln *lines, statuses map[string]string, fs *adoptedStatus) ([]srcLine, bool) {
	if ls, _, ok := statusLine(src, ln); ok && len(st) > 0 {
		if _, known := MapStatus(ls, statuses); known {
			// "* **Status**: Partially stable in 1.5, see the Status
			// section": the line above the sections states it (D97).
			st = nil
		}
	}
	if len(st) == 0 {
		s, pos, ok := statusLine(src, ln)
		if ok {
			fs.raw, fs.pos, d.StatusFrom = s, pos, "line"
			fs.links = append(fs.links, srcLine{s, pos})
		}
		return st, ok
	}
	// The first line is the status, even when it is itself a link
	// line: adr-tools drops "Accepted" when a record is superseded.
	first := 0
	for first+1 < len(st) && choiceList(st[first].text, statuses) && leadingDateRE().MatchString(st[first+1].text) {
		first++ // "列表：提议/通过/完成/已弃用/已取代": the choices, not the status
	}
	fs.raw, fs.pos, d.StatusFrom = st[first].text, st[first].pos, "heading"
	// A history of dated status lines ("2017-11-22 提议",
	// "2017-11-25 完成"): the last one is the status now (D97).
	for i := first + 1; i < len(st) && leadingDateRE().MatchString(fs.raw) && leadingDateRE().MatchString(st[i].text); i++ {
		fs.raw, fs.pos = st[i].text, st[i].pos
	}
	return st, true
}

// adoptedStatusOf maps a record's status as written: to one of Statuses
// through statuses, statuses' unstated entry when it states none, else
// its words as written so the check reports them.
func adoptedStatusOf(raw string, statuses map[string]string) string {
	if st, ok := MapStatus(raw, statuses); ok {
		return st
	}
	if raw == "" {
		return statuses[Unstated]
	}
	return StatusWords(raw)
}

// addLinks adds the links of lines, each once, resolved against dir.
func (d *Decision) addLinks(lines []srcLine, dir string) {
	seen := map[string]bool{}
	for _, l := range lines {
		for _, rl := range recordLinks(l, dir) {
			key := rl.Verb + "\x00" + rl.Target + "\x00" + strconv.Itoa(rl.Number)
			if !seen[key] {
				seen[key] = true
				d.Links = append(d.Links, rl)
			}
		}
	}
}

// Unstated is the statuses: key for a record that states no status at all,
// as MADR's own 0000 record and MADR 2 records with the optional status
// line removed do.
const Unstated = "unstated"

type srcLine struct {
	text string
	pos  token.Position
}

// sections returns the non-empty lines of each level-2+ section whose
// heading is Status or Links (lower-cased), comments removed.
func sections(doc ast.Node, src []byte, ln *lines) map[string][]srcLine {
	out := map[string][]srcLine{}
	cur, level := "", 0
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok {
			t := strings.ToLower(strings.TrimSpace(commentRE().ReplaceAllString(string(headingText(h, src)), "")))
			if cur != "" && h.Level > level {
				continue
			}
			cur = ""
			switch {
			case h.Level > 1 && IsStatusHeading(t):
				cur, level = "status", h.Level
			case h.Level > 1 && t == "links":
				cur, level = t, h.Level
			}
			continue
		}
		if cur == "" {
			continue
		}
		// List items hold their text in child blocks; take every line of
		// every text block below n.
		_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering || c.Type() != ast.TypeBlock || c.Lines().Len() == 0 {
				return ast.WalkContinue, nil
			}
			for i := 0; i < c.Lines().Len(); i++ {
				seg := c.Lines().At(i)
				s := strings.TrimSpace(commentRE().ReplaceAllString(string(seg.Value(src)), ""))
				if s != "" {
					out[cur] = append(out[cur], srcLine{s, ln.pos(seg.Start)})
				}
			}
			return ast.WalkSkipChildren, nil
		})
	}
	return out
}

// preamble calls visit with each line above the first second-level
// heading, outside code fences, and the line's offset, until visit
// returns false: where a record states its status and relations.
func preamble(src []byte, visit func(line string, off int) bool) {
	off := 0
	fence := false
	for off < len(src) {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src) - off
		}
		line := strings.TrimRight(string(src[off:off+end]), "\r")
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = !fence
		}
		if !fence {
			if strings.HasPrefix(t, "## ") || !visit(line, off) {
				return
			}
		}
		off += end + 1
	}
}

// relationLines are the lines above the first second-level heading that
// open with a relation verb, after a list marker or emphasis: the
// "Supersedes [ADR-0005](0005-x.md)" a record states under its status line
// (MADR 2's bullet, a line after the title), as claimslint new writes it in
// the collection's dialect (D73).
func relationLines(src []byte, ln *lines) []srcLine {
	var out []srcLine
	preamble(src, func(line string, off int) bool {
		t := strings.TrimSpace(line)
		low := strings.ToLower(strings.TrimLeft(t, "-*+_ "))
		// Only a line that links a record: "**Supersedes**: None" and
		// bare numbers stay prose, as before.
		linked := mdLinkRE().MatchString(t) && strings.Contains(low, ".md")
		low = strings.ReplaceAll(low, "_", " ")
		for _, v := range relationVerbs {
			if linked && strings.HasPrefix(low, v.words) {
				out = append(out, srcLine{line, ln.pos(off)})
				break
			}
			// "superseded_by: 0007-obsidian-plugin-hosts-mcp": a key and
			// a record's own name, outside front matter.
			if rest, ok := strings.CutPrefix(low, v.words+":"); ok {
				if name := strings.TrimSpace(t[len(t)-len(rest):]); recordNameRE().MatchString(name) {
					target := name
					if !strings.HasSuffix(strings.ToLower(target), ".md") {
						target += ".md"
					}
					out = append(out, srcLine{v.words + " [" + name + "](" + target + ")", ln.pos(off)})
					break
				}
			}
		}
		return true
	})
	return out
}

// statusLine finds a "Status: ..." line (MADR 2, log4brains) above the first
// second-level heading.
func statusLine(src []byte, ln *lines) (status string, pos token.Position, ok bool) {
	preamble(src, func(line string, off int) bool {
		if m := statusLineRE().FindStringSubmatch(line); m != nil {
			status, pos, ok = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(m[2]), "*_")), ln.pos(off), true
			return false
		}
		return true
	})
	return status, pos, ok
}

// recordLinks reads the relations one line states. A verb applies to the
// links after it, up to the next verb: "Supersedes [a](a.md), [b](b.md)".
func recordLinks(l srcLine, dir string) []RecordLink {
	low := strings.ToLower(l.text)
	type at struct {
		off  int
		verb string
		n    int
	}
	var verbs []at
	for i := 0; i < len(low); i++ {
		if i > 0 && isWordByte(low[i-1]) {
			continue
		}
		for _, v := range relationVerbs {
			if strings.HasPrefix(low[i:], v.words) && (i+len(v.words) == len(low) || !isWordByte(low[i+len(v.words)])) {
				verbs = append(verbs, at{i, v.verb, len(v.words)})
				i += len(v.words) - 1
				break
			}
		}
	}
	var out []RecordLink
	for k, v := range verbs {
		end := len(l.text)
		if k+1 < len(verbs) {
			end = verbs[k+1].off
		}
		seg := l.text[v.off+v.n : end]
		found := false
		for _, m := range mdLinkRE().FindAllStringSubmatchIndex(seg, -1) {
			dest := seg[m[4]:m[5]]
			if i := strings.IndexByte(dest, '#'); i >= 0 {
				dest = dest[:i]
			}
			target := path.Clean(path.Join(dir, dest))
			if strings.Contains(dest, "://") {
				// An absolute link to a file of a repository's tree
				// (".../blob/main/proposals/KEEP-0455-x.md") names the
				// record at that path (D97).
				sm := blobPathRE().FindStringSubmatch(dest)
				if sm == nil {
					continue
				}
				target = path.Clean(sm[1])
			}
			if !strings.HasSuffix(strings.ToLower(dest), ".md") {
				continue
			}
			found = true
			out = append(out, RecordLink{Verb: v.verb, Target: target, Number: -1, Text: strings.TrimSpace(seg[m[0]:m[1]]), Pos: l.pos})
		}
		if found {
			continue
		}
		refs := bareRefRE().FindAllStringSubmatch(mdLinkRE().ReplaceAllString(seg, " "), -1)
		if len(refs) == 0 {
			// A zero-padded number names a record ("reemplazado por
			// `0005`"): a quantity is not written with leading zeros.
			refs = paddedRefRE().FindAllStringSubmatch(mdLinkRE().ReplaceAllString(seg, " "), -1)
		}
		for _, m := range refs {
			n, err := strconv.Atoi(m[1])
			if err != nil {
				continue
			}
			found = true
			out = append(out, RecordLink{Verb: v.verb, Number: n, Text: m[0], Pos: l.pos})
		}
		if !found {
			out = append(out, RecordLink{Verb: v.verb, Number: -1, Text: strings.TrimSpace(seg), Pos: l.pos})
		}
	}
	return out
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// StatusWords returns the status phrase of a raw status: Markdown links,
// brackets, emphasis and anything from the first relation verb or
// punctuation on removed, lower case, single spaces. "Superseded by
// [ADR-0005](0005-x.md)" gives "superseded"; "**On hold** (2020)" gives "on hold".
func StatusWords(raw string) string {
	s := leadingDateRE().ReplaceAllString(strings.TrimSpace(linkText(raw)), "")
	s = strings.ToLower(stripDecorations(s))
	s = s[:phraseEnd(s)]
	s = strings.Map(func(r rune) rune {
		switch r {
		case '*', '_', '`', '~', '"', '\'', ']', ')', '}':
			return ' '
		}
		return r
	}, s)
	words := strings.Fields(s)
	for i, w := range words {
		if w == "by" {
			words = words[:i]
			break
		}
	}
	return strings.Join(words, " ")
}

// MapStatus maps a raw status to one of Statuses: the five themselves, or
// the longest leading phrase of it found in vocab. ok is false for a status
// that is not understood (the caller keeps it as written and reports it).
func MapStatus(raw string, vocab map[string]string) (string, bool) {
	words := strings.Fields(StatusWords(raw))
	if len(words) == 1 && strings.Contains(words[0], "-") {
		words = strings.Split(words[0], "-") // "ready-for-release" (D97)
	}
	for i := len(words); i > 0; i-- {
		w := strings.Join(words[:i], " ")
		if ValidStatus(w) {
			return w, true
		}
		if st, ok := vocab[w]; ok && ValidStatus(st) {
			return st, true
		}
	}
	return "", false
}

// readAdoptedFrontMatter reads the keys claimslint uses from an adopted
// record's front matter: id (optional), supersedes/superseded-by when the
// record was written by claimslint new, tracker, residuals, claims. MADR's
// date, deciders, decision-makers, consulted and informed are the team's
// and are left alone.
func (d *Decision) readAdoptedFrontMatter(fm map[string]any) {
	if v, ok := fm["id"]; ok && v != nil {
		if s, ok := v.(string); ok {
			d.ID = strings.TrimSpace(s)
			if !decisionid.Valid(d.ID) {
				d.Findings = append(d.Findings, finding(d.KeyPos("id"), ruleid.Register, "front matter id %q is not a decision id D<n>", d.ID))
				d.ID = ""
			}
		}
	}
	if v, ok := fm["date"]; ok && v != nil {
		if s, ok := v.(string); ok && dateRE().MatchString(strings.TrimSpace(s)) {
			d.Date = strings.TrimSpace(s)
		}
	}
	sub := &Decision{Path: d.Path, Keys: d.Keys}
	sub.readRefs(fm)
	d.Supersedes, d.SupersededBy = sub.Supersedes, sub.SupersededBy
	d.Tracker, d.Residuals, d.ClaimsNone = sub.Tracker, sub.Residuals, sub.ClaimsNone
	d.Findings = append(d.Findings, sub.Findings...)
}

func yamlString(v any) string {
	switch v := v.(type) {
	case []any:
		var parts []string
		for _, e := range v {
			parts = append(parts, yamlString(e))
		}
		return strings.Join(parts, " ")
	case map[any]any:
		var parts []string
		for k, e := range v {
			parts = append(parts, yamlString(k)+" "+yamlString(e))
		}
		return strings.Join(parts, " ")
	case nil:
		return ""
	}
	return strings.TrimSpace(strings.ReplaceAll(fmt.Sprint(v), "\n", " "))
}

// sectionTitles are headings that templates use for sections, never a
// record's title: RFC, MADR, Nygard and KEP templates open with them. The
// set is built at first use, not by every process at start (D92).
var sectionTitles = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, t := range []string{"summary", "context", "decision", "status", "motivation", "context and problem statement",
		"decision outcome", "consequences", "considered options", "decision drivers", "pros and cons of the options",
		"links", "detailed design", "design", "drawbacks", "alternatives", "rationale and alternatives", "unresolved questions",
		"prior art", "future possibilities", "guide-level explanation", "reference-level explanation", "changelog",
		"change log", "abstract", "background", "problem statement", "problem", "overview", "goals", "non-goals",
		"proposal", "table of contents", "introduction", "more information", "confirmation", "release signoff checklist",
		"metadata", "decision makers", "deciders", "about", "tl;dr", "how we teach this", "implementation", "references"} {
		out[t] = true
	}
	return out
})

// IsSectionTitle reports whether a heading is a template's section name.
func IsSectionTitle(t string) bool {
	return sectionTitles()[strings.Trim(strings.ToLower(strings.TrimSpace(t)), ":")]
}

// adoptedTitle is a record's title (D72): front matter title:, then the
// first level-1 heading that is not a template's section name (numbering
// such as "ADR 001:" or "0021 –" removed), then the file's name (its
// folder's for README.md or index.md).
func adoptedTitle(doc ast.Node, src []byte, fmTitle, p string) string {
	if fmTitle != "" {
		return fmTitle
	}
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.Heading)
		if !ok || h.Level != 1 {
			continue
		}
		t := strings.TrimSpace(commentRE().ReplaceAllString(string(headingText(h, src)), ""))
		if IsSectionTitle(strings.Trim(t, "*_ ")) {
			// The record's sections are its level-1 headings ("#
			// **Summary**", "# Background and Motivation"): none is its
			// title, and its name says it (D97).
			break
		}
		if t == "" {
			continue
		}
		if s := untitled(t); s != "" && !IsSectionTitle(s) {
			return s
		}
	}
	name := strings.TrimSuffix(nameOf(p), ".md")
	name = untitled(strings.NewReplacer("-", " ", "_", " ").Replace(name))
	if name == "" {
		name = strings.TrimSuffix(path.Base(p), ".md")
	}
	return name
}

// tableStatus reads a metadata table's status: a row "| Status | Draft |"
// or a column headed Status, whichever comes first outside code fences.
// rows are the table lines whose first cell is a relation ("| Superseded
// by: | [x](x.md) |"), read as link lines.
func tableStatus(src []byte, ln *lines) (string, token.Position, []srcLine, bool) {
	var status string
	var pos token.Position
	found := false
	var rows []srcLine
	var lineText []string
	var offs []int
	off := 0
	for off < len(src) && len(lineText) < 100000 {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src) - off
		}
		lineText = append(lineText, strings.TrimRight(string(src[off:off+end]), "\r"))
		offs = append(offs, off)
		off += end + 1
	}
	fence := false
	for i, l := range lineText {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = !fence
		}
		if fence || !tableCellRE().MatchString(l) {
			continue
		}
		cells := splitCells(l)
		if len(cells) == 0 {
			continue
		}
		first := strings.ToLower(strings.Trim(strings.TrimSpace(cells[0]), "*_: "))
		value := strings.TrimSpace(strings.Join(cells[1:], " "))
		for _, v := range relationVerbs {
			if strings.HasPrefix(first, v.words) && !noValue(value) {
				rows = append(rows, srcLine{first + " " + value, ln.pos(offs[i])})
				break
			}
		}
		if found {
			continue
		}
		header := i+1 < len(lineText) && tableSepRE().MatchString(lineText[i+1]) && !tableSepRE().MatchString(l)
		for c, cell := range cells {
			name := strings.ToLower(strings.Trim(strings.TrimSpace(cell), "*_: "))
			if !IsStatusKey(name) {
				continue
			}
			switch {
			case header && i+2 < len(lineText) && tableCellRE().MatchString(lineText[i+2]):
				vals := splitCells(lineText[i+2])
				if c < len(vals) {
					status, pos, found = strings.TrimSpace(vals[c]), ln.pos(offs[i+2]), true
				}
			case !header && c == 0 && len(cells) > 1:
				status, pos, found = strings.TrimSpace(cells[1]), ln.pos(offs[i]), true
			}
			break
		}
	}
	return status, pos, rows, found && status != ""
}

// noValue reports a metadata cell that says there is nothing: "| Superseded
// by: | N/A |", none, a dash, or empty.
func noValue(v string) bool {
	switch strings.ToLower(strings.Trim(v, " *_.")) {
	case "", "n/a", "na", "none", "-", "—", "–", "tbd", "nothing":
		return true
	}
	return false
}

func splitCells(l string) []string {
	t := strings.TrimSpace(l)
	t = strings.TrimPrefix(t, "|")
	t = strings.TrimSuffix(t, "|")
	return strings.Split(t, "|")
}

// recordRefs reads the supersession keys of an adopted record's front
// matter that name records, not decisions ("supersedes:
// 0006-deletion-retention", "superseded_by: \"0016-x.md\""), as link lines,
// and removes them so they are not read as decision references.
func (d *Decision) recordRefs(fm map[string]any) []srcLine {
	var out []srcLine
	for key, verb := range map[string]string{"supersedes": "supersedes", "superseded-by": "superseded by", "superseded_by": "superseded by", "supersededby": "superseded by"} {
		v, ok := fm[key]
		if !ok || v == nil {
			continue
		}
		var vals []string
		switch v := v.(type) {
		case string:
			vals = []string{v}
		case []any:
			for _, e := range v {
				if s, ok := e.(string); ok {
					vals = append(vals, s)
				}
			}
		}
		var links []string
		for _, s := range vals {
			s = strings.TrimSpace(s)
			if s == "" || refLike(s) {
				continue
			}
			target := s
			if !strings.HasSuffix(strings.ToLower(target), ".md") {
				target += ".md"
			}
			links = append(links, "["+s+"]("+target+")")
		}
		if len(links) == 0 {
			continue
		}
		if len(links) == len(vals) {
			delete(fm, key)
		}
		out = append(out, srcLine{verb + " " + strings.Join(links, ", "), d.KeyPos(strings.ReplaceAll(key, "_", "-"))})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].text < out[j].text })
	return out
}

var refLikeRE = lazyRE(`^` + decisionid.Pattern + `(\([^)]*\))?$`)

func refLike(s string) bool { return refLikeRE().MatchString(s) }

// frontMatterStatusKey is the front matter key that holds the record's
// status: the first of StatusKeys present, in any case ("Status:" in
// CIPs, "stage:" in emberjs' RFCs; D97); "" when none is.
func frontMatterStatusKey(fm map[string]any) string {
	for _, want := range StatusKeys {
		for k := range fm {
			if strings.EqualFold(k, want) {
				return k
			}
		}
	}
	return ""
}

// statusKeyAlt is StatusKeys as a regular expression alternation.
func statusKeyAlt() string {
	q := make([]string, len(lineKeys))
	for i, k := range lineKeys {
		q[i] = regexp.QuoteMeta(k)
	}
	return strings.Join(q, "|")
}

// linkText replaces each Markdown link by its text: a status written as a
// link, "[Declined](https://...)", is the word Declined (D97).
func linkText(raw string) string {
	return mdLinkRE().ReplaceAllStringFunc(raw, func(m string) string {
		sm := mdLinkRE().FindStringSubmatch(m)
		return " " + sm[1] + " "
	})
}

// phraseEnd is where a status phrase ends: at a bracket, comma,
// semicolon, colon, question or exclamation mark, a bar, a line break, or
// a dot that ends a sentence; never at a dot inside a number, so "Stable in
// 1.1" stays whole (D97).
func phraseEnd(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{', ',', ';', ':', '!', '?', '|', '<', '\n':
			return i
		case '.':
			if i > 0 && i+1 < len(s) && isDigit(s[i-1]) && isDigit(s[i+1]) {
				continue
			}
			return i
		}
	}
	return len(s)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// leadingDateRE is a date that opens a status line of a history.
var leadingDateRE = lazyRE(`^[0-9]{4}[-/.][0-9]{1,2}[-/.][0-9]{1,2}\s+`)

// chosenOfChoices is the status a record chose from its template's list
// of choices by emphasis: "Vorgeschlagen | **Akzeptiert** | Abgelehnt"
// is Akzeptiert (D97). Any other status is returned as it is.
func chosenOfChoices(raw string) string {
	if !strings.Contains(raw, "|") {
		return raw
	}
	chosen := ""
	for _, part := range strings.Split(raw, "|") {
		part = strings.TrimSpace(part)
		if strings.ContainsAny(part, ":：[]()") || part == "" {
			return raw // a field of a line, not a choice
		}
		if m := boldRE().FindStringSubmatch(part); m != nil {
			if chosen != "" {
				return raw
			}
			chosen = strings.TrimSpace(m[1])
		}
	}
	if chosen == "" {
		return raw
	}
	return chosen
}

var boldRE = lazyRE(`^\*\*([^*]+)\*\*$`)

// untitled removes a title's numbering ("ADR-001:", "SE-0001:", "0021 –",
// "2.") and the separators after it by their Unicode class: dashes,
// colons and full stops of any width ("：", "—"), never a digit run that
// belongs to the title ("128-bit Integer Types"; D97).
func untitled(t string) string {
	s := numberedTitle().ReplaceAllString(strings.TrimSpace(t), "")
	return strings.TrimSpace(strings.TrimLeftFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.Is(unicode.Pd, r) || strings.ContainsRune(":：.．。、,，;；", r)
	}))
}

// StatusValueAt returns where the value of a "Status: value" line starts
// (after the key, its colon of any width and any emphasis), as the
// parser reads the line; ok is false for a line that states no status.
func StatusValueAt(line string) (int, bool) {
	m := statusLineRE().FindStringSubmatchIndex(strings.TrimRight(line, "\r\n"))
	if m == nil {
		return 0, false
	}
	return m[4], true
}

// choiceList reports whether a line of a status section lists the
// choices ("提议/通过/完成", "Proposed | Accepted") rather than stating one:
// two or more words of the vocabulary or the five statuses, separated by
// slashes or bars.
func choiceList(line string, vocab map[string]string) bool {
	n := 0
	for _, part := range strings.FieldsFunc(linkText(line), func(r rune) bool { return r == '/' || r == '|' || r == '：' || r == ':' }) {
		w := StatusWords(part)
		if _, ok := vocab[w]; ok || ValidStatus(w) {
			n++
		}
	}
	return n >= 2
}

// SharedTitles reads from their headings the titles of the records whose
// front matter title: is shared with another record ("title: Décision
// (MADR)" in three records of one collection: a generator's page label,
// not a title; D97).
func SharedTitles(ds []*Decision) {
	n := map[string]int{}
	for _, d := range ds {
		if d.BodyTitle != "" {
			n[d.Title]++
		}
	}
	for _, d := range ds {
		if d.BodyTitle != "" && n[d.Title] > 1 {
			d.Title = d.BodyTitle
		}
	}
}

package register

import (
	"path"
	"strings"
)

// Templates and indexes are recognised by what they hold, not by their
// names (D97): a file is a template when its status is a list of
// choices or its title is a placeholder ("[short title]", "{{TITLE}}",
// "# Title", "ADR ###"). Its name only breaks a tie: a file named nothing
// but template (0000-adr-template.md, TEMPLATE.md, template/README.md)
// is a template also when a date field is a placeholder ("Date:
// YYYY-MM-DD", "20XX-XX-XX"), it is numbered zero, states no status or
// its title says template. A real record whose name holds the word
// (0278-template-only-components.md) is a record.

// titleWords are the word title in the languages of TemplateWords.
const titleWords = `(?:title|titre|titel|título|titolo|タイトル|标题|標題|제목)`

var (
	placeholderTitleRE = lazyRE(`(?i)(?:\[|\{|<)[^\]}>]*` + titleWords + `[^\]}>]*(?:\]|\}|>)|#{3}|\b(?:NNNN|XXXX|NNN|XXX)\b`)
	placeholderDateRE  = lazyRE(`(?mi)^[\s*_>|-]*(?:[a-z_ -]*date|created|datum|fecha|data|日期|日付|날짜)[\s*_]*[:：][^\n]*(?:yyyy|xx-xx|\binsert\b)`)
	templateWordRE     = lazyRE(`(?i)(?:^|[^\pL])(?:` + TemplateWords + `)(?:$|[^\pL])`)
	// templateNameRE is a name that says nothing but template: its words
	// are template words, ids and the kind of record.
	templateNameRE = lazyRE(`(?i)^(?:[0-9]+|adr|rfc|kep|cip|jep|pep|odh|rfd|madr|keep|proposal|decision|record|de|en|es|fr|it|pt|ja|ko|zh|` + TemplateWords + `)$`)
	titleOnlyRE    = lazyRE(`(?i)^\s*` + titleWords + `\s*$`)
	zeroNumberRE   = lazyRE(`(?:^|[^0-9])0+(?:[^0-9]|$)`)
)

// TemplateName reports whether rel's own name says template and nothing
// else: a hint that breaks a tie, never a reason on its own.
func TemplateName(rel string) bool {
	name := strings.TrimSuffix(strings.ToLower(nameOf(rel)), ".md")
	name = strings.TrimPrefix(name, "_")
	words := strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || r == ' ' || r == '.' })
	said := false
	for _, w := range words {
		if !templateNameRE().MatchString(w) {
			return false
		}
		said = said || templateWordRE().MatchString(w)
	}
	return said
}

// TemplateWhy says why the parsed file d, with text src, is a template
// and not a record, "" when it is a record (D97).
func TemplateWhy(d *Decision, src []byte) string {
	switch {
	case d.Placeholder:
		return "its status " + quoteShort(d.RawStatus) + " lists the choices"
	case placeholderTitleRE().MatchString(d.Title):
		return "its title " + quoteShort(d.Title) + " is a placeholder"
	}
	if !TemplateName(d.Path) {
		return ""
	}
	switch {
	case placeholderDateRE().Match(headOf(src)):
		// Records keep their template's date instruction in a comment
		// (Ember's "Start Date: Fill in ... YYYY-MM-DD"): a tie only.
		return "its name says template and its date is a placeholder"
	case d.RawStatus == "":
		return "its name says template and it states no status"
	case zeroNumberRE().MatchString(nameOf(d.Path)):
		return "its name says template and it is numbered zero"
	case titleOnlyRE().MatchString(d.Title):
		// "# Title": a record's author may leave it too (TiKV's 0049).
		return "its name says template and its title is " + quoteShort(d.Title)
	case templateWordRE().MatchString(d.Title):
		return "its name and its title say template"
	}
	return ""
}

// headOf is the part of a record where its fields are written.
func headOf(src []byte) []byte {
	const n = 4 << 10
	if len(src) > n {
		return src[:n]
	}
	return src
}

func quoteShort(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 60 {
		s = string(r[:60]) + "…"
	}
	return `"` + s + `"`
}

// indexLinkRE is a relative link to a Markdown file or a folder.
var indexLinkRE = lazyRE(`\]\(\s*<?([^)>\s#]+)`)

// IndexPage reports whether the file at p, with text src and no status
// of its own (raw), is its folder's index (D97): a README.md or index.md
// that links two or more records below its own folder (recordLink), not
// parts of its own record.
func IndexPage(p string, src []byte, raw string) bool {
	if b := strings.ToLower(path.Base(p)); (b != "readme.md" && b != "index.md") || strings.TrimSpace(raw) != "" {
		return false
	}
	seen := map[string]bool{}
	for _, m := range indexLinkRE().FindAllSubmatch(src, -1) {
		t := strings.TrimPrefix(string(m[1]), "./")
		if strings.Contains(t, "://") || strings.HasPrefix(t, "/") || strings.HasPrefix(t, "../") || strings.HasPrefix(t, "mailto:") {
			continue
		}
		if (strings.HasSuffix(strings.ToLower(t), ".md") || strings.HasSuffix(t, "/")) && recordLink(t) {
			seen[path.Clean(t)] = true
		}
	}
	return len(seen) >= 2
}

// recordLink reports a link an index makes to a record: to a folder
// below (slug/README.md, slug/) or to a file named as records are, by a
// number or a date (0001-x.md). A file of its own folder named otherwise
// (usdskel.md, general.md) is a part of the record whose README links it,
// not a record (OpenUSD's multiple-animations, D97).
func recordLink(t string) bool {
	if strings.HasSuffix(t, "/") {
		return true // a folder
	}
	c := path.Clean(t)
	return strings.Contains(c, "/") || c[0] >= '0' && c[0] <= '9'
}

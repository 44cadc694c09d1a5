package register

import (
	"fmt"
	"go/token"
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Scheme describes one folder of an adopted collection, as an entry of
// adopt: in .claimslint.yml says it (D72): which files below Dir are
// records (Pattern), how a record's id follows from its name (IDs, Base),
// where its status lives (Status, Unstated) and how the next record is
// written (Template, Next; D73).
type Scheme struct {
	// Dir is the folder, repository-relative.
	Dir string `yaml:"dir"`
	// Pattern matches a record's path below Dir: a regular expression
	// (starting with ^) whose named groups num, suffix, date and status
	// give the record's number, letter suffix, date and status, or a glob
	// (*, **, ?, {a,b}) whose number is the first run of digits of the
	// record's name. Empty is PatternNumbered or PatternDated, whichever
	// matches.
	Pattern string `yaml:"pattern,omitempty"`
	// IDs is number (the decision id is Base plus the record's number) or
	// ordinal (ids in the records' order: dates, numbers, then names).
	IDs string `yaml:"ids,omitempty"`
	// Base is added to a record's number to give its id, so folders whose
	// numbers repeat keep unique ids.
	Base int `yaml:"base,omitempty"`
	// Status is file (front matter, Status section or line, bullet,
	// metadata table), or folder: the name of the record's first folder
	// below Dir, or the pattern's status group.
	Status string `yaml:"status,omitempty"`
	// Unstated is the status of a record that states none; empty makes
	// such a record a finding.
	Unstated string `yaml:"unstated,omitempty"`
	// Template is the collection's own template file, which new copies.
	Template string `yaml:"template,omitempty"`
	// Next is how new numbers a record: next (the next number of the
	// number space, the default) or zero (0000-slug.md, numbered when
	// merged, as RFC processes do).
	Next string `yaml:"next,omitempty"`
	// Folder is where new writes a record, below Dir; empty is Dir.
	Folder string `yaml:"folder,omitempty"`

	re   *regexp.Regexp
	glob bool
}

// Built-in patterns, tried in this order by init --adopt's detection. Each
// is written into adopt: as it stands here, so the setting says what it
// reads.
const (
	PatternDated      = `^(?P<date>(?:19|20)[0-9]{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12][0-9]|3[01]))-[^/]*[^/.][^/]*\.md$`
	PatternDatedDash  = `^(?P<date>(?:19|20)[0-9]{2}-(?:0[1-9]|1[0-2])(?:-(?:0?[1-9]|[12][0-9]|3[01]))?)[-_][^/]*[^/.][^/]*\.md$`
	PatternDatedUnder = `^(?P<date>(?:19|20)[0-9]{2}_(?:0[1-9]|1[0-2])_(?:0[1-9]|[12][0-9]|3[01]))[-_][^/]*[^/.][^/]*\.md$`
	PatternNumbered   = `^(?P<num>[0-9]{1,9})(?P<suffix>[a-z]?)-[^/]*[^/.][^/]*\.md$`
	PatternPrefixed   = `^(?:[A-Za-z][A-Za-z0-9]*-)+(?P<num>[0-9]{1,9})(?:(?P<suffix>[a-z]|-[A-Z])(?:[-_][^/]*)?|(?:[-_][^/]*)?)\.md$`
	// PatternDatedFolder is one folder per record named by its date
	// (2023-05-12-slug/README.md): a date, not a year number (D96).
	PatternDatedFolder = `^(?P<date>(?:19|20)[0-9]{2}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01]))[-_][^/]+/(?:README|index)\.md$`
	PatternNumFolder   = `^(?P<num>[0-9]{1,9})-[^/]+/(?:README|index|[0-9]{1,9}-[^/]+)\.md$`
	PatternSlugFolder  = `^[^/.][^/]*/(?:README|index)\.md$`
	// PatternNumFolderAny is a numbered folder whose one Markdown file
	// has a name of its own (jupyter's 08-notebook-diff/notebook-diff.md;
	// D96); FindRecords keeps one record a folder.
	PatternNumFolderAny = `^(?P<num>[0-9]{1,9})-[^/]+/[^/]+\.md$`
)

// BuiltinPatterns are the built-in patterns with the name init prints.
var BuiltinPatterns = []struct{ Name, Pattern string }{
	{"date-named (YYYYMMDD-title.md)", PatternDated},
	{"date-named (YYYY-MM-DD-title.md)", PatternDatedDash},
	{"date-named (YYYY_MM_DD_title.md)", PatternDatedUnder},
	{"numbered (NNNN-title.md)", PatternNumbered},
	{"prefixed numbers (ADR-NNNN-title.md)", PatternPrefixed},
	{"one folder per record (YYYY-MM-DD-title/README.md)", PatternDatedFolder},
	{"one folder per record (NNNN-title/README.md)", PatternNumFolder},
	{"one folder per record (title/README.md)", PatternSlugFolder},
	{"one folder per record (NN-title/title.md)", PatternNumFolderAny},
}

// MaxPattern bounds a configured pattern's length.
const MaxPattern = 1000

// Compile checks the scheme and compiles its pattern. Errors name the
// setting.
func (s *Scheme) Compile() error {
	if s.Dir == "" {
		return fmt.Errorf("dir: must not be empty")
	}
	switch s.IDs {
	case "", "number", "ordinal":
	default:
		return fmt.Errorf("ids %q: want number or ordinal", s.IDs)
	}
	switch s.Status {
	case "", "file", "folder":
	default:
		return fmt.Errorf("status %q: want file or folder", s.Status)
	}
	switch s.Next {
	case "", "next", "zero":
	default:
		return fmt.Errorf("next %q: want next or zero", s.Next)
	}
	if s.Unstated != "" && !ValidStatus(s.Unstated) {
		return fmt.Errorf("unstated %q: want one of %s", s.Unstated, strings.Join(Statuses, ", "))
	}
	if s.Base < 0 || s.Base > 1e9 {
		return fmt.Errorf("base %d: want a number from 0 to 1000000000", s.Base)
	}
	if len(s.Pattern) > MaxPattern {
		return fmt.Errorf("pattern: longer than %d characters", MaxPattern)
	}
	if s.Pattern == "" {
		return nil
	}
	re, glob, err := compilePattern(s.Pattern)
	if err != nil {
		return fmt.Errorf("pattern %q: %w", s.Pattern, err)
	}
	s.re, s.glob = re, glob
	return nil
}

func compilePattern(p string) (*regexp.Regexp, bool, error) {
	if strings.HasPrefix(p, "^") {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, false, fmt.Errorf("not a regular expression (Go RE2)")
		}
		for _, n := range re.SubexpNames() {
			switch n {
			case "", "num", "suffix", "date", "status":
			default:
				return nil, false, fmt.Errorf("group %q: name groups num, suffix, date or status", n)
			}
		}
		return re, false, nil
	}
	var b strings.Builder
	b.WriteString("^")
	depth := 0
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '*' && i+1 < len(p) && p[i+1] == '*':
			i++
			if i+1 < len(p) && p[i+1] == '/' {
				i++
				b.WriteString(`(?:[^/]*/)*`)
			} else {
				b.WriteString(`.*`)
			}
		case c == '*':
			b.WriteString(`[^/]*`)
		case c == '?':
			b.WriteString(`[^/]`)
		case c == '{':
			depth++
			b.WriteString(`(?:`)
		case c == '}' && depth > 0:
			depth--
			b.WriteString(`)`)
		case c == ',' && depth > 0:
			b.WriteString(`|`)
		case c == '[' || c == ']' || c == '\\':
			return nil, false, fmt.Errorf("a glob here takes *, **, ?, {a,b}; write a regular expression starting with ^ for more")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	if depth != 0 {
		return nil, false, fmt.Errorf("unclosed { in the glob")
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, false, fmt.Errorf("not a glob: %v", err)
	}
	return re, true, nil
}

// Match reports whether rel, a path below the scheme's Dir, is a record,
// and what its name says. Names of templates, indexes and READMEs that are
// not the record of a folder never match (see SkipReason).
func (s *Scheme) Match(rel string) (RecordName, bool) {
	if s.re == nil && s.Pattern == "" {
		base := rel
		if strings.Contains(rel, "/") {
			return RecordName{}, false
		}
		if n, ok := matchRE(datedRE(), base, false); ok {
			return n, true
		}
		return matchRE(numberedRE(), base, false)
	}
	if s.re == nil {
		if err := s.Compile(); err != nil {
			return RecordName{}, false
		}
	}
	if SkipReason(rel) != "" {
		return RecordName{}, false
	}
	return matchRE(s.re, rel, s.glob)
}

var (
	numberedRE = lazyRE(PatternNumbered)
	datedRE    = lazyRE(PatternDated)
	digitsRE   = lazyRE(`[0-9]{1,9}`)
)

func matchRE(re *regexp.Regexp, rel string, glob bool) (RecordName, bool) {
	m := re.FindStringSubmatch(rel)
	if m == nil {
		return RecordName{}, false
	}
	n := RecordName{Number: -1, Path: rel}
	for i, name := range re.SubexpNames() {
		v := m[i]
		switch name {
		case "num":
			if v == "" {
				continue
			}
			k, err := strconv.Atoi(v)
			if err != nil {
				return RecordName{}, false
			}
			n.Number, n.Width = k, len(v)
		case "suffix":
			n.Suffix = v
		case "status":
			n.Status = v
		case "date":
			d, layout, ok := parseDate(v)
			if !ok {
				return RecordName{}, false
			}
			n.Date, n.DateLayout, n.Width = d, layout, 8
		}
	}
	if glob && n.Number < 0 {
		name := nameOf(rel)
		if loc := digitsRE().FindStringIndex(name); loc != nil {
			k, _ := strconv.Atoi(name[loc[0]:loc[1]])
			n.Number, n.Width = k, loc[1]-loc[0]
		}
	}
	return n, true
}

// nameOf is a record's own name: its file name, or its folder's for a
// folder-per-record README.md or index.md.
func nameOf(rel string) string {
	dir, base := path.Split(rel)
	if b := strings.ToLower(base); (b == "readme.md" || b == "index.md") && dir != "" {
		return path.Base(dir)
	}
	return base
}

// parseDate normalises a date of a record name to YYYYMMDD (00 for a
// missing day) and the Go layout that writes a date the same way.
func parseDate(v string) (string, string, bool) {
	if len(v) == 8 && !strings.ContainsAny(v, "-_") {
		return v, "20060102", true
	}
	sep := "-"
	if strings.Contains(v, "_") {
		sep = "_"
	}
	parts := strings.Split(v, sep)
	if len(parts) < 2 || len(parts) > 3 || len(parts[0]) != 4 || len(parts[1]) != 2 {
		return "", "", false
	}
	day, layout := "00", "2006"+sep+"01"
	if len(parts) == 3 {
		day = parts[2]
		if len(day) == 1 {
			day = "0" + day
			layout += sep + "2"
		} else {
			layout += sep + "02"
		}
	}
	return parts[0] + parts[1] + day, layout, true
}

// SkipReason says why a path below a collection's folder is not a record
// whatever its text: an index or README of the folder itself, a name
// starting with _ (_template.md) ("index"); "" for any other path. A
// template is known by its text, not its name (TemplateWhy, D97). A README.md or index.md inside a
// record's own folder is that record, not an index.
func SkipReason(rel string) string {
	low := strings.ToLower(rel)
	base := path.Base(low)
	switch base {
	case "readme.md", "index.md":
		if !strings.Contains(rel, "/") {
			return "index"
		}
	case "_readme.md", "summary.md", "changelog.md", "contributing.md", "log.md", "adr-log.md", "decision-log.md", "decisionlog.md":
		return "index"
	}
	if strings.HasPrefix(base, "_") {
		return "index"
	}
	return ""
}

// PlaceholderStatus reports whether a raw status is a template's list of
// choices ("[proposed | accepted | deprecated | ...]", "{proposed |
// rejected}", "[proposed, accepted, …]"), not a status: it names two or
// more of the five statuses separated by | or /, or it is bracketed and
// separated by | or /, or by commas between two or more of the five.
func PlaceholderStatus(raw string) bool {
	// A link is its text: "[Declined](https://…/462#…)" is a status, its
	// address no list of choices (KEEP's; D97).
	s := strings.ToLower(linkText(strings.ReplaceAll(raw, `\[`, "[")))
	n := 0
	for _, st := range Statuses {
		if strings.Contains(s, st) {
			n++
		}
	}
	if n >= 2 && strings.ContainsAny(s, "|/") {
		return true
	}
	t := strings.TrimSpace(s)
	bracketed := len(t) > 1 && (t[0] == '[' || t[0] == '{' || t[0] == '<')
	return bracketed && (strings.ContainsAny(t, "|/") || n >= 2 && strings.Contains(t, ","))
}

// Decorations are stripped from a status before the vocabulary reads it
// (D72): emoji, symbols, variation selectors.
func stripDecorations(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r < 0x80:
			return r
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			return r
		case r == '–' || r == '—':
			return ';' // a dash ends the status word, as a semicolon does
		case unicode.IsSpace(r):
			return ' '
		}
		return ' '
	}, s)
}

// CompareNames orders record names as ids are given: numbers, then
// dates, then suffixes, then paths.
func CompareNames(a, b RecordName) int {
	switch {
	case a.Date != b.Date:
		if a.Date == "" || b.Date == "" {
			if a.Date == "" {
				return -1 // numbers first, then dates
			}
			return 1
		}
		return strings.Compare(a.Date, b.Date)
	case a.Number != b.Number:
		return a.Number - b.Number
	case a.Suffix != b.Suffix:
		return strings.Compare(a.Suffix, b.Suffix)
	}
	return strings.Compare(a.Path, b.Path)
}

// Found is one record of an adopted collection: its path, the index of
// the scheme that reads it and what its name says.
type Found struct {
	Path   string
	Scheme int
	Name   RecordName
}

// Owner returns the index of the scheme whose folder holds f (the deepest
// when folders nest), and f's path below it; -1 when none does.
func Owner(f string, schemes []Scheme) (int, string) {
	best, rel := -1, ""
	for i, s := range schemes {
		d := strings.TrimSuffix(path.Clean(s.Dir), "/")
		r := ""
		switch {
		case d == ".":
			r = f
		case strings.HasPrefix(f, d+"/"):
			r = f[len(d)+1:]
		default:
			continue
		}
		if best < 0 || len(d) > len(path.Clean(schemes[best].Dir)) || path.Clean(schemes[best].Dir) == "." {
			best, rel = i, r
		}
	}
	return best, rel
}

// FindRecords lists the records among files (repository-relative, '/')
// that the schemes read, in the order of files.
func FindRecords(files []string, schemes []Scheme) []Found {
	var out []Found
	// A numbered folder holds one record under PatternNumFolderAny: its
	// first Markdown file by name.
	seen := map[string]bool{}
	indexed := map[string]bool{} // folders with an index.md
	for _, f := range files {
		if path.Base(f) == "index.md" {
			indexed[path.Dir(f)] = true
		}
	}
	for _, f := range files {
		i, rel := Owner(f, schemes)
		if i < 0 {
			continue
		}
		if n, ok := schemes[i].Match(rel); ok {
			if strings.EqualFold(path.Base(f), "README.md") && indexed[path.Dir(f)] {
				// One folder is one record: its README.md beside its
				// index.md (often a link to it) is not a second (D96).
				continue
			}
			if schemes[i].Pattern == PatternNumFolderAny {
				if d := path.Dir(f); seen[d] {
					continue
				} else {
					seen[d] = true
				}
			}
			out = append(out, Found{Path: f, Scheme: i, Name: n})
		}
	}
	return out
}

// Apply sets what the scheme says of a parsed record: its status from
// the folder when Status is folder, and Unstated for a record that states
// none (D72).
func (s *Scheme) Apply(d *Decision, n RecordName, statuses map[string]string) {
	if s.Status == "folder" {
		w := n.Status
		if w == "" {
			w = path.Base(s.Dir)
		}
		if s.Next == "zero" && n.Number == 0 && n.Date == "" && d.StatusFrom != "" && d.StatusFrom != "unstated" && ValidStatus(d.Status) {
			// 0000-title.md where records are numbered on merge is not
			// merged yet: the status it states holds, not its folder's
			// (npm's template writes status: proposed; D73).
			return
		}
		d.RawStatus, d.StatusFrom = w, "folder"
		if st, ok := MapStatus(w, statuses); ok {
			d.Status = st
		} else {
			d.Status = StatusWords(w)
		}
	}
	if d.RawStatus == "" && s.Unstated != "" {
		d.Status, d.StatusFrom = s.Unstated, "unstated"
	}
}

// SidecarFile is the metadata file beside a record that is a folder
// (NNNN-slug/README.md) where its process keeps the record's status: a
// Kubernetes KEP's kep.yaml (D96).
const SidecarFile = "kep.yaml"

// SidecarMax is the most of a sidecar file read.
const SidecarMax = 64 << 10

// Sidecar is the path of the sidecar file of the record at p, "" when p
// is no folder's README.md or index.md.
func Sidecar(p string) string {
	if b := strings.ToLower(path.Base(p)); b != "readme.md" && b != "index.md" {
		return ""
	}
	return path.Join(path.Dir(p), SidecarFile)
}

// ApplySidecar reads the status of a record from its sidecar file (at
// p, text src), where its process keeps it: its top-level status: line,
// mapped by statuses, over anything the record's text seems to say (a
// KEP's README.md has tables with a Status column), the finding's
// position in that file (D96). It reports whether the sidecar gave a
// status.
func ApplySidecar(d *Decision, p string, src []byte, statuses map[string]string) bool {
	for i, l := range strings.Split(string(src), "\n") {
		v, ok := strings.CutPrefix(strings.TrimRight(l, "\r"), "status:")
		if !ok {
			continue
		}
		v = strings.Trim(strings.TrimSpace(v), `'"`)
		if v == "" || strings.HasPrefix(v, "#") {
			return false
		}
		d.RawStatus, d.StatusFrom = v, "sidecar"
		d.Placeholder = PlaceholderStatus(v)
		d.Keys["status"] = token.Position{Filename: p, Line: i + 1, Column: 1}
		if st, ok := MapStatus(v, statuses); ok {
			d.Status = st
		} else {
			d.Status = StatusWords(v)
		}
		return true
	}
	return false
}

// TemplateWords are the names a template is given, in the languages of
// the status vocabulary (D96, D97): template, plantilla, gabarit,
// vorlage, modelo, modello, 模板, テンプレート, 템플릿.
const TemplateWords = `template|plantilla|gabarit|vorlage|modelo|modello|模板|テンプレート|템플릿`

package adopt

import (
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/plan"
	"github.com/claimslint/claimslint/internal/register"
)

// spelledLabel is supersedingLabel in the collection's id spelling
// (D96): where a record's name is a bare number (1020-kubectl-staging,
// 0000-better-why.md), the label is the prefix the collection writes
// before its numbers (KEP-1020, RFC-0000) in place of ADR-; old is the
// record whose text (src, read by read) tells the spelling.
func spelledLabel(read func(string) ([]byte, error), old *register.Decision, src []byte, file, title string) string {
	label := supersedingLabel(old, file, title)
	num, ok := strings.CutPrefix(label, "ADR-")
	if !ok || !leadingNumberRE().MatchString(recordName(file)) {
		return label
	}
	if p := idSpelling(read, old.Path, src); p != "" {
		return p + "-" + num
	}
	return label
}

// recordName is the name a record's number is in: its file's, or its
// folder's for one folder per record (NNNN-slug/README.md).
func recordName(file string) string {
	base := path.Base(file)
	if b := strings.ToLower(base); b == "readme.md" || b == "index.md" {
		return path.Base(path.Dir(file))
	}
	return base
}

var (
	// ownIDRE is a prefixed number as a record writes its own id:
	// "# KEP-1020: …", "* Proposal: [SE-0001]", "ADR 0028 –".
	ownIDRE = register.LazyRE(`\b([A-Z][A-Z0-9]{1,9})[- ]([0-9]{1,9})\b`)
	// pluralIDRE is the acronym a collection's README names its records
	// by in its title: "Yarn RFCs", "Enhancement Proposals (KEPs)".
	pluralIDRE = register.LazyRE(`\b([A-Z]{2,6})s\b`)
)

// idSpelling is the prefix the collection writes before a record's
// number: the prefix the record p's own text (src) writes before its own
// number, else the acronym the first heading of the nearest README above
// it names its records by (three folders up at most); "" when neither
// says.
func idSpelling(read func(string) ([]byte, error), p string, src []byte) string {
	own, err := strconv.Atoi(leadingNumberRE().FindString(recordName(p)))
	if err == nil && own > 0 {
		for _, m := range ownIDRE().FindAllSubmatch(src, 64) {
			if n, err := strconv.Atoi(string(m[2])); err == nil && n == own {
				return string(m[1])
			}
		}
	}
	dir := path.Dir(p)
	if recordName(p) != path.Base(p) {
		dir = path.Dir(dir) // the record's folder is its own
	}
	for range 3 {
		if b, err := read(path.Join(dir, "README.md")); err == nil {
			if m := pluralIDRE().FindStringSubmatch(firstH1(string(b))); m != nil {
				return m[1]
			}
			return "" // the nearest README does not say
		}
		if dir == "." || dir == "/" {
			break
		}
		dir = path.Dir(dir)
	}
	return ""
}

// firstH1 is the text of a Markdown file's first level-1 heading.
func firstH1(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if h, ok := strings.CutPrefix(strings.TrimRight(l, "\r"), "# "); ok {
			return h
		}
	}
	return ""
}

// supLabel is the superseded record's label as the collection writes it.
func (n *dialectNew) supLabel() string {
	read := func(p string) ([]byte, error) { return plan.ReadIn(n.dir, p) }
	src, _ := read(n.sup.Path)
	return spelledLabel(read, n.sup, src, n.sup.Path, n.sup.Title)
}

// fillEmptyKey writes v as the value of front matter key k where the
// front matter has the key with no value (an example record's
// supersedes:, emptied); ok is false where it has none.
func fillEmptyKey(t, k, v string) (string, bool) {
	fm, body := splitFM(t)
	if fm == "" {
		return t, false
	}
	re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(k) + `:[ \t]*$`)
	loc := re.FindStringIndex(fm)
	if loc == nil {
		return t, false
	}
	return fm[:loc[0]] + k + ": " + v + fm[loc[1]:] + body, true
}

// ownClassWord is the English word the collection's records write for
// the new record's status where none writes the status's own name (D96):
// of the world vocabulary's words for it, in its order (final before
// living; for proposed only a first stage, draft before review), the
// first a record writes (EIPs' Draft and Final); "" where a record writes
// the status's name, or none such a word.
func (n *dialectNew) ownClassWord() string {
	if n.col == nil {
		return ""
	}
	written := map[string]bool{}
	for _, r := range n.col.records {
		if r.d == nil || r.d.Status != n.status || r.d.StatusFrom == "folder" || r.d.StatusFrom == "unstated" {
			continue
		}
		w := register.StatusWords(r.d.RawStatus)
		if w == n.status {
			return ""
		}
		written[w] = true
	}
	for _, row := range config.WorldStatuses {
		if row.Lang != "en" || row.Status != n.status {
			continue
		}
		for _, x := range strings.Split(row.Words, ",") {
			x = strings.TrimSpace(x)
			if n.status == "proposed" && x == "review" {
				break // a later stage than a new record's
			}
			if written[x] {
				return x
			}
		}
	}
	return ""
}

// maxSiblingTemplates bounds the folders siblingTemplate reads.
const maxSiblingTemplates = 64

// siblingTemplate is the README of a folder beside the records' folder
// dir whose text says it is a template (a KEP's
// keps/NNNN-kep-template/README.md beside keps/sig-cli/: its title
// "KEP-NNNN: …" is a placeholder; D96), "" when none is.
func siblingTemplate(root, dir string) string {
	if dir == "." || dir == "" {
		return ""
	}
	parent := path.Dir(dir)
	es, err := plan.ReadDirIn(root, parent)
	if err != nil {
		return ""
	}
	read := 0
	for _, e := range es {
		if !e.IsDir() || path.Join(parent, e.Name()) == dir || read >= maxSiblingTemplates {
			continue
		}
		p := path.Join(parent, e.Name(), "README.md")
		src, err := plan.ReadIn(root, p)
		if err != nil {
			continue
		}
		read++
		if register.ParseAdopted(p, src, nil).Template != "" {
			return p
		}
	}
	return ""
}

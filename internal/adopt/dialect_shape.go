package adopt

import (
	"path"
	"strings"

	"github.com/claimslint/claimslint/internal/register"
)

// A record shaped on the collection's newest record where it has no
// template (D96) takes that record's fields in their order and spelling:
// its front matter keys or the metadata lines around its status line,
// each filled as the new record says it (status, title, date, authors,
// the id in the collection's spelling) or left empty for the writer; the
// example's own values (its reviewers, its links) are never copied.

// exampleNumber is the number a record's file or folder name carries
// ("0546" of 0546-memberwise-init-extensions.md), "" when none.
func exampleNumber(p string) string {
	base := path.Base(p)
	if b := strings.ToLower(base); b == "readme.md" || b == "index.md" {
		base = path.Base(path.Dir(p))
	}
	return digitsRE().FindString(base)
}

// sameNumber reports whether v is the number num, zero padding aside.
func sameNumber(v, num string) bool {
	return num != "" && strings.TrimLeft(strings.Trim(v, `'" `), "0") == strings.TrimLeft(num, "0") && strings.Trim(v, `'" `) != ""
}

var fmDatePartRE = register.LazyRE(`(?:19|20)[0-9]{2}-[0-9]{2}-[0-9]{2}`)

// exampleFrontMatter is the front matter of the new record in the keys of
// the example's (src, at path ex): its status key with the word w, its
// title, its dates, its authors, its id; every other key empty. It adds a
// status key when the example has none in front matter.
func (n *dialectNew) exampleFrontMatter(src, ex, w string) string {
	fm, _ := splitFM(src)
	if fm == "" {
		return ""
	}
	num := exampleNumber(ex)
	var b strings.Builder
	b.WriteString("---\n")
	status := false
	for _, l := range strings.Split(strings.TrimSuffix(fm[4:], "---\n"), "\n") {
		m := fmKeyRE().FindStringSubmatch(l)
		if m == nil {
			continue // nested values and comments are the example's own
		}
		k, v := m[1], strings.TrimSpace(m[2])
		switch {
		case register.IsStatusKey(k) && !status:
			status = true
			v = w
		case strings.EqualFold(k, "title"):
			v = yamlStr(n.title)
		case fmDatePartRE().MatchString(v):
			v = fmDatePartRE().ReplaceAllString(v, n.date.UTC().Format("2006-01-02"))
		case isAuthorKey(k):
			v = yamlStr(n.author)
		case sameNumber(v, num) && n.number() != "":
			v = strings.TrimLeft(n.number(), "0")
		default:
			v = ""
		}
		b.WriteString(strings.TrimRight(k+": "+v, " ") + "\n")
	}
	if !status {
		b.WriteString("status: " + w + "\n")
	}
	b.WriteString("---\n")
	return b.String()
}

// exampleFields is the block of field lines around the example's status
// line (line at, 1-based, of src) with the new record's values: the
// status line as statusLine, its authors, dates and id, every other
// value empty. ok is false when the status line stands alone.
func (n *dialectNew) exampleFields(src, ex string, at int, statusLine string) (string, bool) {
	lines := strings.Split(src, "\n")
	if at < 1 || at > len(lines) {
		return "", false
	}
	isField := func(i int) bool {
		return i >= 0 && i < len(lines) && fieldLineRE().MatchString(lines[i]) && !headingRE().MatchString(lines[i])
	}
	first, last := at-1, at-1
	for isField(first - 1) {
		first--
	}
	for isField(last + 1) {
		last++
	}
	if first == last {
		return "", false
	}
	num, own := exampleNumber(ex), n.number()
	var out []string
	for i := first; i <= last; i++ {
		if i == at-1 {
			out = append(out, statusLine)
			continue
		}
		out = append(out, n.exampleField(lines[i], num, own, ex))
	}
	return strings.Join(out, "\n"), true
}

// exampleField is one of the example's field lines with the new record's
// value: its authors, its date, its id (the example's number and file
// name replaced), else the key alone.
func (n *dialectNew) exampleField(l, num, own, ex string) string {
	m := fieldLineRE().FindStringSubmatch(l)
	key, v := strings.TrimRight(m[1], " \t"), m[3]
	switch {
	case isAuthorKey(m[2]):
		if n.author == "" {
			return key
		}
		return key + " " + n.author
	case fmDatePartRE().MatchString(v) && strings.TrimSpace(fmDatePartRE().ReplaceAllString(v, "")) == "":
		return key + " " + fmDatePartRE().ReplaceAllString(v, n.date.UTC().Format("2006-01-02"))
	case own != "" && num != "" && strings.Contains(v, num) && !strings.Contains(strings.ReplaceAll(v, path.Base(ex), ""), "/"):
		v = strings.ReplaceAll(v, path.Base(ex), path.Base(n.file))
		return key + " " + strings.ReplaceAll(v, num, padLike(own, num))
	}
	return key
}

// padLike writes the number own at the width of the example's number.
func padLike(own, example string) string {
	own = strings.TrimLeft(own, "0")
	for len(own) < len(example) {
		own = "0" + own
	}
	return own
}

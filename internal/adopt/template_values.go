package adopt

import (
	"strings"

	"github.com/claimslint/claimslint/internal/plan"
	"github.com/claimslint/claimslint/internal/register"
)

// A template's field whose value is prose telling the writer what to put
// there, neither bracketed nor a list of choices ("関連: Issue/PR/ドキュメン
// トへのリンク"), is known by the collection's records (D96): they write
// the key with values of their own, and none writes the template's. Such
// a value is left empty; a value a record writes too (a constant of the
// collection: "Type: Standards Track") is kept.

// fieldValueRecords is how many of a collection's newest records are read
// for the values they write.
const fieldValueRecords = 20

// fieldValues are the values the newest records of scheme t write for
// each key of their header's field lines, by lower-case key.
func (c *collection) fieldValues(root string, t int) map[string]map[string]bool {
	rs := c.newest(t, fieldValueRecords)
	out := map[string]map[string]bool{}
	for _, r := range rs {
		src, err := plan.ReadIn(root, r.path)
		if err != nil {
			continue
		}
		_, body := splitFM(strings.ReplaceAll(string(src), "\r\n", "\n"))
		for _, l := range headerLines(body) {
			m := fieldLineRE().FindStringSubmatch(l)
			if m == nil || strings.HasPrefix(l, "#") || strings.TrimSpace(m[3]) == "" {
				continue
			}
			k := fieldKey(m[2])
			if out[k] == nil {
				out[k] = map[string]bool{}
			}
			out[k][strings.TrimSpace(m[3])] = true
		}
	}
	return out
}

// headerLines are a record's lines up to its first section heading after
// its title.
func headerLines(body string) []string {
	var out []string
	titled := false
	for _, l := range strings.Split(body, "\n") {
		if strings.HasPrefix(l, "#") {
			if titled {
				break
			}
			titled = true
			continue
		}
		out = append(out, l)
	}
	return out
}

func fieldKey(k string) string {
	return strings.ToLower(strings.Trim(strings.TrimSpace(k), "*_:： "))
}

// proseValue reports a template field's value v (key k) that only tells
// the writer what to write: records write the key, with values of their
// own, and none writes v. A value holding what the new record says (its
// title, number, author or a date fillDates wrote) is the record's.
func (n *dialectNew) proseValue(k, v string) bool {
	v = strings.TrimSpace(v)
	seen := n.values[fieldKey(k)]
	if v == "" || len(seen) == 0 || seen[v] {
		return false
	}
	for _, own := range []string{n.title, n.number(), n.author} {
		if own != "" && strings.Contains(v, own) {
			return false
		}
	}
	return !filledDateRE().MatchString(v) // the record's date, in the template's layout
}

// filledDateRE is a date as fillDates writes it, in any layout
// (2026-12-01, 01/12/26).
var filledDateRE = register.LazyRE(`\b[0-9]{1,4}[-/.][0-9]{1,2}[-/.][0-9]{1,4}\b`)

// datePlaceholderRE is a date the template leaves for its writer where no
// date of the record goes ("**Review:** YYYY-MM-DD", set a year after the
// date), a space before it kept out.
var datePlaceholderRE = register.LazyRE(`[ \t]*\b(?:YYYY|XXXX|20XX)-(?:MM|XX)-(?:DD|XX)\b`)

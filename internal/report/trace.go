package report

import (
	"bytes"
	"html"
	"os/exec"
	"strconv"
	"strings"
	"unicode"

	"github.com/claimslint/claimslint/internal/register"
)

// headingRE is a heading as goldmark writes one: no attributes, the text
// (whose every '<' goldmark escaped) between its tags.
var headingRE = register.LazyRE(`(?s)<h([1-6])>(.*?)</h([1-6])>`)

var tagRE = register.LazyRE(`<[^>]*>`)

// reservedIDs are the ids every page of the site uses itself.
var reservedIDs = map[string]bool{"top": true, "main": true, "site-search": true, "sq": true, "search-results": true, "results-count": true, "results": true}

// slug is GitHub's id for a heading's text (github-slugger): lower case,
// every space a '-', every character but letters, marks, digits, '_' and
// '-' dropped; so an in-page link written on GitHub resolves on the site
// (D99).
func slug(text string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.M, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// headingIDs gives each heading of a decision's rendered text its GitHub
// id, made unique as GitHub does (-1, -2 for a repeat), each prefixed by
// prefix (the decision's key and a '-' in the single file, where every
// decision shares one page; nothing on its own page).
func headingIDs(body []byte, prefix string) []byte {
	seen := map[string]int{}
	return headingRE().ReplaceAllFunc(body, func(m []byte) []byte {
		sm := headingRE().FindSubmatch(m)
		if !bytes.Equal(sm[1], sm[3]) {
			return m
		}
		base := slug(html.UnescapeString(tagRE().ReplaceAllString(string(sm[2]), "")))
		id := base
		if n := seen[base]; n > 0 {
			id = base + "-" + strconv.Itoa(n)
		}
		seen[base]++
		if id == "" || (prefix == "" && reservedIDs[id]) {
			return m
		}
		return []byte("<h" + string(sm[1]) + ` id="` + html.EscapeString(prefix+id) + `">` + string(sm[2]) + "</h" + string(sm[1]) + ">")
	})
}

// decisionRefRE is a decision id as text names it: D and a number.
var decisionRefRE = register.LazyRE(`\bD[0-9]{1,6}\b`)

// linkDecisionRefs makes each D<n> in the text of a rendered decision a
// link to that decision's page, outside links and code; ids the
// register does not hold, and self, stay text (D99).
func linkDecisionRefs(body []byte, self string, href func(id string) string) []byte {
	var out bytes.Buffer
	out.Grow(len(body) + len(body)/16)
	inA, inCode := 0, 0
	for len(body) > 0 {
		lt := bytes.IndexByte(body, '<')
		text := body
		if lt >= 0 {
			text = body[:lt]
		}
		if inA == 0 && inCode == 0 && len(text) > 0 {
			out.Write(decisionRefRE().ReplaceAllFunc(text, func(id []byte) []byte {
				h := ""
				if string(id) != self {
					h = href(string(id))
				}
				if h == "" {
					return id
				}
				return []byte(`<a class="dref" href="` + html.EscapeString(h) + `">` + string(id) + `</a>`)
			}))
		} else {
			out.Write(text)
		}
		if lt < 0 {
			break
		}
		gt := bytes.IndexByte(body[lt:], '>')
		if gt < 0 {
			out.Write(body[lt:])
			break
		}
		tag := body[lt : lt+gt+1]
		name := strings.ToLower(strings.TrimLeft(strings.SplitN(strings.Trim(string(tag), "<>/"), " ", 2)[0], "/"))
		closing := bytes.HasPrefix(tag, []byte("</"))
		d := 1
		if closing {
			d = -1
		}
		switch {
		case name == "a":
			inA = max(0, inA+d)
		case name == "code" || name == "pre":
			inCode = max(0, inCode+d)
		}
		out.Write(tag)
		body = body[lt+gt+1:]
	}
	return out.Bytes()
}

// gitDates returns, for each of paths (relative to dir) that git has
// history for, the date (YYYY-MM-DD) of the commit that added it: when the
// record was written, for a record that states no date (D99). One git log
// for all; no history, or no git, is no date.
func gitDates(dir string, paths []string) map[string]string {
	out := map[string]string{}
	if len(paths) == 0 {
		return out
	}
	args := append([]string{"-c", "core.quotePath=false", "log", "--relative", "--no-renames", "--diff-filter=A", "--format=%x01%cs", "--name-only", "--"}, paths...)
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	b, err := cmd.Output()
	if err != nil {
		return out
	}
	want := map[string]bool{}
	for _, p := range paths {
		want[p] = true
	}
	// Newest first: the last add seen is the first.
	for _, rec := range strings.Split(string(b), "\x01") {
		date, names, ok := strings.Cut(rec, "\n")
		if !ok || len(date) != 10 {
			continue
		}
		for _, n := range strings.Split(names, "\n") {
			if want[n] {
				out[n] = date
			}
		}
	}
	return out
}

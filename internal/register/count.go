package register

import (
	"bytes"
	"go/token"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
)

// CountedList is a paragraph that states a count and ends in a colon,
// followed by a list: "Three residuals stay OPEN:" and its items.
type CountedList struct {
	Pos    token.Position // the count word
	Word   string         // as written: "Three", "4"
	Stated int
	Items  int
}

var countWords = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
	"eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20}

// countRE finds a count and the word after it: digits standing alone
// (not D12, 1.5, 2026-11), or a number word.
var countRE = lazyRE(`(?i)(?:^|[\s(])(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty)\s+([A-Za-z][\w-]*)`)

// CountedLists returns every list in src whose preceding paragraph ends in
// a colon and states a count in its last sentence. Fenced code is not
// prose and is skipped by the parser.
func CountedLists(path string, src []byte) []CountedList {
	src, _, ok := checkSource(path, src)
	if !ok {
		return nil // the parse of the same file reports why
	}
	doc, release := parseMarkdown(src, parser.NewContext())
	defer release()
	return countedIn(doc, newLines(path, src), src)
}

// countedIn finds the counted lists of a document already parsed, so a
// register or decision file is parsed once for its table and its counts.
func countedIn(doc ast.Node, ln *lines, src []byte) []CountedList {
	var out []CountedList
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || n.Kind() != ast.KindList {
			return ast.WalkContinue, nil
		}
		prev := n.PreviousSibling()
		if prev == nil || prev.Kind() != ast.KindParagraph || prev.Lines().Len() == 0 {
			return ast.WalkContinue, nil
		}
		// raw is the paragraph's text; at[k] is the file offset of raw[k].
		var raw bytes.Buffer
		var at []int
		segs := prev.Lines()
		for i := 0; i < segs.Len(); i++ {
			s := segs.At(i)
			raw.Write(s.Value(src))
			for k := s.Start; k < s.Stop; k++ {
				at = append(at, k)
			}
		}
		lead := len(raw.String()) - len(strings.TrimLeft(raw.String(), " \t\n"))
		para := strings.TrimSpace(raw.String())
		if !strings.HasSuffix(para, ":") {
			return ast.WalkContinue, nil
		}
		// The last sentence: after the last ". " before the colon.
		start := strings.LastIndex(para, ". ") + 1
		sentence := para[start:]
		// The count must be two or more and followed by a plural noun
		// ("Three residuals", "the 4 scripts"): "one verdict per frame",
		// "exits 1 when" and "one of these" state no list length.
		var m []int
		var word string
		var stated int
		for _, c := range countRE().FindAllStringSubmatchIndex(sentence, -1) {
			w, noun := sentence[c[2]:c[3]], strings.ToLower(sentence[c[4]:c[5]])
			k, ok := countWords[strings.ToLower(w)]
			if !ok {
				k, _ = strconv.Atoi(w)
			}
			if k >= 2 && strings.HasSuffix(noun, "s") && !strings.HasSuffix(noun, "ss") {
				m, word, stated = c, w, k
				break
			}
		}
		if m == nil {
			return ast.WalkContinue, nil
		}
		items := 0
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			items++
		}
		off := at[lead+start+m[2]]
		out = append(out, CountedList{Pos: ln.pos(off), Word: word, Stated: stated, Items: items})
		return ast.WalkContinue, nil
	})
	return out
}

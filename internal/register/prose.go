package register

import (
	"fmt"
	"html"
	"path"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
)

// Unit is one unit of prose: a paragraph, list item, heading or table cell
// of a Markdown or HTML file, with its whitespace normalised, so a sentence
// reads the same however it is wrapped (D38).
type Unit struct {
	// Text is the unit's source text with every run of whitespace (line
	// breaks included) replaced by one space; Markdown markup is kept,
	// HTML tags are removed and entities decoded.
	Text string
	// Start and End are the byte offsets of the unit in the file.
	Start, End int
}

// IsProse reports whether name is a file ProseUnits reads: Markdown or HTML.
func IsProse(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".md", ".markdown", ".html", ".htm":
		return true
	}
	return false
}

// ProseUnits splits a Markdown or HTML file into prose units. Fenced and
// indented code, HTML comments, scripts and styles are not prose. Other
// files have no prose units. A Markdown file over the limits of D40 is
// not parsed: refused says which limit it passed and where (D70).
func ProseUnits(name string, src []byte) (units []Unit, refused string) {
	switch strings.ToLower(path.Ext(name)) {
	case ".md", ".markdown":
		if off, msg := screen(src); msg != "" {
			return nil, fmt.Sprintf("line %d: %s", posOf(name, src, off).Line, msg)
		}
		return markdownUnits(src), ""
	case ".html", ".htm":
		return htmlUnits(src), ""
	}
	return nil, ""
}

func normalise(s string) string { return strings.Join(strings.Fields(s), " ") }

func markdownUnits(src []byte) []Unit {
	doc, release := parseMarkdown(src, parser.NewContext())
	defer release()
	var out []Unit
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.(type) {
		case *ast.Paragraph, *ast.TextBlock, *ast.Heading, *east.TableCell:
		default:
			return ast.WalkContinue, nil
		}
		lines := n.Lines()
		if lines.Len() == 0 {
			return ast.WalkSkipChildren, nil
		}
		var b strings.Builder
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			b.Write(seg.Value(src))
			b.WriteByte(' ')
		}
		if t := normalise(b.String()); t != "" {
			out = append(out, Unit{Text: t, Start: lines.At(0).Start, End: lines.At(lines.Len() - 1).Stop})
		}
		return ast.WalkSkipChildren, nil
	})
	return out
}

// blockTags end one prose unit and start the next.
var blockTags = map[string]bool{
	"p": true, "li": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"td": true, "th": true, "tr": true, "dt": true, "dd": true, "div": true, "blockquote": true,
	"section": true, "article": true, "header": true, "footer": true, "ul": true, "ol": true,
	"table": true, "caption": true, "figcaption": true, "title": true, "br": true, "hr": true,
	"body": true, "main": true, "nav": true, "aside": true, "pre": true,
}

// skipTags hold no prose: their content is skipped to the closing tag.
var skipTags = map[string]bool{"script": true, "style": true, "pre": true, "code": false}

func htmlUnits(src []byte) []Unit {
	s := string(src)
	var out []Unit
	var b strings.Builder
	start := -1
	flush := func(end int) {
		if t := normalise(html.UnescapeString(b.String())); t != "" && start >= 0 {
			out = append(out, Unit{Text: t, Start: start, End: end})
		}
		b.Reset()
		start = -1
	}
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], "<!--") {
			end := strings.Index(s[i+4:], "-->")
			if end < 0 {
				break
			}
			i += 4 + end + 3
			continue
		}
		if s[i] == '<' {
			end := strings.IndexByte(s[i:], '>')
			if end < 0 {
				break
			}
			tag := strings.ToLower(strings.TrimLeft(s[i+1:i+end], "/"))
			if k := strings.IndexAny(tag, " \t\r\n/"); k >= 0 {
				tag = tag[:k]
			}
			closing := strings.HasPrefix(s[i+1:], "/")
			i += end + 1
			if blockTags[tag] {
				flush(i)
			}
			if !closing && skipTags[tag] {
				close := indexCloseTag(s[i:], tag)
				if close < 0 {
					break
				}
				i += close
			}
			continue
		}
		if start < 0 && s[i] != ' ' && s[i] != '\n' && s[i] != '\t' && s[i] != '\r' {
			start = i
		}
		b.WriteByte(s[i])
		i++
	}
	flush(len(s))
	return out
}

// indexCloseTag returns the offset of the first "</tag" in s, the tag's
// letters in any case, or -1. It copies nothing: lowering the rest of the
// file at each tag made a file of many tags take quadratic time.
func indexCloseTag(s, tag string) int {
	for off := 0; ; {
		k := strings.Index(s[off:], "</")
		if k < 0 {
			return -1
		}
		at := off + k
		if rest := s[at+2:]; len(rest) >= len(tag) && strings.EqualFold(rest[:len(tag)], tag) {
			return at
		}
		off = at + 2
	}
}

package register

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/claimslint/claimslint/internal/register/gfm"
	"github.com/yuin/goldmark"
	meta "github.com/yuin/goldmark-meta"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
)

// site renders a decision's text for the report's site (D83): GitHub
// Flavoured Markdown, front matter read and dropped, and never WithUnsafe,
// so raw HTML is omitted and javascript: links are not written. It is
// built at the first render, not by every process at start: only report
// renders (D92).
var site = sync.OnceValue(func() goldmark.Markdown { return goldmark.New(goldmark.WithExtensions(gfm.GFM, meta.Meta)) })

// RenderHTML renders a decision's Markdown src as HTML for a page whose
// own heading holds the title: the first level-1 heading is dropped, every
// other heading is moved down by shift levels (at most to 6), and images
// become links to what they show, so a page never fetches anything when it
// is viewed (D83). The register is hostile input: raw HTML is omitted and
// dangerous link targets are dropped, as goldmark does unless WithUnsafe.
func RenderHTML(src []byte, shift int) ([]byte, error) {
	return RenderHTMLLinks(src, shift, nil)
}

// Links decides what a link of a decision's text (or an image, once it is
// a link) points to on the site: it returns the destination to write, or
// false to write the link's text alone, not as a link.
type Links func(dest string) (string, bool)

// RenderHTMLLinks is RenderHTML with every link's destination passed
// through links, when it is not nil: the site points a relative link at
// the decision's page or the file at the commit, or writes it as plain
// text (D83).
func RenderHTMLLinks(src []byte, shift int, links Links) ([]byte, error) {
	src = bytes.ToValidUTF8(src, []byte("\uFFFD"))
	// Screened as every parse of a register file is (D90): a file past
	// the limits is not rendered.
	if off, msg := screen(src); msg != "" {
		return nil, fmt.Errorf("not rendered: at byte %d, %s", off, msg)
	}
	// Through the parse gate, as every parse of this package (D70).
	doc, release := parseWith(site(), src, parser.NewContext())
	defer release()
	var drop []ast.Node
	titled := false
	var images []*ast.Image
	var anchors []*ast.Link
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			if n.Level == 1 && !titled {
				titled = true
				drop = append(drop, n)
				return ast.WalkSkipChildren, nil
			}
			n.Level = min(n.Level+shift, 6)
		case *ast.Image:
			images = append(images, n)
		case *ast.Link:
			anchors = append(anchors, n)
		}
		return ast.WalkContinue, nil
	})
	for _, n := range drop {
		n.Parent().RemoveChild(n.Parent(), n)
	}
	for _, img := range images {
		l := ast.NewLink()
		l.Destination, l.Title = img.Destination, img.Title
		for c := img.FirstChild(); c != nil; {
			next := c.NextSibling()
			l.AppendChild(l, c)
			c = next
		}
		if l.ChildCount() == 0 {
			l.AppendChild(l, ast.NewString([]byte("image")))
		}
		img.Parent().ReplaceChild(img.Parent(), img, l)
		anchors = append(anchors, l)
	}
	if links != nil {
		for _, l := range anchors {
			dest, ok := links(string(l.Destination))
			if ok {
				l.Destination = []byte(dest)
				continue
			}
			// The link's text stays, as text.
			parent := l.Parent()
			for c := l.FirstChild(); c != nil; {
				next := c.NextSibling()
				parent.InsertBefore(parent, l, c)
				c = next
			}
			parent.RemoveChild(parent, l)
		}
	}
	var b bytes.Buffer
	if err := site().Renderer().Render(&b, src, doc); err != nil {
		return nil, err
	}
	// A code block or table wider than a phone scrolls: it takes the
	// keyboard's focus so it can be scrolled without a mouse. Text cannot
	// spell these tags: goldmark escaped every '<' it did not write.
	out := bytes.ReplaceAll(b.Bytes(), []byte("<pre>"), []byte(`<pre tabindex="0">`))
	return bytes.ReplaceAll(out, []byte("<table>"), []byte(`<table tabindex="0">`)), nil
}

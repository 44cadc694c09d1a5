package register

import (
	"bytes"
	"fmt"

	"github.com/yuin/goldmark"
	meta "github.com/yuin/goldmark-meta"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
	"gopkg.in/yaml.v2"
)

// frontMatter is goldmark-meta's extension with the YAML read once: its
// block parser opens and continues the block as goldmark-meta's does (it
// is that parser), but closes it with one yaml.Unmarshal into a map where
// goldmark-meta makes two (a map, then an ordered MapSlice nothing here
// reads), which was a twentieth of a check's time on a register of 100
// decisions (D92). Where the map cannot be read, the MapSlice is read as
// well, so the error is the one goldmark-meta keeps (the second's when
// both fail); FuzzFrontMatter holds the map, the error and the tree to
// goldmark-meta's.
var frontMatter goldmark.Extender = frontMatterExt{}

type frontMatterExt struct{}

func (frontMatterExt) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(
		parser.WithBlockParsers(util.Prioritized(frontMatterParser{meta.NewParser()}, 0)),
		parser.WithASTTransformers(util.Prioritized(frontMatterErr{}, 0)),
	)
}

// frontMatterData is what a parse's context holds of its front matter.
type frontMatterData struct {
	fm   map[string]any
	err  error
	node ast.Node
}

var frontMatterKey = parser.NewContextKey()

// frontMatterOf is meta.TryGet for frontMatter: the front matter's keys,
// nil when there is none, or the YAML's error.
func frontMatterOf(pc parser.Context) (map[string]any, error) {
	d, _ := pc.Get(frontMatterKey).(*frontMatterData)
	if d == nil {
		return nil, nil
	}
	if d.err != nil {
		return nil, d.err
	}
	return d.fm, nil
}

type frontMatterParser struct{ parser.BlockParser }

func (p frontMatterParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {
	lines := node.Lines()
	var buf bytes.Buffer
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		buf.Write(seg.Value(reader.Source()))
	}
	d := &frontMatterData{node: node}
	fm := map[string]any{}
	if err := yaml.Unmarshal(buf.Bytes(), &fm); err != nil {
		d.err = err
		if err := yaml.Unmarshal(buf.Bytes(), &yaml.MapSlice{}); err != nil {
			d.err = err
		}
	} else {
		d.fm = fm
	}
	pc.Set(frontMatterKey, d)
	if d.err == nil {
		node.Parent().RemoveChild(node.Parent(), node)
	}
}

// frontMatterErr writes a front matter's error into its block, as
// goldmark-meta's transformer does.
type frontMatterErr struct{}

func (frontMatterErr) Transform(_ *ast.Document, _ text.Reader, pc parser.Context) {
	d, _ := pc.Get(frontMatterKey).(*frontMatterData)
	if d == nil || d.err == nil {
		return
	}
	msg := ast.NewString([]byte(fmt.Sprintf("<!-- %s -->", d.err)))
	msg.SetCode(true)
	d.node.AppendChild(d.node, msg)
}

package register

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/yuin/goldmark"
	meta "github.com/yuin/goldmark-meta"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// withMeta is the configuration markdown had before frontMatter: the
// oracle FuzzFrontMatter holds frontMatter to.
var withMeta = goldmark.New(goldmark.WithExtensions(extension.Table, meta.Meta))

// FuzzFrontMatter holds frontMatter, which reads a front matter's YAML
// once, to goldmark-meta, which reads it twice: the same keys and values,
// the same error, and the same tree (the block removed when it reads, the
// error written into it when it does not).
func FuzzFrontMatter(f *testing.F) {
	for _, s := range []string{
		"---\nid: D1\nstatus: accepted\n---\n# D1: x\n",
		"---\nid: D1\ntracker: [dk-1, dk-2]\n---\nbody\n",
		"---\n---\n",
		"---\n- a\n- b\n---\n",
		"---\nhello\n---\n",
		"---\n[a]: b\n---\n",
		"---\n1: x\ntrue: y\n---\n",
		"---\na: &x {b: 1}\nc: *x\n<<: *x\n---\n",
		"---\n<<: 3\n---\n",
		"---\nid: D1\n",
		"---\n\tbad: tab\n---\n",
		"---\na: b\na: c\n---\n",
		"text\n---\nid: D1\n---\n",
		"  ---\nid: x\n---\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		b := []byte(src)
		ctxA, ctxB := parser.NewContext(), parser.NewContext()
		docA := markdown.Parser().Parse(text.NewReader(b), parser.WithContext(ctxA))
		docB := withMeta.Parser().Parse(text.NewReader(b), parser.WithContext(ctxB))
		fmA, errA := frontMatterOf(ctxA)
		fmB, errB := meta.TryGet(ctxB)
		if (errA == nil) != (errB == nil) || errA != nil && errA.Error() != errB.Error() {
			t.Fatalf("%q: error %v, goldmark-meta's %v", src, errA, errB)
		}
		if !reflect.DeepEqual(fmA, fmB) {
			t.Fatalf("%q: front matter %#v, goldmark-meta's %#v", src, fmA, fmB)
		}
		if a, b := dumpTree(docA, b), dumpTree(docB, b); a != b {
			t.Fatalf("%q: tree\n%s\ngoldmark-meta's\n%s", src, a, b)
		}
	})
}

// dumpTree writes each node's kind, its lines and its text, depth first.
func dumpTree(n ast.Node, src []byte) string {
	var out bytes.Buffer
	_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			out.WriteString(")")
			return ast.WalkContinue, nil
		}
		out.WriteString("(" + n.Kind().String())
		if n.Type() == ast.TypeBlock {
			for i := 0; i < n.Lines().Len(); i++ {
				seg := n.Lines().At(i)
				out.WriteString(" [" + string(seg.Value(src)) + "]")
			}
		}
		switch v := n.(type) {
		case *ast.String:
			out.WriteString(" " + string(v.Value))
		case *ast.Text:
			out.WriteString(" " + string(v.Segment.Value(src)))
		}
		return ast.WalkContinue, nil
	})
	return out.String()
}

package report

import (
	"cmp"
	"slices"

	"github.com/claimslint/claimslint/internal/decisionid"
)

// Graph geometry, in SVG user units (CSS pixels).
const (
	nodeW, nodeH = 76, 28
	gapX, gapY   = 20, 70
	margin       = 16
)

// gnode is one decision drawn in the graph.
type gnode struct {
	D            *dview
	layer, order int
	X, Y         int
}

// gedge is one relation drawn: From (the newer decision) supersedes,
// amends or clarifies To.
type gedge struct {
	From, To *gnode
	Verb     string
	Path     string // the SVG path, computed by layout
}

type graphView struct {
	Nodes         []*gnode
	Edges         []*gedge
	Width, Height int
}

// layout places every decision that takes part in a relation on layers,
// as a Sugiyama-style drawing does, computed here at build time and
// deterministic: a decision is one layer below the lowest decision it
// relates to (the oldest on top), a cycle (the register is hostile input)
// is broken where the walk meets it, and each layer is ordered by the mean
// position of its neighbours, a few sweeps down and up, ties by id (D83).
func layout(edges []relEdge) graphView {
	var g graphView
	byKey := map[string]*gnode{}
	node := func(d *dview) *gnode {
		if n := byKey[d.Key]; n != nil {
			return n
		}
		n := &gnode{D: d}
		byKey[d.Key] = n
		g.Nodes = append(g.Nodes, n)
		return n
	}
	out := map[*gnode][]*gnode{}
	nbrs := map[*gnode][]*gnode{}
	for _, e := range edges {
		f, t := node(e.From), node(e.To)
		if f == t {
			continue
		}
		g.Edges = append(g.Edges, &gedge{From: f, To: t, Verb: e.Verb})
		out[f] = append(out[f], t)
		nbrs[f] = append(nbrs[f], t)
		nbrs[t] = append(nbrs[t], f)
	}
	if len(g.Nodes) == 0 {
		return g
	}
	slices.SortStableFunc(g.Nodes, func(a, b *gnode) int { return cmpNode(a, b) })
	// Layers: longest path to a decision that relates to none, with the
	// walk's own stack marking a cycle (its back edge is ignored).
	const unset, onStack = -1, -2
	for _, n := range g.Nodes {
		n.layer = unset
	}
	var depth func(n *gnode) int
	depth = func(n *gnode) int {
		switch n.layer {
		case onStack:
			return -1
		case unset:
		default:
			return n.layer
		}
		n.layer = onStack
		l := 0
		for _, t := range out[n] {
			l = max(l, depth(t)+1)
		}
		n.layer = l
		return l
	}
	for _, n := range g.Nodes {
		depth(n)
	}
	nLayers := 0
	for _, n := range g.Nodes {
		nLayers = max(nLayers, n.layer+1)
	}
	layers := make([][]*gnode, nLayers)
	for _, n := range g.Nodes {
		layers[n.layer] = append(layers[n.layer], n)
	}
	for _, l := range layers {
		for i, n := range l {
			n.order = i
		}
	}
	bary := func(n *gnode) float64 {
		if len(nbrs[n]) == 0 {
			return float64(n.order)
		}
		s := 0.0
		for _, m := range nbrs[n] {
			s += float64(m.order)
		}
		return s / float64(len(nbrs[n]))
	}
	sweep := func(l []*gnode) {
		key := make(map[*gnode]float64, len(l))
		for _, n := range l {
			key[n] = bary(n)
		}
		slices.SortStableFunc(l, func(a, b *gnode) int {
			if c := cmp.Compare(key[a], key[b]); c != 0 {
				return c
			}
			return cmpNode(a, b)
		})
		for i, n := range l {
			n.order = i
		}
	}
	for range 4 {
		for k := 1; k < nLayers; k++ {
			sweep(layers[k])
		}
		for k := nLayers - 2; k >= 0; k-- {
			sweep(layers[k])
		}
	}
	widest := 0
	for _, l := range layers {
		widest = max(widest, len(l))
	}
	span := func(n int) int { return n*(nodeW+gapX) - gapX }
	for k, l := range layers {
		x0 := margin + (span(widest)-span(len(l)))/2
		for i, n := range l {
			n.X, n.Y = x0+i*(nodeW+gapX), margin+k*(nodeH+gapY)
		}
	}
	g.Width, g.Height = 2*margin+span(widest), 2*margin+nLayers*(nodeH+gapY)-gapY
	for _, e := range g.Edges {
		e.Path = edgePath(e.From, e.To)
	}
	return g
}

func cmpNode(a, b *gnode) int {
	if c := decisionid.Compare(a.D.ID, b.D.ID); c != 0 {
		return c
	}
	return cmp.Compare(a.D.Key, b.D.Key)
}

// edgePath is a curve from the newer decision to the older one, entering
// it from the side that faces the newer one.
func edgePath(f, t *gnode) string {
	x1, x2 := f.X+nodeW/2, t.X+nodeW/2
	y1, y2 := f.Y, t.Y+nodeH
	if f.Y < t.Y { // a broken cycle's back edge points down
		y1, y2 = f.Y+nodeH, t.Y
	}
	if f.Y == t.Y {
		y1, y2 = f.Y+nodeH/2, t.Y+nodeH/2
		if f.X < t.X {
			x1, x2 = f.X+nodeW, t.X
		} else {
			x1, x2 = f.X, t.X+nodeW
		}
		return svgPath(x1, y1, (x1+x2)/2, y1-gapY/2, (x1+x2)/2, y2-gapY/2, x2, y2)
	}
	mid := (y1 + y2) / 2
	return svgPath(x1, y1, x1, mid, x2, mid, x2, y2)
}

func svgPath(x1, y1, c1x, c1y, c2x, c2y, x2, y2 int) string {
	return "M" + itoa(x1) + " " + itoa(y1) + " C" + itoa(c1x) + " " + itoa(c1y) + " " + itoa(c2x) + " " + itoa(c2y) + " " + itoa(x2) + " " + itoa(y2)
}

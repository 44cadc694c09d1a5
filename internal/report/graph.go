package report

import (
	"cmp"
	"slices"
	"strings"

	"github.com/claimslint/claimslint/internal/decisionid"
)

// Graph geometry, in SVG user units (CSS pixels).
const (
	nodeW, nodeH = 168, 40
	dummyW       = 12 // the slot a long edge passes a layer through
	gapX, gapY   = 20, 56
	margin       = 16
	// graphMaxWidth is the width the graph's components are packed into,
	// side by side and then in rows: at most 2 screens of 1,000 px (D99).
	graphMaxWidth = 2000
	compGap       = 40
	titleRunes    = 22 // of a title on a box; the whole title is the box's tooltip
)

// gnode is one decision drawn in the graph, or (D nil) a dummy: the slot a
// long edge passes an intermediate layer through.
type gnode struct {
	D            *dview
	layer, order int
	X, Y         int
	w            int
	comp         int
	// Short is the title written on the box.
	Short string
}

// gedge is one relation drawn: From (the newer decision) supersedes,
// amends or clarifies To.
type gedge struct {
	From, To *gnode
	Verb     string
	Path     string // the SVG path, computed by layout
	chain    []*gnode
}

type graphView struct {
	Nodes         []*gnode
	Edges         []*gedge
	Width, Height int
}

// layout draws every decision that takes part in a relation, as a
// Sugiyama-style drawing does, computed at build time and deterministic
// (D83, D99):
//   - the decisions fall into connected parts, each drawn on its own and
//     packed side by side into rows at most graphMaxWidth wide;
//   - a decision sits one layer below the lowest decision it relates to (the
//     oldest on top); a cycle (the register is hostile input) is broken where
//     the walk meets it;
//   - an edge that spans layers passes each layer in between through a
//     dummy node, a slot of its own, so no edge crosses a box;
//   - each layer is ordered by the mean position of its neighbours, a few
//     sweeps down and up, ties by id.
func layout(edges []relEdge) graphView {
	g, out := graphOf(edges)
	if len(g.Nodes) == 0 {
		return g
	}
	slices.SortStableFunc(g.Nodes, cmpNode)
	assignLayers(g.Nodes, out)
	parts := g.parts(g.components())
	nbrs := g.chains(parts)
	for c := range parts {
		orderLayers(parts[c], nbrs)
	}
	g.Width, g.Height = place(parts)
	for _, e := range g.Edges {
		e.Path = edgePath(e)
	}
	return g
}

// graphOf is the graph of the decisions that take part in a relation, one
// node each, and each node's outgoing edges; an edge from a decision to
// itself is left out.
func graphOf(edges []relEdge) (graphView, map[*gnode][]*gnode) {
	var g graphView
	byKey := map[string]*gnode{}
	node := func(d *dview) *gnode {
		if n := byKey[d.Key]; n != nil {
			return n
		}
		n := &gnode{D: d, w: nodeW, Short: shortTitle(d.Title)}
		byKey[d.Key] = n
		g.Nodes = append(g.Nodes, n)
		return n
	}
	out := map[*gnode][]*gnode{}
	for _, e := range edges {
		f, t := node(e.From), node(e.To)
		if f == t {
			continue
		}
		g.Edges = append(g.Edges, &gedge{From: f, To: t, Verb: e.Verb})
		out[f] = append(out[f], t)
	}
	return g, out
}

// assignLayers gives each node its layer: the longest path to a decision
// that relates to none, with the walk's own stack marking a cycle (its
// back edge is ignored).
func assignLayers(nodes []*gnode, out map[*gnode][]*gnode) {
	const unset, onStack = -1, -2
	for _, n := range nodes {
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
	for _, n := range nodes {
		depth(n)
	}
}

// components numbers the connected parts in the order of their first
// decision, and returns how many there are.
func (g *graphView) components() int {
	undirected := map[*gnode][]*gnode{}
	for _, e := range g.Edges {
		undirected[e.From] = append(undirected[e.From], e.To)
		undirected[e.To] = append(undirected[e.To], e.From)
	}
	for _, n := range g.Nodes {
		n.comp = -1
	}
	comps := 0
	for _, n := range g.Nodes {
		if n.comp >= 0 {
			continue
		}
		stack := []*gnode{n}
		n.comp = comps
		for len(stack) > 0 {
			m := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, o := range undirected[m] {
				if o.comp < 0 {
					o.comp = comps
					stack = append(stack, o)
				}
			}
		}
		comps++
	}
	return comps
}

// parts is each of the comps parts' layers, each starting at 0 and
// holding its decisions.
func (g *graphView) parts(comps int) [][][]*gnode {
	parts := make([][][]*gnode, comps)
	minLayer := make([]int, comps)
	for i := range minLayer {
		minLayer[i] = 1 << 30
	}
	for _, n := range g.Nodes {
		minLayer[n.comp] = min(minLayer[n.comp], n.layer)
	}
	for _, n := range g.Nodes {
		n.layer -= minLayer[n.comp]
		put(parts, n)
	}
	return parts
}

// put places n in its part's layer.
func put(parts [][][]*gnode, n *gnode) {
	c := n.comp
	for len(parts[c]) <= n.layer {
		parts[c] = append(parts[c], nil)
	}
	parts[c][n.layer] = append(parts[c][n.layer], n)
}

// chains gives each edge its chain from its upper end down to its lower
// end, one node a layer: a dummy in each layer between, put in parts. It
// returns each node's neighbours along the chains.
func (g *graphView) chains(parts [][][]*gnode) map[*gnode][]*gnode {
	nbrs := map[*gnode][]*gnode{}
	for _, e := range g.Edges {
		hi, lo := e.To, e.From
		if hi.layer > lo.layer { // a broken cycle's back edge points down
			hi, lo = lo, hi
		}
		chain := []*gnode{hi}
		for l := hi.layer + 1; l < lo.layer; l++ {
			d := &gnode{layer: l, comp: hi.comp, w: dummyW}
			put(parts, d)
			chain = append(chain, d)
		}
		chain = append(chain, lo)
		for i := 1; i < len(chain); i++ {
			nbrs[chain[i-1]] = append(nbrs[chain[i-1]], chain[i])
			nbrs[chain[i]] = append(nbrs[chain[i]], chain[i-1])
		}
		e.chain = chain
	}
	return nbrs
}

// place places each part's layers, centred on its widest, then packs the
// parts into rows; it returns the drawing's width and height.
func place(parts [][][]*gnode) (int, int) {
	x0, y0, rowH, width := margin, margin, 0, 0
	for _, layers := range parts {
		widths, widest := layerWidths(layers)
		h := len(layers)*(nodeH+gapY) - gapY
		if x0 > margin && x0+widest > graphMaxWidth-margin {
			x0, y0, rowH = margin, y0+rowH+compGap, 0
		}
		for k, l := range layers {
			x := x0 + (widest-widths[k])/2
			for _, n := range l {
				n.X, n.Y = x, y0+k*(nodeH+gapY)
				x += n.w + gapX
			}
		}
		width = max(width, x0+widest+margin)
		rowH = max(rowH, h)
		x0 += widest + compGap
	}
	return width, y0 + rowH + margin
}

// layerWidths is the width of each layer, its nodes and the gaps between
// them, and the widest.
func layerWidths(layers [][]*gnode) ([]int, int) {
	widths := make([]int, len(layers))
	widest := 0
	for k, l := range layers {
		for i, n := range l {
			if i > 0 {
				widths[k] += gapX
			}
			widths[k] += n.w
		}
		widest = max(widest, widths[k])
	}
	return widths, widest
}

// orderLayers orders each layer by the mean position of its neighbours
// (decisions and dummies), 4 sweeps down and up, ties by id.
func orderLayers(layers [][]*gnode, nbrs map[*gnode][]*gnode) {
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
		for k := 1; k < len(layers); k++ {
			sweep(layers[k])
		}
		for k := len(layers) - 2; k >= 0; k-- {
			sweep(layers[k])
		}
	}
}

// cmpNode orders decisions by id; dummies after them, stably.
func cmpNode(a, b *gnode) int {
	switch {
	case a.D == nil && b.D == nil:
		return 0
	case a.D == nil:
		return 1
	case b.D == nil:
		return -1
	}
	if c := decisionid.Compare(a.D.ID, b.D.ID); c != 0 {
		return c
	}
	return cmp.Compare(a.D.Key, b.D.Key)
}

// edgePath is a polyline down the edge's chain: from the bottom of the
// upper box, through each dummy's slot (straight down through its layer),
// to the top of the lower box. Between layers it runs in the gap, where no
// box is; in a layer, only through its dummy's slot.
func edgePath(e *gedge) string {
	var b strings.Builder
	pt := func(x, y int) {
		if b.Len() == 0 {
			b.WriteString("M")
		} else {
			b.WriteString(" L")
		}
		b.WriteString(itoa(x) + " " + itoa(y))
	}
	chain := e.chain
	// The path runs from the newer decision (From) to the older (To), where
	// the arrow is.
	rev := chain[0] != e.From
	pts := make([][2]int, 0, 2*len(chain))
	for i, n := range chain {
		cx := n.X + n.w/2
		switch {
		case i == 0:
			pts = append(pts, [2]int{cx, n.Y + nodeH})
		case i == len(chain)-1:
			pts = append(pts, [2]int{cx, n.Y})
		default:
			pts = append(pts, [2]int{cx, n.Y}, [2]int{cx, n.Y + nodeH})
		}
	}
	if rev {
		slices.Reverse(pts)
	}
	for _, p := range pts {
		pt(p[0], p[1])
	}
	return b.String()
}

// shortTitle is a title cut to fit a box, with an ellipsis when cut.
func shortTitle(s string) string {
	r := []rune(s)
	if len(r) <= titleRunes {
		return s
	}
	return strings.TrimRight(string(r[:titleRunes-1]), " ") + "…"
}

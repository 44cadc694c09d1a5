package check

import "sort"

// maxKnown is how many occurrences of each literal the one-pass matcher
// keeps; a literal seen more often is searched again from the last one.
const maxKnown = 16

// denseLimit bounds the automaton kept as a full table (1 KiB a state);
// a larger one (thousands of literals) keeps sparse edges instead, so ten
// thousand claims on one file cost megabytes, not hundreds (D56).
var denseLimit = 4096

// multiMatcher finds where each of many literals occurs in a text in one
// pass (Aho-Corasick over bytes), so a file touched by thousands of claims
// is read once, not once per claim's literal.
type multiMatcher struct {
	n    int       // number of literals
	lens []int     // length of each literal
	out  [][]int32 // literal indexes that end at each state (own and inherited)
	// dense: the goto function completed into a DFA, one row per state.
	dense [][256]int32
	// sparse: per state, sorted edge labels and targets, and the failure
	// link; used when the automaton is large.
	labels  [][]byte
	targets [][]int32
	fail    []int32
}

func newMultiMatcher(lits [][]byte) *multiMatcher {
	m := &multiMatcher{n: len(lits), lens: make([]int, len(lits))}
	// The trie, with sparse edges.
	// At most one state per literal byte, plus the root: reserved once.
	states := 1
	for _, lit := range lits {
		states += len(lit)
	}
	m.labels, m.targets, m.out = make([][]byte, 1, states), make([][]int32, 1, states), make([][]int32, 1, states)
	child := func(s int32, c byte) int32 {
		ls := m.labels[s]
		i := sort.Search(len(ls), func(i int) bool { return ls[i] >= c })
		if i < len(ls) && ls[i] == c {
			return m.targets[s][i]
		}
		return -1
	}
	for id, lit := range lits {
		m.lens[id] = len(lit)
		s := int32(0)
		for _, c := range lit {
			t := child(s, c)
			if t < 0 {
				t = int32(len(m.labels))
				m.labels = append(m.labels, nil)
				m.targets = append(m.targets, nil)
				m.out = append(m.out, nil)
				ls, ts := m.labels[s], m.targets[s]
				i := sort.Search(len(ls), func(i int) bool { return ls[i] >= c })
				ls = append(ls, 0)
				ts = append(ts, 0)
				copy(ls[i+1:], ls[i:])
				copy(ts[i+1:], ts[i:])
				ls[i], ts[i] = c, t
				m.labels[s], m.targets[s] = ls, ts
			}
			s = t
		}
		m.out[s] = append(m.out[s], int32(id))
	}
	// Failure links, breadth-first; outputs inherit their failure state's.
	m.fail = make([]int32, len(m.labels))
	queue := append([]int32(nil), m.targets[0]...)
	step := func(s int32, c byte) int32 {
		for {
			if t := child(s, c); t >= 0 {
				return t
			}
			if s == 0 {
				return 0
			}
			s = m.fail[s]
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		m.out[s] = append(m.out[s], m.out[m.fail[s]]...)
		for i, c := range m.labels[s] {
			t := m.targets[s][i]
			m.fail[t] = step(m.fail[s], c)
			if s == 0 {
				m.fail[t] = 0
			}
			queue = append(queue, t)
		}
	}
	if len(m.labels) <= denseLimit {
		// Fold the failure links into a full table: one lookup per byte.
		m.dense = make([][256]int32, len(m.labels))
		order := []int32{0}
		for k := 0; k < len(order); k++ {
			s := order[k]
			for c := 0; c < 256; c++ {
				if t := child(s, byte(c)); t >= 0 {
					m.dense[s][c] = t
				} else if s == 0 {
					m.dense[s][c] = 0
				} else {
					m.dense[s][c] = m.dense[m.fail[s]][c]
				}
			}
			order = append(order, m.targets[s]...)
		}
		m.labels, m.targets = nil, nil
	}
	return m
}

// match returns, indexed by literal, the offsets of the last byte of its
// first maxKnown occurrences in text, or nil when it does not occur.
func (m *multiMatcher) match(text []byte) [][]int32 {
	found := make([][]int32, m.n)
	s := int32(0)
	for i, c := range text {
		if m.dense != nil {
			s = m.dense[s][c]
		} else {
			s = m.sparseStep(s, c)
		}
		for _, id := range m.out[s] {
			if len(found[id]) < maxKnown {
				found[id] = append(found[id], int32(i))
			}
		}
	}
	return found
}

func (m *multiMatcher) sparseStep(s int32, c byte) int32 {
	for {
		ls := m.labels[s]
		// Edges are few past the root: a linear scan beats a search.
		for i, l := range ls {
			if l == c {
				return m.targets[s][i]
			}
			if l > c {
				break
			}
		}
		if s == 0 {
			return 0
		}
		s = m.fail[s]
	}
}

package check

// multiMatcher finds which of many literals occur in a text in one pass
// (Aho-Corasick over bytes), so a file touched by a thousand claims is read
// once, not once per claim's literal (residual dk-kq9).
type multiMatcher struct {
	next [][256]int32 // goto function, completed into a DFA
	out  [][]int32    // literal indexes that end at each state
	n    int          // number of literals
}

func newMultiMatcher(lits [][]byte) *multiMatcher {
	m := &multiMatcher{next: make([][256]int32, 1, 64), out: make([][]int32, 1, 64), n: len(lits)}
	for i := range m.next[0] {
		m.next[0][i] = -1
	}
	for id, lit := range lits {
		s := int32(0)
		for _, c := range lit {
			if m.next[s][c] < 0 {
				var row [256]int32
				for i := range row {
					row[i] = -1
				}
				m.next = append(m.next, row)
				m.out = append(m.out, nil)
				m.next[s][c] = int32(len(m.next) - 1)
			}
			s = m.next[s][c]
		}
		m.out[s] = append(m.out[s], int32(id))
	}
	// Breadth-first: failure links, folded into the goto table so scanning
	// is one table lookup per byte; outputs inherit their failure state's.
	fail := make([]int32, len(m.next))
	queue := make([]int32, 0, len(m.next))
	for c := range 256 {
		if t := m.next[0][c]; t > 0 {
			fail[t] = 0
			queue = append(queue, t)
		} else {
			m.next[0][c] = 0
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		m.out[s] = append(m.out[s], m.out[fail[s]]...)
		for c := range 256 {
			t := m.next[s][c]
			if t < 0 {
				m.next[s][c] = m.next[fail[s]][c]
				continue
			}
			fail[t] = m.next[fail[s]][c]
			queue = append(queue, t)
		}
	}
	return m
}

// match returns, indexed by literal, whether each literal occurs in text.
func (m *multiMatcher) match(text []byte) []bool {
	found := make([]bool, m.n)
	s := int32(0)
	for _, c := range text {
		s = m.next[s][c]
		for _, id := range m.out[s] {
			found[id] = true
		}
	}
	return found
}

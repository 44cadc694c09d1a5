package check

import "sort"

// tally is what the kinds of D95 count as the scan records lines: hits
// per file (count), the lines of each of two patterns per file (before),
// and the values an anchor captures (agree). The scan calls the kind's
// onHit holding the claim's lock.
type tally struct {
	perFile map[string]int
	lines   [2]map[string][]int
	values  map[string][]hit // by value, the first few places
	order   []string         // values in the order first seen
	total   int
}

// maxTallyLines bounds the lines kept per file and pattern.
const maxTallyLines = 1 << 16

func (t *tally) addLine(which int, file string, line int) {
	if t.lines[which] == nil {
		t.lines[which] = map[string][]int{}
	}
	if l := t.lines[which][file]; len(l) < maxTallyLines {
		t.lines[which][file] = append(l, line)
	}
}

// firstIn returns the first line of pattern which in file within
// [from, to], or 0.
func (t *tally) firstIn(which int, file string, from, to int) int {
	ls := t.lines[which][file]
	i := sort.SearchInts(ls, from)
	if i < len(ls) && ls[i] <= to {
		return ls[i]
	}
	return 0
}

// sort orders what workers recorded in the order they read files: the
// lines of every file, each value's places, and the values by their first
// place.
func (t *tally) sort() {
	for _, m := range t.lines {
		for _, ls := range m {
			sort.Ints(ls)
		}
	}
	for _, hs := range t.values {
		sortHits(hs)
	}
	sort.SliceStable(t.order, func(i, j int) bool {
		a, b := t.values[t.order[i]][0], t.values[t.order[j]][0]
		if a.file != b.file {
			return a.file < b.file
		}
		return a.line < b.line
	})
}

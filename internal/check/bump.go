package check

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/claimslint/claimslint/internal/snapshot"
)

// LiveRangeEdits plans, for `claimslint new`, the move of the live range
// from the register's highest id n to next on every line a placeholder
// claim rests on (D64): the lines where a claim of a decision that is not
// retired reads {{range}}, {{n}} or {{n-k}} today. On each such line the
// text each placeholder matched for n is rewritten for next: D1..D55 to
// D1..D56, a tokenizer's D(55|54| to D(56|55|, a shell knob's D1\.\.D55 to
// D1\.\.D56. So the claims that referred to the live range hold after
// new, as the range sites do. read gives a file's content with the edits
// planned so far; the result holds each file it changes, whole.
func LiveRangeEdits(snap *snapshot.Snapshot, next int, read func(rel string) ([]byte, error)) (map[string][]byte, error) {
	n := snap.MaxN()
	if n == 0 || next <= n {
		return nil, nil
	}
	lines := placeholderLines(snap, n)
	if len(lines) == 0 {
		return nil, nil
	}
	byFile := map[string][]bumpTarget{}
	for t := range lines {
		byFile[t.file] = append(byFile[t.file], t)
	}
	out := map[string][]byte{}
	for file, ts := range byFile {
		src, err := read(file)
		if err != nil {
			return nil, err
		}
		if b, changed := bumpFile(src, ts, lines, n, next); changed {
			out[file] = b
		}
	}
	return out, nil
}

// bumpTarget is a line a placeholder claim rests on.
type bumpTarget struct {
	file string
	line int
}

// placeholderLines is each line a placeholder claim of a decision that is
// not retired rests on today, with the claim's patterns filled for n
// (captureRE).
func placeholderLines(snap *snapshot.Snapshot, n int) map[bumpTarget][]*regexp.Regexp {
	lines := map[bumpTarget][]*regexp.Regexp{}
	for _, d := range snap.Decisions {
		if !d.Parsed || retired(d.Status) {
			continue
		}
		for _, row := range d.Claims {
			if !HasPlaceholder(row.Anchor) && !HasPlaceholder(row.Require) {
				continue
			}
			var pats []*regexp.Regexp
			for _, p := range []string{row.Anchor, strings.TrimPrefix(row.Require, "!")} {
				if re := captureRE(p, n); re != nil {
					pats = append(pats, re)
				}
			}
			c := newClaim(snap, d, row)
			if c.kind == nil || !c.prepareRow() || c.lines == nil {
				continue
			}
			for _, f := range c.files {
				scanFile(c.read, f, []*claim{c}, nil, nil, nil)
			}
			for _, h := range append(append([]hit{}, c.code...), c.reqFail...) {
				for l := h.line; l <= max(h.line, h.last); l++ {
					t := bumpTarget{h.file, l}
					lines[t] = append(lines[t], pats...)
				}
			}
		}
	}
	return lines
}

// bumpFile rewrites the lines ts of src, each by its patterns in lines,
// from n to next; it says whether any line changed.
func bumpFile(src []byte, ts []bumpTarget, lines map[bumpTarget][]*regexp.Regexp, n, next int) ([]byte, bool) {
	sort.Slice(ts, func(i, j int) bool { return ts[i].line < ts[j].line })
	parts := bytes.SplitAfter(src, []byte("\n"))
	changed := false
	for _, t := range ts {
		if t.line > len(parts) {
			continue
		}
		line := parts[t.line-1]
		for _, re := range lines[t] {
			line = bumpLine(line, re, n, next)
		}
		if !bytes.Equal(line, parts[t.line-1]) {
			parts[t.line-1], changed = line, true
		}
	}
	if !changed {
		return nil, false
	}
	return bytes.Join(parts, nil), true
}

// retired reports whether a decision's claims are no longer evaluated.
func retired(status string) bool {
	switch status {
	case "rejected", "deprecated", "superseded":
		return true
	}
	return false
}

// bumpGroup prefixes the names of the groups captureRE adds.
const bumpGroup = "clbump"

// captureRE compiles pat with its placeholders filled for n, each filled
// number a capture group whose name says how far back from n it counts
// (clbump0_… for n, clbump1_… for n-1): nil when pat has none or does not compile.
func captureRE(pat string, n int) *regexp.Regexp {
	if !HasPlaceholder(pat) || len(pat) > MaxPattern {
		return nil // check refuses a pattern past the limit (D70)
	}
	var b strings.Builder
	last := 0
	for _, m := range placeholderRE().FindAllStringSubmatchIndex(pat, -1) {
		b.WriteString(pat[last:m[0]])
		last = m[1]
		k := 0
		if m[4] >= 0 {
			k, _ = strconv.Atoi(pat[m[4]:m[5]])
		}
		if pat[m[2]:m[3]] == "range" {
			b.WriteString(`D1\.\.D`)
		}
		if n-k < 1 {
			return nil
		}
		b.WriteString(fmt.Sprintf("(?P<%s%d_%d>%d)", bumpGroup, k, m[0], n-k))
	}
	b.WriteString(pat[last:])
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil
	}
	return re
}

// bumpLine moves, in every match of re on line, the numbers the
// placeholders captured from n to next. A run of them counting back from n
// (an alternation D(55|54|) grows: the new ids go in front, joined as the
// run joins its numbers, D(56|55|54|, so no id drops out of a tokenizer;
// any other captured number n-k becomes next-k (D1..D55 to D1..D56).
func bumpLine(line []byte, re *regexp.Regexp, n, next int) []byte {
	ms := re.FindAllSubmatchIndex(line, -1)
	if ms == nil {
		return line
	}
	type group struct{ start, end, k int }
	var out []byte
	last := 0
	for _, m := range ms {
		var gs []group
		for g := 1; g < len(m)/2; g++ {
			name, ok := strings.CutPrefix(re.SubexpNames()[g], bumpGroup)
			if !ok || m[2*g] < 0 {
				continue // a group of the claim's own pattern
			}
			kText, _, _ := strings.Cut(name, "_")
			k, _ := strconv.Atoi(kText)
			gs = append(gs, group{m[2*g], m[2*g+1], k})
		}
		run := len(gs) >= 2
		for i, g := range gs {
			run = run && g.k == i
		}
		if run {
			sep := line[gs[0].end:gs[1].start]
			out = append(out, line[last:gs[0].start]...)
			for v := next; v > n; v-- {
				out = append(out, strconv.Itoa(v)...)
				out = append(out, sep...)
			}
			last = gs[0].start
			continue
		}
		for _, g := range gs {
			out = append(out, line[last:g.start]...)
			out = append(out, strconv.Itoa(next-g.k)...)
			last = g.end
		}
	}
	return append(out, line[last:]...)
}

package codeline

import (
	"bytes"
	"sort"
)

// MaskLine appends to dst[:0] the masked text (see Mask) of the line
// src[start:end] alone, whose regions r holds, and returns it: the same
// bytes MaskTo gives for that line, without copying the rest of the file.
// A claim that reads a few candidate lines masks those lines only.
func (r *Regions) MaskLine(dst, src []byte, start, end int) []byte {
	out := append(dst[:0], src[start:end]...)
	i := sort.Search(len(r.Spans), func(i int) bool { return r.Spans[i].End > start })
	for ; i < len(r.Spans) && r.Spans[i].Start < end; i++ {
		s := r.Spans[i]
		from, to := s.Start, s.End
		switch s.Kind {
		case Comment:
		case String:
			if r.codeStrings {
				continue
			}
			// Only the lines wholly inside the string are masked.
			a := bytes.IndexByte(src[s.Start:s.End], '\n')
			if a < 0 {
				continue
			}
			b := bytes.LastIndexByte(src[s.Start:s.End], '\n')
			from, to = s.Start+a+1, s.Start+b
		default:
			continue
		}
		blank(out, max(from, start)-start, min(to, end)-start)
	}
	return out
}

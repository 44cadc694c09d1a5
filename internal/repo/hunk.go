package repo

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Hunk is one @@ -a,b +c,d @@ range of git's patch: b lines from line a
// of the base replaced by d lines from line c of the working tree. A count
// of 0 is a pure insertion (b) or deletion (d), whose start is the line
// before it. The one reader of git's hunk headers: check --base's changed
// lines and impact both read them here.
type Hunk struct {
	OldStart, OldLines, NewStart, NewLines int
}

// OldHas and NewHas report whether line n of its side lies in the hunk.
func (h Hunk) OldHas(n int) bool {
	return h.OldLines > 0 && n >= h.OldStart && n < h.OldStart+h.OldLines
}

// NewHas: see OldHas.
func (h Hunk) NewHas(n int) bool {
	return h.NewLines > 0 && n >= h.NewStart && n < h.NewStart+h.NewLines
}

// ParseHunk reads "@@ -a[,b] +c[,d] @@ ...".
func ParseHunk(s string) (Hunk, error) {
	shown := s
	if len(shown) > 120 {
		shown = shown[:120] + "…"
	}
	bad := fmt.Errorf("git diff printed a hunk header claimslint cannot read: %q", shown)
	rest, ok := strings.CutPrefix(s, "@@ -")
	if !ok {
		return Hunk{}, bad
	}
	end := strings.Index(rest, " @@")
	if end < 0 {
		return Hunk{}, bad
	}
	oldR, newR, ok := strings.Cut(rest[:end], " +")
	if !ok {
		return Hunk{}, bad
	}
	var h Hunk
	var err error
	if h.OldStart, h.OldLines, err = hunkRange(oldR); err != nil {
		return Hunk{}, bad
	}
	if h.NewStart, h.NewLines, err = hunkRange(newR); err != nil {
		return Hunk{}, bad
	}
	return h, nil
}

// hunkRange reads "a" (one line) or "a,b".
func hunkRange(s string) (int, int, error) {
	startS, countS, comma := strings.Cut(s, ",")
	start, err := strconv.ParseUint(startS, 10, 31)
	if err != nil {
		return 0, 0, err
	}
	count := uint64(1)
	if comma {
		if count, err = strconv.ParseUint(countS, 10, 31); err != nil {
			return 0, 0, err
		}
	}
	if start+count > 1<<31 {
		return 0, 0, errors.New("range too large")
	}
	return int(start), int(count), nil
}

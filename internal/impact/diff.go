package impact

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/claimslint/claimslint/internal/repo"
)

// maxRaw bounds the list of changed files read from git diff --raw.
const maxRaw = 64 << 20

// fileDiff is one file of the change, as git diff --raw lists it.
type fileDiff struct {
	// Status is git's letter: A added, D deleted, M modified, R renamed,
	// C copied, T type changed.
	Status byte
	// Old is the path at the base ("" when added), New the path in the
	// working tree ("" when deleted).
	Old, New         string
	OldMode, NewMode string
	Hunks            []hunk
}

// hunk is one @@ -a,b +c,d @@ range of git's patch (repo.Hunk).
type hunk = repo.Hunk

// parseRaw reads `git diff --raw -z`: for each file
// ":oldmode newmode oldsha newsha STATUS\0path\0" and, for a rename or a
// copy, a second path.
func parseRaw(data []byte) ([]*fileDiff, error) {
	var out []*fileDiff
	data = bytes.TrimSuffix(data, []byte{0})
	if len(data) == 0 {
		return nil, nil
	}
	fields := bytes.Split(data, []byte{0})
	for i := 0; i < len(fields); i++ {
		rec := string(fields[i])
		if !strings.HasPrefix(rec, ":") {
			return nil, fmt.Errorf("git diff --raw printed %q where a file's record belongs", clip(rec))
		}
		parts := strings.Fields(rec[1:])
		if len(parts) != 5 || parts[4] == "" {
			return nil, fmt.Errorf("git diff --raw printed a record claimslint cannot read: %q", clip(rec))
		}
		f := &fileDiff{Status: parts[4][0], OldMode: parts[0], NewMode: parts[1]}
		paths := 1
		if f.Status == 'R' || f.Status == 'C' {
			paths = 2
		}
		if i+paths >= len(fields) {
			return nil, fmt.Errorf("git diff --raw ended inside the record %q", clip(rec))
		}
		a := string(fields[i+1])
		b := a
		if paths == 2 {
			b = string(fields[i+2])
		}
		if a == "" || b == "" {
			return nil, fmt.Errorf("git diff --raw printed an empty path after %q", clip(rec))
		}
		i += paths
		switch f.Status {
		case 'A':
			f.New = b
		case 'D':
			f.Old = a
		case 'M', 'T', 'R', 'C':
			f.Old, f.New = a, b
		default:
			// U (unmerged), X (unknown): a path in conflict has no
			// base-to-tree lines to map; it is listed as changed whole.
			f.Old, f.New = a, b
		}
		out = append(out, f)
	}
	return out, nil
}

// patchVisitor is repo.PatchVisitor, as impact's readers write it.
type patchVisitor struct {
	hunk func(old, new string, h hunk)
	line func(old, new string, deleted bool, n int, text []byte)
}

// parsePatch reads a patch with repo.ReadPatch, the one reader of git's
// patches.
func parsePatch(r io.Reader, v patchVisitor) error {
	return repo.ReadPatch(r, repo.PatchVisitor{Hunk: v.hunk, Line: v.line})
}

// unquoteC is repo.UnquoteC.
func unquoteC(s string) (string, error) { return repo.UnquoteC(s) }

// clip shortens text quoted in an error message.
func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

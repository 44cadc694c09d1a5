package docket

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
)

// Drift is what CheckExport found wrong with the export: Line is the
// first line that differs (0 when the difference is not a line's), Reason
// says what differs and how to fix it.
type Drift struct {
	Line   int
	Reason string
}

// CheckExport compares the export with what docket would write, and
// writes nothing: not the export, not the index, not a file beside either
// (D67). The export is the truth; the index only adds to it what this
// clone committed and could not export (a write that exited 3), and an
// index opts.Distrust names is not read at all. It returns a *Drift when
//
//   - the export is missing beside an index that holds issues, or a line
//     of it is not the canonical form of its records;
//   - this clone's index holds a committed change the export lacks (its
//     dirty flag, or the pending journal);
//   - the index is not this clone's (opts.Distrust): committed to git.
//
// An export that does not parse is an error (ErrInvalid), as everywhere;
// an index that cannot be read is said through opts.Warn and the export is
// checked alone.
func CheckExport(ctx context.Context, b Backend, opts Options) (*Drift, error) {
	files, err := NewFiles(opts.Root)
	if err != nil {
		return nil, err
	}
	if opts.Warn == nil {
		opts.Warn = func(string) {}
	}
	_, local := b.(LocalBackend)
	if local && opts.Pending == "" {
		opts.Pending = PendingLog(b.Path())
	}
	if local && opts.IDLog == "" {
		opts.IDLog = IDLog(b.Path())
	}
	// Every file a command opens is checked, read here or not: a tree
	// every command refuses is refused by the gate too.
	paths := []string{opts.Export}
	if opts.Distrust == "" && local {
		paths = append(paths, opts.Pending, opts.IDLog, b.Path()+".lock")
		paths = append(paths, indexFiles(b)...)
	}
	for _, p := range paths {
		if err := files.Check(p); err != nil {
			return nil, err
		}
	}
	if opts.Distrust != "" {
		return &Drift{Reason: opts.Distrust}, nil
	}
	data, err := files.ReadFile(opts.Export)
	if errors.Is(err, fs.ErrNotExist) {
		if !b.Exists() {
			return nil, fmt.Errorf("%w: no index at %s and no export at %s; run docket init --prefix dk", ErrNoTracker, b.Path(), opts.Export)
		}
		n := 0
		if err := peek(ctx, files, b, func(r Reader) error {
			var err error
			n, err = r.Count(Query{})
			return err
		}); err != nil {
			opts.Warn(fmt.Sprintf("the index %s cannot be read (%v)", b.Path(), err))
		}
		return &Drift{Reason: fmt.Sprintf("%s is missing, and the index holds %d issues; run docket export to write it, then commit it", opts.Export, n)}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read export: %w", err)
	}
	issues, err := ReadJSONL(opts.Export, bytes.NewReader(data), "")
	if err != nil {
		return nil, err
	}
	want, err := Canonical(issues)
	if err != nil {
		return nil, err
	}
	if line, same := FirstDiff(data, want); !same {
		return &Drift{Line: line, Reason: "not the canonical form of its records; run docket export to rewrite it, then commit it"}, nil
	}
	// What this clone committed and never exported: a dirty index whose
	// records are not the export's, or journaled records newer than the
	// export's.
	if b.Exists() {
		var held []byte
		dirty := false
		err := peek(ctx, files, b, func(r Reader) error {
			_, d, err := exportState(r)
			if err != nil || !d {
				return err
			}
			dirty = true
			held, err = exportOf(r)
			return err
		})
		if err != nil {
			opts.Warn(fmt.Sprintf("the index %s cannot be read (%v), so only the export was checked", b.Path(), err))
		} else if line, same := FirstDiff(data, held); dirty && !same {
			return &Drift{Line: line, Reason: "behind the index, which holds a change committed here and never exported (a write that exited 3); run docket export to write it, then commit it"}, nil
		}
	}
	var recs []Issue
	err = nil
	if opts.Pending != "" {
		recs, _, err = readPending(files, opts.Pending)
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		opts.Warn(fmt.Sprintf("the pending journal %s cannot be read (%v)", opts.Pending, err))
	}
	byID := make(map[string]Issue, len(issues))
	for _, i := range issues {
		byID[i.ID] = i
	}
	for _, p := range recs {
		if e, ok := byID[p.ID]; !ok || newer(p, e) {
			return &Drift{Reason: fmt.Sprintf("behind the pending journal %s, which holds %s as committed here and never exported (a write that exited 3); run docket export to write it, then commit it", opts.Pending, p.ID)}, nil
		}
	}
	return nil, nil
}

// peek runs fn on the index opened read-only, its files checked first.
func peek(ctx context.Context, files Files, b Backend, fn func(Reader) error) error {
	if err := checkIndex(files, b); err != nil {
		return err
	}
	idx, err := b.Peek(ctx)
	if err != nil {
		return err
	}
	defer idx.Close()
	return idx.Read(ctx, fn)
}

// FirstDiff returns the first line at which a and b differ, and whether
// they are equal.
func FirstDiff(a, b []byte) (int, bool) {
	if bytes.Equal(a, b) {
		return 0, true
	}
	la, lb := bytes.SplitAfter(a, []byte("\n")), bytes.SplitAfter(b, []byte("\n"))
	for k := 0; k < len(la) && k < len(lb); k++ {
		if !bytes.Equal(la[k], lb[k]) {
			return k + 1, false
		}
	}
	return min(len(la), len(lb)) + 1, false
}

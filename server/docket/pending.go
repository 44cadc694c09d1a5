package docket

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/claimslint/claimslint/internal/format"
)

// PendingLog is the pending journal beside the index at path
// (Options.Pending).
func PendingLog(path string) string { return path + ".pending" }

// ErrDistrusted is wrapped by every write of a service whose index is not
// this clone's cache (Options.Distrust): nothing changed.
var ErrDistrusted = errors.New("writes are refused, nothing changed")

// ReadOnly returns why every write of this service is refused (its index
// is committed to git, Options.Distrust), or nil.
func (s *Service) ReadOnly() error { return s.refuse }

// keepPending appends the lines of records a write committed, and could
// not export, to the pending journal, synced, and says so for the exit 3
// message.
func (s *Service) keepPending(lines [][]byte) string {
	if s.opts.Pending == "" {
		return ""
	}
	var b bytes.Buffer
	for _, l := range lines {
		b.Write(l)
		b.WriteByte('\n')
	}
	if err := s.files.Append(s.opts.Pending, b.Bytes(), true); err != nil {
		return fmt.Sprintf(" (its records could not be kept in the pending journal %s too: %v; they are in the index only)", s.opts.Pending, err)
	}
	return fmt.Sprintf(" (its records are kept in the pending journal %s until then)", s.opts.Pending)
}

// dropPending removes the pending journal once the export holds every
// record of the index. A journal that cannot be removed is said: its
// records would be put back into an index that lacks them.
func (s *Service) dropPending() {
	if s.opts.Pending == "" {
		return
	}
	if err := s.files.Remove(s.opts.Pending); err != nil {
		s.opts.Warn(fmt.Sprintf("the export holds every record now, but the pending journal %s cannot be removed (%v); remove it by hand", s.opts.Pending, err))
	}
}

// readPending returns the records of the pending journal at path, the
// newest of each id (the higher version, or at equal versions the later
// update), in the order of their first line, and how many lines could not
// be read (a line cut short by a crash during its append).
func readPending(f Files, path string) ([]Issue, int, error) {
	data, err := f.ReadFile(path)
	if err != nil {
		return nil, 0, err
	}
	var out []Issue
	at := map[string]int{}
	bad := 0
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		i, err := decodeLine([]byte(l))
		if err == nil {
			err = i.Validate("")
		}
		if err != nil {
			bad++
			continue
		}
		i.Normalize()
		if k, ok := at[i.ID]; ok {
			if newer(i, out[k]) {
				out[k] = i
			}
			continue
		}
		at[i.ID] = len(out)
		out = append(out, i)
	}
	return out, bad, nil
}

// newer reports whether a is a later state of a record than b: the higher
// version, or at equal versions the later update (mergeDirty's rule).
func newer(a, b Issue) bool {
	return a.Version > b.Version || (a.Version == b.Version && a.UpdatedAt > b.UpdatedAt)
}

// restorePending puts the pending journal's records back into the index
// where it lacks them or holds an older state (the index was damaged and
// rebuilt from the export, or deleted, after a write exited 3), then
// rewrites the export with them. A failure is said and leaves the journal
// for the next command.
func (s *Service) restorePending(ctx context.Context) {
	if s.opts.Pending == "" || s.refuse != nil {
		return
	}
	recs, bad, err := readPending(s.files, s.opts.Pending)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		s.opts.Warn(fmt.Sprintf("the pending journal %s cannot be read (%v); it is kept", s.opts.Pending, err))
		return
	}
	missing := func(r Reader) ([]string, error) {
		var ids []string
		for _, p := range recs {
			cur, err := r.Get(p.ID)
			switch {
			case errors.Is(err, ErrNotFound):
			case err != nil:
				return nil, err
			case !newer(p, cur):
				continue
			}
			ids = append(ids, p.ID)
		}
		return ids, nil
	}
	var ids []string
	if err := s.idx.Read(ctx, func(r Reader) error {
		var err error
		ids, err = missing(r)
		return err
	}); err != nil {
		s.opts.Warn(fmt.Sprintf("the pending journal %s cannot be compared with the index (%v); it is kept", s.opts.Pending, err))
		return
	}
	if len(ids) == 0 {
		// The index holds them all: the journal outlived an export rewrite.
		s.dropPending()
		return
	}
	err = s.writeJournaled(ctx, true, false, func(w Writer) error {
		var err error
		if ids, err = missing(w); err != nil {
			return err
		}
		for _, p := range recs {
			cur, err := w.Get(p.ID)
			if err == nil && !newer(p, cur) {
				continue
			}
			if err := put(w, p); err != nil {
				return err
			}
			if _, err := w.Allocate(p.ID); err != nil {
				return err
			}
		}
		return nil
	})
	msg := fmt.Sprintf("%d record(s) a write committed and could not export (exit 3) were missing from the index and are put back from the pending journal %s: %s", len(ids), s.opts.Pending, strings.Join(ids, ", "))
	if bad > 0 {
		msg += fmt.Sprintf("; %s of the journal could not be read and %s left out", format.Count(bad, "line"), format.Verb(bad, "be"))
	}
	switch {
	case err == nil:
		s.opts.Warn(msg + "; the export is rewritten with them")
	case errors.Is(err, ErrUnexported):
		s.opts.Warn(msg + "; " + Worded(err, s.opts.Hints))
	default:
		s.opts.Warn(fmt.Sprintf("the pending journal %s holds %d record(s) the index lacks, and they could not be put back (%v); it is kept, and the next command tries again", s.opts.Pending, len(ids), err))
	}
}

// Package docket is docket's domain service: the record rules (validation,
// id allocation, status transitions, dependency cycles) and the export
// protocol (the canonical JSONL file is the truth, the index a cache),
// over the narrow Index interface. server/sqlite keeps only SQL; memindex
// serves tests; the CLI and the MCP tools call this package, so both share
// one validation.
package docket

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/claimslint/claimslint/server"
)

// Options configure Open.
type Options struct {
	// Export is the canonical JSONL file.
	Export string
	// Prefix is set by init. Otherwise the index's prefix is used, or the
	// one the export's first id carries.
	Prefix string
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
	// Workflow maps statuses onto classes; nil means server.DefaultWorkflow.
	Workflow server.Workflow
}

// Service is a docket tracker: an index kept in line with its export.
type Service struct {
	idx    Index
	opts   Options
	prefix string

	// seen remembers the export's size and mtime when this process last
	// found it in sync, so a long-lived reader (docket mcp) does not hash
	// the whole file on every call (dk-aut).
	seenMu sync.Mutex
	seen   fileKey
}

// fileKey identifies a version of the export cheaply. verified is when the
// hash was last found equal; a key is trusted only for a file whose mtime
// is older than verified minus racyWindow, because a write within the same
// clock tick can keep size and mtime (git's "racily clean" rule).
type fileKey struct {
	size     int64
	mtime    time.Time
	verified time.Time
}

const racyWindow = time.Second

var _ server.Store = (*Service)(nil)

// ErrNoTracker is returned by Open when neither an index nor an export
// exists and no prefix was given: there is no tracker here yet.
var ErrNoTracker = errors.New("no docket tracker here")

// Open brings idx in line with the export: rebuilt from it if the export
// changed, or the export rewritten if a previous writer died between its
// commit and its rewrite. The service owns idx from here and closes it.
func Open(ctx context.Context, idx Index, opts Options) (*Service, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Workflow == nil {
		opts.Workflow = server.DefaultWorkflow
	}
	s := &Service{idx: idx, opts: opts}
	if err := s.init(ctx); err != nil {
		idx.Close()
		return nil, err
	}
	return s, nil
}

// Close releases the index.
func (s *Service) Close() error { return s.idx.Close() }

// Prefix returns the id prefix of the tracker.
func (s *Service) Prefix() string { return s.prefix }

// Workflow returns the status mapping the service uses.
func (s *Service) Workflow() server.Workflow { return s.opts.Workflow }

// init records the prefix, then syncs the index with the export.
func (s *Service) init(ctx context.Context) error {
	err := s.idx.Write(ctx, func(w Writer) error {
		p, err := w.Meta("prefix")
		if err != nil {
			return err
		}
		if s.opts.Prefix != "" {
			if err := server.ValidPrefix(s.opts.Prefix); err != nil {
				return err
			}
			if p != "" && p != s.opts.Prefix {
				return server.Invalidf("this tracker's prefix is %q, not %q", p, s.opts.Prefix)
			}
			p = s.opts.Prefix
			if err := w.SetMeta("prefix", p); err != nil {
				return err
			}
		}
		s.prefix = p
		return nil
	})
	if err != nil {
		return err
	}
	return s.write(ctx, false, nil)
}

// write runs fn in a write transaction after bringing the index in line
// with the export. When changed is true (or the sync found the export
// stale) the transaction marks the export dirty and the export is rewritten
// from the committed state afterwards. fn may be nil: then write only
// syncs.
func (s *Service) write(ctx context.Context, changed bool, fn func(w Writer) error) error {
	var export bool
	err := s.idx.Write(ctx, func(w Writer) error {
		stale, err := s.syncTx(w)
		if err != nil {
			return err
		}
		if fn != nil {
			if err := fn(w); err != nil {
				return err
			}
		}
		export = changed || stale
		if export {
			// Marked in the same transaction as the change: a writer killed
			// after this commit and before its export rewrite leaves a flag
			// the next start acts on.
			if err := w.SetMeta("export_dirty", "1"); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil || !export {
		return err
	}
	return s.idx.Write(ctx, s.rewriteExport)
}

// syncTx brings the index in line with the export inside a write
// transaction. When the export's hash differs from the one recorded at the
// last rewrite, the export changed under the index (a pull, a checkout, a
// merge, a hand edit) and the index is rebuilt from it; an export that does
// not parse leaves the index untouched and returns the bad line. stale
// reports that the export must be rewritten from the index: it is missing,
// or the last writer died between its commit and its rewrite.
func (s *Service) syncTx(w Writer) (stale bool, err error) {
	data, err := os.ReadFile(s.opts.Export)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("read export: %w", err)
	}
	stored, dirty, err := exportState(w)
	if err != nil {
		return false, err
	}
	h := server.Hash(data)
	if h == stored {
		return dirty, nil
	}
	if err := s.rebuild(w, data); err != nil {
		return false, err
	}
	if err := w.SetMeta("export_hash", h); err != nil {
		return false, err
	}
	return false, w.SetMeta("export_dirty", "0")
}

// exportState reads the hash of the export this index last wrote and
// whether a committed change is still waiting to be exported.
func exportState(r Reader) (hash string, dirty bool, err error) {
	if hash, err = r.Meta("export_hash"); err != nil {
		return "", false, err
	}
	d, err := r.Meta("export_dirty")
	return hash, d == "1", err
}

// rebuild replaces the index's issues with the export's. Allocated ids are
// kept, so ids drawn on another branch stay taken.
func (s *Service) rebuild(w Writer, data []byte) error {
	prefix := s.prefix
	if prefix == "" {
		prefix = inferPrefix(data)
	}
	issues, err := server.ReadJSONL(s.opts.Export, bytes.NewReader(data), "")
	if err != nil {
		return fmt.Errorf("the export cannot be read, so the index was not rebuilt from it (nothing changed); fix the line or restore the file with git: %w", err)
	}
	if err := w.Clear(); err != nil {
		return err
	}
	for _, i := range issues {
		if err := put(w, i); err != nil {
			return err
		}
		if _, err := w.Allocate(i.ID); err != nil {
			return err
		}
	}
	if s.prefix == "" && prefix != "" {
		s.prefix = prefix
		return w.SetMeta("prefix", prefix)
	}
	return nil
}

// inferPrefix reads the prefix off the export's first id, for an index
// created from a fresh clone.
func inferPrefix(data []byte) string {
	line, _, _ := bytes.Cut(bytes.TrimSpace(data), []byte("\n"))
	issues, err := server.ReadJSONL("", bytes.NewReader(line), "")
	if err != nil || len(issues) == 0 {
		return ""
	}
	p, _, _ := server.SplitID(issues[0].ID)
	return p
}

// put stores a normalized record with its canonical line.
func put(w Writer, i server.Issue) error {
	i.Normalize()
	line, err := server.MarshalLine(i)
	if err != nil {
		return err
	}
	return w.Put(i, line)
}

// rewriteExport writes the committed state to the export inside a write
// transaction, so two writers cannot interleave their rewrites and leave an
// older state on disk: temp file in the same directory, fsync, rename,
// fsync of the directory, then the new hash is recorded and the dirty flag
// cleared.
func (s *Service) rewriteExport(w Writer) error {
	data, err := exportOf(w)
	if err != nil {
		return err
	}
	if err := writeAtomic(s.opts.Export, data); err != nil {
		return err
	}
	if err := w.SetMeta("export_hash", server.Hash(data)); err != nil {
		return err
	}
	return w.SetMeta("export_dirty", "0")
}

// exportOf joins the stored canonical lines in id order.
func exportOf(r Reader) ([]byte, error) {
	var buf bytes.Buffer
	err := r.Lines(func(line []byte) error {
		buf.Write(line)
		buf.WriteByte('\n')
		return nil
	})
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create export directory: %w", err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-"+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return fmt.Errorf("write export: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a successful rename this is a no-op
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write export: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("fsync export: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write export: %w", err)
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		return fmt.Errorf("write export: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("replace export: %w", err)
	}
	// The rename is durable only once the directory entry is on disk.
	if df, err := os.Open(dir); err == nil {
		df.Sync()
		df.Close()
	}
	return nil
}

// ensureSynced is the read path's check: a cheap comparison of the export's
// hash in a read transaction, and a locked sync only when it differs.
func (s *Service) ensureSynced(ctx context.Context) error {
	fi, statErr := os.Stat(s.opts.Export)
	if statErr == nil {
		s.seenMu.Lock()
		k := s.seen
		s.seenMu.Unlock()
		if k.size == fi.Size() && k.mtime.Equal(fi.ModTime()) && fi.ModTime().Before(k.verified.Add(-racyWindow)) {
			return nil // unchanged since it was last found in sync
		}
	}
	verified := time.Now()
	data, err := os.ReadFile(s.opts.Export)
	if err == nil {
		var stored string
		var dirty bool
		err := s.idx.Read(ctx, func(r Reader) error {
			var err error
			stored, dirty, err = exportState(r)
			return err
		})
		if err == nil && stored == server.Hash(data) && !dirty {
			if statErr == nil && int64(len(data)) == fi.Size() {
				s.seenMu.Lock()
				s.seen = fileKey{size: fi.Size(), mtime: fi.ModTime(), verified: verified}
				s.seenMu.Unlock()
			}
			return nil
		}
	}
	return s.write(ctx, false, nil)
}

// read syncs, then runs fn on a snapshot.
func (s *Service) read(ctx context.Context, fn func(r Reader) error) error {
	if err := s.ensureSynced(ctx); err != nil {
		return err
	}
	return s.idx.Read(ctx, fn)
}

// Export returns the canonical export of the committed state.
func (s *Service) Export(ctx context.Context) ([]byte, error) {
	var data []byte
	err := s.read(ctx, func(r Reader) error {
		var err error
		data, err = exportOf(r)
		return err
	})
	return data, err
}

// RewriteExport writes the canonical export of the index to the export
// path, for an export that was hand-edited into a valid but non-canonical
// form, or deleted.
func (s *Service) RewriteExport(ctx context.Context) error {
	if err := s.ensureSynced(ctx); err != nil {
		return err
	}
	return s.idx.Write(ctx, s.rewriteExport)
}

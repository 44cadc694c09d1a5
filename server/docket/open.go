package docket

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
)

// Backend is what every index adapter gives Open, whatever it stores its
// index in: a way to open it, for writing or for reading only. It assumes
// no local file: a backend on a shared server (a team's Postgres) is one
// package that implements these four methods, and Open serves it as it
// serves SQLite, less the duties that only a file beside the export has
// (see LocalBackend). The recipe is server/storetest/BACKENDS.md.
type Backend interface {
	// Path names the index in messages (a file path, a connection's
	// name without its secrets). For a LocalBackend, its lock
	// (Path+".lock"), id log (IDLog(Path)) and pending journal
	// (PendingLog(Path)) sit beside it.
	Path() string
	// Exists reports whether the index is there already: a tracker
	// with neither index nor export is not set up.
	Exists() bool
	// OpenIndex opens the index, creating it when missing. The index keeps
	// whatever it precomputes (blocked flags) for w's closed class.
	OpenIndex(ctx context.Context, w Workflow) (Index, error)
	// Peek opens the index as it is, for reading only: it creates,
	// migrates and writes nothing, and fails when there is no index or
	// it cannot be read (docket export --check, D67).
	Peek(ctx context.Context) (Index, error)
}

// LocalBackend is the capability of a backend whose index is files in the
// clone, beside the export (SQLite). Open gives such a backend what only
// local files need: the lock file that orders two processes of one clone,
// the id log and the pending journal that survive damage to the index,
// every path checked beneath the root before it is opened (D67), and a
// damaged index set aside and rebuilt from the export (D39).
type LocalBackend interface {
	Backend
	// Files lists the files beside Path that the backend opens, creates
	// or moves by path (SQLite's -wal, -shm and -journal, the names a
	// damaged index is moved to). Open checks each of them, and Path,
	// right before every open: beneath the root, through no link, a
	// regular file or none (D67).
	Files() []string
	// Damaged reports whether err, from OpenIndex or from the service's
	// first sync over it, says the index is damaged rather than busy or
	// unwritable: a damaged index is set aside and rebuilt.
	Damaged(err error) bool
	// SetAside moves a damaged index out of the way, to aside, and returns
	// the drawn ids it could still read.
	SetAside() (aside string, salvaged []string, err error)
}

// IDLog is the file beside the index at path that every drawn id is
// appended to (Options.IDLog): it survives damage to the index, and a new
// index takes its ids back (dk-vy8).
func IDLog(path string) string { return path + ".ids" }

// Open opens the index b gives and the service over it: the wiring every
// command uses. A damaged index is set aside and rebuilt from the export:
// it is only a cache. opts.IDLog defaults to IDLog(b.Path()), opts.Pending
// to PendingLog(b.Path()). Every file lies beneath opts.Root, reached
// through no link (D67): a path that is not is refused before anything is
// opened, with an error wrapping ErrUnsafePath.
func Open(ctx context.Context, b Backend, opts Options) (*Service, error) {
	files, err := NewFiles(opts.Root)
	if err != nil {
		return nil, err
	}
	if opts.Warn == nil {
		opts.Warn = func(string) {}
	}
	if opts.Workflow == nil {
		opts.Workflow = DefaultWorkflow
	}
	if opts.Distrust != "" {
		return openDistrusted(ctx, files, opts)
	}
	lb, local := b.(LocalBackend)
	if !local {
		return openShared(ctx, files, b, opts)
	}
	if opts.IDLog == "" {
		opts.IDLog = IDLog(b.Path())
	}
	if opts.Pending == "" {
		opts.Pending = PendingLog(b.Path())
	}
	lock := b.Path() + ".lock"
	// Every file, before any is opened: a refusal changes nothing.
	for _, p := range append([]string{opts.Export, lock, opts.IDLog, opts.Pending}, indexFiles(lb)...) {
		if err := files.Check(p); err != nil {
			return nil, err
		}
	}
	_, exErr := files.Stat(opts.Export)
	exists := b.Exists()
	if !exists && errors.Is(exErr, fs.ErrNotExist) && opts.Prefix == "" {
		return nil, fmt.Errorf("%w: no index at %s and no export at %s; run docket init --prefix dk", ErrNoTracker, b.Path(), opts.Export)
	}
	if err := files.MkdirAll(filepath.Dir(b.Path())); err != nil {
		return nil, fmt.Errorf("create index directory: %w", err)
	}
	// Opening holds a shared lock on Path.lock until the index is in line
	// with the export; setting a damaged index aside holds it exclusively,
	// so no open meets an index half moved aside, and two processes that
	// both found it damaged do not both move it (dk-1wf).
	unlock := lockPath(files, lock, false)
	// A new index (none yet, or one deleted by hand) takes back the ids
	// the id log says were drawn, so none is drawn again.
	var keep []string
	if !exists {
		keep, _ = readIDLog(files, opts.IDLog)
	}
	s, err := openWith(ctx, files, b, opts, keep)
	unlock()
	if lb.Damaged(err) && exErr == nil {
		defer lockPath(files, lock, true)()
		// Another process may have rebuilt it while this one waited.
		if s, err = openWith(ctx, files, b, opts, nil); !lb.Damaged(err) {
			return restored(ctx, s, err)
		}
		if cerr := checkIndex(files, b); cerr != nil {
			return nil, cerr
		}
		aside, salvaged, rerr := lb.SetAside()
		if rerr != nil {
			return nil, fmt.Errorf("the index %s is damaged (%v) and cannot be moved aside: %w; delete it, the export rebuilds it", b.Path(), err, rerr)
		}
		// Ids drawn on a branch that is not checked out are in no export
		// here: take them back from the damaged index's readable rows and
		// from the id log (dk-vy8).
		logged, logErr := readIDLog(files, opts.IDLog)
		keep := append(salvaged, logged...)
		msg := fmt.Sprintf("the index %s was damaged (%v); it was moved to %s and rebuilt from the export %s", b.Path(), err, aside, opts.Export)
		msg += fmt.Sprintf("; ids drawn before stay taken: %d read from the damaged index, %d from the id log %s", len(salvaged), len(logged), opts.IDLog)
		if logErr != nil {
			msg += fmt.Sprintf(" (%v)", logErr)
		}
		opts.Warn(msg)
		s, err := openWith(ctx, files, b, opts, keep)
		return restored(ctx, s, err)
	}
	return restored(ctx, s, err)
}

// restored puts the pending journal's records back into the index an
// open returned, when it lacks them (D67).
func restored(ctx context.Context, s *Service, err error) (*Service, error) {
	if err == nil {
		s.restorePending(ctx)
	}
	return s, err
}

// openShared opens a backend that keeps no file in the clone: the export
// is checked beneath the root and read as for every backend; there is no
// lock file, id log or pending journal (the backend's own transactions
// order writers and keep drawn ids), and an index that fails to open is
// an error, never set aside.
func openShared(ctx context.Context, files Files, b Backend, opts Options) (*Service, error) {
	if err := files.Check(opts.Export); err != nil {
		return nil, err
	}
	opts.IDLog, opts.Pending = "", ""
	if _, exErr := files.Stat(opts.Export); !b.Exists() && errors.Is(exErr, fs.ErrNotExist) && opts.Prefix == "" {
		return nil, fmt.Errorf("%w: no index at %s and no export at %s; run docket init --prefix dk", ErrNoTracker, b.Path(), opts.Export)
	}
	return openWith(ctx, files, b, opts, nil)
}

// indexFiles lists the index and every file beside it a local backend
// opens by path; a shared backend has none.
func indexFiles(b Backend) []string {
	lb, ok := b.(LocalBackend)
	if !ok {
		return nil
	}
	return append([]string{lb.Path()}, lb.Files()...)
}

// checkIndex checks the index's files right before the backend opens or
// moves them by path.
func checkIndex(files Files, b Backend) error {
	for _, p := range indexFiles(b) {
		if err := files.Check(p); err != nil {
			return err
		}
	}
	return nil
}

// openDistrusted serves the export from an in-memory index, without
// opening the index opts.Distrust says is not this clone's: every write is
// refused (D67).
func openDistrusted(ctx context.Context, files Files, opts Options) (*Service, error) {
	if err := files.Check(opts.Export); err != nil {
		return nil, err
	}
	if opts.Fallback == nil {
		return nil, fmt.Errorf("%w: %s", ErrDistrusted, opts.Distrust)
	}
	_, exErr := files.Stat(opts.Export)
	if errors.Is(exErr, fs.ErrNotExist) && opts.Prefix == "" {
		return nil, fmt.Errorf("%w: no export at %s, and the index a commit brought is not used (D67)", ErrNoTracker, opts.Export)
	}
	opts.IDLog, opts.Pending = "", ""
	return New(ctx, opts.Fallback(), opts)
}

// openWith opens the index and the service over it; keep are ids to record
// as allocated first (a new index taking back drawn ids).
func openWith(ctx context.Context, files Files, b Backend, opts Options, keep []string) (*Service, error) {
	// SQLite opens the index's files by path: they are checked right
	// before (D67).
	if err := checkIndex(files, b); err != nil {
		return nil, err
	}
	idx, err := b.OpenIndex(ctx, opts.Workflow)
	if err != nil {
		return nil, err
	}
	if len(keep) > 0 {
		err := idx.Write(ctx, func(w Writer) error {
			for _, id := range keep {
				if _, err := w.Allocate(id); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			idx.Close()
			return nil, fmt.Errorf("record drawn ids in the new index: %w", err)
		}
	}
	return New(ctx, idx, opts)
}

// readIDLog returns the ids in the id log, one a line; a missing log holds
// none.
func readIDLog(files Files, path string) ([]string, error) {
	data, err := files.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read id log: %w", err)
	}
	var ids []string
	for _, l := range strings.Split(string(data), "\n") {
		if _, _, ok := SplitID(l); ok {
			ids = append(ids, l)
		}
	}
	return ids, nil
}

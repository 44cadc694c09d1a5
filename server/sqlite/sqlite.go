// Package sqlite is docket's working index on an embedded, pure-Go SQLite
// database (modernc.org/sqlite), the only package that imports the driver.
// It implements docket.Index and keeps only SQL: the record rules and the
// export protocol live in server/docket.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/claimslint/claimslint/server"
	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/docket/memindex"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// indexSchema versions the tables below. An index of another version is
// dropped and rebuilt from the export: the index is only a cache.
const indexSchema = "5"

const ddl = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
-- The listing columns only: a narrow row, so scans and lookups by id stay
-- in few pages. blocked says whether something unfinished blocks the issue,
-- directly or through a parent, under the finished statuses named in meta
-- blocked_for; every write transaction settles it before it commits (D58).
CREATE TABLE IF NOT EXISTS issues(
	id TEXT PRIMARY KEY,
	title TEXT NOT NULL,
	status TEXT NOT NULL,
	type TEXT NOT NULL,
	priority INTEGER NOT NULL,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL,
	version INTEGER NOT NULL,
	blocked INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS records(id TEXT PRIMARY KEY, record TEXT NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS issues_status ON issues(status, priority, created_at, id);
CREATE INDEX IF NOT EXISTS issues_ready ON issues(status, priority, created_at, id) WHERE blocked = 0;
CREATE INDEX IF NOT EXISTS issues_order ON issues(priority, created_at, id);
-- How many issues have each status and blocked flag, kept by triggers, so
-- a page's total is a sum over a few rows, not a count over every issue.
CREATE TABLE IF NOT EXISTS tally(status TEXT NOT NULL, blocked INTEGER NOT NULL, n INTEGER NOT NULL, PRIMARY KEY(status, blocked)) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS tally_insert AFTER INSERT ON issues BEGIN
	INSERT INTO tally(status, blocked, n) VALUES(new.status, new.blocked, 1) ON CONFLICT(status, blocked) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER IF NOT EXISTS tally_delete AFTER DELETE ON issues BEGIN
	UPDATE tally SET n = n - 1 WHERE status = old.status AND blocked = old.blocked;
END;
CREATE TRIGGER IF NOT EXISTS tally_update AFTER UPDATE OF status, blocked ON issues
	WHEN old.status IS NOT new.status OR old.blocked IS NOT new.blocked BEGIN
	UPDATE tally SET n = n - 1 WHERE status = old.status AND blocked = old.blocked;
	INSERT INTO tally(status, blocked, n) VALUES(new.status, new.blocked, 1) ON CONFLICT(status, blocked) DO UPDATE SET n = n + 1;
END;
-- Keyed by issue first, so rewriting one issue's rows is a range delete;
-- the second index serves the list filters.
CREATE TABLE IF NOT EXISTS labels(id TEXT NOT NULL, label TEXT NOT NULL, PRIMARY KEY(id, label)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS labels_label ON labels(label, id);
CREATE TABLE IF NOT EXISTS decisions(id TEXT NOT NULL, decision TEXT NOT NULL, PRIMARY KEY(id, decision)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS decisions_decision ON decisions(decision, id);
CREATE TABLE IF NOT EXISTS deps(src TEXT NOT NULL, type TEXT NOT NULL, dst TEXT NOT NULL, PRIMARY KEY(src, type, dst)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS deps_dst ON deps(dst, type);
-- Full-text search over titles and descriptions (FTS5, in modernc's
-- build): rows keyed by a rowid that issue_rowids gives each id.
CREATE TABLE IF NOT EXISTS issue_rowids(rid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE);
CREATE VIRTUAL TABLE IF NOT EXISTS issues_fts USING fts5(title, description, tokenize = 'unicode61');
-- allocated outlives rebuilds, so an id drawn once is never drawn again,
-- even after a checkout to a commit that predates it.
CREATE TABLE IF NOT EXISTS allocated(id TEXT PRIMARY KEY) WITHOUT ROWID;
`

// tables are the tables a rebuild empties and a schema change drops
// (allocated is neither: it outlives both).
var tables = []string{"issues", "records", "tally", "labels", "decisions", "deps", "issue_rowids", "issues_fts"}

// Options configure Open.
type Options struct {
	// DB is the index file; its directory is created if missing.
	DB string
	// Export is the canonical JSONL file.
	Export string
	// Prefix is set by init. Otherwise the index's prefix is used, or the
	// one the export's ids carry.
	Prefix string
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
	// Warn receives notes about repairs a command made or could not make
	// (an index rebuilt, an export that stays stale while a read goes on);
	// nil discards them.
	Warn func(msg string)
	// BusyRetries bounds how often a write retries after SQLITE_BUSY on top
	// of the busy timeout; 0 means 8.
	BusyRetries int
	// Workflow maps statuses onto classes (docket.Options.Workflow); nil
	// means server.DefaultWorkflow. Its closed class is also the set of finished statuses the index keeps
	// its blocked flags for.
	Workflow server.Workflow
	// NoFallback turns off the in-memory fallback of reads whose sync
	// cannot write (docket.Options.Fallback); tests use it to show what
	// the fallback does.
	NoFallback bool
}

// fallback is the in-memory index a read falls back to when the index
// cannot be synced with a changed export (dk-x2p).
func (opts Options) fallback() func() docket.Index {
	if opts.NoFallback {
		return nil
	}
	return func() docket.Index { return memindex.New() }
}

// ErrNoTracker is docket.ErrNoTracker, for callers that only know this
// package.
var ErrNoTracker = docket.ErrNoTracker

// Open opens the SQLite index at opts.DB (creating it if needed) and the
// docket service over it: the wiring every command and test uses. A
// damaged index is set aside and rebuilt from the export: it is only a
// cache.
func Open(ctx context.Context, opts Options) (*docket.Service, error) {
	_, dbErr := os.Stat(opts.DB)
	_, exErr := os.Stat(opts.Export)
	if errors.Is(dbErr, fs.ErrNotExist) && errors.Is(exErr, fs.ErrNotExist) && opts.Prefix == "" {
		return nil, fmt.Errorf("%w: no index at %s and no export at %s; run docket init --prefix dk", docket.ErrNoTracker, opts.DB, opts.Export)
	}
	if opts.Warn == nil {
		opts.Warn = func(string) {}
	}
	if err := os.MkdirAll(filepath.Dir(opts.DB), 0o755); err != nil {
		return nil, fmt.Errorf("create index directory: %w", err)
	}
	// Opening holds a shared lock on DB.lock until the index is in line
	// with the export; setting a damaged index aside holds it exclusively,
	// so no open meets an index half moved aside, and two processes that
	// both found it damaged do not both move it (dk-1wf).
	lock := opts.DB + ".lock"
	unlock := lockPath(lock, false)
	// A new index (none yet, or one deleted by hand) takes back the ids
	// the id log says were drawn, so none is drawn again.
	var keep []string
	if errors.Is(dbErr, fs.ErrNotExist) {
		keep, _ = readIDLog(IDLog(opts.DB))
	}
	s, err := open(ctx, opts, keep)
	unlock()
	if corrupt(err) && exErr == nil {
		defer lockPath(lock, true)()
		// Another process may have rebuilt it while this one waited.
		if s, err = open(ctx, opts, nil); !corrupt(err) {
			return s, err
		}
		aside := opts.DB + ".corrupt"
		if rerr := os.Rename(opts.DB, aside); rerr != nil {
			return nil, fmt.Errorf("the index %s is damaged (%v) and cannot be moved aside: %w; delete it, the export rebuilds it", opts.DB, err, rerr)
		}
		// The write-ahead log belongs to the damaged file: it goes aside
		// with it, so salvage reads what it holds.
		os.Remove(aside + "-wal")
		os.Rename(opts.DB+"-wal", aside+"-wal")
		os.Remove(opts.DB + "-shm")
		// Ids drawn on a branch that is not checked out are in no export
		// here: take them back from the damaged file's readable rows and
		// from the id log (dk-vy8).
		salvaged := salvageAllocated(aside)
		logged, logErr := readIDLog(IDLog(opts.DB))
		keep := append(salvaged, logged...)
		msg := fmt.Sprintf("the index %s was damaged (%v); it was moved to %s and rebuilt from the export %s", opts.DB, err, aside, opts.Export)
		msg += fmt.Sprintf("; ids drawn before stay taken: %d read from the damaged index, %d from the id log %s", len(salvaged), len(logged), IDLog(opts.DB))
		if logErr != nil {
			msg += fmt.Sprintf(" (%v)", logErr)
		}
		opts.Warn(msg)
		return open(ctx, opts, keep)
	}
	return s, err
}

// IDLog is the file beside the index at db that every drawn id is
// appended to (docket.Options.IDLog): it survives damage to the index
// file, and a rebuilt index takes its ids back (dk-vy8).
func IDLog(db string) string { return db + ".ids" }

// readIDLog returns the ids in the id log, one a line; a missing log holds
// none.
func readIDLog(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read id log: %w", err)
	}
	var ids []string
	for _, l := range strings.Split(string(data), "\n") {
		if _, _, ok := server.SplitID(l); ok {
			ids = append(ids, l)
		}
	}
	return ids, nil
}

// salvageAllocated reads what it can of the allocated table of a damaged
// index: every row up to the first unreadable page, or none when the file
// is not a database at all.
func salvageAllocated(path string) []string {
	db, err := sql.Open("sqlite", "file:"+uriPath(path)+"?mode=ro")
	if err != nil {
		return nil
	}
	defer db.Close()
	rows, err := db.Query(`SELECT id FROM allocated`)
	if err != nil {
		return nil
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if rows.Scan(&id) != nil {
			break
		}
		ids = append(ids, id)
	}
	return ids
}

// open opens the index and the service over it; keep are ids to record
// as allocated first (a new index taking back drawn ids).
func open(ctx context.Context, opts Options, keep []string) (*docket.Service, error) {
	idx, err := OpenIndex(ctx, opts.DB, opts.BusyRetries)
	if err != nil {
		return nil, err
	}
	if len(keep) > 0 {
		err := idx.Write(ctx, func(w docket.Writer) error {
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
	if opts.Workflow != nil {
		idx.finished = finishedOf(opts.Workflow)
	}
	return docket.Open(ctx, idx, docket.Options{Export: opts.Export, Prefix: opts.Prefix, Now: opts.Now, Warn: opts.Warn, Workflow: opts.Workflow, Step: step,
		Fallback: opts.fallback(), IDLog: IDLog(opts.DB)})
}

// stepHook, when set (by the fault-injection tests only, in a child
// process they SIGKILL), is called at each step of a write (see
// docket.Options.Step).
var stepHook func(step string)

func step(name string) {
	if stepHook != nil {
		stepHook(name)
	}
}

// corrupt reports SQLite's "file is not a database" and "database disk
// image is malformed".
func corrupt(err error) bool {
	var c interface{ Code() int }
	if errors.As(err, &c) {
		code := c.Code() & 0xff
		return code == 26 || code == 11 // SQLITE_NOTADB, SQLITE_CORRUPT
	}
	return false
}

// uriPath escapes the bytes SQLite's URI file names give a meaning to, so
// an index path holding ?, # or % names that file and no other.
func uriPath(p string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(filepath.ToSlash(p))
}

// Index is the SQLite docket.Index.
type Index struct {
	rdb     *sql.DB // deferred transactions, for reads
	wdb     *sql.DB // BEGIN IMMEDIATE, for writes
	retries int
	// finished are the statuses whose issues no longer block, sorted: the
	// blocked flags are kept for them (the workflow's closed class).
	finished []server.Status
}

var _ docket.Index = (*Index)(nil)

// OpenIndex opens (creating if needed) the index at path and brings its
// schema to this version; busyRetries bounds how often a write retries
// after SQLITE_BUSY on top of the busy timeout (0 means 8).
func OpenIndex(ctx context.Context, path string, busyRetries int) (*Index, error) {
	if busyRetries == 0 {
		busyRetries = 8
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create index directory: %w", err)
	}
	x := &Index{retries: busyRetries, finished: finishedOf(server.DefaultWorkflow)}
	var err error
	if x.rdb, err = openDB(path, false); err != nil {
		return nil, err
	}
	if x.wdb, err = openDB(path, true); err != nil {
		x.rdb.Close()
		return nil, err
	}
	// A first open of a new file meets another process turning it into a
	// WAL database with SQLITE_BUSY, which the busy timeout does not cover.
	var ok bool
	if err := x.withRetry(ctx, func() error {
		var err error
		ok, err = x.current(ctx, path)
		return err
	}); err != nil {
		x.Close()
		return nil, err
	} else if ok {
		// Nothing to create: no write, so reads work on a full disk.
		return x, nil
	}
	err = x.withRetry(ctx, func() error {
		tx, err := x.wdb.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("begin write: %w", err)
		}
		defer tx.Rollback()
		if err := initSchema(ctx, tx); err != nil {
			return err
		}
		return tx.Commit()
	})
	if err != nil {
		x.Close()
		return nil, err
	}
	return x, nil
}

func openDB(path string, immediate bool) (*sql.DB, error) {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	// Statement journals (an upsert, a trigger) stay in memory instead of
	// a temp file.
	q.Add("_pragma", "temp_store(MEMORY)")
	if immediate {
		q.Set("_txlock", "immediate")
	}
	db, err := sql.Open("sqlite", "file:"+uriPath(path)+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w", path, err)
	}
	if immediate {
		// One writer per process is all SQLite allows anyway; a second
		// connection would only wait on the first.
		db.SetMaxOpenConns(1)
	}
	return db, nil
}

// Close releases the database handles.
func (x *Index) Close() error {
	return errors.Join(x.rdb.Close(), x.wdb.Close())
}

// current reads, without a write lock, whether the schema is this
// version's; then there is nothing to create.
func (x *Index) current(ctx context.Context, path string) (bool, error) {
	var n int
	err := x.rdb.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type='table' AND name='meta'`).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("open index %s: %w", path, err)
	}
	if n == 0 {
		return false, nil
	}
	var v string
	err = x.rdb.QueryRowContext(ctx, `SELECT value FROM meta WHERE key='index_schema'`).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("open index %s: %w", path, err)
	}
	return v == indexSchema, nil
}

func initSchema(ctx context.Context, tx *sql.Tx) error {
	var v string
	err := tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key='index_schema'`).Scan(&v)
	if err == nil && v != indexSchema {
		// An index from another docket version: drop it, the export
		// rebuilds it (the prefix goes with meta and comes back from the
		// export's ids).
		for _, t := range append([]string{"meta"}, tables...) {
			if _, err := tx.ExecContext(ctx, `DROP TABLE IF EXISTS `+t); err != nil {
				return fmt.Errorf("drop old index: %w", err)
			}
		}
	}
	if _, err := tx.ExecContext(ctx, ddl); err != nil {
		return fmt.Errorf("create index schema: %w", err)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES('index_schema', ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value`, indexSchema)
	return err
}

// Read runs fn in a deferred transaction: one snapshot.
func (x *Index) Read(ctx context.Context, fn func(docket.Reader) error) error {
	tx, err := x.rdb.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("begin read: %w", err)
	}
	defer tx.Rollback()
	return fn(&txn{ctx: ctx, tx: tx})
}

// Write runs fn in a BEGIN IMMEDIATE transaction, retrying a bounded number
// of times when another process holds the lock past the busy timeout.
func (x *Index) Write(ctx context.Context, fn func(docket.Writer) error) error {
	return x.withRetry(ctx, func() error {
		tx, err := x.wdb.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("begin write: %w", err)
		}
		defer tx.Rollback()
		t := &txn{ctx: ctx, tx: tx, finished: x.finished}
		if err := fn(t); err != nil {
			return err
		}
		if err := t.flushFTS(); err != nil {
			return err
		}
		if err := t.settle(); err != nil {
			return err
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("commit: %w", err)
		}
		return nil
	})
}

// busy reports whether err is SQLite's "database is locked": another
// process held the write lock past the busy timeout.
func busy(err error) bool {
	var c interface{ Code() int }
	if errors.As(err, &c) {
		code := c.Code() & 0xff
		return code == 5 || code == 6 // SQLITE_BUSY, SQLITE_LOCKED
	}
	return false
}

func (x *Index) withRetry(ctx context.Context, fn func() error) error {
	var err error
	for attempt := 0; attempt <= x.retries; attempt++ {
		err = fn()
		if !busy(err) {
			return err
		}
		wait := time.Duration(10+rand.IntN(40<<attempt)) * time.Millisecond
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
	return fmt.Errorf("index stayed locked by another docket process after %d retries: %w", x.retries, err)
}

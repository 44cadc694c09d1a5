// Package sqlite implements server.Store on an embedded, pure-Go SQLite
// database (modernc.org/sqlite), the only package that imports the driver.
//
// The database is a working index, a cache of the canonical JSONL export:
// every write commits a transaction, then rewrites the export from the
// committed state under the database's write lock; whenever the export's
// content hash differs from the one this index last wrote, the index is
// rebuilt from the export before anything else is done.
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
	"sync"
	"time"

	"github.com/claimslint/claimslint/server"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// indexSchema versions the tables below. An index of another version is
// dropped and rebuilt from the export: the index is only a cache.
const indexSchema = "2"

const ddl = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS issues(
	id TEXT PRIMARY KEY,
	status TEXT NOT NULL,
	type TEXT NOT NULL,
	priority INTEGER NOT NULL,
	created_at TEXT NOT NULL,
	version INTEGER NOT NULL,
	record TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS issues_status ON issues(status, priority, created_at);
-- Keyed by issue first, so rewriting one issue's rows is a range delete;
-- the second index serves the list filters.
CREATE TABLE IF NOT EXISTS labels(id TEXT NOT NULL, label TEXT NOT NULL, PRIMARY KEY(id, label)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS labels_label ON labels(label, id);
CREATE TABLE IF NOT EXISTS decisions(id TEXT NOT NULL, decision TEXT NOT NULL, PRIMARY KEY(id, decision)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS decisions_decision ON decisions(decision, id);
CREATE TABLE IF NOT EXISTS deps(src TEXT NOT NULL, type TEXT NOT NULL, dst TEXT NOT NULL, PRIMARY KEY(src, type, dst)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS deps_dst ON deps(dst, type);
-- allocated outlives rebuilds, so an id drawn once is never drawn again,
-- even after a checkout to a commit that predates it.
CREATE TABLE IF NOT EXISTS allocated(id TEXT PRIMARY KEY) WITHOUT ROWID;
`

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
}

// DB is the SQLite-backed server.Store.
type DB struct {
	opts   Options
	rdb    *sql.DB // deferred transactions, for reads
	wdb    *sql.DB // BEGIN IMMEDIATE, for writes
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

var _ server.Store = (*DB)(nil)

// ErrNoTracker is returned by Open when neither an index nor an export
// exists and no prefix was given: there is no tracker here yet.
var ErrNoTracker = errors.New("no docket tracker here")

// Open opens (creating if needed) the index at opts.DB, then brings it in
// line with the export: rebuilt from it if the export changed, or the export
// rewritten if a previous writer died between its commit and its rewrite.
func Open(ctx context.Context, opts Options) (*DB, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.BusyRetries == 0 {
		opts.BusyRetries = 8
	}
	_, dbErr := os.Stat(opts.DB)
	_, exErr := os.Stat(opts.Export)
	if errors.Is(dbErr, fs.ErrNotExist) && errors.Is(exErr, fs.ErrNotExist) && opts.Prefix == "" {
		return nil, fmt.Errorf("%w: no index at %s and no export at %s; run docket init --prefix dk", ErrNoTracker, opts.DB, opts.Export)
	}
	if err := os.MkdirAll(filepath.Dir(opts.DB), 0o755); err != nil {
		return nil, fmt.Errorf("create index directory: %w", err)
	}
	if opts.Warn == nil {
		opts.Warn = func(string) {}
	}
	d, err := open(ctx, opts)
	if corrupt(err) && exErr == nil {
		// The index is a cache of the export: set the damaged file aside
		// and build a new one from the export.
		aside := opts.DB + ".corrupt"
		if rerr := os.Rename(opts.DB, aside); rerr != nil {
			return nil, fmt.Errorf("the index %s is damaged (%v) and cannot be moved aside: %w; delete it, the export rebuilds it", opts.DB, err, rerr)
		}
		os.Remove(opts.DB + "-wal")
		os.Remove(opts.DB + "-shm")
		opts.Warn(fmt.Sprintf("the index %s was damaged (%v); it was moved to %s and rebuilt from the export %s", opts.DB, err, aside, opts.Export))
		return open(ctx, opts)
	}
	return d, err
}

func open(ctx context.Context, opts Options) (*DB, error) {
	d := &DB{opts: opts}
	var err error
	if d.rdb, err = openDB(opts.DB, false); err != nil {
		return nil, err
	}
	if d.wdb, err = openDB(opts.DB, true); err != nil {
		d.rdb.Close()
		return nil, err
	}
	if err := d.init(ctx); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
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

func openDB(path string, immediate bool) (*sql.DB, error) {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
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
func (d *DB) Close() error {
	return errors.Join(d.rdb.Close(), d.wdb.Close())
}

// Prefix returns the id prefix of the tracker.
func (d *DB) Prefix() string { return d.prefix }

// init creates or upgrades the schema and records the prefix, then syncs
// the index with the export.
func (d *DB) init(ctx context.Context) error {
	if ok, err := d.current(ctx); err != nil {
		return err
	} else if ok {
		// Nothing to create: no write, so reads work on a full disk.
		return d.ensureSynced(ctx)
	}
	err := d.withRetry(ctx, func() error {
		tx, err := d.wdb.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("begin write: %w", err)
		}
		defer tx.Rollback()
		if err := d.initTx(ctx, tx); err != nil {
			return err
		}
		return tx.Commit()
	})
	if err != nil {
		return err
	}
	return d.ensureSynced(ctx)
}

// current reads, without a write lock, whether the schema is this
// version's and the prefix is already the one asked for; then init has
// nothing to write.
func (d *DB) current(ctx context.Context) (bool, error) {
	var n int
	err := d.rdb.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type='table' AND name='meta'`).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("open index %s: %w", d.opts.DB, err)
	}
	if n == 0 {
		return false, nil
	}
	v, err := getMeta(ctx, d.rdb, "index_schema")
	if err != nil || v != indexSchema {
		return false, err
	}
	p, err := getMeta(ctx, d.rdb, "prefix")
	if err != nil {
		return false, err
	}
	if d.opts.Prefix != "" && p != d.opts.Prefix {
		return false, nil
	}
	d.prefix = p
	return true, nil
}

func (d *DB) initTx(ctx context.Context, tx *sql.Tx) error {
	{
		var v string
		err := tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key='index_schema'`).Scan(&v)
		if err == nil && v != indexSchema {
			// An index from another docket version: drop it, the export
			// rebuilds it.
			for _, t := range []string{"meta", "issues", "labels", "decisions", "deps"} {
				if _, err := tx.ExecContext(ctx, `DROP TABLE IF EXISTS `+t); err != nil {
					return fmt.Errorf("drop old index: %w", err)
				}
			}
		}
		if _, err := tx.ExecContext(ctx, ddl); err != nil {
			return fmt.Errorf("create index schema: %w", err)
		}
		if err := setMeta(ctx, tx, "index_schema", indexSchema); err != nil {
			return err
		}
		p, err := getMeta(ctx, tx, "prefix")
		if err != nil {
			return err
		}
		if d.opts.Prefix != "" {
			if err := server.ValidPrefix(d.opts.Prefix); err != nil {
				return err
			}
			if p != "" && p != d.opts.Prefix {
				return server.Invalidf("this tracker's prefix is %q, not %q", p, d.opts.Prefix)
			}
			p = d.opts.Prefix
			if err := setMeta(ctx, tx, "prefix", p); err != nil {
				return err
			}
		}
		d.prefix = p
		return nil
	}
}

func getMeta(ctx context.Context, q queryer, key string) (string, error) {
	var v string
	err := q.QueryRowContext(ctx, `SELECT value FROM meta WHERE key=?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read index meta %s: %w", key, err)
	}
	return v, nil
}

func setMeta(ctx context.Context, tx *sql.Tx, key, value string) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value`, key, value); err != nil {
		return fmt.Errorf("write index meta %s: %w", key, err)
	}
	return nil
}

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
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

// write runs fn in a BEGIN IMMEDIATE transaction after bringing the index
// in line with the export, retrying a bounded number of times when another
// writer holds the lock past the busy timeout. When changed is true (or the
// sync found the export stale) the transaction marks the export dirty and
// the export is rewritten from the committed state afterwards. fn may be
// nil: then write only syncs.
func (d *DB) write(ctx context.Context, changed bool, fn func(tx *sql.Tx) error) error {
	var export bool
	err := d.withRetry(ctx, func() error {
		tx, err := d.wdb.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("begin write: %w", err)
		}
		defer tx.Rollback()
		stale, err := d.syncTx(ctx, tx)
		if err != nil {
			return err
		}
		if fn != nil {
			if err := fn(tx); err != nil {
				return err
			}
		}
		export = changed || stale
		if export {
			// Marked in the same transaction as the change: a writer killed
			// after this commit and before its export rewrite leaves a flag
			// the next start acts on.
			if err := setMeta(ctx, tx, "export_dirty", "1"); err != nil {
				return err
			}
		}
		step("commit")
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("commit: %w", err)
		}
		return nil
	})
	if err != nil || !export {
		return err
	}
	step("committed")
	if err := d.withRetry(ctx, func() error { return d.rewriteExport(ctx) }); err != nil {
		// The change is committed and the dirty flag says so: this is not
		// "nothing changed", and the next command repairs the export.
		return fmt.Errorf("%w (%w); the next docket command rewrites it from the index, or run docket export once the cause is fixed", server.ErrUnexported, err)
	}
	return nil
}

// stepHook, when set (by the fault-injection tests only, in a child
// process they SIGKILL), is called at each step of a write: "commit" before
// the index commit, "committed" after it, "temp" once the new export is
// fsynced under its temp name, "renamed" after the rename and before the
// hash is recorded.
var stepHook func(step string)

func step(name string) {
	if stepHook != nil {
		stepHook(name)
	}
}

func (d *DB) withRetry(ctx context.Context, fn func() error) error {
	var err error
	for attempt := 0; attempt <= d.opts.BusyRetries; attempt++ {
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
	return fmt.Errorf("index stayed locked by another docket process after %d retries: %w", d.opts.BusyRetries, err)
}

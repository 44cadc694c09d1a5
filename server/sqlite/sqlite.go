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

	"github.com/claimslint/claimslint/server/docket"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// indexSchema versions the tables below. An index of another version is
// dropped and rebuilt from the export: the index is only a cache.
const indexSchema = "6"

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
-- The blocked page reads the flagged rows of a status in order, never the
-- unflagged ones it would pass over (D93).
CREATE INDEX IF NOT EXISTS issues_blocked ON issues(status, priority, created_at, id) WHERE blocked = 1;
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

// Backend is the SQLite index at DB, for docket.Open: the one line of
// wiring a command needs (docket.Open(ctx, sqlite.Backend{DB: db}, opts)).
// docket.Open owns the lock, the id log, the fallback and the rebuild of a
// damaged index; this type only opens the file, recognises its damage and
// sets it aside.
type Backend struct {
	// DB is the index file; docket.Open creates its directory.
	DB string
	// BusyRetries bounds how often a write retries after SQLITE_BUSY on top
	// of the busy timeout; 0 means 8.
	BusyRetries int
}

var _ docket.LocalBackend = Backend{}

// Path returns DB.
func (b Backend) Path() string { return b.DB }

// Exists reports whether the index file is there.
func (b Backend) Exists() bool {
	_, err := os.Lstat(b.DB)
	return !errors.Is(err, fs.ErrNotExist)
}

// Files lists what SQLite opens by path beside DB (its write-ahead log,
// shared memory and rollback journal) and the names SetAside moves a
// damaged index to: docket.Open checks each right before an open (D67).
func (b Backend) Files() []string {
	return []string{b.DB + "-wal", b.DB + "-shm", b.DB + "-journal", b.DB + ".corrupt", b.DB + ".corrupt-wal"}
}

// Peek opens the index read-only: with no write-ahead log beside it, as
// an immutable file, so SQLite creates no -wal or -shm; with one, in
// read-only mode, which reads what the log holds. The schema must be
// this version's.
func (b Backend) Peek(ctx context.Context) (docket.Index, error) {
	if _, err := os.Lstat(b.DB); err != nil {
		return nil, err
	}
	q := "mode=ro&_pragma=query_only(1)"
	if _, err := os.Lstat(b.DB + "-wal"); errors.Is(err, fs.ErrNotExist) {
		q = "immutable=1&_pragma=query_only(1)"
	}
	db, err := sql.Open("sqlite", "file:"+uriPath(b.DB)+"?"+q)
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w", b.DB, err)
	}
	x := &Index{rdb: db, finished: finishedOf(docket.DefaultWorkflow), readOnly: true}
	ok, err := x.current(ctx, b.DB)
	if err == nil && !ok {
		err = fmt.Errorf("open index %s: another docket version's index", b.DB)
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return x, nil
}

// OpenIndex opens the index (OpenIndex) and keeps its blocked flags for
// w's closed class.
func (b Backend) OpenIndex(ctx context.Context, w docket.Workflow) (docket.Index, error) {
	idx, err := OpenIndex(ctx, b.DB, b.BusyRetries)
	if err != nil {
		return nil, err
	}
	if w != nil {
		idx.finished = finishedOf(w)
	}
	return idx, nil
}

// Damaged reports SQLite's "file is not a database" and "database disk
// image is malformed".
func (b Backend) Damaged(err error) bool { return corrupt(err) }

// SetAside moves the damaged index to DB.corrupt, its write-ahead log with
// it, and returns the ids its allocated table still yields.
func (b Backend) SetAside() (string, []string, error) {
	aside := b.DB + ".corrupt"
	if err := os.Rename(b.DB, aside); err != nil {
		return "", nil, err
	}
	// The write-ahead log belongs to the damaged file: it goes aside with
	// it, so salvage reads what it holds.
	os.Remove(aside + "-wal")
	os.Rename(b.DB+"-wal", aside+"-wal")
	os.Remove(b.DB + "-shm")
	return aside, salvageAllocated(aside), nil
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
	rdb *sql.DB // deferred transactions, for reads
	wdb *sql.DB // BEGIN IMMEDIATE, for writes
	// reads holds rdb's statements across read transactions (dk-hr4);
	// nil for Peek's one-off index, whose reads prepare per transaction.
	reads   *stmtCache
	retries int
	// readOnly: Peek's index, with no write handle.
	readOnly bool
	// finished are the statuses whose issues no longer block, sorted: the
	// blocked flags are kept for them (the workflow's closed class).
	finished []docket.Status
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
	x := &Index{retries: busyRetries, finished: finishedOf(docket.DefaultWorkflow)}
	var err error
	if x.rdb, err = openDB(path, false); err != nil {
		return nil, err
	}
	if x.wdb, err = openDB(path, true); err != nil {
		x.rdb.Close()
		return nil, err
	}
	x.rdb.SetMaxIdleConns(readIdleConns)
	x.reads = newStmtCache(x.rdb)
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
	if x.reads != nil {
		x.reads.close()
	}
	if x.readOnly {
		return x.rdb.Close()
	}
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
	return fn(&txn{ctx: ctx, tx: tx, shared: x.reads})
}

// GetOne is Read with Reader.Get in one statement, outside an explicit
// transaction (docket.OneGetter): SQLite runs it in a read transaction of
// its own, so it reads one snapshot as Read does, without the begin and
// the rollback database/sql pays for each (dk-8i4).
func (x *Index) GetOne(ctx context.Context, id string) (docket.Issue, error) {
	var st *sql.Stmt
	ok := false
	if x.reads != nil {
		var err error
		if st, ok, err = x.reads.stmt(ctx, getRecord); err != nil {
			return docket.Issue{}, fmt.Errorf("read %s: %w", id, err)
		}
	}
	if !ok { // Peek's index, or a full cache: a transaction, as Read
		var i docket.Issue
		err := x.Read(ctx, func(r docket.Reader) error {
			var err error
			i, err = r.Get(id)
			return err
		})
		return i, err
	}
	if err := ctx.Err(); err != nil {
		return docket.Issue{}, fmt.Errorf("read %s: %w", id, err)
	}
	// A lookup by primary key reads one row and cannot run long, so it
	// is not made interruptible: without a done channel neither the
	// driver nor database/sql starts a goroutine to watch the context.
	var rec []byte
	err := st.QueryRowContext(context.WithoutCancel(ctx), id).Scan(&rec)
	return decodeRecord(id, rec, err)
}

// Write runs fn in a BEGIN IMMEDIATE transaction, retrying a bounded number
// of times when another process holds the lock past the busy timeout.
func (x *Index) Write(ctx context.Context, fn func(docket.Writer) error) error {
	if x.readOnly {
		return errors.New("the index was opened for reading only")
	}
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

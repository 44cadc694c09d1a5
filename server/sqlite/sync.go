package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/claimslint/claimslint/server"
)

// syncTx brings the index in line with the export inside a write
// transaction. When the export's hash differs from the one recorded at the
// last rewrite, the export changed under the index (a pull, a checkout, a
// merge, a hand edit) and the index is rebuilt from it; an export that does
// not parse leaves the index untouched and returns the bad line. stale
// reports that the export must be rewritten from the index: it is missing,
// or the last writer died between its commit and its rewrite.
func (d *DB) syncTx(ctx context.Context, tx *sql.Tx) (stale bool, err error) {
	data, err := os.ReadFile(d.opts.Export)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("read export: %w", err)
	}
	stored, dirty, err := exportState(ctx, tx)
	if err != nil {
		return false, err
	}
	h := server.Hash(data)
	if h == stored {
		return dirty, nil
	}
	if len(bytes.TrimSpace(data)) == 0 {
		// Records are never deleted, so an empty export beside an index
		// that holds issues was truncated (a full disk, a stray
		// redirection), not emptied on purpose: it is treated like a
		// missing export and rewritten from the index.
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM issues`).Scan(&n); err != nil {
			return false, fmt.Errorf("count issues: %w", err)
		}
		if n > 0 {
			d.opts.Warn(fmt.Sprintf("the export %s is empty but the index holds %d issues; records are never deleted, so it is rewritten from the index", d.opts.Export, n))
			return true, nil
		}
	}
	if err := d.rebuild(ctx, tx, data); err != nil {
		return false, err
	}
	if err := setMeta(ctx, tx, "export_hash", h); err != nil {
		return false, err
	}
	return false, setMeta(ctx, tx, "export_dirty", "0")
}

// exportState reads, in one query, the hash of the export this index last
// wrote and whether a committed change is still waiting to be exported.
func exportState(ctx context.Context, q queryer) (hash string, dirty bool, err error) {
	rows, err := q.QueryContext(ctx, `SELECT key, value FROM meta WHERE key IN ('export_hash', 'export_dirty')`)
	if err != nil {
		return "", false, fmt.Errorf("read index meta: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return "", false, fmt.Errorf("read index meta: %w", err)
		}
		if k == "export_hash" {
			hash = v
		} else {
			dirty = v == "1"
		}
	}
	return hash, dirty, rows.Err()
}

// rebuild replaces the index's issues with the export's. The allocated
// table is kept, so ids drawn on another branch stay taken.
func (d *DB) rebuild(ctx context.Context, tx *sql.Tx, data []byte) error {
	prefix := d.prefix
	if prefix == "" {
		prefix = inferPrefix(data)
	}
	issues, err := server.ReadJSONL(d.opts.Export, bytes.NewReader(data), prefix)
	if err != nil {
		return fmt.Errorf("the export cannot be read, so the index was not rebuilt from it (nothing changed); fix the line or restore the file with git: %w", err)
	}
	for _, t := range []string{"issues", "labels", "decisions", "deps"} {
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+t); err != nil {
			return fmt.Errorf("clear index: %w", err)
		}
	}
	for _, i := range issues {
		if err := putIssue(ctx, tx, i); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO allocated(id) VALUES(?)`, i.ID); err != nil {
			return fmt.Errorf("record id %s: %w", i.ID, err)
		}
	}
	if d.prefix == "" && prefix != "" {
		d.prefix = prefix
		return setMeta(ctx, tx, "prefix", prefix)
	}
	return nil
}

// inferPrefix reads the prefix off the export's first id, for an index
// created from a fresh clone; ReadJSONL then holds every line to it.
func inferPrefix(data []byte) string {
	var probe struct {
		ID string `json:"id"`
	}
	line, _, _ := bytes.Cut(bytes.TrimSpace(data), []byte("\n"))
	if err := jsonUnmarshal(line, &probe); err != nil {
		return ""
	}
	p, _, _ := server.SplitID(probe.ID)
	return p
}

// rewriteExport writes the committed state to the export under the write
// lock, so two writers cannot interleave their rewrites and leave an older
// state on disk: temp file in the same directory, fsync, rename, fsync of
// the directory, then the new hash is recorded and the dirty flag cleared.
func (d *DB) rewriteExport(ctx context.Context) error {
	tx, err := d.wdb.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin export: %w", err)
	}
	defer tx.Rollback()
	data, err := exportTx(ctx, tx)
	if err != nil {
		return err
	}
	if err := writeAtomic(d.opts.Export, data); err != nil {
		return err
	}
	if err := setMeta(ctx, tx, "export_hash", server.Hash(data)); err != nil {
		return err
	}
	if err := setMeta(ctx, tx, "export_dirty", "0"); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit export: %w", err)
	}
	return nil
}

// exportTx joins the stored canonical lines in id order.
func exportTx(ctx context.Context, q queryer) ([]byte, error) {
	rows, err := q.QueryContext(ctx, `SELECT record FROM issues ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("read issues: %w", err)
	}
	defer rows.Close()
	var buf bytes.Buffer
	var rec []byte
	for rows.Next() {
		if err := rows.Scan(&rec); err != nil {
			return nil, fmt.Errorf("read issue: %w", err)
		}
		buf.Write(rec)
		buf.WriteByte('\n')
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read issues: %w", err)
	}
	return buf.Bytes(), nil
}

// writeAtomic replaces path with data: temp file, fsync, rename, fsync of
// the directory. It runs under the index's write lock, so any temp file of
// an earlier rewrite still there was left by a killed writer and is
// removed. The file keeps its permission bits (a read-only export stays
// read-only); a new one is 0644.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create export directory: %w", err)
	}
	pattern := "." + filepath.Base(path) + ".tmp-"
	if ents, err := os.ReadDir(dir); err == nil {
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), pattern) {
				os.Remove(filepath.Join(dir, e.Name()))
			}
		}
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	f, err := os.CreateTemp(dir, pattern+strconv.Itoa(os.Getpid())+"-*")
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
	if err := os.Chmod(tmp, mode); err != nil {
		return fmt.Errorf("write export: %w", err)
	}
	step("temp")
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("replace export: %w", err)
	}
	step("renamed")
	// The rename is durable only once the directory entry is on disk.
	if df, err := os.Open(dir); err == nil {
		df.Sync()
		df.Close()
	}
	return nil
}

// ensureSynced is the read path's check: a cheap comparison of the export's
// hash in a read transaction, and a locked sync only when it differs.
func (d *DB) ensureSynced(ctx context.Context) error {
	fi, statErr := os.Stat(d.opts.Export)
	if statErr == nil {
		d.seenMu.Lock()
		k := d.seen
		d.seenMu.Unlock()
		if k.size == fi.Size() && k.mtime.Equal(fi.ModTime()) && fi.ModTime().Before(k.verified.Add(-racyWindow)) {
			return nil // unchanged since it was last found in sync
		}
	}
	verified := time.Now()
	data, err := os.ReadFile(d.opts.Export)
	if err == nil {
		stored, dirty, err := exportState(ctx, d.rdb)
		if err == nil && stored == server.Hash(data) && !dirty {
			if statErr == nil && int64(len(data)) == fi.Size() {
				d.seenMu.Lock()
				d.seen = fileKey{size: fi.Size(), mtime: fi.ModTime(), verified: verified}
				d.seenMu.Unlock()
			}
			return nil
		}
	}
	err = d.write(ctx, false, nil)
	if errors.Is(err, server.ErrUnexported) {
		// The index is in sync and committed; only the export is behind.
		// A read goes on (a full disk must not stop list or show), and the
		// next command tries again.
		d.opts.Warn(err.Error())
		return nil
	}
	return err
}

// Export returns the canonical export of the committed state.
func (d *DB) Export(ctx context.Context) ([]byte, error) {
	if err := d.ensureSynced(ctx); err != nil {
		return nil, err
	}
	return exportTx(ctx, d.rdb)
}

// RewriteExport writes the canonical export of the index to the export
// path, for an export that was hand-edited into a valid but non-canonical
// form, or deleted.
func (d *DB) RewriteExport(ctx context.Context) error {
	if err := d.ensureSynced(ctx); err != nil {
		return err
	}
	return d.withRetry(ctx, func() error { return d.rewriteExport(ctx) })
}

package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/claimslint/claimslint/server"
)

// txn is one transaction seen through docket.Reader and docket.Writer.
// Statements are prepared once per transaction and reused: an import puts
// thousands of records through the same dozen statements.
type txn struct {
	ctx   context.Context
	tx    *sql.Tx
	stmts map[string]*sql.Stmt
}

func (t *txn) stmt(q string) (*sql.Stmt, error) {
	if st, ok := t.stmts[q]; ok {
		return st, nil
	}
	st, err := t.tx.PrepareContext(t.ctx, q)
	if err != nil {
		return nil, err
	}
	if t.stmts == nil {
		t.stmts = map[string]*sql.Stmt{}
	}
	t.stmts[q] = st
	return st, nil
}

// exec runs a prepared statement.
func (t *txn) exec(q string, args ...any) (sql.Result, error) {
	st, err := t.stmt(q)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(t.ctx, args...)
}

// row runs a prepared query for one row.
func (t *txn) row(q string, args ...any) (*sql.Row, error) {
	st, err := t.stmt(q)
	if err != nil {
		return nil, err
	}
	return st.QueryRowContext(t.ctx, args...), nil
}

func (t *txn) Meta(key string) (string, error) {
	var v string
	err := t.tx.QueryRowContext(t.ctx, `SELECT value FROM meta WHERE key=?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read index meta %s: %w", key, err)
	}
	return v, nil
}

func (t *txn) SetMeta(key, value string) error {
	if _, err := t.tx.ExecContext(t.ctx, `INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value`, key, value); err != nil {
		return fmt.Errorf("write index meta %s: %w", key, err)
	}
	return nil
}

func (t *txn) Get(id string) (server.Issue, error) {
	var rec []byte
	r, err := t.row(`SELECT record FROM issues WHERE id=?`, id)
	if err == nil {
		err = r.Scan(&rec)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return server.Issue{}, fmt.Errorf("%w: %s; docket list shows the ids there are", server.ErrNotFound, id)
	}
	if err != nil {
		return server.Issue{}, fmt.Errorf("read %s: %w", id, err)
	}
	var i server.Issue
	if err := json.Unmarshal(rec, &i); err != nil {
		return i, fmt.Errorf("decode stored record %s: %w", id, err)
	}
	return i, nil
}

func (t *txn) Has(id string) (bool, error) {
	var n int
	r, err := t.row(`SELECT count(*) FROM issues WHERE id=?`, id)
	if err == nil {
		err = r.Scan(&n)
	}
	if err != nil {
		return false, fmt.Errorf("look up %s: %w", id, err)
	}
	return n > 0, nil
}

func (t *txn) Blockers(id string) ([]string, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT src FROM deps WHERE dst=? AND type='blocks'
		UNION SELECT dst FROM deps WHERE src=? AND type='depends-on'`, id, id)
	if err != nil {
		return nil, fmt.Errorf("read blockers of %s: %w", id, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, fmt.Errorf("read blockers of %s: %w", id, err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

func (t *txn) Allocated() (int, error) {
	var n int
	if err := t.tx.QueryRowContext(t.ctx, `SELECT count(*) FROM allocated`).Scan(&n); err != nil {
		return 0, fmt.Errorf("count ids: %w", err)
	}
	return n, nil
}

func (t *txn) Allocate(id string) (bool, error) {
	res, err := t.exec(`INSERT OR IGNORE INTO allocated(id) VALUES(?)`, id)
	if err != nil {
		return false, fmt.Errorf("allocate id %s: %w", id, err)
	}
	k, _ := res.RowsAffected()
	return k == 1, nil
}

func (t *txn) Clear() error {
	for _, tb := range []string{"issues", "labels", "decisions", "deps", "issue_rowids", "issues_fts"} {
		if _, err := t.tx.ExecContext(t.ctx, `DELETE FROM `+tb); err != nil {
			return fmt.Errorf("clear index: %w", err)
		}
	}
	return nil
}

// Put stores a record's columns and line and its filter rows.
func (t *txn) Put(i server.Issue, line []byte) error {
	if _, err := t.exec(`INSERT INTO issues(id, title, status, type, priority, created_at, updated_at, version, record) VALUES(?,?,?,?,?,?,?,?,?)
		ON CONFLICT(id) DO UPDATE SET title=excluded.title, status=excluded.status, type=excluded.type, priority=excluded.priority,
		created_at=excluded.created_at, updated_at=excluded.updated_at, version=excluded.version, record=excluded.record`,
		i.ID, i.Title, string(i.Status), string(i.Type), i.Priority, i.CreatedAt, i.UpdatedAt, i.Version, line); err != nil {
		return fmt.Errorf("store %s: %w", i.ID, err)
	}
	for _, q := range []string{`DELETE FROM labels WHERE id=?`, `DELETE FROM decisions WHERE id=?`, `DELETE FROM deps WHERE src=?`} {
		if _, err := t.exec(q, i.ID); err != nil {
			return fmt.Errorf("store %s: %w", i.ID, err)
		}
	}
	if _, err := t.exec(`INSERT OR IGNORE INTO issue_rowids(id) VALUES(?)`, i.ID); err != nil {
		return fmt.Errorf("store %s: %w", i.ID, err)
	}
	var rid int64
	r, err := t.row(`SELECT rid FROM issue_rowids WHERE id=?`, i.ID)
	if err == nil {
		err = r.Scan(&rid)
	}
	if err != nil {
		return fmt.Errorf("store %s: %w", i.ID, err)
	}
	if _, err := t.exec(`DELETE FROM issues_fts WHERE rowid=?`, rid); err != nil {
		return fmt.Errorf("store %s: %w", i.ID, err)
	}
	if _, err := t.exec(`INSERT INTO issues_fts(rowid, title, description) VALUES(?,?,?)`, rid, i.Title, i.Description); err != nil {
		return fmt.Errorf("store %s: %w", i.ID, err)
	}
	for _, l := range i.Labels {
		if _, err := t.exec(`INSERT INTO labels(label, id) VALUES(?,?)`, l, i.ID); err != nil {
			return fmt.Errorf("store %s: %w", i.ID, err)
		}
	}
	for _, dd := range i.Decisions {
		if _, err := t.exec(`INSERT INTO decisions(decision, id) VALUES(?,?)`, dd, i.ID); err != nil {
			return fmt.Errorf("store %s: %w", i.ID, err)
		}
	}
	for _, dep := range i.Deps {
		if _, err := t.exec(`INSERT OR IGNORE INTO deps(src, type, dst) VALUES(?,?,?)`, i.ID, string(dep.Type), dep.ID); err != nil {
			return fmt.Errorf("store %s: %w", i.ID, err)
		}
	}
	return nil
}

func (t *txn) Lines(fn func(line []byte) error) error {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT record FROM issues ORDER BY id`)
	if err != nil {
		return fmt.Errorf("read issues: %w", err)
	}
	defer rows.Close()
	var rec []byte
	for rows.Next() {
		if err := rows.Scan(&rec); err != nil {
			return fmt.Errorf("read issue: %w", err)
		}
		if err := fn(rec); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read issues: %w", err)
	}
	return nil
}

func in(col string, xs []server.Status, args *[]any) string {
	ph := make([]string, len(xs))
	for k, s := range xs {
		ph[k] = "?"
		*args = append(*args, string(s))
	}
	return col + " IN (" + strings.Join(ph, ",") + ")"
}

// blockedSet is the recursive set of ids something unfinished blocks,
// directly (a blocks edge to it, a depends-on edge from it) or through a
// parent (parent and parent-child edges are held by the child).
func blockedSet(finished []server.Status, args *[]any) string {
	notDone := "1"
	var a1, a2 []any
	if len(finished) > 0 {
		notDone = "NOT " + in("b.status", finished, &a1)
		in("b.status", finished, &a2)
	}
	*args = append(*args, a1...)
	*args = append(*args, a2...)
	return `WITH RECURSIVE blocked(id) AS (
		SELECT x.dst FROM deps x JOIN issues b ON b.id = x.src WHERE x.type = 'blocks' AND ` + notDone + `
		UNION SELECT x.src FROM deps x JOIN issues b ON b.id = x.dst WHERE x.type = 'depends-on' AND ` + notDone + `
		UNION SELECT c.src FROM deps c JOIN blocked p ON c.dst = p.id WHERE c.type IN ('parent', 'parent-child'))
	`
}

// where builds the filter of q; with ordering when order is true.
func where(q server.Query, order bool) (string, []any) {
	var args []any
	var conds []string
	prefix := ""
	if q.Ready || q.Blocked {
		prefix = blockedSet(q.Finished, &args)
	}
	if len(q.Statuses) > 0 {
		conds = append(conds, in("i.status", q.Statuses, &args))
	}
	if len(q.Exclude) > 0 {
		conds = append(conds, "NOT "+in("i.status", q.Exclude, &args))
	}
	if q.Type != "" {
		conds = append(conds, "i.type = ?")
		args = append(args, string(q.Type))
	}
	if q.Label != "" {
		conds = append(conds, "EXISTS (SELECT 1 FROM labels l WHERE l.label = ? AND l.id = i.id)")
		args = append(args, q.Label)
	}
	if q.Decision != "" {
		conds = append(conds, "EXISTS (SELECT 1 FROM decisions x WHERE x.decision = ? AND x.id = i.id)")
		args = append(args, q.Decision)
	}
	if words := server.SearchWords(q.Text); len(words) > 0 {
		// Every word as a quoted prefix: "need"* matches needle, and no
		// character of the query is FTS syntax.
		var m []string
		for _, w := range words {
			m = append(m, `"`+w+`"*`)
		}
		conds = append(conds, "i.id IN (SELECT r.id FROM issues_fts f JOIN issue_rowids r ON r.rid = f.rowid WHERE issues_fts MATCH ?)")
		args = append(args, strings.Join(m, " AND "))
	}
	if q.Ready {
		conds = append(conds, "i.id NOT IN (SELECT id FROM blocked)")
	}
	if q.Blocked {
		c := "i.id IN (SELECT id FROM blocked)"
		if len(q.BlockedStatuses) > 0 {
			c = "(" + c + " OR " + in("i.status", q.BlockedStatuses, &args) + ")"
		}
		conds = append(conds, c)
	}
	if q.After != nil {
		a := q.After
		switch q.Sort {
		case server.SortCreated:
			conds = append(conds, "(i.created_at, i.id) > (?, ?)")
			args = append(args, a.Time, a.ID)
		case server.SortUpdated:
			conds = append(conds, "(i.updated_at < ? OR (i.updated_at = ? AND i.id > ?))")
			args = append(args, a.Time, a.Time, a.ID)
		case server.SortID:
			conds = append(conds, "i.id > ?")
			args = append(args, a.ID)
		default:
			conds = append(conds, "(i.priority, i.created_at, i.id) > (?, ?, ?)")
			args = append(args, a.Priority, a.Time, a.ID)
		}
	}
	s := prefix + "SELECT %s FROM issues i"
	if len(conds) > 0 {
		s += " WHERE " + strings.Join(conds, " AND ")
	}
	if order {
		switch q.Sort {
		case server.SortCreated:
			s += " ORDER BY i.created_at, i.id"
		case server.SortUpdated:
			s += " ORDER BY i.updated_at DESC, i.id"
		case server.SortID:
			s += " ORDER BY i.id"
		default:
			s += " ORDER BY i.priority, i.created_at, i.id"
		}
		if q.Limit > 0 {
			s += fmt.Sprintf(" LIMIT %d", q.Limit)
		}
	}
	return s, args
}

func (t *txn) Rows(q server.Query) ([]server.Row, error) {
	s, args := where(q, true)
	rows, err := t.tx.QueryContext(t.ctx, fmt.Sprintf(s, "i.id, i.title, i.status, i.type, i.priority, i.created_at, i.updated_at"), args...)
	if err != nil {
		return nil, fmt.Errorf("query issues: %w", err)
	}
	defer rows.Close()
	out := []server.Row{}
	for rows.Next() {
		var r server.Row
		if err := rows.Scan(&r.ID, &r.Title, &r.Status, &r.Type, &r.Priority, &r.CreatedAt, &r.UpdatedAt); err != nil {
			return nil, fmt.Errorf("read issue row: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func (t *txn) Count(q server.Query) (int, error) {
	s, args := where(q, false)
	var n int
	if err := t.tx.QueryRowContext(t.ctx, fmt.Sprintf(s, "count(*)"), args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("count issues: %w", err)
	}
	return n, nil
}

// Statuses returns the distinct statuses stored, sorted: a skip scan of
// the issues_status index (one seek per distinct status), so it costs the
// same at 100k records as at 100.
func (t *txn) Statuses() ([]server.Status, error) {
	rows, err := t.tx.QueryContext(t.ctx, `WITH RECURSIVE s(v) AS (
		SELECT MIN(status) FROM issues
		UNION ALL
		SELECT (SELECT MIN(status) FROM issues WHERE status > s.v) FROM s WHERE s.v IS NOT NULL
	) SELECT v FROM s WHERE v IS NOT NULL`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []server.Status
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, server.Status(s))
	}
	return out, rows.Err()
}

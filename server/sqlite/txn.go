package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/claimslint/claimslint/server/docket"
)

// txn is one transaction seen through docket.Reader and docket.Writer.
// Statements are prepared once per transaction and reused: an import puts
// thousands of records through the same dozen statements.
type txn struct {
	ctx   context.Context
	tx    *sql.Tx
	stmts map[string]*sql.Stmt
	// shared, in a read transaction, holds statements prepared across
	// transactions (dk-hr4); nil in a write, whose statements are
	// prepared once per transaction.
	shared *stmtCache

	// finished are the statuses the blocked flags are settled for (writes).
	finished []docket.Status
	// flagSig caches meta blocked_for for this transaction.
	flagSig *string
	// touched are the records put, extra the ids an old blocks edge of
	// theirs pointed to, cleared whether the records were cleared: what
	// settle must bring the blocked flags in line with.
	touched, extra map[string]bool
	cleared        bool
	// fts holds the search rows this transaction put, by rowid, written at
	// the end (flushFTS): FTS5 flushes its pending terms at every statement
	// savepoint, so rows interleaved with other writes would each become a
	// segment of their own.
	fts map[int64]ftsRow
	// textCounts caches textCount by FTS5 query.
	textCounts map[string]int
}

type ftsRow struct {
	title, description string
	stored             bool // the rowid had a search row before this transaction
}

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }

func (t *txn) stmt(q string) (*sql.Stmt, error) {
	if st, ok := t.stmts[q]; ok {
		return st, nil
	}
	var st *sql.Stmt
	var err error
	if t.shared != nil {
		st, err = t.shared.in(t.ctx, t.tx, q)
	} else {
		st, err = t.tx.PrepareContext(t.ctx, q)
	}
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

func (t *txn) Get(id string) (docket.Issue, error) {
	var rec []byte
	r, err := t.row(getRecord, id)
	if err == nil {
		err = r.Scan(&rec)
	}
	return decodeRecord(id, rec, err)
}

// getRecord is the query of Get and GetOne.
const getRecord = `SELECT record FROM records WHERE id=?`

// decodeRecord is Get's answer from the stored record rec its query
// scanned, or the error it met.
func decodeRecord(id string, rec []byte, err error) (docket.Issue, error) {
	if errors.Is(err, sql.ErrNoRows) {
		return docket.Issue{}, docket.NotFound(id)
	}
	if err != nil {
		return docket.Issue{}, fmt.Errorf("read %s: %w", id, err)
	}
	var i docket.Issue
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

func (t *txn) Blocked(id string) ([]string, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT dst FROM deps WHERE src=? AND type='blocks'
		UNION SELECT src FROM deps WHERE dst=? AND type='depends-on' ORDER BY 1`, id, id)
	if err != nil {
		return nil, fmt.Errorf("read what %s blocks: %w", id, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, fmt.Errorf("read what %s blocks: %w", id, err)
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
	for _, tb := range tables {
		if _, err := t.tx.ExecContext(t.ctx, `DELETE FROM `+tb); err != nil {
			return fmt.Errorf("clear index: %w", err)
		}
	}
	t.cleared = true
	t.fts = nil // their rows are gone, and rowids are drawn afresh
	return nil
}

// Put stores a record's columns and line and its filter rows. A record the
// index never held has no old rows to delete.
func (t *txn) Put(i docket.Issue, line []byte) error {
	if _, err := t.exec(`INSERT INTO issues(id, title, status, type, priority, created_at, updated_at, version) VALUES(?,?,?,?,?,?,?,?)
		ON CONFLICT(id) DO UPDATE SET title=excluded.title, status=excluded.status, type=excluded.type, priority=excluded.priority,
		created_at=excluded.created_at, updated_at=excluded.updated_at, version=excluded.version`,
		i.ID, i.Title, string(i.Status), string(i.Type), i.Priority, i.CreatedAt, i.UpdatedAt, i.Version); err != nil {
		return fmt.Errorf("store %s: %w", i.ID, err)
	}
	if _, err := t.exec(`INSERT INTO records(id, record) VALUES(?,?) ON CONFLICT(id) DO UPDATE SET record=excluded.record`, i.ID, line); err != nil {
		return fmt.Errorf("store %s: %w", i.ID, err)
	}
	res, err := t.exec(`INSERT OR IGNORE INTO issue_rowids(id) VALUES(?)`, i.ID)
	if err != nil {
		return fmt.Errorf("store %s: %w", i.ID, err)
	}
	var rid int64
	stored := false
	if k, _ := res.RowsAffected(); k == 1 {
		// New here: its filter and search rows cannot exist yet.
		if rid, err = res.LastInsertId(); err != nil {
			return fmt.Errorf("store %s: %w", i.ID, err)
		}
	} else if err := t.unput(i.ID, &rid); err != nil {
		return fmt.Errorf("store %s: %w", i.ID, err)
	} else {
		_, again := t.fts[rid]
		stored = !again || t.fts[rid].stored
	}
	if t.fts == nil {
		t.fts = map[int64]ftsRow{}
	}
	t.fts[rid] = ftsRow{title: i.Title, description: i.Description, stored: stored}
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
	if t.touched == nil {
		t.touched, t.extra = map[string]bool{}, map[string]bool{}
	}
	t.touched[i.ID] = true
	return nil
}

// unput deletes the filter and search rows of a stored record before they
// are written again, and sets rid to its search rowid. What its old blocks
// edges pointed to is remembered: their blocked flags may change.
func (t *txn) unput(id string, rid *int64) error {
	for _, q := range []string{`DELETE FROM labels WHERE id=?`, `DELETE FROM decisions WHERE id=?`} {
		if _, err := t.exec(q, id); err != nil {
			return err
		}
	}
	old, err := t.ids(`DELETE FROM deps WHERE src=? RETURNING CASE WHEN type='blocks' THEN dst ELSE '' END`, id)
	if err != nil {
		return err
	}
	if t.extra == nil {
		t.touched, t.extra = map[string]bool{}, map[string]bool{}
	}
	for _, d := range old {
		if d != "" {
			t.extra[d] = true
		}
	}
	r, err := t.row(`SELECT rid FROM issue_rowids WHERE id=?`, id)
	if err == nil {
		err = r.Scan(rid)
	}
	return err
}

// flushFTS writes the search rows of the records put, one after another
// (deleting the old row of a record stored before), in rowid order.
func (t *txn) flushFTS() error {
	rids := make([]int64, 0, len(t.fts))
	for rid := range t.fts {
		rids = append(rids, rid)
	}
	slices.Sort(rids)
	for _, rid := range rids {
		f := t.fts[rid]
		if f.stored {
			if _, err := t.exec(`DELETE FROM issues_fts WHERE rowid=?`, rid); err != nil {
				return fmt.Errorf("store search rows: %w", err)
			}
		}
		if _, err := t.exec(`INSERT INTO issues_fts(rowid, title, description) VALUES(?,?,?)`, rid, f.title, f.description); err != nil {
			return fmt.Errorf("store search rows: %w", err)
		}
	}
	t.fts = nil
	return nil
}

func (t *txn) Lines(fn func(line []byte) error) error {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT record FROM records ORDER BY id`)
	if err != nil {
		return fmt.Errorf("read issues: %w", err)
	}
	defer rows.Close()
	var rec sql.RawBytes // the driver's bytes, not a copy a line: fn must not keep them
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

func in(col string, xs []docket.Status, args *[]any) string {
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
func blockedSet(finished []docket.Status, args *[]any) string {
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

// filter builds q's conditions on the columns issues and tally share
// (status, blocked) and on issues' own. flags says the stored blocked flags
// hold for q.Finished; otherwise a ready or blocked filter needs the
// blocked set, returned as a WITH prefix.
//
// byOrder words the text condition for a page that walks the issues in
// its order and stops when it is full (inOrder): a membership test of the
// issue's search rowid in the set of matching rowids, built once, instead
// of the matching ids joined, sorted and then read. The unary + keeps
// SQLite from turning the test into a lookup per element of the set.
func filter(q docket.Query, flags, byOrder bool) (prefix string, conds []string, args []any) {
	if (q.Ready || q.Blocked) && !flags {
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
	if q.Priority != nil {
		conds = append(conds, "i.priority = ?")
		args = append(args, *q.Priority)
	}
	if q.Assignee != "" {
		conds = append(conds, "EXISTS (SELECT 1 FROM records r WHERE r.id = i.id AND json_extract(r.record, '$.assignee') = ?)")
		args = append(args, q.Assignee)
	}
	if m := matchExpr(q.Text); m != "" {
		if byOrder {
			conds = append(conds, "+r.rid IN (SELECT rowid FROM issues_fts WHERE issues_fts MATCH ?)")
		} else {
			conds = append(conds, "i.id IN (SELECT r.id FROM issues_fts f JOIN issue_rowids r ON r.rid = f.rowid WHERE issues_fts MATCH ?)")
		}
		args = append(args, m)
	}
	blocked := "i.id IN (SELECT id FROM blocked)"
	if flags {
		blocked = "i.blocked = 1"
	}
	if q.Ready {
		if flags {
			conds = append(conds, "i.blocked = 0")
		} else {
			conds = append(conds, "i.id NOT IN (SELECT id FROM blocked)")
		}
	}
	if q.Blocked {
		c := blocked
		if len(q.BlockedStatuses) > 0 {
			c = "(" + c + " OR " + in("i.status", q.BlockedStatuses, &args) + ")"
		}
		conds = append(conds, c)
	}
	if q.After != nil {
		a := q.After
		switch q.Sort {
		case docket.SortCreated:
			conds = append(conds, "(i.created_at, i.id) > (?, ?)")
			args = append(args, a.Time, a.ID)
		case docket.SortUpdated:
			conds = append(conds, "(i.updated_at < ? OR (i.updated_at = ? AND i.id > ?))")
			args = append(args, a.Time, a.Time, a.ID)
		case docket.SortID:
			conds = append(conds, "i.id > ?")
			args = append(args, a.ID)
		default:
			conds = append(conds, "(i.priority, i.created_at, i.id) > (?, ?, ?)")
			args = append(args, a.Priority, a.Time, a.ID)
		}
	}
	return prefix, conds, args
}

// matchExpr is the FTS5 query of text's words, "" when it has none: every
// word as a quoted prefix, so "need"* matches needle and no character of
// the query is FTS syntax.
func matchExpr(text string) string {
	var m []string
	for _, w := range docket.SearchWords(text) {
		m = append(m, `"`+w+`"*`)
	}
	return strings.Join(m, " AND ")
}

// textCount returns how many issues hold every word of the FTS5 query
// expr, from the search index alone (D93): every issue has exactly one
// search row (Put writes it, nothing but Clear deletes one), so the rows
// that match count the issues that do. A page asks it twice, for its plan
// and its total; the transaction keeps the answer.
func (t *txn) textCount(expr string) (int, error) {
	if n, ok := t.textCounts[expr]; ok {
		return n, nil
	}
	r, err := t.row(`SELECT count(*) FROM issues_fts WHERE issues_fts MATCH ?`, expr)
	var n int
	if err == nil {
		err = r.Scan(&n)
	}
	if err != nil {
		return 0, fmt.Errorf("count matches: %w", err)
	}
	if t.textCounts == nil {
		t.textCounts = map[string]int{}
	}
	t.textCounts[expr] = n
	return n, nil
}

// inOrder reports whether q's page is served by walking the issues in its
// order and testing each against the set of search matches (filter's
// byOrder) rather than from the matches sorted: when at least one issue in
// inOrderShare matches, a page of q.Limit rows passes over about
// inOrderShare*q.Limit issues, where the matches sorted cost all of them
// (a word most issues hold: 100,000 of them joined and sorted for 50). An
// order with no index (created, updated) sorts either way.
func (t *txn) inOrder(q docket.Query) (bool, error) {
	m := matchExpr(q.Text)
	if m == "" || q.Limit <= 0 || (q.Sort != docket.SortPriority && q.Sort != docket.SortID && q.Sort != "") {
		return false, nil
	}
	n, err := t.textCount(m)
	if err != nil || n == 0 {
		return false, err
	}
	var all int
	if err := t.tx.QueryRowContext(t.ctx, `SELECT coalesce(sum(n), 0) FROM tally`).Scan(&all); err != nil {
		return false, fmt.Errorf("count issues: %w", err)
	}
	return n*inOrderShare >= all, nil
}

// inOrderShare: a page walks the issues in order when at least one in
// this many matches its words.
const inOrderShare = 8

// rowCols are the listing columns, in docket.Row's order.
const rowCols = "i.id, i.title, i.status, i.type, i.priority, i.created_at, i.updated_at"

// selectRows is the query for q's rows, in q's order, at most q.Limit.
func selectRows(q docket.Query, flags, byOrder bool) (string, []any) {
	prefix, conds, args := filter(q, flags, byOrder)
	s := prefix + "SELECT " + rowCols + " FROM issues i"
	switch {
	case byOrder && q.Sort == docket.SortID:
		s += " CROSS JOIN issue_rowids r ON r.id = i.id"
	case byOrder:
		s += " INDEXED BY issues_order CROSS JOIN issue_rowids r ON r.id = i.id"
	}
	if len(conds) > 0 {
		s += " WHERE " + strings.Join(conds, " AND ")
	}
	switch q.Sort {
	case docket.SortCreated:
		s += " ORDER BY i.created_at, i.id"
	case docket.SortUpdated:
		s += " ORDER BY i.updated_at DESC, i.id"
	case docket.SortID:
		s += " ORDER BY i.id"
	default:
		s += " ORDER BY i.priority, i.created_at, i.id"
	}
	if q.Limit > 0 {
		s += fmt.Sprintf(" LIMIT %d", q.Limit)
	}
	return s, args
}

// maxMerge bounds how many statuses a page merges one index range each.
const maxMerge = 16

// statusesOf returns the statuses q can match when they can be listed
// (q names them, or q excludes some and the tally names the rest), and ok
// false otherwise.
func (t *txn) statusesOf(q docket.Query) ([]docket.Status, bool, error) {
	var from []docket.Status
	switch {
	case len(q.Statuses) > 0:
		from = q.Statuses
	case len(q.Exclude) > 0:
		var err error
		if from, err = t.Statuses(); err != nil {
			return nil, false, err
		}
	default:
		return nil, false, nil
	}
	var out []docket.Status
	for _, st := range from {
		if !slices.Contains(q.Exclude, st) && !slices.Contains(out, st) {
			out = append(out, st)
		}
	}
	return out, true, nil
}

// Rows serves a page from index columns. A page in priority order over a
// few statuses reads one index range per status (status, priority,
// created_at, id) and merges them, so it costs its rows, not the issues it
// passes over; anything else is one query.
func (t *txn) Rows(q docket.Query) ([]docket.Row, error) {
	flags := false
	if q.Ready || q.Blocked {
		var err error
		if flags, err = t.flagsFor(q.Finished); err != nil {
			return nil, err
		}
	}
	byOrder, err := t.inOrder(q)
	if err != nil {
		return nil, err
	}
	s, args := selectRows(q, flags, byOrder)
	if q.Limit > 0 && (q.Sort == docket.SortPriority || q.Sort == "") && (flags || !(q.Ready || q.Blocked)) {
		sts, ok, err := t.statusesOf(q)
		if err != nil {
			return nil, err
		}
		switch {
		case !ok:
		case len(sts) == 0:
			return []docket.Row{}, nil
		case len(sts) == 1:
			s, args = selectRows(oneStatus(q, sts[0]), flags, byOrder)
		case len(sts) <= maxMerge:
			s, args = "", nil
			for k, st := range sts {
				p, a := selectRows(oneStatus(q, st), flags, byOrder)
				if k > 0 {
					s += " UNION ALL "
				}
				s += "SELECT * FROM (" + p + ")"
				args = append(args, a...)
			}
			// priority, created_at, id: the fifth, sixth and first column
			s += fmt.Sprintf(" ORDER BY 5, 6, 1 LIMIT %d", q.Limit)
		}
	}
	rows, err := t.tx.QueryContext(t.ctx, s, args...)
	if err != nil {
		return nil, fmt.Errorf("query issues: %w", err)
	}
	defer rows.Close()
	out := []docket.Row{}
	for rows.Next() {
		var r docket.Row
		if err := rows.Scan(&r.ID, &r.Title, &r.Status, &r.Type, &r.Priority, &r.CreatedAt, &r.UpdatedAt); err != nil {
			return nil, fmt.Errorf("read issue row: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// oneStatus is q over the one status st, for a page that reads one index
// range per status. A blocked page's range is every row of a status the
// workflow calls blocked, and otherwise the flagged rows only
// (issues_blocked): a condition "flagged or of a blocked status" would
// walk every row of the status to find the few flagged (D93).
func oneStatus(q docket.Query, st docket.Status) docket.Query {
	q.Statuses, q.Exclude = []docket.Status{st}, nil
	if q.Blocked {
		if slices.Contains(q.BlockedStatuses, st) {
			q.Blocked = false
		}
		q.BlockedStatuses = nil
	}
	return q
}

// Count counts what q selects. Filtered by status and readiness only, it
// sums the tally (a few rows); anything else counts the matching rows.
func (t *txn) Count(q docket.Query) (int, error) {
	flags := false
	if q.Ready || q.Blocked {
		var err error
		if flags, err = t.flagsFor(q.Finished); err != nil {
			return 0, err
		}
	}
	from := "issues i"
	what := "count(*)"
	others := q.After == nil && q.Type == "" && q.Label == "" && q.Decision == "" && q.Priority == nil && q.Assignee == ""
	m := matchExpr(q.Text)
	switch {
	case others && m == "" && (flags || !(q.Ready || q.Blocked)):
		from, what = "tally i", "coalesce(sum(i.n), 0)"
	case others && m != "" && len(q.Statuses) == 0 && len(q.Exclude) == 0 && !q.Ready && !q.Blocked:
		return t.textCount(m) // words alone: the search index counts them
	}
	prefix, conds, args := filter(q, flags, false)
	s := prefix + "SELECT " + what + " FROM " + from
	if len(conds) > 0 {
		s += " WHERE " + strings.Join(conds, " AND ")
	}
	var n int
	if err := t.tx.QueryRowContext(t.ctx, s, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("count issues: %w", err)
	}
	return n, nil
}

// Statuses returns the distinct statuses stored, sorted, from the tally
// the triggers keep (D58): a few rows, whatever the tracker's size.
func (t *txn) Statuses() ([]docket.Status, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT DISTINCT status FROM tally WHERE n > 0 ORDER BY status`)
	if err != nil {
		return nil, fmt.Errorf("query statuses: %w", err)
	}
	defer rows.Close()
	var out []docket.Status
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, fmt.Errorf("query statuses: %w", err)
		}
		out = append(out, docket.Status(s))
	}
	return out, rows.Err()
}

package sqlite

import (
	"fmt"
	"slices"
	"strings"

	"github.com/claimslint/claimslint/server/docket"
)

// The blocked flags (D58). issues.blocked says whether something unfinished
// blocks the issue, directly (a blocks edge to it, a depends-on edge from
// it, from or to an issue whose status is not finished) or through a
// parent (parent and parent-child edges are held by the child). The flags
// hold for one set of finished statuses, named in meta blocked_for (absent:
// the default workflow's closed class); a query for another set computes
// the blocked set instead. Every write transaction settles the flags
// before it commits, so a reader never sees them stale.

// settleAll is how many records a transaction may touch before the flags
// are recomputed over the whole index instead of around what changed (an
// import, a rebuild).
const settleAll = 256

// settleRegion bounds the region an incremental settle walks (the changed
// issues, what they block, and their descendants) before it gives up and
// recomputes everything.
const settleRegion = 4096

// finishedOf returns the statuses of w's closed class, sorted.
func finishedOf(w docket.Workflow) []docket.Status {
	fs := w.Of(docket.ClassClosed)
	slices.Sort(fs)
	return fs
}

// signature names a set of finished statuses in meta.
func signature(fs []docket.Status) string {
	ss := make([]string, len(fs))
	for k, f := range fs {
		ss[k] = string(f)
	}
	slices.Sort(ss)
	return strings.Join(ss, "\n")
}

var defaultSignature = signature(finishedOf(docket.DefaultWorkflow))

// flagsFor reports whether the stored blocked flags were kept for exactly
// the finished statuses fs.
func (t *txn) flagsFor(fs []docket.Status) (bool, error) {
	if t.flagSig == nil {
		v, err := t.Meta("blocked_for")
		if err != nil {
			return false, err
		}
		if v == "" {
			v = defaultSignature
		}
		t.flagSig = &v
	}
	return *t.flagSig == signature(fs), nil
}

// unfinished is the SQL condition "b.status is not finished", and its
// arguments.
func unfinished(fs []docket.Status, args *[]any) string {
	if len(fs) == 0 {
		return "1"
	}
	return "NOT " + in("b.status", fs, args)
}

// settle brings the blocked flags in line with what this transaction
// wrote: around the touched records when they are few, over the whole
// index otherwise or when the flags were kept for other finished statuses.
func (t *txn) settle() error {
	want := signature(t.finished)
	have, err := t.flagsFor(t.finished)
	if err != nil {
		return err
	}
	if !have || t.cleared || len(t.touched)+len(t.extra) > settleAll {
		if err := t.settleAll(); err != nil {
			return err
		}
		if !have {
			if err := t.SetMeta("blocked_for", want); err != nil {
				return err
			}
		}
		return nil
	}
	if len(t.touched) == 0 {
		return nil
	}
	region, ok, err := t.region()
	if err != nil {
		return err
	}
	if !ok {
		return t.settleAll()
	}
	return t.settleRegion(region)
}

// settleAll recomputes every flag from the blocked set.
func (t *txn) settleAll() error {
	var args []any
	q := blockedSet(t.finished, &args) + `UPDATE issues SET blocked = NOT blocked WHERE blocked != (id IN (SELECT id FROM blocked))`
	if _, err := t.tx.ExecContext(t.ctx, q, args...); err != nil {
		return fmt.Errorf("settle blocked flags: %w", err)
	}
	return nil
}

// ids runs a prepared query that returns one id a row.
func (t *txn) ids(q string, args ...any) ([]string, error) {
	st, err := t.stmt(q)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(t.ctx, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

const (
	qBlocks   = `SELECT dst FROM deps WHERE src=? AND type='blocks'`
	qDepender = `SELECT src FROM deps WHERE dst=? AND type='depends-on'`
	qChildren = `SELECT src FROM deps WHERE dst=? AND type IN ('parent', 'parent-child')`
	qParents  = `SELECT dst FROM deps WHERE src=? AND type IN ('parent', 'parent-child')`
)

// region returns the ids whose flag a change to the touched records can
// change: each touched record, what it blocks (before and after), what
// depends on it, and every descendant of those through parent edges; ok is
// false when the region outgrows settleRegion.
func (t *txn) region() (map[string]bool, bool, error) {
	r := map[string]bool{}
	var todo []string
	add := func(id string) {
		if !r[id] {
			r[id] = true
			todo = append(todo, id)
		}
	}
	for id := range t.extra {
		add(id)
	}
	for id := range t.touched {
		add(id)
		for _, q := range []string{qBlocks, qDepender} {
			xs, err := t.ids(q, id)
			if err != nil {
				return nil, false, fmt.Errorf("settle blocked flags: %w", err)
			}
			for _, x := range xs {
				add(x)
			}
		}
	}
	for len(todo) > 0 {
		if len(r) > settleRegion {
			return nil, false, nil
		}
		id := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		cs, err := t.ids(qChildren, id)
		if err != nil {
			return nil, false, fmt.Errorf("settle blocked flags: %w", err)
		}
		for _, c := range cs {
			add(c)
		}
	}
	return r, true, nil
}

// direct reports whether something unfinished blocks id directly.
func (t *txn) direct(id string) (bool, error) {
	var a1, a2 []any
	u1, u2 := unfinished(t.finished, &a1), unfinished(t.finished, &a2)
	q := `SELECT EXISTS(SELECT 1 FROM deps x JOIN issues b ON b.id = x.src WHERE x.dst = ? AND x.type = 'blocks' AND ` + u1 + `)
		OR EXISTS(SELECT 1 FROM deps x JOIN issues b ON b.id = x.dst WHERE x.src = ? AND x.type = 'depends-on' AND ` + u2 + `)`
	args := append(append(append([]any{id}, a1...), id), a2...)
	var b bool
	r, err := t.row(q, args...)
	if err == nil {
		err = r.Scan(&b)
	}
	return b, err
}

// settleRegion computes the flags of the region as the blocked set's
// least fixpoint restricted to it: an id is blocked when something blocks
// it directly or a parent is blocked, where a parent outside the region
// keeps its stored flag (an id with no record has no flag and no parents
// of its own: only direct blocking counts for it). Walking down from the
// blocked ones, never up, keeps a cycle of parent edges from holding
// itself blocked.
func (t *txn) settleRegion(region map[string]bool) error {
	blocked := map[string]bool{}
	var todo []string
	for id := range region {
		b, err := t.direct(id)
		if err != nil {
			return fmt.Errorf("settle blocked flags: %w", err)
		}
		if !b {
			ps, err := t.ids(qParents, id)
			if err != nil {
				return fmt.Errorf("settle blocked flags: %w", err)
			}
			for _, p := range ps {
				if region[p] {
					continue
				}
				if b, err = t.outside(p); err != nil {
					return fmt.Errorf("settle blocked flags: %w", err)
				}
				if b {
					break
				}
			}
		}
		if b {
			blocked[id] = true
			todo = append(todo, id)
		}
	}
	for len(todo) > 0 {
		id := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		cs, err := t.ids(qChildren, id)
		if err != nil {
			return fmt.Errorf("settle blocked flags: %w", err)
		}
		for _, c := range cs {
			if region[c] && !blocked[c] {
				blocked[c] = true
				todo = append(todo, c)
			}
		}
	}
	for id := range region {
		if _, err := t.exec(`UPDATE issues SET blocked = ? WHERE id = ? AND blocked != ?`, blocked[id], id, blocked[id]); err != nil {
			return fmt.Errorf("settle blocked flags: %w", err)
		}
	}
	return nil
}

// outside returns the flag of an id outside the region: its stored flag,
// or, for an id with no record, whether something blocks it directly.
func (t *txn) outside(id string) (bool, error) {
	var b bool
	r, err := t.row(`SELECT blocked FROM issues WHERE id = ?`, id)
	if err == nil {
		err = r.Scan(&b)
	}
	if err == nil {
		return b, nil
	}
	if !isNoRows(err) {
		return false, err
	}
	return t.direct(id)
}

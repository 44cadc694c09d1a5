package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/claimslint/claimslint/server"
)

var jsonUnmarshal = json.Unmarshal

// putIssue stores a normalized record and its filter rows, replacing any
// earlier version.
func putIssue(ctx context.Context, tx *sql.Tx, i server.Issue) error {
	i.Normalize()
	line, err := server.MarshalLine(i)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO issues(id, status, type, priority, created_at, version, record) VALUES(?,?,?,?,?,?,?)
		ON CONFLICT(id) DO UPDATE SET status=excluded.status, type=excluded.type, priority=excluded.priority,
		created_at=excluded.created_at, version=excluded.version, record=excluded.record`,
		i.ID, string(i.Status), string(i.Type), i.Priority, i.CreatedAt, i.Version, line); err != nil {
		return fmt.Errorf("store %s: %w", i.ID, err)
	}
	for _, t := range []string{"labels", "decisions"} {
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+t+` WHERE id=?`, i.ID); err != nil {
			return fmt.Errorf("store %s: %w", i.ID, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM deps WHERE src=?`, i.ID); err != nil {
		return fmt.Errorf("store %s: %w", i.ID, err)
	}
	for _, l := range i.Labels {
		if _, err := tx.ExecContext(ctx, `INSERT INTO labels(label, id) VALUES(?,?)`, l, i.ID); err != nil {
			return fmt.Errorf("store %s: %w", i.ID, err)
		}
	}
	for _, dd := range i.Decisions {
		if _, err := tx.ExecContext(ctx, `INSERT INTO decisions(decision, id) VALUES(?,?)`, dd, i.ID); err != nil {
			return fmt.Errorf("store %s: %w", i.ID, err)
		}
	}
	for _, dep := range i.Deps {
		if _, err := tx.ExecContext(ctx, `INSERT INTO deps(src, type, dst) VALUES(?,?,?)`, i.ID, string(dep.Type), dep.ID); err != nil {
			return fmt.Errorf("store %s: %w", i.ID, err)
		}
	}
	return nil
}

func getIssue(ctx context.Context, q queryer, id string) (server.Issue, error) {
	var rec []byte
	err := q.QueryRowContext(ctx, `SELECT record FROM issues WHERE id=?`, id).Scan(&rec)
	if errors.Is(err, sql.ErrNoRows) {
		return server.Issue{}, fmt.Errorf("%w: %s; docket list shows the ids there are", server.ErrNotFound, id)
	}
	if err != nil {
		return server.Issue{}, fmt.Errorf("read %s: %w", id, err)
	}
	return decode(rec)
}

func decode(rec []byte) (server.Issue, error) {
	var i server.Issue
	if err := json.Unmarshal(rec, &i); err != nil {
		return i, fmt.Errorf("decode stored record: %w", err)
	}
	return i, nil
}

func queryIssues(ctx context.Context, q queryer, query string, args ...any) ([]server.Issue, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("query issues: %w", err)
	}
	defer rows.Close()
	out := []server.Issue{}
	var rec []byte
	for rows.Next() {
		if err := rows.Scan(&rec); err != nil {
			return nil, fmt.Errorf("read issue: %w", err)
		}
		i, err := decode(rec)
		if err != nil {
			return nil, err
		}
		out = append(out, i)
	}
	return out, rows.Err()
}

func (d *DB) now() string { return server.FormatTime(d.opts.Now()) }

// Create allocates a fresh id inside the write transaction and stores the
// new issue at version 1.
func (d *DB) Create(ctx context.Context, n server.NewIssue) (server.Issue, error) {
	if d.prefix == "" {
		return server.Issue{}, server.Invalidf("this tracker has no id prefix yet: run docket init --prefix dk")
	}
	if n.Type == "" {
		n.Type = server.TypeTask
	}
	now := d.now()
	i := server.Issue{
		Title:       n.Title,
		Description: n.Description,
		Status:      server.StatusOpen,
		Type:        n.Type,
		Priority:    n.Priority,
		Labels:      n.Labels,
		Decisions:   n.Decisions,
		CreatedAt:   now,
		UpdatedAt:   now,
		Version:     1,
		Schema:      server.Schema,
	}
	i.ID = d.prefix + "-000" // placeholder for validation only; replaced below
	i.Normalize()
	if err := i.Validate(d.prefix); err != nil {
		return server.Issue{}, stripID(err, i.ID)
	}
	err := d.write(ctx, true, func(tx *sql.Tx) error {
		id, err := allocate(ctx, tx, d.prefix)
		if err != nil {
			return err
		}
		i.ID = id
		return putIssue(ctx, tx, i)
	})
	return i, err
}

// stripID removes the placeholder id from a validation message about a
// record that has no id yet.
func stripID(err error, id string) error {
	msg := strings.TrimPrefix(err.Error(), server.ErrInvalid.Error()+": ")
	msg = strings.TrimPrefix(msg, id+": ")
	msg = strings.TrimPrefix(msg, server.ErrInvalid.Error()+": ")
	return fmt.Errorf("%w: %s", server.ErrInvalid, msg)
}

// allocate draws ids until one is free. The allocated table holds every id
// ever drawn, so ids are never reused.
func allocate(ctx context.Context, tx *sql.Tx, prefix string) (string, error) {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM allocated`).Scan(&n); err != nil {
		return "", fmt.Errorf("count ids: %w", err)
	}
	for try := 0; try < 64; try++ {
		id, err := server.NewID(prefix, n+try*10) // longer ids after repeated collisions
		if err != nil {
			return "", err
		}
		res, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO allocated(id) VALUES(?)`, id)
		if err != nil {
			return "", fmt.Errorf("allocate id: %w", err)
		}
		if k, _ := res.RowsAffected(); k == 1 {
			return id, nil
		}
	}
	return "", errors.New("allocate id: 64 draws all collided")
}

// Get returns one issue.
func (d *DB) Get(ctx context.Context, id string) (server.Issue, error) {
	if err := d.ensureSynced(ctx); err != nil {
		return server.Issue{}, err
	}
	return getIssue(ctx, d.rdb, id)
}

// List returns the issues that match f, most urgent first, then oldest.
func (d *DB) List(ctx context.Context, f server.Filter) ([]server.Issue, error) {
	if err := d.ensureSynced(ctx); err != nil {
		return nil, err
	}
	var where []string
	var args []any
	if len(f.Status) > 0 {
		ph := make([]string, len(f.Status))
		for k, s := range f.Status {
			ph[k] = "?"
			args = append(args, string(s))
		}
		where = append(where, "i.status IN ("+strings.Join(ph, ",")+")")
	}
	if f.Type != "" {
		where = append(where, "i.type = ?")
		args = append(args, string(f.Type))
	}
	if f.Label != "" {
		where = append(where, "EXISTS (SELECT 1 FROM labels l WHERE l.label = ? AND l.id = i.id)")
		args = append(args, f.Label)
	}
	if f.Decision != "" {
		where = append(where, "EXISTS (SELECT 1 FROM decisions x WHERE x.decision = ? AND x.id = i.id)")
		args = append(args, f.Decision)
	}
	q := `SELECT i.record FROM issues i`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY i.priority, i.created_at, i.id"
	return queryIssues(ctx, d.rdb, q, args...)
}

// Ready lists open issues that no unfinished issue blocks.
func (d *DB) Ready(ctx context.Context) ([]server.Issue, error) {
	if err := d.ensureSynced(ctx); err != nil {
		return nil, err
	}
	return queryIssues(ctx, d.rdb, `SELECT i.record FROM issues i
		WHERE i.status = 'open' AND NOT EXISTS (
			SELECT 1 FROM deps x JOIN issues b ON b.id = x.src
			WHERE x.dst = i.id AND x.type = 'blocks' AND b.status != 'closed')
		ORDER BY i.priority, i.created_at, i.id`)
}

// modify reads id inside a write transaction, checks ifVersion, applies fn,
// validates, bumps version and updated_at, and stores the result.
func (d *DB) modify(ctx context.Context, id string, ifVersion int64, fn func(tx *sql.Tx, i *server.Issue) error) (server.Issue, error) {
	var out server.Issue
	err := d.write(ctx, true, func(tx *sql.Tx) error {
		i, err := getIssue(ctx, tx, id)
		if err != nil {
			return err
		}
		if ifVersion != 0 && i.Version != ifVersion {
			return &server.ConflictError{ID: id, Want: ifVersion, Have: i.Version}
		}
		if err := fn(tx, &i); err != nil {
			return err
		}
		i.Version++
		i.UpdatedAt = d.now()
		i.Normalize()
		if err := i.Validate(d.prefix); err != nil {
			return err
		}
		out = i
		return putIssue(ctx, tx, i)
	})
	return out, err
}

// Update applies a patch. Closing goes through CloseIssue, which records a
// reason; reopening through Reopen.
func (d *DB) Update(ctx context.Context, id string, p server.Patch) (server.Issue, error) {
	return d.modify(ctx, id, p.IfVersion, func(_ *sql.Tx, i *server.Issue) error {
		if p.Title != nil {
			i.Title = *p.Title
		}
		if p.Description != nil {
			i.Description = *p.Description
		}
		if p.Status != nil {
			if *p.Status == server.StatusClosed || i.Status == server.StatusClosed {
				return server.Invalidf("%s: use docket close ID --reason or docket reopen ID to change whether an issue is closed", id)
			}
			i.Status = *p.Status
		}
		if p.Type != nil {
			i.Type = *p.Type
		}
		if p.Priority != nil {
			i.Priority = *p.Priority
		}
		i.Labels = slices.DeleteFunc(append(i.Labels, p.AddLabels...), func(l string) bool { return slices.Contains(p.RemoveLabels, l) })
		i.Decisions = slices.DeleteFunc(append(i.Decisions, p.AddDecisions...), func(x string) bool { return slices.Contains(p.RemoveDecisions, x) })
		return nil
	})
}

// CloseIssue closes an issue with a reason. The record stays, so every id a
// decision names keeps resolving.
func (d *DB) CloseIssue(ctx context.Context, id, reason string, ifVersion int64) (server.Issue, error) {
	if strings.TrimSpace(reason) == "" {
		return server.Issue{}, server.Invalidf("close %s: give a --reason, it is what a reader of the export will want to know", id)
	}
	return d.modify(ctx, id, ifVersion, func(_ *sql.Tx, i *server.Issue) error {
		if i.Status == server.StatusClosed {
			return server.Invalidf("%s is already closed", id)
		}
		now := d.now()
		i.Status = server.StatusClosed
		i.ClosedAt = &now
		i.CloseReason = reason
		return nil
	})
}

// Reopen sets a closed issue back to open and clears its close fields.
func (d *DB) Reopen(ctx context.Context, id string, ifVersion int64) (server.Issue, error) {
	return d.modify(ctx, id, ifVersion, func(_ *sql.Tx, i *server.Issue) error {
		if i.Status != server.StatusClosed {
			return server.Invalidf("%s is not closed (it is %s)", id, i.Status)
		}
		i.Status = server.StatusOpen
		i.ClosedAt = nil
		i.CloseReason = ""
		return nil
	})
}

// Comment appends a comment.
func (d *DB) Comment(ctx context.Context, id, author, text string) (server.Issue, error) {
	if strings.TrimSpace(text) == "" {
		return server.Issue{}, server.Invalidf("comment on %s: the text is empty", id)
	}
	if strings.TrimSpace(author) == "" {
		author = "unknown"
	}
	return d.modify(ctx, id, 0, func(_ *sql.Tx, i *server.Issue) error {
		i.Comments = append(i.Comments, server.Comment{Time: d.now(), Author: author, Text: text})
		return nil
	})
}

// AddDep adds a typed edge from id to dep.ID. Both issues must exist, and a
// blocks or parent edge that would close a cycle is refused: a cycle of
// blocks would make every issue on it never ready.
func (d *DB) AddDep(ctx context.Context, id string, dep server.Dep) (server.Issue, error) {
	if _, err := server.ParseDepType(string(dep.Type)); err != nil {
		return server.Issue{}, err
	}
	if id == dep.ID {
		return server.Issue{}, server.Invalidf("%s cannot depend on itself", id)
	}
	return d.modify(ctx, id, 0, func(tx *sql.Tx, i *server.Issue) error {
		if _, err := getIssue(ctx, tx, dep.ID); err != nil {
			return err
		}
		if dep.Type != server.DepRelated {
			var cyc int
			err := tx.QueryRowContext(ctx, `WITH RECURSIVE reach(id) AS (
					SELECT ? UNION SELECT x.dst FROM deps x JOIN reach r ON x.src = r.id WHERE x.type = ?)
				SELECT count(*) FROM reach WHERE id = ?`, dep.ID, string(dep.Type), id).Scan(&cyc)
			if err != nil {
				return fmt.Errorf("check for a cycle: %w", err)
			}
			if cyc > 0 {
				return server.Invalidf("%s %s %s would close a cycle of %s edges", id, dep.Type, dep.ID, dep.Type)
			}
		}
		i.Deps = append(i.Deps, dep)
		return nil
	})
}

// Import upserts a decoded file in one transaction: a record that is new
// is created as given, a record that differs replaces the stored one with
// its version set one past the higher of the two, and edges land on stored
// issues. Any failure rolls everything back.
func (d *DB) Import(ctx context.Context, set *server.ImportSet) (server.ImportResult, error) {
	var res server.ImportResult
	if d.prefix == "" {
		return res, server.Invalidf("this tracker has no id prefix yet: run docket init --prefix dk")
	}
	for _, i := range set.Issues {
		if err := i.Validate(d.prefix); err != nil {
			return res, err
		}
	}
	err := d.write(ctx, true, func(tx *sql.Tx) error {
		res = server.ImportResult{}
		for _, in := range set.Issues {
			in = in.Clone()
			in.Normalize()
			cur, err := getIssue(ctx, tx, in.ID)
			switch {
			case errors.Is(err, server.ErrNotFound):
				res.Created++
			case err != nil:
				return err
			default:
				a, _ := server.MarshalLine(cur)
				given := in.Version
				in.Version = cur.Version
				b, _ := server.MarshalLine(in)
				if string(a) == string(b) {
					res.Unchanged++
					continue
				}
				in.Version = max(cur.Version, given) + 1
				res.Updated++
			}
			if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO allocated(id) VALUES(?)`, in.ID); err != nil {
				return fmt.Errorf("record id %s: %w", in.ID, err)
			}
			if err := putIssue(ctx, tx, in); err != nil {
				return err
			}
		}
		for _, e := range set.Edges {
			i, err := getIssue(ctx, tx, e.From)
			if err != nil {
				return fmt.Errorf("line %d: %w", e.Line, err)
			}
			if slices.Contains(i.Deps, e.Dep) {
				continue
			}
			i.Deps = append(i.Deps, e.Dep)
			i.Version++
			if err := putIssue(ctx, tx, i); err != nil {
				return err
			}
			res.Edges++
		}
		var src, dst string
		err := tx.QueryRowContext(ctx, `SELECT x.src, x.dst FROM deps x LEFT JOIN issues i ON i.id = x.dst WHERE i.id IS NULL ORDER BY x.src, x.dst LIMIT 1`).Scan(&src, &dst)
		if err == nil {
			return server.Invalidf("%s depends on %s, which is neither in the file nor in the tracker; nothing was imported", src, dst)
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("check dependencies: %w", err)
		}
		return nil
	})
	return res, err
}

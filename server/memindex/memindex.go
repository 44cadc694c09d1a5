// Package memindex is an in-memory docket.Index: maps under one mutex,
// copied on write so a failed transaction leaves nothing behind. It serves
// the shared store suite, tests that need no SQLite file, and the reads
// that cannot sync the SQLite index with a changed export because it
// cannot write (docket.Options.Fallback); it answers the same queries as
// server/sqlite by scanning.
package memindex

import (
	"context"
	"maps"
	"slices"
	"sync"

	"github.com/claimslint/claimslint/server/docket"
)

type state struct {
	meta      map[string]string
	issues    map[string]docket.Issue
	lines     map[string][]byte
	allocated map[string]bool
}

func (s *state) clone() *state {
	return &state{meta: maps.Clone(s.meta), issues: maps.Clone(s.issues), lines: maps.Clone(s.lines), allocated: maps.Clone(s.allocated)}
}

// Index is the in-memory docket.Index. The zero value is not usable; call
// New.
type Index struct {
	mu sync.RWMutex
	st *state
}

var _ docket.Index = (*Index)(nil)

// New returns an empty index.
func New() *Index {
	return &Index{st: &state{meta: map[string]string{}, issues: map[string]docket.Issue{}, lines: map[string][]byte{}, allocated: map[string]bool{}}}
}

// Read runs fn under the read lock.
func (x *Index) Read(_ context.Context, fn func(docket.Reader) error) error {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return fn(&txn{st: x.st})
}

// Write runs fn on a copy and keeps the copy when fn succeeds.
func (x *Index) Write(_ context.Context, fn func(docket.Writer) error) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	st := x.st.clone()
	if err := fn(&txn{st: st}); err != nil {
		return err
	}
	x.st = st
	return nil
}

// Close does nothing: the state lives as long as the Index.
func (x *Index) Close() error { return nil }

type txn struct{ st *state }

func (t *txn) Meta(key string) (string, error) { return t.st.meta[key], nil }

func (t *txn) SetMeta(key, value string) error { t.st.meta[key] = value; return nil }

func (t *txn) Get(id string) (docket.Issue, error) {
	i, ok := t.st.issues[id]
	if !ok {
		return docket.Issue{}, docket.NotFound(id)
	}
	return i.Clone(), nil
}

func (t *txn) Has(id string) (bool, error) { _, ok := t.st.issues[id]; return ok, nil }

// Blockers are the issues that block id: those with a blocks edge to it,
// and those it depends on.
func (t *txn) Blockers(id string) ([]string, error) {
	return t.around(id, docket.DepBlocks, docket.DepDependsOn), nil
}

// Blocked are the issues id blocks: those that depend on it, and those it
// has a blocks edge to.
func (t *txn) Blocked(id string) ([]string, error) {
	return t.around(id, docket.DepDependsOn, docket.DepBlocks), nil
}

// around lists, sorted and once each, the issues with an edge of type in
// to id and those id has an edge of type out to.
func (t *txn) around(id string, in, out docket.DepType) []string {
	var ids []string
	for _, i := range t.st.issues {
		for _, d := range i.Deps {
			if d.Type == in && d.ID == id {
				ids = append(ids, i.ID)
			}
		}
	}
	if i, ok := t.st.issues[id]; ok {
		for _, d := range i.Deps {
			if d.Type == out {
				ids = append(ids, d.ID)
			}
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

func (t *txn) Allocated() (int, error) { return len(t.st.allocated), nil }

func (t *txn) Statuses() ([]docket.Status, error) {
	var out []docket.Status
	for _, i := range t.st.issues {
		if !slices.Contains(out, i.Status) {
			out = append(out, i.Status)
		}
	}
	slices.Sort(out)
	return out, nil
}

func (t *txn) Allocate(id string) (bool, error) {
	if t.st.allocated[id] {
		return false, nil
	}
	t.st.allocated[id] = true
	return true, nil
}

func (t *txn) Clear() error {
	t.st.issues = map[string]docket.Issue{}
	t.st.lines = map[string][]byte{}
	return nil
}

func (t *txn) Put(i docket.Issue, line []byte) error {
	t.st.issues[i.ID] = i.Clone()
	t.st.lines[i.ID] = slices.Clone(line)
	return nil
}

func (t *txn) Lines(fn func([]byte) error) error {
	for _, id := range slices.Sorted(maps.Keys(t.st.lines)) {
		if err := fn(t.st.lines[id]); err != nil {
			return err
		}
	}
	return nil
}

// blocked is the set of ids something unfinished blocks, directly or
// through a parent.
func (t *txn) blocked(finished []docket.Status) map[string]bool {
	done := func(id string) bool {
		i, ok := t.st.issues[id]
		return ok && slices.Contains(finished, i.Status)
	}
	exists := func(id string) bool { _, ok := t.st.issues[id]; return ok }
	out := map[string]bool{}
	for _, i := range t.st.issues {
		for _, d := range i.Deps {
			if d.Type == docket.DepBlocks && !done(i.ID) {
				out[d.ID] = true
			}
			if d.Type == docket.DepDependsOn && exists(d.ID) && !done(d.ID) {
				out[i.ID] = true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, i := range t.st.issues {
			if out[i.ID] {
				continue
			}
			for _, d := range i.Deps {
				if d.Type.Parent() && out[d.ID] {
					out[i.ID] = true
					changed = true
					break
				}
			}
		}
	}
	return out
}

func (t *txn) match(q docket.Query) []docket.Row {
	var blocked map[string]bool
	if q.Ready || q.Blocked {
		blocked = t.blocked(q.Finished)
	}
	var out []docket.Row
	for _, i := range t.st.issues {
		if len(q.Statuses) > 0 && !slices.Contains(q.Statuses, i.Status) {
			continue
		}
		if slices.Contains(q.Exclude, i.Status) {
			continue
		}
		if q.Type != "" && i.Type != q.Type {
			continue
		}
		if q.Label != "" && !slices.Contains(i.Labels, q.Label) {
			continue
		}
		if q.Decision != "" && !slices.Contains(i.Decisions, q.Decision) {
			continue
		}
		if q.Priority != nil && i.Priority != *q.Priority {
			continue
		}
		if q.Assignee != "" && i.Assignee != q.Assignee {
			continue
		}
		if !containsWords(i, q.Text) {
			continue
		}
		if q.Ready && blocked[i.ID] {
			continue
		}
		if q.Blocked && !blocked[i.ID] && !slices.Contains(q.BlockedStatuses, i.Status) {
			continue
		}
		out = append(out, docket.RowOf(i))
	}
	slices.SortFunc(out, func(a, b docket.Row) int {
		return docket.CompareKeys(q.Sort, docket.KeyOf(a, q.Sort), docket.KeyOf(b, q.Sort))
	})
	return out
}

func containsWords(i docket.Issue, text string) bool {
	return docket.MatchesWords(i.Title, i.Description, docket.SearchWords(text))
}

func (t *txn) Rows(q docket.Query) ([]docket.Row, error) {
	rows := t.after(q)
	if q.Limit > 0 && len(rows) > q.Limit {
		rows = rows[:q.Limit]
	}
	if rows == nil {
		rows = []docket.Row{}
	}
	return rows, nil
}

func (t *txn) after(q docket.Query) []docket.Row {
	rows := t.match(q)
	if q.After != nil {
		k := slices.IndexFunc(rows, func(r docket.Row) bool {
			return docket.CompareKeys(q.Sort, docket.KeyOf(r, q.Sort), *q.After) > 0
		})
		if k < 0 {
			k = len(rows)
		}
		rows = rows[k:]
	}
	return rows
}

func (t *txn) Count(q docket.Query) (int, error) { return len(t.after(q)), nil }

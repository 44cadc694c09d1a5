package docket

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
)

func (s *Service) now() string { return FormatTime(s.opts.Now()) }

// Create allocates a fresh id inside the write transaction and stores the
// new issue at version 1.
func (s *Service) Create(ctx context.Context, n NewIssue) (Issue, error) {
	if s.prefix == "" {
		return Issue{}, Hintf(HintInitPrefix, "this tracker has no id prefix yet")
	}
	if n.Type == "" {
		n.Type = TypeTask
	}
	now := s.now()
	i := Issue{
		Title:       n.Title,
		Description: n.Description,
		Status:      StatusOpen,
		Type:        n.Type,
		Priority:    n.Priority,
		Labels:      n.Labels,
		Decisions:   n.Decisions,
		CreatedAt:   now,
		UpdatedAt:   now,
		Version:     1,
		Schema:      Schema,
	}
	i.Normalize()
	// The record has no id yet: its content is checked on its own, so no
	// message names a placeholder.
	if err := i.ValidateContent(); err != nil {
		return Issue{}, err
	}
	err := s.write(ctx, true, func(w Writer) error {
		id, err := s.allocate(w)
		if err != nil {
			return err
		}
		i.ID = id
		return put(w, i)
	})
	return i, err
}

// allocate draws ids until one is free. The index remembers every id ever
// drawn, so ids are never reused.
func (s *Service) allocate(w Writer) (string, error) {
	n, err := w.Allocated()
	if err != nil {
		return "", err
	}
	for try := 0; try < 64; try++ {
		id, err := NewID(s.prefix, n+try*10) // longer ids after repeated collisions
		if err != nil {
			return "", err
		}
		free, err := w.Allocate(id)
		if err != nil {
			return "", err
		}
		if free {
			// Logged before the commit: an id logged and never committed
			// is only never drawn again.
			if err := appendID(s.files, s.opts.IDLog, id); err != nil {
				return "", err
			}
			return id, nil
		}
	}
	return "", errors.New("allocate id: 64 draws all collided")
}

// appendID adds id to the id log at path ("" means none), beneath the
// root (D67).
func appendID(files Files, path, id string) error {
	if path == "" {
		return nil
	}
	if err := files.Append(path, []byte(id+"\n"), false); err != nil {
		return fmt.Errorf("record drawn id in %s: %w", path, err)
	}
	return nil
}

// Get returns one issue.
func (s *Service) Get(ctx context.Context, id string) (Issue, error) {
	if err := s.ensureSynced(ctx); err != nil {
		return Issue{}, err
	}
	idx := s.reader()
	if g, ok := idx.(OneGetter); ok {
		return g.GetOne(ctx, id)
	}
	var i Issue
	err := idx.Read(ctx, func(r Reader) error {
		var err error
		i, err = r.Get(id)
		return err
	})
	return i, err
}

// query fills a query's status sets from the workflow.
func (s *Service) query(q Query) Query {
	q.Finished = s.opts.Workflow.Of(ClassClosed)
	if q.Blocked {
		q.BlockedStatuses = s.opts.Workflow.Of(ClassBlocked)
	}
	if q.Sort == "" {
		q.Sort = SortPriority
	}
	return q
}

// unfinished is the default status filter: every status not mapped onto
// the closed class.
func (s *Service) unfinished(q *Query) {
	if len(q.Statuses) == 0 {
		q.Exclude = s.opts.Workflow.Of(ClassClosed)
	}
}

func (s *Service) records(ctx context.Context, q Query) ([]Issue, error) {
	out := []Issue{}
	err := s.read(ctx, func(r Reader) error {
		rows, err := r.Rows(s.query(q))
		if err != nil {
			return err
		}
		for _, row := range rows {
			i, err := r.Get(row.ID)
			if err != nil {
				return err
			}
			out = append(out, i)
		}
		return nil
	})
	return out, err
}

// List returns the issues that match f, most urgent first, then oldest.
func (s *Service) List(ctx context.Context, f Filter) ([]Issue, error) {
	return s.records(ctx, Query{Statuses: f.Status, Type: f.Type, Label: f.Label, Decision: f.Decision})
}

// Ready lists the issues whose status is mapped onto the open class and that
// nothing unfinished blocks, directly or through a parent.
func (s *Service) Ready(ctx context.Context) ([]Issue, error) {
	return s.records(ctx, Query{Statuses: s.opts.Workflow.Of(ClassOpen), Ready: true})
}

// Unmapped returns the statuses stored records carry that the workflow
// does not map (they count as active), sorted: what a listing reports
// rather than map in silence (D57).
func (s *Service) Unmapped(ctx context.Context) ([]Status, error) {
	var ss []Status
	err := s.read(ctx, func(r Reader) error {
		var err error
		ss, err = r.Statuses()
		return err
	})
	return s.opts.Workflow.Unmapped(ss), err
}

// modify reads id inside a write transaction, checks ifVersion, applies fn,
// validates, bumps version and updated_at, and stores the result.
func (s *Service) modify(ctx context.Context, id string, ifVersion int64, fn func(w Writer, i *Issue) error) (Issue, error) {
	var out Issue
	err := s.write(ctx, true, func(w Writer) error {
		i, err := w.Get(id)
		if err != nil {
			return err
		}
		if ifVersion != 0 && i.Version != ifVersion {
			return &ConflictError{ID: id, Want: ifVersion, Have: i.Version}
		}
		if err := fn(w, &i); err != nil {
			return err
		}
		i.Version++
		i.UpdatedAt = s.now()
		i.Normalize()
		if err := i.Validate(""); err != nil {
			return err
		}
		out = i
		return put(w, i)
	})
	return out, err
}

// Update applies a patch. Closing goes through CloseIssue, which records a
// reason; reopening through Reopen.
func (s *Service) Update(ctx context.Context, id string, p Patch) (Issue, error) {
	return s.modify(ctx, id, p.IfVersion, func(_ Writer, i *Issue) error {
		if p.Title != nil {
			i.Title = *p.Title
		}
		if p.Description != nil {
			i.Description = *p.Description
		}
		if p.Status != nil {
			if *p.Status == StatusClosed || i.Status == StatusClosed {
				return Hintf(HintCloseOpen, "%s", id)
			}
			i.Status = *p.Status
		}
		if p.Type != nil {
			i.Type = *p.Type
		}
		if p.Priority != nil {
			i.Priority = *p.Priority
		}
		if p.Assignee != nil {
			i.Assignee = *p.Assignee
		}
		i.Labels = slices.DeleteFunc(append(i.Labels, p.AddLabels...), func(l string) bool { return slices.Contains(p.RemoveLabels, l) })
		i.Decisions = slices.DeleteFunc(append(i.Decisions, p.AddDecisions...), func(x string) bool { return slices.Contains(p.RemoveDecisions, x) })
		return nil
	})
}

// ErrClaimed is wrapped by a Claim refused because someone else holds the
// issue.
var ErrClaimed = errors.New("claimed by someone else")

// ErrClosedIssue is wrapped by a Claim refused because the issue is closed,
// and ErrCycle by an AddDep refused because the edge would close a cycle:
// both are input errors (CodeInvalid) whose message says the rest, so a
// caller tells them apart with errors.Is, never by the text.
var (
	ErrClosedIssue = errors.New("the issue is closed")
	ErrCycle       = errors.New("the edge would close a cycle")
)

// Claim sets the assignee of an unfinished issue and moves it to the
// workflow's active status: in_progress, or the first active one of a
// workflow without it; in one write
// transaction: two claimants cannot both win. A claim by the holder again
// changes nothing but the version; one by anyone else is refused.
func (s *Service) Claim(ctx context.Context, id, assignee string, ifVersion int64) (Issue, error) {
	if err := CheckAssignee(assignee); err != nil {
		return Issue{}, ArgErr("assignee", err)
	}
	active := StatusInProgress
	if c, ok := s.opts.Workflow.Class(active); !ok || c != ClassActive {
		if as := s.opts.Workflow.Of(ClassActive); len(as) > 0 {
			active = as[0] // a workflow without in_progress: its first active status
		}
	}
	return s.modify(ctx, id, ifVersion, func(_ Writer, i *Issue) error {
		if c, ok := s.opts.Workflow.Class(i.Status); ok && c == ClassClosed {
			return &Error{Code: CodeInvalid, Message: sprintf("%s is %s: reopen it before claiming it", id, i.Status), Err: ErrClosedIssue}
		}
		if i.Assignee != "" && i.Assignee != assignee {
			return fmt.Errorf("%s is held by %s: %w; ask them, or pick another issue", id, i.Assignee, ErrClaimed)
		}
		i.Assignee = assignee
		i.Status = active
		return nil
	})
}

// CloseIssue closes an issue with a reason. The record stays, so every id a
// decision names keeps resolving.
func (s *Service) CloseIssue(ctx context.Context, id, reason string, ifVersion int64) (Issue, error) {
	if strings.TrimSpace(reason) == "" {
		return Issue{}, Hintf(HintGiveReason, "close %s", id)
	}
	return s.modify(ctx, id, ifVersion, func(_ Writer, i *Issue) error {
		if i.Status == StatusClosed {
			return Invalidf("%s is already closed", id)
		}
		now := s.now()
		i.Status = StatusClosed
		i.ClosedAt = &now
		i.CloseReason = reason
		return nil
	})
}

// Reopen sets a closed issue back to open and clears its close fields.
func (s *Service) Reopen(ctx context.Context, id string, ifVersion int64) (Issue, error) {
	return s.modify(ctx, id, ifVersion, func(_ Writer, i *Issue) error {
		if i.Status != StatusClosed {
			return Invalidf("%s is not closed (it is %s)", id, i.Status)
		}
		i.Status = StatusOpen
		i.ClosedAt = nil
		i.CloseReason = ""
		return nil
	})
}

// Comment appends a comment.
func (s *Service) Comment(ctx context.Context, id, author, text string) (Issue, error) {
	if strings.TrimSpace(text) == "" {
		return Issue{}, Invalidf("comment on %s: the text is empty", id)
	}
	if strings.TrimSpace(author) == "" {
		author = "unknown"
	}
	return s.modify(ctx, id, 0, func(_ Writer, i *Issue) error {
		i.Comments = append(i.Comments, Comment{Time: s.now(), Author: author, Text: text})
		return nil
	})
}

// AddDep adds a typed edge from id to dep.ID. Both issues must exist, and a
// blocks or parent edge that would close a cycle is refused: a cycle of
// blocks would make every issue on it never ready.
func (s *Service) AddDep(ctx context.Context, id string, dep Dep) (Issue, error) {
	if _, err := ParseDepType(string(dep.Type)); err != nil {
		return Issue{}, err
	}
	if id == dep.ID {
		return Issue{}, Invalidf("%s cannot depend on itself", id)
	}
	if cur, err := s.Get(ctx, id); err == nil && slices.ContainsFunc(cur.Deps, func(d Dep) bool { return d.Type == dep.Type && d.ID == dep.ID }) {
		return cur, nil // already there: nothing to write
	}
	return s.modify(ctx, id, 0, func(w Writer, i *Issue) error {
		if _, err := w.Get(dep.ID); err != nil {
			return err
		}
		if err := checkCycle(w, id, dep); err != nil {
			return err
		}
		i.Deps = append(i.Deps, dep)
		return nil
	})
}

// Blocking returns, sorted, the ids that block id and the ids id blocks
// (through blocks and depends-on edges), for show; id must exist.
func (s *Service) Blocking(ctx context.Context, id string) (blockers, blocked []string, err error) {
	err = s.read(ctx, func(r Reader) error {
		if _, err := r.Get(id); err != nil {
			return err
		}
		if blockers, err = r.Blockers(id); err != nil {
			return err
		}
		blocked, err = r.Blocked(id)
		return err
	})
	slices.Sort(blockers)
	return slices.Compact(blockers), blocked, err
}

// RemoveDep removes the edge of type dep.Type from id to dep.ID; an edge
// the issue does not hold is an error that lists the ones it does.
func (s *Service) RemoveDep(ctx context.Context, id string, dep Dep) (Issue, error) {
	return s.modify(ctx, id, 0, func(_ Writer, i *Issue) error {
		k := slices.IndexFunc(i.Deps, func(d Dep) bool { return d.Type == dep.Type && d.ID == dep.ID })
		if k < 0 {
			var have []string
			for _, d := range i.Deps {
				have = append(have, string(d.Type)+" "+d.ID)
			}
			if len(have) == 0 {
				have = []string{"none"}
			}
			return Invalidf("%s has no %s edge to %s; it has: %s", id, dep.Type, dep.ID, strings.Join(have, ", "))
		}
		i.Deps = slices.Delete(i.Deps, k, k+1)
		return nil
	})
}

// checkCycle refuses an edge that would close a cycle of blocking edges
// (blocks, depends-on) or of parent edges (parent, parent-child).
func checkCycle(r Reader, id string, dep Dep) error {
	switch {
	case dep.Type.Blocking():
		// id blocks dep.ID (or, for depends-on, dep.ID blocks id): a cycle
		// when the blocked one already blocks the blocker, transitively.
		blocker, blocked := id, dep.ID
		if dep.Type == DepDependsOn {
			blocker, blocked = dep.ID, id
		}
		found, err := reach(blocker, blocked, r.Blockers)
		if err != nil {
			return fmt.Errorf("check for a cycle: %w", err)
		}
		if found {
			return &Error{Code: CodeInvalid, Message: sprintf("%s %s %s would close a cycle of blocking edges", id, dep.Type, dep.ID), Err: ErrCycle}
		}
	case dep.Type.Parent():
		// dep.ID becomes id's parent: a cycle when id is already an
		// ancestor of dep.ID.
		found, err := reach(dep.ID, id, func(x string) ([]string, error) {
			i, err := r.Get(x)
			if errors.Is(err, ErrNotFound) {
				return nil, nil
			}
			if err != nil {
				return nil, err
			}
			var ps []string
			for _, d := range i.Deps {
				if d.Type.Parent() {
					ps = append(ps, d.ID)
				}
			}
			return ps, nil
		})
		if err != nil {
			return fmt.Errorf("check for a cycle: %w", err)
		}
		if found {
			return &Error{Code: CodeInvalid, Message: sprintf("%s %s %s would close a cycle of parent edges", id, dep.Type, dep.ID), Err: ErrCycle}
		}
	}
	return nil
}

// reach reports whether target is reachable from start by next.
func reach(start, target string, next func(string) ([]string, error)) (bool, error) {
	seen := map[string]bool{start: true}
	todo := []string{start}
	for len(todo) > 0 {
		x := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if x == target {
			return true, nil
		}
		ns, err := next(x)
		if err != nil {
			return false, err
		}
		for _, n := range ns {
			if !seen[n] {
				seen[n] = true
				todo = append(todo, n)
			}
		}
	}
	return false, nil
}

// errDryRun rolls back a dry-run import after its counts are taken.
var errDryRun = errors.New("dry run")

// Import upserts a decoded file in one transaction: a record that is new
// is created as given, a record that differs replaces the stored one with
// its version set one past the higher of the two, and edges land on stored
// issues. Any failure rolls everything back.
func (s *Service) Import(ctx context.Context, set *ImportSet) (ImportResult, error) {
	return s.importSet(ctx, set, false)
}

// DryRun counts what Import would do, and reports the same dangling
// dependencies, then rolls back: nothing changes, not even the export.
func (s *Service) DryRun(ctx context.Context, set *ImportSet) (ImportResult, error) {
	return s.importSet(ctx, set, true)
}

func (s *Service) importSet(ctx context.Context, set *ImportSet, dry bool) (ImportResult, error) {
	var res ImportResult
	if s.prefix == "" {
		return res, Hintf(HintInitPrefix, "this tracker has no id prefix yet")
	}
	for _, i := range set.Issues {
		if err := i.Validate(""); err != nil {
			return res, err
		}
	}
	err := s.write(ctx, true, func(w Writer) error {
		res = ImportResult{}
		if err := importIssues(w, set, &res); err != nil {
			return err
		}
		if err := importEdges(w, set, &res); err != nil {
			return err
		}
		if err := danglingDeps(w, set, &res); err != nil {
			return err
		}
		if dry {
			return errDryRun
		}
		return nil
	})
	if dry && errors.Is(err, errDryRun) {
		err = nil
	}
	return res, err
}

// importIssues stores each issue of set: a new one created, one that
// differs from the stored one updated (its version past both), one that
// does not left unchanged.
func importIssues(w Writer, set *ImportSet, res *ImportResult) error {
	// Every stored record was allocated, so an index that never
	// allocated an id holds none: a first import skips a lookup a
	// record.
	allocated, err := w.Allocated()
	if err != nil {
		return err
	}
	for _, in := range set.Issues {
		in = in.Clone()
		in.Normalize()
		cur, err := Issue{}, error(ErrNotFound)
		if allocated > 0 {
			cur, err = w.Get(in.ID)
		}
		switch {
		case errors.Is(err, ErrNotFound):
			res.Created++
		case err != nil:
			return err
		default:
			a, _ := MarshalLine(cur)
			given := in.Version
			in.Version = cur.Version
			b, _ := MarshalLine(in)
			if string(a) == string(b) {
				res.Unchanged++
				continue
			}
			in.Version = max(cur.Version, given) + 1
			res.Updated++
		}
		if _, err := w.Allocate(in.ID); err != nil {
			return err
		}
		if err := put(w, in); err != nil {
			return err
		}
	}
	return nil
}

// importEdges adds each dependency edge of set its issue lacks.
func importEdges(w Writer, set *ImportSet, res *ImportResult) error {
	for _, e := range set.Edges {
		i, err := w.Get(e.From)
		if err != nil {
			return fmt.Errorf("line %d: %w", e.Line, err)
		}
		if slices.Contains(i.Deps, e.Dep) {
			continue
		}
		i.Deps = append(i.Deps, e.Dep)
		i.Version++
		if err := put(w, i); err != nil {
			return err
		}
		res.Edges++
	}
	return nil
}

// danglingDeps counts the dependencies of set and reports those on an
// id neither the file nor the tracker holds: kept (the export it came
// from may be partial). An id in the file is stored by now.
func danglingDeps(w Writer, set *ImportSet, res *ImportResult) error {
	inFile := make(map[string]bool, len(set.Issues))
	for _, in := range set.Issues {
		inFile[in.ID] = true
	}
	for _, in := range set.Issues {
		for _, d := range in.Deps {
			res.Deps++
			if inFile[d.ID] || IsExternal(d.ID) {
				continue
			}
			ok, err := w.Has(d.ID)
			if err != nil {
				return err
			}
			if !ok {
				res.Dangling = append(res.Dangling, Edge{From: in.ID, Dep: d, Line: set.Lines[in.ID]})
			}
		}
	}
	return nil
}

package docket

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
)

// MergeAuthor signs the comments a merge adds when it had to pick one side
// of a field both sides changed.
const MergeAuthor = "docket merge"

// Merge is a three-way merge of exports keyed by id, for use as a git merge
// driver. A record changed on one side only takes that side. A record
// changed on both is merged field by field: sets (labels, decisions, deps)
// keep what either side added and drop what either side removed; comments
// are united; a scalar changed differently on both sides takes the side
// updated last and records the other value in a comment, so nothing is
// lost. Records are never dropped. The same id created independently on
// both sides (a random-id collision) cannot be merged: ours is kept and the
// id is returned in collisions.
func Merge(base, ours, theirs []Issue) (merged []Issue, collisions []string) {
	index := func(xs []Issue) map[string]Issue {
		m := make(map[string]Issue, len(xs))
		for _, x := range xs {
			x = x.Clone()
			x.Normalize()
			m[x.ID] = x
		}
		return m
	}
	b, o, t := index(base), index(ours), index(theirs)
	ids := map[string]bool{}
	for _, m := range []map[string]Issue{b, o, t} {
		for id := range m {
			ids[id] = true
		}
	}
	keys := make([]string, 0, len(ids))
	for id := range ids {
		keys = append(keys, id)
	}
	slices.Sort(keys)
	for _, id := range keys {
		bi, inB := b[id]
		oi, inO := o[id]
		ti, inT := t[id]
		switch {
		case inO && !inT:
			merged = append(merged, oi)
		case inT && !inO:
			merged = append(merged, ti)
		case !inO && !inT:
			merged = append(merged, bi) // removed on both sides: keep, nothing is deleted
		case same(oi, ti):
			merged = append(merged, oi)
		case inB && same(bi, oi):
			merged = append(merged, ti)
		case inB && same(bi, ti):
			merged = append(merged, oi)
		case !inB && (oi.CreatedAt != ti.CreatedAt || oi.Title != ti.Title):
			merged = append(merged, oi)
			collisions = append(collisions, id)
		default:
			if !inB {
				bi = Issue{ID: id}
			}
			merged = append(merged, mergeIssue(bi, oi, ti))
		}
	}
	return merged, collisions
}

func same(a, b Issue) bool {
	x, err1 := MarshalLine(a)
	y, err2 := MarshalLine(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

func mergeIssue(b, o, t Issue) Issue {
	// newer is the side whose scalar wins when both changed it.
	newer, older := o, t
	if t.UpdatedAt > o.UpdatedAt || (t.UpdatedAt == o.UpdatedAt && t.Version > o.Version) {
		newer, older = t, o
	}
	m := o.Clone()
	var notes []string
	// pick returns the merged value of one scalar, and notes the losing
	// value when both sides changed it differently.
	pick := func(name string, bv, ov, tv, nv, lv string, show func(string) string) string {
		switch {
		case ov == tv, tv == bv:
			return ov
		case ov == bv:
			return tv
		}
		notes = append(notes, fmt.Sprintf("merge: both sides changed %s; kept %s, the other side had %s", name, show(nv), show(lv)))
		return nv
	}
	quote := strconv.Quote
	plain := func(s string) string { return s }
	m.Title = pick("title", b.Title, o.Title, t.Title, newer.Title, older.Title, quote)
	m.Description = pick("description", b.Description, o.Description, t.Description, newer.Description, older.Description, quote)
	m.Type = Type(pick("type", string(b.Type), string(o.Type), string(t.Type), string(newer.Type), string(older.Type), plain))
	m.Priority, _ = strconv.Atoi(pick("priority", strconv.Itoa(b.Priority), strconv.Itoa(o.Priority), strconv.Itoa(t.Priority), strconv.Itoa(newer.Priority), strconv.Itoa(older.Priority), plain))
	// Status, closed_at and close_reason move together.
	closeState := func(i Issue) string {
		c := ""
		if i.ClosedAt != nil {
			c = *i.ClosedAt
		}
		return string(i.Status) + "\x00" + c + "\x00" + i.CloseReason
	}
	statusOnly := func(s string) string { return s[:bytes.IndexByte([]byte(s), 0)] }
	src := o
	if pick("status", closeState(b), closeState(o), closeState(t), closeState(newer), closeState(older), statusOnly) == closeState(t) {
		src = t
	}
	m.Status, m.ClosedAt, m.CloseReason = src.Status, src.Clone().ClosedAt, src.CloseReason
	m.Labels = merge3(b.Labels, o.Labels, t.Labels)
	m.Decisions = merge3(b.Decisions, o.Decisions, t.Decisions)
	m.Deps = merge3(b.Deps, o.Deps, t.Deps)
	m.Comments = append(slices.Clone(o.Comments), t.Comments...)
	m.Comments = uniqueComments(m.Comments)
	m.CreatedAt = min(o.CreatedAt, t.CreatedAt)
	m.UpdatedAt = max(o.UpdatedAt, t.UpdatedAt)
	m.Version = max(o.Version, t.Version) + 1
	for _, n := range notes {
		m.Comments = append(m.Comments, Comment{Time: m.UpdatedAt, Author: MergeAuthor, Text: n})
	}
	m.Normalize()
	return m
}

// merge3 keeps an element when both sides kept it or one side added it.
func merge3[T comparable](b, o, t []T) []T {
	inB := set(b)
	inO := set(o)
	inT := set(t)
	var out []T
	for _, x := range append(slices.Clone(o), t...) {
		switch {
		case inB[x] && (!inO[x] || !inT[x]):
			continue // removed on one side
		case slices.Contains(out, x):
			continue
		}
		out = append(out, x)
	}
	return out
}

func set[T comparable](xs []T) map[T]bool {
	m := make(map[T]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

func uniqueComments(cs []Comment) []Comment {
	seen := map[Comment]bool{}
	out := cs[:0:0]
	for _, c := range cs {
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

package docket

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"time"
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
//
// A side whose updated_at is past now + MergeSkew is not taken as the
// newer one (D91): a branch dated 9999-12-31 would otherwise win every
// conflict. The other side wins, the merged record keeps the other
// side's date, a comment says so, and future names each such record.
//
// A record taken whole from the side that changed it (or made it) keeps
// that side's content, but a date past the limit is not kept either: it
// is set to the merge's own time, a comment keeps the date it had, and
// future names the record, so the date does not travel on into every
// later merge (D91).
func Merge(base, ours, theirs []Issue) (merged []Issue, collisions, future []string) {
	now := time.Now()
	limit := FormatTime(now.Add(MergeSkew))
	// whole returns i, taken whole from side, its date clamped to the
	// merge's when side changed it and dated it past limit.
	whole := func(i Issue, side string, changed bool) Issue {
		if !changed || i.UpdatedAt <= limit {
			return i
		}
		at := FormatTime(now)
		msg := fmt.Sprintf("%s: the change of %s, taken whole, is dated %s, in the future (past %s): its date is set to the merge's, %s", i.ID, side, i.UpdatedAt, limit, at)
		future = append(future, msg)
		i.Comments = append(slices.Clone(i.Comments), Comment{Time: at, Author: MergeAuthor, Text: "merge: " + msg[len(i.ID)+2:]})
		i.UpdatedAt = at
		i.Normalize()
		return i
	}
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
			merged = append(merged, whole(oi, "ours", !inB || !same(bi, oi)))
		case inT && !inO:
			merged = append(merged, whole(ti, "theirs", !inB || !same(bi, ti)))
		case !inO && !inT:
			merged = append(merged, bi) // removed on both sides: keep, nothing is deleted
		case same(oi, ti):
			merged = append(merged, whole(oi, "both sides", !inB || !same(bi, oi)))
		case inB && same(bi, oi):
			merged = append(merged, whole(ti, "theirs", true))
		case inB && same(bi, ti):
			merged = append(merged, whole(oi, "ours", true))
		case !inB && (oi.CreatedAt != ti.CreatedAt || oi.Title != ti.Title):
			merged = append(merged, whole(oi, "ours", true))
			collisions = append(collisions, id)
		default:
			if !inB {
				bi = Issue{ID: id}
			}
			m, warn := mergeIssue(bi, oi, ti, limit)
			merged = append(merged, m)
			future = append(future, warn...)
		}
	}
	return merged, collisions, future
}

// MergeSkew is how far past the clock of the machine merging an
// updated_at may be and still count as the newer side's (D91).
const MergeSkew = 24 * time.Hour

func same(a, b Issue) bool {
	x, err1 := MarshalLine(a)
	y, err2 := MarshalLine(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

func mergeIssue(b, o, t Issue, limit string) (Issue, []string) {
	// A date past limit is not believed (D91): that side is taken as the
	// older, and its date is not kept.
	var notes, future []string
	oAt, tAt := o.UpdatedAt, t.UpdatedAt
	for _, side := range []struct {
		name string
		at   *string
		i    Issue
	}{{"ours", &oAt, o}, {"theirs", &tAt, t}} {
		if *side.at > limit {
			msg := fmt.Sprintf("%s: %s is dated %s, in the future (past %s): not taken as the newer side, and its date is not kept", side.i.ID, side.name, *side.at, limit)
			notes = append(notes, "merge: "+msg[len(side.i.ID)+2:])
			future = append(future, msg)
			*side.at = ""
		}
	}
	if oAt == "" && tAt == "" {
		oAt, tAt = o.UpdatedAt, t.UpdatedAt // both: the dates as they are
	}
	// newer is the side whose scalar wins when both changed it.
	newer, older := o, t
	if tAt > oAt || (tAt == oAt && t.Version > o.Version) {
		newer, older = t, o
	}
	m := o.Clone()
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
	m.UpdatedAt = max(oAt, tAt)
	m.Version = max(o.Version, t.Version) + 1
	for _, n := range notes {
		m.Comments = append(m.Comments, Comment{Time: m.UpdatedAt, Author: MergeAuthor, Text: n})
	}
	m.Normalize()
	return m, future
}

// merge3 keeps an element when both sides kept it or one side added it,
// in time linear in the three sets (D91: a search of the merged list for
// each element took 86 s for 160,000 labels).
func merge3[T comparable](b, o, t []T) []T {
	inB := set(b)
	inO := set(o)
	inT := set(t)
	var out []T
	seen := make(map[T]bool, len(o)+len(t))
	for _, side := range [][]T{o, t} {
		for _, x := range side {
			switch {
			case inB[x] && (!inO[x] || !inT[x]):
				continue // removed on one side
			case seen[x]:
				continue
			}
			seen[x] = true
			out = append(out, x)
		}
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

package docket

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/claimslint/claimslint/internal/trackerformat"
)

// ExportBeads writes issues as beads' issues.jsonl, the inverse of the
// beads import (D49): one compact line per issue in id order, keys in
// beads' field order, strings escaped as Go's encoding/json escapes them
// (bd writes with json.Marshal). Every field the import kept comes back:
// the keys in extra, the originals of normalised values (times, titles,
// labels), the extra of dependencies and comments. docket's depends-on is
// beads' blocks on the same record; docket's blocks (A blocks B, held by
// A) is written on B as beads writes it; parent is beads' parent-child.
// Dependencies are in created_at order, ties in type then target order.
// docket's version and schema are docket's bookkeeping and are left out;
// its decisions are written under "decisions", a key beads does not read.
func ExportBeads(issues []Issue) []byte {
	sorted := normalizedByID(issues)
	deps := beadsDeps(sorted)
	var out bytes.Buffer
	for k, i := range sorted {
		writeOrdered(&out, beadsRecord(i, deps[k]), trackerformat.BeadsKeys)
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// beadsDeps is, by index in sorted, the dependencies each issue holds as
// beads writes them: docket's blocks moves to the blocked issue.
func beadsDeps(sorted []Issue) [][]beadsDep {
	byID := map[string]int{}
	for k, i := range sorted {
		byID[i.ID] = k
	}
	deps := make([][]beadsDep, len(sorted))
	for k, i := range sorted {
		for _, d := range i.Deps {
			holder, from, to, typ := k, i.ID, d.ID, string(d.Type)
			switch d.Type {
			case DepDependsOn:
				typ = "blocks"
			case DepBlocks:
				// i blocks d.ID: beads keeps that on the blocked issue.
				from, to, typ = d.ID, i.ID, "blocks"
				if h, ok := byID[d.ID]; ok {
					holder = h
				}
			case DepParent:
				typ = "parent-child"
			}
			m := map[string]json.RawMessage{"issue_id": jsonOf(from), "depends_on_id": jsonOf(to), "type": jsonOf(typ)}
			for key, v := range d.Extra.Map() {
				m[key] = v
			}
			deps[holder] = append(deps[holder], beadsDep{m: m, typ: typ, to: to})
		}
	}
	return deps
}

// beadsRecord is issue i's keys as beads writes them, with the
// dependencies it holds, ds.
func beadsRecord(i Issue, ds []beadsDep) map[string]json.RawMessage {
	m := map[string]json.RawMessage{
		"id": jsonOf(i.ID), "title": jsonOf(i.Title), "status": jsonOf(string(i.Status)),
		"priority": jsonOf(i.Priority), "issue_type": jsonOf(string(i.Type)),
		"created_at": jsonOf(i.CreatedAt), "updated_at": jsonOf(i.UpdatedAt),
	}
	if i.Description != "" {
		m["description"] = jsonOf(i.Description)
	}
	if i.ClosedAt != nil {
		m["closed_at"] = jsonOf(*i.ClosedAt)
	}
	if i.CloseReason != "" {
		m["close_reason"] = jsonOf(i.CloseReason)
	}
	if len(i.Labels) > 0 {
		m["labels"] = jsonOf(i.Labels)
	}
	if len(i.Decisions) > 0 {
		m["decisions"] = jsonOf(i.Decisions)
	}
	if len(ds) > 0 {
		slices.SortStableFunc(ds, compareBeadsDeps)
		var b bytes.Buffer
		b.WriteByte('[')
		for n, d := range ds {
			if n > 0 {
				b.WriteByte(',')
			}
			writeOrdered(&b, d.m, trackerformat.BeadsDepKeys)
		}
		b.WriteByte(']')
		m["dependencies"] = b.Bytes()
	}
	if len(i.Comments) > 0 {
		m["comments"] = beadsComments(i)
	}
	// Extra holds the keys docket has no field for and the originals
	// of the values it normalised: both win over docket's rendering.
	for key, v := range i.Extra.Map() {
		m[key] = v
	}
	return m
}

// beadsComments is i's comments as a beads array.
func beadsComments(i Issue) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for n, c := range i.Comments {
		if n > 0 {
			b.WriteByte(',')
		}
		cm := map[string]json.RawMessage{"issue_id": jsonOf(i.ID), "author": jsonOf(c.Author), "text": jsonOf(c.Text), "created_at": jsonOf(c.Time)}
		for key, v := range c.Extra.Map() {
			cm[key] = v
		}
		writeOrdered(&b, cm, trackerformat.BeadsCommentKeys)
	}
	b.WriteByte(']')
	return b.Bytes()
}

type beadsDep struct {
	m       map[string]json.RawMessage
	typ, to string
}

// compareBeadsDeps orders dependencies as bd lists them (by created_at);
// docket does not keep the order of two created in the same instant, and
// puts those in type, then target, order.
func compareBeadsDeps(a, b beadsDep) int {
	ta, tb := depTime(a.m), depTime(b.m)
	if c := ta.Compare(tb); c != 0 {
		return c
	}
	if c := strings.Compare(a.typ, b.typ); c != 0 {
		return c
	}
	return strings.Compare(a.to, b.to)
}

func depTime(m map[string]json.RawMessage) time.Time {
	var s string
	if json.Unmarshal(m["created_at"], &s) != nil {
		return time.Time{}
	}
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

// writeOrdered writes m as a compact JSON object: the keys of order first,
// in that order, then the rest sorted.
func writeOrdered(b *bytes.Buffer, m map[string]json.RawMessage, order []string) {
	b.WriteByte('{')
	n := 0
	put := func(k string) {
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.Write(jsonOf(k))
		b.WriteByte(':')
		b.Write(m[k])
	}
	for _, k := range order {
		if _, ok := m[k]; ok {
			put(k)
		}
	}
	var rest []string
	for k := range m {
		if !slices.Contains(order, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	for _, k := range rest {
		put(k)
	}
	b.WriteByte('}')
}

// jsonOf encodes v as encoding/json does by default (HTML-escaped), as bd
// writes it. v is a string, an int or a []string: encoding/json cannot
// fail on those.
func jsonOf[T string | int | []string](v T) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

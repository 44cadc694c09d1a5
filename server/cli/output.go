package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/claimslint/claimslint/server/docket"
)

// writeRows prints index rows, one per line, in aligned columns.
func writeRows(w io.Writer, rows []docket.Row) error {
	if len(rows) == 0 {
		_, err := fmt.Fprintln(w, "no issues")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, i := range rows {
		fmt.Fprintf(tw, "%s\tP%d\t%s\t%s\t%s\n", i.ID, i.Priority, i.Status, i.Type, i.Title)
	}
	return tw.Flush()
}

// writeFields prints the chosen keys of each row (or record, when is is
// given): aligned columns, or with asJSON one object per line in an array.
func writeFields(w io.Writer, fields []string, rows []docket.Row, is []docket.Issue, asJSON bool) error {
	objs := make([]map[string]json.RawMessage, len(rows))
	for k, row := range rows {
		var full []byte
		var err error
		if is != nil {
			full, err = docket.MarshalLine(is[k])
		} else {
			full, err = json.Marshal(row)
		}
		if err != nil {
			return err
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(full, &m); err != nil {
			return err
		}
		objs[k] = m
	}
	var b strings.Builder
	if asJSON {
		b.WriteString("[")
		for k, m := range objs {
			if k > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n{")
			for n, f := range fields {
				if n > 0 {
					b.WriteString(",")
				}
				v := m[f]
				if v == nil {
					v = json.RawMessage("null")
				}
				fmt.Fprintf(&b, "%q:%s", f, v)
			}
			b.WriteString("}")
		}
		if len(objs) > 0 {
			b.WriteString("\n")
		}
		b.WriteString("]\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, m := range objs {
		for n, f := range fields {
			if n > 0 {
				fmt.Fprint(tw, "\t")
			}
			var s string
			if json.Unmarshal(m[f], &s) != nil {
				s = string(m[f])
			}
			fmt.Fprint(tw, s)
		}
		fmt.Fprint(tw, "\n")
	}
	return tw.Flush()
}

// writeJSONArray prints records as a JSON array, one canonical record per
// line, so the output is both valid JSON and readable.
func writeJSONArray(w io.Writer, is []docket.Issue) error {
	var b strings.Builder
	b.WriteString("[")
	for k, i := range is {
		line, err := docket.MarshalLine(i)
		if err != nil {
			return err
		}
		if k > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n")
		b.Write(line)
	}
	if len(is) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("]\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeShow writes an issue for show; blockers and blocked, when given,
// are the ids that block it and the ids it blocks, through any edge.
func writeShow(w io.Writer, i docket.Issue, blockers, blocked []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  %s\n", i.ID, i.Title)
	fmt.Fprintf(&b, "status: %s  type: %s  priority: %d  version: %d\n", i.Status, i.Type, i.Priority, i.Version)
	if len(i.Labels) > 0 {
		fmt.Fprintf(&b, "labels: %s\n", strings.Join(i.Labels, ", "))
	}
	if len(i.Decisions) > 0 {
		fmt.Fprintf(&b, "decisions: %s\n", strings.Join(i.Decisions, ", "))
	}
	for _, d := range i.Deps {
		fmt.Fprintf(&b, "%s %s\n", d.Type, d.ID)
	}
	if len(blockers) > 0 {
		fmt.Fprintf(&b, "blocked by: %s\n", strings.Join(blockers, ", "))
	}
	// What it blocks through its own blocks edges is listed above; an
	// issue that depends on it is listed here.
	// A set, not a search of the edges for each id: 420,000 edges were
	// still being searched at 300 s (D91).
	own := make(map[string]bool, len(i.Deps))
	for _, d := range i.Deps {
		if d.Type == docket.DepBlocks {
			own[d.ID] = true
		}
	}
	var others []string
	for _, id := range blocked {
		if !own[id] {
			others = append(others, id)
		}
	}
	if len(others) > 0 {
		fmt.Fprintf(&b, "blocks (their depends-on): %s\n", strings.Join(others, ", "))
	}
	fmt.Fprintf(&b, "created: %s  updated: %s\n", i.CreatedAt, i.UpdatedAt)
	if i.ClosedAt != nil {
		fmt.Fprintf(&b, "closed: %s  reason: %s\n", *i.ClosedAt, i.CloseReason)
	}
	if i.Extra != "" {
		m := i.Extra.Map()
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "%s: %s\n", k, m[k])
		}
	}
	if i.Description != "" {
		fmt.Fprintf(&b, "\n%s\n", strings.TrimRight(i.Description, "\n"))
	}
	for _, c := range i.Comments {
		fmt.Fprintf(&b, "\n%s %s:\n%s\n", c.Time, c.Author, strings.TrimRight(c.Text, "\n"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

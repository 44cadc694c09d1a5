package docket_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/google/go-cmp/cmp"
)

func decodeFixture(t *testing.T, name, format string) ([]byte, *docket.ImportSet) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "import", name))
	if err != nil {
		t.Fatal(err)
	}
	set, err := docket.DecodeImport(name, data, format, "dk", time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	return data, set
}

// value decodes JSON keeping numbers exact.
func value(t *testing.T, raw []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	return v
}

// merge lays the extra object of a docket record (or of a nested comment
// or dependency) over the fields docket mapped: extra holds what docket has
// no key for and the originals of what it normalised.
func merge(t *testing.T, m map[string]any, extra docket.Raw) map[string]any {
	if extra == "" {
		return m
	}
	for k, v := range value(t, []byte(extra)).(map[string]any) {
		m[k] = v
	}
	return m
}

// beadsOf rebuilds the beads record a docket record came from: the inverse
// of the documented mapping, used to prove no field was lost.
func beadsOf(t *testing.T, i docket.Issue) map[string]any {
	m := map[string]any{"id": i.ID, "title": i.Title, "status": string(i.Status), "priority": json.Number(strings.TrimSpace(string(rune('0' + i.Priority)))), "issue_type": string(i.Type),
		"created_at": i.CreatedAt, "updated_at": i.UpdatedAt}
	if i.Description != "" {
		m["description"] = i.Description
	}
	if i.ClosedAt != nil {
		m["closed_at"] = *i.ClosedAt
	}
	if i.CloseReason != "" {
		m["close_reason"] = i.CloseReason
	}
	if len(i.Labels) > 0 {
		var ls []any
		for _, l := range i.Labels {
			ls = append(ls, l)
		}
		m["labels"] = ls
	}
	var cs []any
	for _, c := range i.Comments {
		cs = append(cs, merge(t, map[string]any{"author": c.Author, "text": c.Text, "created_at": c.Time}, c.Extra))
	}
	if cs != nil {
		m["comments"] = cs
	}
	var ds []any
	for _, d := range i.Deps {
		typ := string(d.Type)
		if d.Type == docket.DepDependsOn {
			typ = "blocks"
		}
		ds = append(ds, merge(t, map[string]any{"issue_id": i.ID, "depends_on_id": d.ID, "type": typ}, d.Extra))
	}
	if ds != nil {
		m["dependencies"] = ds
	}
	return merge(t, m, i.Extra)
}

// sortDeps orders a beads record's dependencies like docket does (by type,
// then target), so the comparison does not depend on the file's order.
func sortDeps(m map[string]any) {
	ds, _ := m["dependencies"].([]any)
	key := func(x any) string {
		d := x.(map[string]any)
		t := d["type"].(string)
		if t == "blocks" {
			t = string(docket.DepDependsOn)
		}
		return t + " " + d["depends_on_id"].(string)
	}
	for a := 1; a < len(ds); a++ {
		for b := a; b > 0 && key(ds[b]) < key(ds[b-1]); b-- {
			ds[b], ds[b-1] = ds[b-1], ds[b]
		}
	}
}

// TestBeadsImportLosesNoField imports beads fixtures in both shapes beads
// has written and rebuilds every input record from the docket record:
// every key and every value is there.
func TestBeadsImportLosesNoField(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"beads-go.jsonl", "beads-current.jsonl", "beads-dolt.jsonl", "unblock.jsonl"} {
		t.Run(name, func(t *testing.T) {
			data, set := decodeFixture(t, name, "")
			if set.Format != docket.FormatBeads || !set.Detected {
				t.Errorf("format %q detected=%v, want beads detected", set.Format, set.Detected)
			}
			lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
			if len(lines) != len(set.Issues) {
				t.Fatalf("%d lines, %d records", len(lines), len(set.Issues))
			}
			for k, line := range lines {
				want := value(t, line).(map[string]any)
				sortDeps(want)
				got := beadsOf(t, set.Issues[k])
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("line %d: the docket record does not give back the beads record (-beads +rebuilt):\n%s", k+1, diff)
				}
			}
		})
	}
}

// TestImportExportIsByteStable: the docket export of an imported file
// reads back to the same records and writes the same bytes.
func TestImportExportIsByteStable(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, format string }{{"beads-go.jsonl", ""}, {"beads-current.jsonl", ""}, {"beads-dolt.jsonl", ""}, {"unblock.jsonl", "beads"}, {"gh.json", ""}} {
		t.Run(c.name, func(t *testing.T) {
			_, set := decodeFixture(t, c.name, c.format)
			first, err := docket.Canonical(set.Issues)
			if err != nil {
				t.Fatal(err)
			}
			back, err := docket.DecodeImport("export", first, "", "dk", time.Now())
			if err != nil {
				t.Fatal(err)
			}
			if back.Format != docket.FormatDocket {
				t.Errorf("the export was detected as %s", back.Format)
			}
			again, err := docket.Canonical(back.Issues)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(first, again) {
				t.Errorf("export -> import -> export differs:\n%s\n---\n%s", first, again)
			}
		})
	}
}

// TestGitHubImportKeepsEveryField: every key gh printed is a docket field
// or in extra.
func TestGitHubImportKeepsEveryField(t *testing.T) {
	t.Parallel()
	data, set := decodeFixture(t, "gh.json", "")
	if set.Format != docket.FormatGitHub {
		t.Fatalf("format %q", set.Format)
	}
	var in []map[string]json.RawMessage
	if err := json.Unmarshal(data, &in); err != nil {
		t.Fatal(err)
	}
	mapped := map[string]bool{"number": true, "title": true, "body": true, "state": true, "createdAt": true, "updatedAt": true, "closedAt": true, "comments": true}
	for k, rec := range in {
		i := set.Issues[k]
		extra := i.Extra.Map()
		for key := range rec {
			if _, ok := extra[key]; !ok && !mapped[key] && key != "labels" {
				t.Errorf("#%d: %s is neither mapped nor kept", k, key)
			}
		}
	}
	a, b := set.Issues[0], set.Issues[1]
	if diff := cmp.Diff([]string{"bug", "good-first-issue"}, a.Labels); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	if !strings.Contains(string(a.Extra), `"name":"good first issue"`) || a.CloseReason != "closed on GitHub (completed)" || a.Comments[0].Author != "hubot" || !strings.Contains(string(a.Comments[0].Extra), `"authorAssociation":"MEMBER"`) {
		t.Errorf("#7 lost something: %+v", a)
	}
	if b.Title != "Support multi-line titles" || !strings.Contains(string(b.Extra), `"title":"Support\nmulti-line titles"`) {
		t.Errorf("#8 title %q extra %s", b.Title, b.Extra)
	}
	if set.WarningCount != 2 {
		t.Errorf("warnings %v, want the label and the title", set.Warnings)
	}
}

// TestImportCollectsEveryProblem: one pass reports every bad line with its
// field, and nothing is returned.
func TestImportCollectsEveryProblem(t *testing.T) {
	t.Parallel()
	in := `{"id":"bd-1","title":"ok","status":"open","priority":1,"issue_type":"task","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}
{"id":"not an id","title":"x"}
{"id":"bd-2","title":"x","priority":"high"}
{"id":"bd-3","title":"x","priority":9,"created_at":"yesterday"}
{"id":"bd-1","title":"again"}
not json
`
	_, err := docket.DecodeImport("b.jsonl", []byte(in), "beads", "dk", time.Now())
	var ps *docket.Problems
	if !errorsAs(err, &ps) {
		t.Fatalf("err = %v, want *Problems", err)
	}
	want := []string{
		`b.jsonl:2: id: "not an id" is not an id`,
		`b.jsonl:3: priority: want a whole number, got "high"`,
		`b.jsonl:4: created_at: "yesterday" is not an RFC 3339 time`,
		`b.jsonl:4: priority 9: use 0`,
		`b.jsonl:5: id: bd-1 already on line 1`,
		`b.jsonl:6: `,
	}
	if ps.Total != len(want) {
		t.Errorf("%d problems, want %d:\n%v", ps.Total, len(want), err)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("missing %q in:\n%v", w, err)
		}
	}
}

func errorsAs(err error, target **docket.Problems) bool {
	p, ok := err.(*docket.Problems)
	if ok {
		*target = p
	}
	return ok
}

// TestBeadsExportRoundTrip: beads' export imported, then written back with
// ExportBeads (D59). What bd wrote (January's export, today's with
// "_type" and the counts) with encoding/json comes back byte for
// byte: the whole file when it is in id order, as bd export sorts it
// (beads-go), each record's line otherwise (the seed project's file, in
// creation order). The Dolt-era export, written with ", " and ": "
// separators and its counts before the dependencies, comes back with every
// key and every value of every record.
func TestBeadsExportRoundTrip(t *testing.T) {
	t.Parallel()
	lines := func(b []byte) []string {
		return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	}
	for _, c := range []struct {
		name, format string
		bytes, lines bool
	}{{"beads-go.jsonl", "", true, true}, {"beads-current.jsonl", "", true, true}, {"unblock.jsonl", "beads", false, true}, {"beads-dolt.jsonl", "", false, false}} {
		t.Run(c.name, func(t *testing.T) {
			data, set := decodeFixture(t, c.name, c.format)
			got := docket.ExportBeads(set.Issues)
			switch {
			case c.bytes:
				if diff := cmp.Diff(string(data), string(got)); diff != "" {
					t.Errorf("not byte-identical (-beads +exported):\n%s", diff)
				}
			case c.lines:
				want, have := lines(data), lines(got)
				slices.Sort(want)
				if diff := cmp.Diff(want, have); diff != "" {
					t.Errorf("a line is not byte-identical (-beads, sorted +exported):\n%s", diff)
				}
			default:
				byID := map[string]any{}
				for _, l := range lines(data) {
					v := value(t, []byte(l))
					byID[v.(map[string]any)["id"].(string)] = v
				}
				have := lines(got)
				if len(have) != len(byID) {
					t.Fatalf("%d records, want %d", len(have), len(byID))
				}
				for _, l := range have {
					v := value(t, []byte(l))
					id := v.(map[string]any)["id"].(string)
					if diff := cmp.Diff(byID[id], v); diff != "" {
						t.Errorf("%s differs (-beads +exported):\n%s", id, diff)
					}
				}
				if bytes.Equal(data, got) {
					t.Errorf("the Dolt-era file came back byte-identical: its separators are not encoding/json's, so the fixture has lost its shape")
				}
			}
		})
	}
}

// TestBeadsExportOfDocketRecords: records docket made are written in
// beads' shape: depends-on is beads' blocks on the same record, blocks
// moves to the blocked record, parent is parent-child, decisions stay,
// version and schema go.
func TestBeadsExportOfDocketRecords(t *testing.T) {
	t.Parallel()
	closed := "2026-03-02T00:00:00Z"
	a := docket.Issue{ID: "dk-a", Title: "Parser <drops> a pipe", Status: docket.StatusClosed, Type: docket.TypeBug, Priority: 1,
		Labels: []string{"register"}, Decisions: []string{"D2"}, CreatedAt: "2026-03-01T00:00:00Z", UpdatedAt: closed, ClosedAt: &closed,
		CloseReason: "fixed", Version: 3, Schema: docket.Schema,
		Deps:     []docket.Dep{{Type: docket.DepBlocks, ID: "dk-b"}, {Type: docket.DepBlocks, ID: "dk-gone"}},
		Comments: []docket.Comment{{Time: "2026-03-01T01:00:00Z", Author: "ann", Text: "found it"}}}
	b := docket.Issue{ID: "dk-b", Title: "Child", Status: docket.StatusOpen, Type: docket.TypeTask, Priority: 2,
		CreatedAt: "2026-03-01T00:00:00Z", UpdatedAt: "2026-03-01T00:00:00Z", Version: 1, Schema: docket.Schema,
		Deps: []docket.Dep{{Type: docket.DepParent, ID: "dk-a"}, {Type: docket.DepDependsOn, ID: "dk-c"}}}
	want := `{"id":"dk-a","title":"Parser \u003cdrops\u003e a pipe","status":"closed","priority":1,"issue_type":"bug","created_at":"2026-03-01T00:00:00Z","updated_at":"2026-03-02T00:00:00Z","closed_at":"2026-03-02T00:00:00Z","close_reason":"fixed","labels":["register"],"dependencies":[{"issue_id":"dk-gone","depends_on_id":"dk-a","type":"blocks"}],"comments":[{"issue_id":"dk-a","author":"ann","text":"found it","created_at":"2026-03-01T01:00:00Z"}],"decisions":["D2"]}
{"id":"dk-b","title":"Child","status":"open","priority":2,"issue_type":"task","created_at":"2026-03-01T00:00:00Z","updated_at":"2026-03-01T00:00:00Z","dependencies":[{"issue_id":"dk-b","depends_on_id":"dk-a","type":"blocks"},{"issue_id":"dk-b","depends_on_id":"dk-c","type":"blocks"},{"issue_id":"dk-b","depends_on_id":"dk-a","type":"parent-child"}]}
`
	if diff := cmp.Diff(want, string(docket.ExportBeads([]docket.Issue{b, a}))); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestBeadsMemoryLinesReported: today's bd export --include-memories adds
// {"_type":"memory"} lines. They are not issues: each is reported and left
// out, and the issues still import.
func TestBeadsMemoryLinesReported(t *testing.T) {
	t.Parallel()
	in := `{"_type":"issue","id":"bd-1","title":"x","status":"open","priority":2,"issue_type":"task","created_at":"2026-05-01T00:00:00Z","updated_at":"2026-05-01T00:00:00Z","dependency_count":0,"dependent_count":0,"comment_count":0}
{"_type":"memory","key":"style","value":"terse commit messages"}
`
	set, err := docket.DecodeImport("m.jsonl", []byte(in), "", "bd", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Issues) != 1 || set.Skipped != 1 {
		t.Fatalf("%d issues, %d skipped; want 1 and 1", len(set.Issues), set.Skipped)
	}
	want := `m.jsonl:2: _type: memory "style" (bd remember) is not an issue; docket keeps issues only, so it is not imported`
	if len(set.Warnings) != 1 || set.Warnings[0].String() != want {
		t.Errorf("warnings = %v, want %s", set.Warnings, want)
	}
}

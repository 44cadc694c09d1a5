package docket_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/google/go-cmp/cmp"
)

func issue(id, title string) docket.Issue {
	i := docket.Issue{
		ID: id, Title: title, Status: docket.StatusOpen, Type: docket.TypeTask, Priority: 2,
		CreatedAt: "2026-01-02T03:04:05Z", UpdatedAt: "2026-01-02T03:04:05Z", Version: 1, Schema: docket.Schema,
	}
	i.Normalize()
	return i
}

func TestCanonicalIsDeterministic(t *testing.T) {
	t.Parallel()
	a := issue("dk-b2", "second")
	a.Labels = []string{"z", "a", "z"}
	a.Decisions = []string{"D10", "D2", "D9"}
	a.Deps = []docket.Dep{{Type: docket.DepRelated, ID: "dk-a1"}, {Type: docket.DepBlocks, ID: "dk-c3"}, {Type: docket.DepBlocks, ID: "dk-a1"}}
	a.CreatedAt = "2026-01-02T05:04:05.999+02:00"
	b := issue("dk-a1", "first <tag> & \"quote\"")
	first, err := docket.Canonical([]docket.Issue{a, b})
	if err != nil {
		t.Fatal(err)
	}
	second, err := docket.Canonical([]docket.Issue{b, a})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, second) {
		t.Fatalf("input order changed the export:\n%s\n%s", first, second)
	}
	want := `{"id":"dk-a1","title":"first <tag> & \"quote\"","description":"","status":"open","type":"task","priority":2,"labels":[],"decisions":[],"deps":[],"comments":[],"created_at":"2026-01-02T03:04:05Z","updated_at":"2026-01-02T03:04:05Z","closed_at":null,"close_reason":"","version":1,"schema":1}
{"id":"dk-b2","title":"second","description":"","status":"open","type":"task","priority":2,"labels":["a","z"],"decisions":["D2","D9","D10"],"deps":[{"type":"blocks","id":"dk-a1"},{"type":"blocks","id":"dk-c3"},{"type":"related","id":"dk-a1"}],"comments":[],"created_at":"2026-01-02T03:04:05Z","updated_at":"2026-01-02T03:04:05Z","closed_at":null,"close_reason":"","version":1,"schema":1}
`
	if diff := cmp.Diff(want, string(first)); diff != "" {
		t.Errorf("canonical export (-want +got):\n%s", diff)
	}
	// Reading the export back and writing it again changes nothing.
	back, err := docket.ReadJSONL("x", bytes.NewReader(first), "dk")
	if err != nil {
		t.Fatal(err)
	}
	again, err := docket.Canonical(back)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, again) {
		t.Errorf("read -> write is not byte-identical:\n%s\n%s", first, again)
	}
}

func TestReadJSONLRejects(t *testing.T) {
	t.Parallel()
	good, _ := docket.MarshalLine(issue("dk-abc", "ok"))
	line := func(edit func(string) string) string { return edit(string(good)) }
	tests := []struct {
		name, input, want string
	}{
		{"not json", string(good) + "\n{oops\n", "x:2: not a docket record"},
		{"unknown key", line(func(s string) string { return strings.Replace(s, `"schema":1`, `"schema":1,"extras":1`, 1) }), `x:1: not a docket record: json: unknown field "extras"`},
		{"missing key", line(func(s string) string { return strings.Replace(s, `"labels":[],`, ``, 1) }), `x:1: missing key "labels"`},
		{"foreign prefix", line(func(s string) string { return strings.Replace(s, `dk-abc`, `bd-abc`, 1) }), `has prefix "bd" but this tracker uses "dk"`},
		{"bad status", line(func(s string) string { return strings.Replace(s, `"open"`, `"Done!"`, 1) }), `status "Done!": use lower-case letters`},
		{"bad extra", line(func(s string) string { return strings.Replace(s, `"schema":1`, `"schema":1,"extra":[1]`, 1) }), `extra: want a JSON object`},
		{"empty title", line(func(s string) string { return strings.Replace(s, `"ok"`, `"  "`, 1) }), `empty title`},
		{"priority", line(func(s string) string { return strings.Replace(s, `"priority":2`, `"priority":9`, 1) }), `priority 9`},
		{"newer schema", line(func(s string) string { return strings.Replace(s, `"schema":1`, `"schema":2`, 1) }), `schema 2, this docket reads schema 1`},
		{"closed without time", line(func(s string) string { return strings.Replace(s, `"open"`, `"closed"`, 1) }), `closed_at must be set`},
		{"duplicate id", string(good) + "\n\n" + string(good), "x:3: id dk-abc already on line 1"},
		{"two values", string(good) + " {}", "more than one JSON value"},
		{"bad time", line(func(s string) string {
			return strings.Replace(s, `"created_at":"2026-01-02T03:04:05Z"`, `"created_at":"yesterday"`, 1)
		}), `created_at "yesterday"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := docket.ReadJSONL("x", strings.NewReader(tt.input), "dk")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.want)
			}
			if !errors.Is(err, docket.ErrInvalid) {
				t.Errorf("err %v is not ErrInvalid", err)
			}
		})
	}
}

func TestIDLenGrows(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ n, want int }{{0, 3}, {400, 3}, {465, 3}, {466, 4}, {16_000, 4}, {17_000, 5}, {100_000, 5}, {1_000_000, 6}} {
		if got := docket.IDLen(tt.n); got != tt.want {
			t.Errorf("IDLen(%d) = %d, want %d", tt.n, got, tt.want)
		}
	}
	seen := map[string]bool{}
	for range 200 {
		id, err := docket.NewID("dk", 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, rest, ok := docket.SplitID(id); !ok || len(rest) != 3 {
			t.Fatalf("NewID = %q, want dk- and 3 base36 characters", id)
		}
		seen[id] = true
	}
	if len(seen) < 150 { // 200 draws from 46656: about one repeat expected
		t.Errorf("only %d distinct ids in 200 draws: not random", len(seen))
	}
}

func TestMerge(t *testing.T) {
	t.Parallel()
	base := issue("dk-1", "title")
	base.Labels = []string{"keep", "drop-by-ours"}
	ours := base.Clone()
	ours.Labels = []string{"keep", "ours-added"}
	ours.Title = "ours title"
	ours.UpdatedAt = "2026-01-03T00:00:00Z"
	ours.Version = 2
	ours.Comments = []docket.Comment{{Time: "2026-01-03T00:00:00Z", Author: "a", Text: "from ours"}}
	theirs := base.Clone()
	theirs.Labels = []string{"keep", "drop-by-ours", "theirs-added"}
	theirs.Title = "theirs title"
	theirs.Priority = 0
	theirs.UpdatedAt = "2026-01-04T00:00:00Z"
	theirs.Version = 2
	theirs.Comments = []docket.Comment{{Time: "2026-01-04T00:00:00Z", Author: "b", Text: "from theirs"}}
	onlyOurs := issue("dk-2", "new on ours")
	onlyTheirs := issue("dk-3", "new on theirs")

	merged, collisions, _ := docket.Merge([]docket.Issue{base}, []docket.Issue{ours, onlyOurs}, []docket.Issue{theirs, onlyTheirs})
	if len(collisions) != 0 {
		t.Fatalf("collisions %v", collisions)
	}
	if len(merged) != 3 || merged[1].ID != "dk-2" || merged[2].ID != "dk-3" {
		t.Fatalf("merged ids wrong: %+v", merged)
	}
	m := merged[0]
	if m.Title != "theirs title" {
		t.Errorf("title %q: the newer side (theirs) should win", m.Title)
	}
	if m.Priority != 0 {
		t.Errorf("priority %d: changed on one side only, should be taken", m.Priority)
	}
	if diff := cmp.Diff([]string{"keep", "ours-added", "theirs-added"}, m.Labels); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	if m.Version != 3 || m.UpdatedAt != "2026-01-04T00:00:00Z" {
		t.Errorf("version %d updated %s", m.Version, m.UpdatedAt)
	}
	var texts []string
	for _, c := range m.Comments {
		texts = append(texts, c.Text)
	}
	want := []string{"from ours", "from theirs", `merge: both sides changed title; kept "theirs title", the other side had "ours title"`}
	if diff := cmp.Diff(want, texts); diff != "" {
		t.Errorf("comments (-want +got):\n%s", diff)
	}

	// The same id created on both sides with different content collides.
	a, b := issue("dk-9", "one"), issue("dk-9", "two")
	if _, col, _ := docket.Merge(nil, []docket.Issue{a}, []docket.Issue{b}); len(col) != 1 {
		t.Errorf("collision not reported: %v", col)
	}
	// Merge is symmetric in its result records for one-sided changes.
	x, _, _ := docket.Merge([]docket.Issue{base}, []docket.Issue{base}, []docket.Issue{theirs})
	if x[0].Title != "theirs title" || x[0].Version != 2 {
		t.Errorf("one-sided change not taken as is: %+v", x[0])
	}
}

func TestDecodeBeadsAndGitHub(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	beads := `{"id":"dk-a1","title":"parent","status":"open","priority":1,"issue_type":"epic","created_at":"2026-01-01T10:00:00.123456+01:00","updated_at":"2026-01-01T10:00:00Z"}
{"id":"dk-b2","title":"child","status":"tombstone","issue_type":"task","design":"do X","dependencies":[{"issue_id":"dk-b2","depends_on_id":"dk-a1","type":"blocks"},{"issue_id":"dk-b2","depends_on_id":"dk-a1","type":"parent-child"}]}
`
	set, err := docket.DecodeImport("b.jsonl", []byte(beads), docket.FormatBeads, "dk", now)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Issues) != 2 {
		t.Fatalf("%d issues", len(set.Issues))
	}
	p, c := set.Issues[0], set.Issues[1]
	if p.Type != "epic" || p.CreatedAt != "2026-01-01T09:00:00Z" || p.Extra != `{"created_at":"2026-01-01T10:00:00.123456+01:00"}` {
		t.Errorf("epic not kept verbatim, or the original time not kept: %+v", p)
	}
	want := []docket.Dep{{Type: docket.DepDependsOn, ID: "dk-a1"}, {Type: docket.DepParentChild, ID: "dk-a1"}}
	if diff := cmp.Diff(want, c.Deps); diff != "" {
		t.Errorf("B depends on A stays on B as depends-on (-want +got):\n%s", diff)
	}
	if c.Status != "tombstone" || c.ClosedAt != nil || c.Extra != `{"design":"do X"}` {
		t.Errorf("tombstone/design not kept: %+v", c)
	}
	if set, err := docket.DecodeImport("b.jsonl", []byte(`{"id":"bd-1","title":"x"}`), docket.FormatBeads, "dk", now); err != nil || set.Issues[0].ID != "bd-1" {
		t.Errorf("another prefix: %v", err)
	}

	gh := `[
  {"number": 7, "title": "from gh", "body": "b", "state": "CLOSED", "stateReason": "COMPLETED", "labels": [{"name": "bug"}], "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-02T00:00:00Z", "closedAt": "2026-01-02T00:00:00Z"},
  {"number": 0, "title": "bad"}
]`
	_, err = docket.DecodeImport("gh.json", []byte(gh), docket.FormatGitHub, "dk", now)
	if err == nil || !strings.Contains(err.Error(), "gh.json:3:") {
		t.Fatalf("bad gh record: err = %v, want line 3", err)
	}
	set, err = docket.DecodeImport("gh.json", []byte(strings.Replace(gh, ",\n  {\"number\": 0, \"title\": \"bad\"}", "", 1)), docket.FormatGitHub, "dk", now)
	if err != nil {
		t.Fatal(err)
	}
	g := set.Issues[0]
	if g.ID != "dk-7" || g.Status != docket.StatusClosed || g.CloseReason != "closed on GitHub (completed)" || !cmp.Equal(g.Labels, []string{"bug"}) {
		t.Errorf("gh record not mapped: %+v", g)
	}
}

// TestMergeFutureDate: a side dated in the future (a branch dated
// 9999-12-31) does not win a conflict: the other side does, the merged
// record keeps the other side's date, a comment says why, and Merge names
// the record (D91). Before, it won every conflict silently.
func TestMergeFutureDate(t *testing.T) {
	t.Parallel()
	base := issue("dk-1", "title")
	ours := base.Clone()
	ours.Title = "ours title"
	ours.UpdatedAt = "2026-01-03T00:00:00Z"
	ours.Version = 2
	theirs := base.Clone()
	theirs.Title = "theirs title"
	theirs.UpdatedAt = "9999-12-31T00:00:00Z"
	theirs.Version = 2
	merged, _, future := docket.Merge([]docket.Issue{base}, []docket.Issue{ours}, []docket.Issue{theirs})
	m := merged[0]
	if m.Title != "ours title" || m.UpdatedAt != "2026-01-03T00:00:00Z" {
		t.Errorf("title %q updated %s: the side dated in the future won", m.Title, m.UpdatedAt)
	}
	if len(future) != 1 || !strings.HasPrefix(future[0], "dk-1: theirs is dated 9999-12-31T00:00:00Z, in the future (past ") {
		t.Errorf("future = %q", future)
	}
	var texts []string
	for _, c := range m.Comments {
		texts = append(texts, c.Text)
	}
	if len(texts) != 2 || !strings.HasPrefix(texts[0], "merge: theirs is dated 9999-12-31T00:00:00Z, in the future") || texts[1] != `merge: both sides changed title; kept "ours title", the other side had "theirs title"` {
		t.Errorf("comments %q", texts)
	}
}

// TestMergeFutureOneSided: a record taken whole from the one side that
// changed (or made) it keeps its content, but a date past now + MergeSkew
// is set to the merge's time, with a comment and a warning (D91, dk-30l);
// a record no side changed keeps its date, and a date inside the skew is
// believed. Before, the future date was kept and travelled on.
func TestMergeFutureOneSided(t *testing.T) {
	t.Parallel()
	const future = "9999-12-31T00:00:00Z"
	base := issue("dk-1", "title")
	changed := base.Clone()
	changed.Title = "changed"
	changed.UpdatedAt = future
	changed.Version = 2
	baseFuture := base.Clone()
	baseFuture.UpdatedAt = future
	soon := changed.Clone()
	soon.UpdatedAt = docket.FormatTime(time.Now().Add(time.Hour))
	made := issue("dk-2", "made")
	made.UpdatedAt = future
	tests := []struct {
		name               string
		base, ours, theirs []docket.Issue
		title, side        string // side: "" when the date is kept
		wantAt             string // the date kept, when side is ""
	}{
		{"theirs changed", []docket.Issue{base}, []docket.Issue{base}, []docket.Issue{changed}, "changed", "theirs", ""},
		{"ours changed", []docket.Issue{base}, []docket.Issue{changed}, []docket.Issue{base}, "changed", "ours", ""},
		{"both the same change", []docket.Issue{base}, []docket.Issue{changed}, []docket.Issue{changed}, "changed", "both sides", ""},
		{"made on one side", nil, nil, []docket.Issue{made}, "made", "theirs", ""},
		{"changed by neither", []docket.Issue{baseFuture}, []docket.Issue{baseFuture}, []docket.Issue{baseFuture}, "title", "", future},
		{"inside the skew", []docket.Issue{base}, []docket.Issue{base}, []docket.Issue{soon}, "changed", "", soon.UpdatedAt},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			before := docket.FormatTime(time.Now())
			merged, _, warned := docket.Merge(tc.base, tc.ours, tc.theirs)
			after := docket.FormatTime(time.Now())
			if len(merged) != 1 || merged[0].Title != tc.title {
				t.Fatalf("merged %+v, want one record titled %q", merged, tc.title)
			}
			m := merged[0]
			if tc.side == "" {
				if m.UpdatedAt != tc.wantAt || len(warned) != 0 || len(m.Comments) != 0 {
					t.Errorf("updated %s, warnings %q, comments %+v: want %s kept, no warning", m.UpdatedAt, warned, m.Comments, tc.wantAt)
				}
				return
			}
			if m.UpdatedAt < before || m.UpdatedAt > after {
				t.Errorf("updated %s, want the merge's time (%s..%s)", m.UpdatedAt, before, after)
			}
			want := m.ID + ": the change of " + tc.side + ", taken whole, is dated " + future + ", in the future (past "
			if len(warned) != 1 || !strings.HasPrefix(warned[0], want) || !strings.HasSuffix(warned[0], "its date is set to the merge's, "+m.UpdatedAt) {
				t.Errorf("warnings %q, want one starting %q", warned, want)
			}
			if len(m.Comments) != 1 || m.Comments[0].Author != docket.MergeAuthor || m.Comments[0].Text != "merge: "+strings.TrimPrefix(warned[0], m.ID+": ") {
				t.Errorf("comments %+v", m.Comments)
			}
		})
	}
}

// TestMergeManyLabels: 160,000 labels on each side merge by sets, each
// label looked up once (D91; a search of the merged list for each label
// took 86 s). The merged set is exact: base's less what each side dropped,
// plus what each added.
func TestMergeManyLabels(t *testing.T) {
	t.Parallel()
	const n = 160_000
	base := issue("dk-1", "title")
	for k := range n {
		base.Labels = append(base.Labels, fmt.Sprintf("l%06d", k))
	}
	ours, theirs := base.Clone(), base.Clone()
	ours.Title, theirs.Title = "ours", "theirs"
	ours.UpdatedAt, theirs.UpdatedAt = "2026-01-03T00:00:00Z", "2026-01-04T00:00:00Z"
	ours.Labels = append(ours.Labels[1000:], "ours-added")
	theirs.Labels = append(slices.Clone(theirs.Labels[:n-1000]), "theirs-added")
	merged, _, _ := docket.Merge([]docket.Issue{base}, []docket.Issue{ours}, []docket.Issue{theirs})
	got := merged[0].Labels
	if len(got) != n-2000+2 || got[0] != "l001000" || !slices.Contains(got, "ours-added") || !slices.Contains(got, "theirs-added") || slices.Contains(got, "l159999") {
		t.Errorf("%d labels, from %s: want %d, without what either side dropped", len(got), got[0], n-2000+2)
	}
}

// Package storetest is the store suite every docket.Index runs: the same
// record rules and export protocol, checked through docket.Service over
// server/sqlite and over memindex alike.
package storetest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/google/go-cmp/cmp"
)

// NewIndex opens the index that lives at key (a path under a test's
// temporary directory): the same key reopens the same index, a new key an
// empty one.
type NewIndex func(t testing.TB, key string) docket.Index

// Env is one tracker under test: an index key, an export path and a clock.
type Env struct {
	New      NewIndex
	Dir, Key string
	Export   string
	Clock    time.Time
	Workflow docket.Workflow
}

// NewEnv returns an environment in a fresh temporary directory.
func NewEnv(t testing.TB, n NewIndex) *Env {
	dir := t.TempDir()
	return &Env{New: n, Dir: dir, Key: filepath.Join(dir, ".docket", "index.db"), Export: filepath.Join(dir, "tracker", "issues.jsonl"),
		Clock: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
}

// Open opens the service over the environment's index.
func (e *Env) Open(t testing.TB, prefix string) *docket.Service {
	t.Helper()
	s, err := docket.New(context.Background(), e.New(t, e.Key), docket.Options{Export: e.Export, Prefix: prefix, Now: func() time.Time { return e.Clock }, Workflow: e.Workflow})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// File returns the export on disk.
func (e *Env) File(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(e.Export)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Agree asserts that the export on disk is exactly what the index would
// write.
func Agree(t testing.TB, s *docket.Service, e *Env) {
	t.Helper()
	want, err := s.Export(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := e.File(t); !bytes.Equal(got, want) {
		t.Fatalf("export on disk differs from the index:\n--- disk\n%s\n--- index\n%s", got, want)
	}
}

// Run runs the suite, each case in parallel with the others on an index
// of its own: n must be safe to call from several tests at once.
func Run(t *testing.T, n NewIndex) {
	for _, c := range []struct {
		name string
		fn   func(*testing.T, NewIndex)
	}{
		{"Lifecycle", lifecycle},
		{"ExportImportRoundTrip", roundTrip},
		{"ImportIsAllOrNothing", allOrNothing},
		{"DanglingDepIsKept", danglingKept},
		{"ForeignRecordsKeepEveryField", foreign},
		{"ReadyFollowsBlockersAndParents", readyGraph},
		{"ConfiguredWorkflowAndUnmappedStatuses", workflow},
		{"PagesResumeAfterTheCursor", pages},
		{"RebuildFromChangedExport", rebuild},
		{"DirtyExportIsRewritten", dirty},
		{"FreshCloneBuildsIndexFromExport", freshClone},
		{"ClaimIsAtomicAndRoundTrips", claims},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.fn(t, n)
		})
	}
}

func ids(is []docket.Issue) []string {
	out := []string{}
	for _, i := range is {
		out = append(out, i.ID)
	}
	return out
}

func lifecycle(t *testing.T, n NewIndex) {
	ctx := context.Background()
	e := NewEnv(t, n)
	s := e.Open(t, "dk")
	if got := e.File(t); len(got) != 0 {
		t.Fatalf("init export = %q, want an empty file", got)
	}
	a, err := s.Create(ctx, docket.NewIssue{Title: "first", Priority: 1, Labels: []string{"x"}, Decisions: []string{"D3"}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Create(ctx, docket.NewIssue{Title: "second", Priority: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, rest, ok := docket.SplitID(a.ID); !ok || len(rest) != 3 || a.ID == b.ID {
		t.Fatalf("ids %s %s", a.ID, b.ID)
	}
	if _, err := s.Create(ctx, docket.NewIssue{Title: "  "}); !errors.Is(err, docket.ErrInvalid) || errors.As(err, new(*docket.RecordError)) {
		t.Errorf("empty title: err = %v, want invalid input about no record", err)
	}
	Agree(t, s, e)

	// a blocks b: b is not ready until a is closed.
	if _, err := s.AddDep(ctx, a.ID, docket.Dep{Type: docket.DepBlocks, ID: b.ID}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddDep(ctx, b.ID, docket.Dep{Type: docket.DepBlocks, ID: a.ID}); !errors.Is(err, docket.ErrInvalid) || !errors.Is(err, docket.ErrCycle) {
		t.Errorf("cycle: err = %v", err)
	}
	ready := func() []string {
		is, err := s.Ready(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return ids(is)
	}
	if diff := cmp.Diff([]string{a.ID}, ready()); diff != "" {
		t.Errorf("ready before close (-want +got):\n%s", diff)
	}

	// Optimistic concurrency: a stale --if-version is a conflict, not a lost write.
	title := "first, renamed"
	a2, err := s.Update(ctx, a.ID, docket.Patch{Title: &title, IfVersion: 2})
	if err != nil {
		t.Fatal(err)
	}
	if a2.Version != 3 {
		t.Errorf("version %d after create, dep, update; want 3", a2.Version)
	}
	_, err = s.Update(ctx, a.ID, docket.Patch{Title: &title, IfVersion: 2})
	var ce *docket.ConflictError
	if !errors.As(err, &ce) || ce.Have != 3 {
		t.Errorf("stale update: err = %v, want a conflict at version 3", err)
	}

	e.Clock = e.Clock.Add(time.Hour)
	if _, err := s.CloseIssue(ctx, a.ID, "", 0); !errors.Is(err, docket.ErrInvalid) {
		t.Errorf("close without reason: err = %v", err)
	}
	closed, err := s.CloseIssue(ctx, a.ID, "done", 0)
	if err != nil {
		t.Fatal(err)
	}
	if closed.ClosedAt == nil || *closed.ClosedAt != "2026-03-01T13:00:00Z" || closed.UpdatedAt != *closed.ClosedAt {
		t.Errorf("closed_at %v updated_at %s", closed.ClosedAt, closed.UpdatedAt)
	}
	if diff := cmp.Diff([]string{b.ID}, ready()); diff != "" {
		t.Errorf("ready after close (-want +got):\n%s", diff)
	}
	st := docket.StatusClosed
	if _, err := s.Update(ctx, b.ID, docket.Patch{Status: &st}); !errors.Is(err, docket.ErrInvalid) {
		t.Errorf("update --status closed: err = %v", err)
	}
	if _, err := s.Reopen(ctx, a.ID, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Reopen(ctx, a.ID, 0); !errors.Is(err, docket.ErrInvalid) {
		t.Errorf("reopen an open issue: err = %v", err)
	}
	if _, err := s.Comment(ctx, b.ID, "me", "note"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "dk-zzzz"); !errors.Is(err, docket.ErrNotFound) {
		t.Errorf("unknown id: err = %v", err)
	}
	got, err := s.List(ctx, docket.Filter{Label: "x", Decision: "D3"})
	if err != nil || len(got) != 1 || got[0].ID != a.ID {
		t.Errorf("list by label and decision = %v, %v", got, err)
	}
	Agree(t, s, e)
}

func roundTrip(t *testing.T, n NewIndex) {
	ctx := context.Background()
	e := NewEnv(t, n)
	s := e.Open(t, "dk")
	for k := range 30 {
		i, err := s.Create(ctx, docket.NewIssue{Title: "issue " + string(rune('a'+k%26)), Labels: []string{"b", "a"}})
		if err != nil {
			t.Fatal(err)
		}
		if k%3 == 0 {
			if _, err := s.Comment(ctx, i.ID, "x", "c"); err != nil {
				t.Fatal(err)
			}
		}
	}
	first, err := s.Export(ctx)
	if err != nil {
		t.Fatal(err)
	}
	second, _ := s.Export(ctx)
	if !bytes.Equal(first, second) {
		t.Fatal("two exports of the same state differ")
	}
	// Import into a fresh tracker, export again: byte-identical.
	e2 := NewEnv(t, n)
	s2 := e2.Open(t, "dk")
	set, err := docket.DecodeImport("in", first, docket.FormatDocket, "dk", e.Clock)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s2.Import(ctx, set)
	if err != nil || res.Created != 30 {
		t.Fatalf("import: %+v %v", res, err)
	}
	if got := e2.File(t); !bytes.Equal(got, first) {
		t.Fatalf("export -> import -> export differs")
	}
	// Re-importing the same file changes nothing.
	res, err = s2.Import(ctx, set)
	if err != nil || res.Unchanged != 30 {
		t.Fatalf("re-import: %+v %v", res, err)
	}
	if got := e2.File(t); !bytes.Equal(got, first) {
		t.Fatalf("re-import changed the export")
	}
}

func record(id string) docket.Issue {
	i := docket.Issue{ID: id, Title: "t " + id, Status: "open", Type: "task", Priority: 1, CreatedAt: "2026-01-01T00:00:00Z", UpdatedAt: "2026-01-01T00:00:00Z", Version: 1, Schema: 1}
	i.Normalize()
	return i
}

func allOrNothing(t *testing.T, n NewIndex) {
	ctx := context.Background()
	e := NewEnv(t, n)
	s := e.Open(t, "dk")
	if _, err := s.Create(ctx, docket.NewIssue{Title: "kept"}); err != nil {
		t.Fatal(err)
	}
	before := e.File(t)
	good, bad := record("dk-new"), record("dk-bad")
	bad.Priority = 9
	_, err := s.Import(ctx, &docket.ImportSet{Issues: []docket.Issue{good, bad}})
	if re := new(docket.RecordError); !errors.Is(err, docket.ErrInvalid) || !errors.As(err, &re) || re.ID != "dk-bad" {
		t.Fatalf("bad record: err = %v", err)
	}
	if got := e.File(t); !bytes.Equal(got, before) {
		t.Error("a failed import changed the export")
	}
	if _, err := s.Get(ctx, "dk-new"); !errors.Is(err, docket.ErrNotFound) {
		t.Errorf("a failed import stored a record: %v", err)
	}
}

func danglingKept(t *testing.T, n NewIndex) {
	ctx := context.Background()
	e := NewEnv(t, n)
	s := e.Open(t, "dk")
	i := record("dk-new")
	i.Deps = []docket.Dep{{Type: docket.DepDependsOn, ID: "ub-nbz"}}
	res, err := s.Import(ctx, &docket.ImportSet{Issues: []docket.Issue{i}, Lines: map[string]int{"dk-new": 7}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Dangling) != 1 || res.Dangling[0].Dep.ID != "ub-nbz" || res.Dangling[0].Line != 7 || res.Deps != 1 {
		t.Errorf("result %+v, want one dangling dependency on ub-nbz from line 7", res)
	}
	got, err := s.Get(ctx, "dk-new")
	if err != nil || len(got.Deps) != 1 {
		t.Fatalf("the dangling dependency was not kept: %+v %v", got, err)
	}
	// A blocker that is not there blocks nothing.
	r, err := s.Ready(ctx)
	if err != nil || !slices.Equal(ids(r), []string{"dk-new"}) {
		t.Errorf("ready = %v %v", ids(r), err)
	}
}

// foreign imports records in another tracker's vocabulary: statuses,
// types and dependency types docket does not create, hierarchical ids and
// other prefixes, and fields docket has no key for. All are kept, and the
// export reads back to the same bytes.
func foreign(t *testing.T, n NewIndex) {
	ctx := context.Background()
	e := NewEnv(t, n)
	s := e.Open(t, "bd")
	a, b, c := record("bd-au0.7"), record("hq-cv-d46qe"), record("bd-wisp-0385z")
	a.Status, a.Type = "hooked", "molecule"
	a.Extra = `{"assignee":"mayor","compaction_level":0}`
	a.Deps = []docket.Dep{{Type: "tracks", ID: "hq-cv-d46qe", Extra: `{"created_by":"mayor"}`}}
	b.Status, b.Type = "pinned", "merge-request"
	c.Deps = []docket.Dep{{Type: "duplicates", ID: "bd-au0.7"}}
	if _, err := s.Import(ctx, &docket.ImportSet{Issues: []docket.Issue{a, b, c}}); err != nil {
		t.Fatal(err)
	}
	first := e.File(t)
	for _, want := range []string{`"status":"hooked"`, `"type":"molecule"`, `"extra":{"assignee":"mayor","compaction_level":0}`, `{"type":"tracks","id":"hq-cv-d46qe","extra":{"created_by":"mayor"}}`, `"type":"duplicates"`} {
		if !bytes.Contains(first, []byte(want)) {
			t.Errorf("export lacks %s:\n%s", want, first)
		}
	}
	e2 := NewEnv(t, n)
	s2 := e2.Open(t, "bd")
	set, err := docket.DecodeImport("in", first, docket.FormatDocket, "", e.Clock)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s2.Import(ctx, set); err != nil {
		t.Fatal(err)
	}
	if got := e2.File(t); !bytes.Equal(got, first) {
		t.Errorf("round trip differs:\n%s\n---\n%s", first, got)
	}
	// hooked is active: not ready; pinned is deferred: not ready.
	r, err := s2.Ready(ctx)
	if err != nil || !slices.Equal(ids(r), []string{"bd-wisp-0385z"}) {
		t.Errorf("ready = %v %v", ids(r), err)
	}
}

// workflow: a configured workflow decides ready and finished for statuses
// outside docket's set; the statuses it does not map are reported, each
// once, and only while a record carries one.
func workflow(t *testing.T, n NewIndex) {
	ctx := context.Background()
	e := NewEnv(t, n)
	w, err := docket.DefaultWorkflow.With(map[string]string{"hooked": "open", "shipped": "closed"})
	if err != nil {
		t.Fatal(err)
	}
	e.Workflow = w
	s := e.Open(t, "bd")
	h, sh, wait, qa, qa2 := record("bd-h"), record("bd-s"), record("bd-w"), record("bd-q"), record("bd-q2")
	h.Status, sh.Status, qa.Status, qa2.Status = "hooked", "shipped", "qa", "qa"
	wait.Deps = []docket.Dep{{Type: docket.DepDependsOn, ID: "bd-s"}}
	if _, err := s.Import(ctx, &docket.ImportSet{Issues: []docket.Issue{h, sh, wait, qa, qa2}}); err != nil {
		t.Fatal(err)
	}
	r, err := s.Ready(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"bd-h", "bd-w"}, ids(r)); diff != "" {
		t.Errorf("ready (-want +got):\n%s", diff)
	}
	l, err := s.Listing(ctx, docket.ViewList, docket.ListParams{})
	var listed []string
	for _, row := range l.Rows {
		listed = append(listed, row.ID)
	}
	if err != nil || slices.Contains(listed, "bd-s") || !slices.Contains(listed, "bd-q") {
		t.Errorf("list = %v %v: shipped is finished, qa is not", listed, err)
	}
	u, err := s.Unmapped(ctx)
	if err != nil || !slices.Equal(u, []docket.Status{"qa"}) {
		t.Errorf("unmapped = %v %v, want [qa]", u, err)
	}
	for _, id := range []string{"bd-q", "bd-q2"} {
		st := docket.StatusOpen
		if _, err := s.Update(ctx, id, docket.Patch{Status: &st}); err != nil {
			t.Fatal(err)
		}
	}
	if u, err := s.Unmapped(ctx); err != nil || len(u) != 0 {
		t.Errorf("unmapped after the qa records moved on = %v %v, want none", u, err)
	}
}

func readyGraph(t *testing.T, n NewIndex) {
	ctx := context.Background()
	e := NewEnv(t, n)
	s := e.Open(t, "dk")
	// blocker -> (depends-on, held by) waiting; child's parent is waiting;
	// grandchild's parent is child; free has no edges; done blocks free2
	// but is closed.
	blocker, waiting, child, grand, free, done, free2 := record("dk-b"), record("dk-w"), record("dk-c"), record("dk-g"), record("dk-f"), record("dk-d"), record("dk-f2")
	waiting.Deps = []docket.Dep{{Type: docket.DepDependsOn, ID: "dk-b"}}
	child.Deps = []docket.Dep{{Type: docket.DepParentChild, ID: "dk-w"}}
	grand.Deps = []docket.Dep{{Type: docket.DepParent, ID: "dk-c"}}
	closedAt := "2026-01-02T00:00:00Z"
	done.Status, done.ClosedAt = docket.StatusClosed, &closedAt
	done.Deps = []docket.Dep{{Type: docket.DepBlocks, ID: "dk-f2"}}
	if _, err := s.Import(ctx, &docket.ImportSet{Issues: []docket.Issue{blocker, waiting, child, grand, free, done, free2}}); err != nil {
		t.Fatal(err)
	}
	r, err := s.Ready(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"dk-b", "dk-f", "dk-f2"}, ids(r)); diff != "" {
		t.Errorf("ready (-want +got):\n%s", diff)
	}
	p, err := s.Page(ctx, docket.Query{}, docket.ViewBlocked, "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, row := range p.Rows {
		got = append(got, row.ID)
	}
	if diff := cmp.Diff([]string{"dk-c", "dk-g", "dk-w"}, got); diff != "" {
		t.Errorf("blocked (-want +got):\n%s", diff)
	}
	// Blocking reads both directions of blocks and depends-on, and no
	// parent edge: what show prints (D77).
	if _, err := s.AddDep(ctx, "dk-b", docket.Dep{Type: docket.DepBlocks, ID: "dk-f"}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ id, blockers, blocked string }{
		{"dk-b", "", "dk-f dk-w"},
		{"dk-w", "dk-b", ""},
		{"dk-f", "dk-b", ""},
		{"dk-d", "", "dk-f2"},
		{"dk-c", "", ""},
	} {
		blockers, blocked, err := s.Blocking(ctx, tc.id)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(blockers, " ") + "|" + strings.Join(blocked, " "); got != tc.blockers+"|"+tc.blocked {
			t.Errorf("Blocking(%s) = %q, want %q", tc.id, got, tc.blockers+"|"+tc.blocked)
		}
	}
	if _, _, err := s.Blocking(ctx, "dk-nope"); !errors.Is(err, docket.ErrNotFound) {
		t.Errorf("Blocking(dk-nope): err = %v, want not found", err)
	}
	// A parent edge that closes a cycle is refused.
	if _, err := s.AddDep(ctx, "dk-w", docket.Dep{Type: docket.DepParent, ID: "dk-g"}); !errors.Is(err, docket.ErrInvalid) || !errors.Is(err, docket.ErrCycle) {
		t.Errorf("parent cycle: err = %v", err)
	}
	// depends-on and blocks form one graph for cycles.
	if _, err := s.AddDep(ctx, "dk-w", docket.Dep{Type: docket.DepBlocks, ID: "dk-b"}); !errors.Is(err, docket.ErrInvalid) || !errors.Is(err, docket.ErrCycle) {
		t.Errorf("blocking cycle through depends-on: err = %v", err)
	}
}

func pages(t *testing.T, n NewIndex) {
	ctx := context.Background()
	e := NewEnv(t, n)
	s := e.Open(t, "dk")
	var set docket.ImportSet
	for k := range 23 {
		i := record("dk-" + string(rune('a'+k)))
		i.Priority = k % 3
		i.Title = "page issue"
		if k%5 == 0 {
			i.Title = "needle in the page"
		}
		set.Issues = append(set.Issues, i)
	}
	if _, err := s.Import(ctx, &set); err != nil {
		t.Fatal(err)
	}
	all, err := s.List(ctx, docket.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, sort := range docket.Sorts {
		var seen []string
		q := docket.Query{Limit: 5, Sort: sort}
		cursor := ""
		for range 10 {
			p, err := s.Page(ctx, q, docket.ViewList, cursor)
			if err != nil {
				t.Fatal(err)
			}
			if p.Total != 23 {
				t.Errorf("%s: total %d, want 23", sort, p.Total)
			}
			for _, r := range p.Rows {
				seen = append(seen, r.ID)
			}
			if p.Next == "" {
				if p.More != 0 {
					t.Errorf("%s: last page says %d more", sort, p.More)
				}
				break
			}
			if p.More != 23-len(seen) {
				t.Errorf("%s: more = %d after %d rows", sort, p.More, len(seen))
			}
			cursor = p.Next
		}
		if len(seen) != 23 || len(slices.Compact(slices.Sorted(slices.Values(seen)))) != 23 {
			t.Errorf("%s: pages gave %d rows (%v), want each of 23 once", sort, len(seen), seen)
		}
		if sort == docket.SortPriority && !slices.Equal(seen, ids(all)) {
			t.Errorf("paged order %v differs from list order %v", seen, ids(all))
		}
	}
	if _, err := s.Page(ctx, docket.Query{Sort: docket.SortID}, docket.ViewList, "garbage"); !errors.Is(err, docket.ErrInvalid) {
		t.Errorf("bad cursor: err = %v", err)
	}
	for _, c := range []struct {
		text string
		want int
	}{{"NEEDLE", 5}, {"nee", 5}, {"page needle", 5}, {"page", 23}, {"eedle", 0}, {`"nee" *OR* (`, 0}, {`nee"*`, 5}} {
		hits, err := s.Page(ctx, docket.Query{Text: c.text}, docket.ViewSearch, "")
		if err != nil || hits.Total != c.want {
			t.Errorf("search %q: %d hits, %v; want %d", c.text, hits.Total, err, c.want)
		}
	}
}

func rebuild(t *testing.T, n NewIndex) {
	ctx := context.Background()
	e := NewEnv(t, n)
	s := e.Open(t, "dk")
	a, err := s.Create(ctx, docket.NewIssue{Title: "original"})
	if err != nil {
		t.Fatal(err)
	}
	// A pull changes the title in the export behind the index's back.
	pulled := bytes.Replace(e.File(t), []byte(`"original"`), []byte(`"from upstream"`), 1)
	if err := os.WriteFile(e.Export, pulled, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, a.ID)
	if err != nil || got.Title != "from upstream" {
		t.Fatalf("after a pull: %q, %v; the index should have rebuilt", got.Title, err)
	}
	// A hand edit into invalid JSON: refused, with the line; index unchanged.
	if err := os.WriteFile(e.Export, append(pulled, []byte("{broken\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = s.Get(ctx, a.ID)
	if le := new(docket.LineError); !errors.As(err, &le) || le.Line != 2 || filepath.Base(le.Path) != "issues.jsonl" {
		t.Fatalf("broken export: err = %v, want the line", err)
	}
	if _, err := s.Create(ctx, docket.NewIssue{Title: "must not land"}); err == nil {
		t.Fatal("a write went through while the export is broken")
	}
	// Restored: everything works again and ids stay allocated.
	if err := os.WriteFile(e.Export, pulled, 0o644); err != nil {
		t.Fatal(err)
	}
	if all, err := s.List(ctx, docket.Filter{}); err != nil || len(all) != 1 {
		t.Errorf("index holds %d issues after refusing, want 1 (%v)", len(all), err)
	}
	if _, err := s.Create(ctx, docket.NewIssue{Title: "after fix"}); err != nil {
		t.Fatal(err)
	}
	Agree(t, s, e)
}

// dirty simulates a writer killed between its commit and its export
// rewrite: the next start rewrites the export.
func dirty(t *testing.T, n NewIndex) {
	ctx := context.Background()
	e := NewEnv(t, n)
	s := e.Open(t, "dk")
	a, err := s.Create(ctx, docket.NewIssue{Title: "x"})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	// Commit a change the way the service does, but skip the rewrite.
	idx := e.New(t, e.Key)
	err = idx.Write(ctx, func(w docket.Writer) error {
		i, err := w.Get(a.ID)
		if err != nil {
			return err
		}
		i.Title = "committed, not exported"
		i.Version++
		line, err := docket.MarshalLine(i)
		if err != nil {
			return err
		}
		if err := w.Put(i, line); err != nil {
			return err
		}
		return w.SetMeta("export_dirty", "1")
	})
	if err != nil {
		t.Fatal(err)
	}
	s2, err := docket.New(ctx, idx, docket.Options{Export: e.Export, Now: func() time.Time { return e.Clock }})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if !bytes.Contains(e.File(t), []byte("committed, not exported")) {
		t.Fatal("the next start did not rewrite the export")
	}
	Agree(t, s2, e)
}

func freshClone(t *testing.T, n NewIndex) {
	ctx := context.Background()
	e := NewEnv(t, n)
	s := e.Open(t, "zz")
	for range 2 {
		if _, err := s.Create(ctx, docket.NewIssue{Title: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	// One imported record of another tracker sorts first; the prefix is
	// still the one most ids carry.
	if _, err := s.Import(ctx, &docket.ImportSet{Issues: []docket.Issue{record("aa-1")}}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	before := e.File(t)
	e.Key = filepath.Join(e.Dir, "clone", "index.db")
	s2 := e.Open(t, "")
	if s2.Prefix() != "zz" {
		t.Errorf("prefix %q, want it read off the export", s2.Prefix())
	}
	Agree(t, s2, e)
	if !bytes.Equal(before, e.File(t)) {
		t.Error("opening a clone changed the export")
	}
}

// claims: a claim sets the assignee and the active status in one write;
// of claimants racing for one issue exactly one wins and the others are
// refused with ErrClaimed; the assignee filters listings in the index,
// round-trips through the export (a fresh index built from it holds it),
// and a record without one keeps its bytes.
func claims(t *testing.T, n NewIndex) {
	ctx := context.Background()
	e := NewEnv(t, n)
	s := e.Open(t, "dk")
	a, err := s.Create(ctx, docket.NewIssue{Title: "contested"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Create(ctx, docket.NewIssue{Title: "free"})
	if err != nil {
		t.Fatal(err)
	}
	before := e.File(t)
	const racers = 8
	errs := make(chan error, racers)
	for k := 0; k < racers; k++ {
		go func() {
			_, err := s.Claim(ctx, a.ID, "agent-"+string(rune('a'+k)), 0)
			errs <- err
		}()
	}
	won := 0
	for k := 0; k < racers; k++ {
		switch err := <-errs; {
		case err == nil:
			won++
		case !errors.Is(err, docket.ErrClaimed):
			t.Errorf("a losing claim: %v, want %q", err, docket.ErrClaimed)
		}
	}
	got, err := s.Get(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if won != 1 || got.Assignee == "" || got.Status != docket.StatusInProgress || got.Version != 2 {
		t.Fatalf("%d of %d claims won; the issue is %+v", won, racers, got)
	}
	if _, err := s.Claim(ctx, a.ID, got.Assignee, 0); err != nil {
		t.Errorf("the holder claims again: %v", err)
	}
	if _, err := s.Claim(ctx, b.ID, " ", 0); !errors.Is(err, docket.ErrInvalid) || !errors.As(err, new(*docket.ArgError)) || argOf(err) != "assignee" {
		t.Errorf("an empty assignee: %v", err)
	}
	page, err := s.Listing(ctx, docket.ViewList, docket.ListParams{Assignee: got.Assignee})
	if err != nil || len(page.Rows) != 1 || page.Rows[0].ID != a.ID || page.Total != 1 {
		t.Errorf("listing by assignee: %v %+v", err, page)
	}
	line := `"priority":0,"assignee":"` + got.Assignee + `","labels":[]`
	var freeLine []byte
	for _, l := range bytes.SplitAfter(before, []byte("\n")) {
		if bytes.Contains(l, []byte(`"title":"free"`)) {
			freeLine = l
		}
	}
	if file := e.File(t); !bytes.Contains(file, []byte(line)) || len(freeLine) == 0 || !bytes.Contains(file, freeLine) {
		t.Errorf("export after the claim:\n%s\nwant the claimed line to hold %s and the other's line unchanged", file, line)
	}
	e2 := NewEnv(t, n)
	if err := os.MkdirAll(filepath.Dir(e2.Export), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(e2.Export, e.File(t), 0o644); err != nil {
		t.Fatal(err)
	}
	fresh := e2.Open(t, "dk")
	if again, err := fresh.Get(ctx, a.ID); err != nil || again.Assignee != got.Assignee {
		t.Errorf("a fresh index from the export: %v %+v", err, again)
	}
	Agree(t, fresh, e2)
	rel := ""
	if i, err := s.Update(ctx, a.ID, docket.Patch{Assignee: &rel}); err != nil || i.Assignee != "" {
		t.Errorf("release: %v %+v", err, i)
	}
	if _, err := s.Claim(ctx, a.ID, "someone-else", 0); err != nil {
		t.Errorf("claim after release: %v", err)
	}
	if _, err := s.CloseIssue(ctx, b.ID, "done", 0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Claim(ctx, b.ID, "late", 0); !errors.Is(err, docket.ErrInvalid) || !errors.Is(err, docket.ErrClosedIssue) {
		t.Errorf("claiming a closed issue: %v", err)
	}
}

// argOf is the argument an *docket.ArgError in err's chain names, or "".
func argOf(err error) string {
	if ae := new(docket.ArgError); errors.As(err, &ae) {
		return ae.Arg
	}
	return ""
}

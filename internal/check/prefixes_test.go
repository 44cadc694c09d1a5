package check_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/check/checktest"
	"github.com/claimslint/claimslint/internal/mention"
	"github.com/claimslint/claimslint/internal/ruleid"
	"github.com/claimslint/claimslint/internal/snapshot"
)

// TestPrefixesOnSurveyCollections runs CL004 over every Markdown file of
// the real decision-record collections of the adoption survey
// (internal/author/testdata/collections), read as mention sites, with an
// export whose ids use four prefixes besides tracker.prefixes' dk (D74):
// their prose (re-run, e-mail, utf-8, linux-amd64 ...) raises no finding,
// and none of their front matter names a tracker id of a prefix nobody
// uses. A check that looked for any <word>-<base36> in prose, or for the
// export's prefixes there, would report many (the test logs how many).
func TestPrefixesOnSurveyCollections(t *testing.T) {
	root := filepath.Join("..", "author", "testdata", "collections")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var tracker *check.Rule
	for _, r := range check.Rules {
		if r.ID == ruleid.Tracker {
			tracker = r
		}
	}
	naive := regexp.MustCompile(`\b[a-z][a-z0-9]{0,15}-[a-z0-9]{3,}\b`)
	collections, files, shaped, learnt := 0, 0, 0, 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		collections++
		t.Run(e.Name(), func(t *testing.T) {
			dir := t.TempDir()
			copyTree(t, filepath.Join(root, e.Name()), filepath.Join(dir, "collection"))
			write := func(rel, text string) {
				t.Helper()
				p := filepath.Join(dir, rel)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write(".claimslint.yml", "mentions: ['collection/**/*.md']\n")
			write("docs/PRD.md", "D1..D1\n\n| ID | Decision | Status |\n|---|---|---|\n| D1 | [Ids](decisions/D1-ids.md) | accepted |\n")
			write("docs/decisions/D1-ids.md", "---\nid: D1\nstatus: accepted\ntracker: [dk-4f2]\nclaims: none, a fixture\n---\n# D1: Ids\n")
			write(".knowledge/tracker/issues.jsonl", `{"id":"bd-au0","title":"t","status":"open"}
{"id":"cli-7qx","title":"t","status":"open"}
{"id":"dk-4f2","title":"t","status":"open"}
{"id":"test-abc","title":"t","status":"open"}
{"id":"ub-lp9.25","title":"t","status":"open"}
`)
			snap, err := snapshot.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(snap.Prefixes()); got != 5 {
				t.Fatalf("prefixes %q, want dk and the export's four", snap.Prefixes())
			}
			docs := snap.MentionDocs()
			if len(docs) == 0 {
				t.Fatal("no Markdown file of the collection was read")
			}
			files += len(docs)
			// What looking for the export's prefixes in prose too would
			// report: every cli-tools and test-driven.
			cfg := snap.Config
			cfg.Tracker.Prefixes = snap.Prefixes()
			wide := mention.Pattern(cfg)
			for _, d := range docs {
				shaped += len(naive.FindAll(d.Fenced, -1))
				for _, m := range mention.InFile(d.Path, d.Src, wide) {
					if _, ok := snap.Export.Lookup(m.ID); !ok {
						learnt++
					}
				}
			}
			res := checktest.RunQuiet(t, dir, check.Options{}, tracker)
			for _, f := range res.Findings {
				t.Errorf("%s: %s (%s)", f.Pos, f.Message, f.Check)
			}
		})
	}
	if collections < 10 {
		t.Fatalf("%d collections under %s, want the survey's", collections, root)
	}
	t.Logf("%d collections, %d Markdown files: %d words shaped <word>-<base36> outside fences, %d ids of the export's prefixes in prose that are not its issues, 0 findings", collections, files, shaped, learnt)
}

// TestManyListedIDs: a residuals list of many ids of no tracker's prefix
// is read once, in order: each finding is at its own entry, the same id
// twice at each of its places, and a list past the front matter's end is
// not searched.
func TestManyListedIDs(t *testing.T) {
	t.Parallel()
	const n = 20000
	var list strings.Builder
	for i := range n {
		if i > 0 {
			list.WriteString(", ")
		}
		fmt.Fprintf(&list, "cx-%d", i%(n-1)) // the last repeats the first
	}
	dir := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("docs/PRD.md", "D1..D1\n\n| ID | Decision | Status |\n|---|---|---|\n| D1 | [Ids](decisions/D1-ids.md) | accepted |\n")
	fm := "---\nid: D1\nstatus: accepted\nclaims: none, a fixture\nresiduals: [" + list.String() + "]\n---\n# D1: Ids\n"
	write("docs/decisions/D1-ids.md", fm)
	snap, err := snapshot.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	ids := snap.ListedIDs()
	if len(ids) != n {
		t.Fatalf("%d listed ids, want %d", len(ids), n)
	}
	for i, e := range ids {
		want := strings.Index(fm, "["+e.ID+",")
		if i > 0 {
			want = strings.Index(fm, " "+e.ID+",")
		}
		if i == n-1 {
			want = strings.LastIndex(fm, " "+e.ID+"]")
		}
		if e.Pos.Offset != want+1 || e.Pos.Line != 5 {
			t.Fatalf("entry %d %s at %d (line %d), want offset %d on line 5", i, e.ID, e.Pos.Offset, e.Pos.Line, want+1)
		}
	}
}

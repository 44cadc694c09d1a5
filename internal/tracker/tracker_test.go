package tracker

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/issueid"
	"github.com/claimslint/claimslint/internal/recordtext"
	"github.com/claimslint/claimslint/internal/trackerformat"
	"github.com/claimslint/claimslint/internal/workflow"
	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, format, data string
		id, status         string
		found              bool
		findings           int
	}{
		{"docket", "docket", `{"id":"dk-4f2","title":"t","status":"in_progress"}` + "\n", "dk-4f2", "in_progress", true, 0},
		{"beads tombstone", "beads", `{"id":"bd-1","title":"gone","status":"tombstone"}`, "bd-1", "tombstone", true, 0},
		{"github", "github", `[{"number":12,"title":"x","state":"OPEN","labels":[]}]`, "#12", "open", true, 0},
		{"bad line keeps the rest", "docket", "nope\n" + `{"id":"dk-a1","title":"t","status":"closed"}`, "dk-a1", "closed", true, 1},
		{"duplicate id", "docket", `{"id":"dk-a1","title":"t","status":"open"}` + "\n" + `{"id":"dk-a1","title":"t","status":"closed"}`, "dk-a1", "open", true, 1},
		// A title docket refuses is refused here too (recordtext.CheckTitle),
		// and the id still resolves; beads' own titles are beads' rules.
		{"docket title with an escape", "docket", `{"id":"dk-a1","title":"x\u001b[2J","status":"open"}`, "dk-a1", "open", true, 1},
		{"docket title with a line break", "docket", `{"id":"dk-a1","title":"x\ny","status":"open"}`, "dk-a1", "open", true, 1},
		{"docket title blank", "docket", `{"id":"dk-a1","title":"  ","status":"open"}`, "dk-a1", "open", true, 1},
		{"docket title too long", "docket", `{"id":"dk-a1","title":"` + strings.Repeat("a", recordtext.MaxTitleLen+1) + `","status":"open"}`, "dk-a1", "open", true, 1},
		{"docket title at the limit", "docket", `{"id":"dk-a1","title":"` + strings.Repeat("a", recordtext.MaxTitleLen) + `","status":"open"}`, "dk-a1", "open", true, 0},
		{"beads title with a line break", "beads", `{"id":"bd-1","title":"x\ny","status":"open"}`, "bd-1", "open", true, 0},
		{"github not an array", "github", `{}`, "#1", "", false, 1},
		// One id grammar for both tools (issueid.SplitID, D91): what docket
		// refuses resolves nothing here.
		{"id with a NUL", "docket", `{"id":"dk-a\u0000b","title":"t","status":"open"}`, "dk-a\x00b", "", false, 1},
		{"id with ../", "beads", `{"id":"bd-../../x","title":"t","status":"open"}`, "bd-../../x", "", false, 1},
		{"id past 128 bytes", "docket", `{"id":"dk-` + strings.Repeat("a", issueid.MaxIDLen) + `","title":"t","status":"open"}`, "dk-" + strings.Repeat("a", issueid.MaxIDLen), "", false, 1},
		{"beads child id", "beads", `{"id":"bd-au0.7","title":"t","status":"open"}`, "bd-au0.7", "open", true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, fs := Parse("x.jsonl", tc.format, []byte(tc.data), nil)
			if len(fs) != tc.findings {
				t.Fatalf("%d findings, want %d: %v", len(fs), tc.findings, fs)
			}
			iss, ok := e.Lookup(tc.id)
			if ok != tc.found || iss.Status != tc.status {
				t.Fatalf("Lookup(%s) = %+v, %v; want status %q found %v", tc.id, iss, ok, tc.status, tc.found)
			}
		})
	}
}

func TestSatisfies(t *testing.T) {
	for _, tc := range []struct {
		status, want string
		ok           bool
	}{
		{"in_progress", "open", true},
		{"blocked", "open", true},
		{"closed", "open", false},
		{"tombstone", "open", false},
		{"closed", "closed", true},
		{"open", "closed", false},
		{"open", "", true},
		{"deferred", "Deferred", true},
		{"pinned", "deferred", true},
		{"pinned", "pinned", true},
		{"hooked", "deferred", false},
		{"review", "open", true},
		{"review", "closed", false},
	} {
		c, _ := workflow.DefaultWorkflow.Class(workflow.Status(tc.status))
		if got := (Issue{Status: tc.status, Class: c}).Satisfies(tc.want); got != tc.ok {
			t.Errorf("%s satisfies %q = %v, want %v", tc.status, tc.want, got, tc.ok)
		}
	}
}

// TestRealShapes reads exports in the shapes the tools write: beads'
// issues.jsonl with its extra fields and a tombstone, gh's JSON array with
// label objects, and gh's default export (30 open issues), which is
// flagged as probably truncated.
func TestRealShapes(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	e, fs := Parse("issues.jsonl", "beads", read("beads-issues.jsonl"), nil)
	if len(fs) != 0 || len(e.Issues) != 3 {
		t.Fatalf("beads: %d issues, findings %v", len(e.Issues), fs)
	}
	if iss, _ := e.Lookup("bd-e5f6"); !iss.Closed() || iss.Satisfies("open") {
		t.Errorf("a beads tombstone must count as closed: %+v", iss)
	}
	if iss, _ := e.Lookup("bd-a1b2"); !iss.Satisfies("open") {
		t.Errorf("in_progress must count as open: %+v", iss)
	}

	e, fs = Parse("gh.json", "github", read("gh-all.json"), nil)
	if len(fs) != 0 {
		t.Fatalf("gh --state all: unexpected findings %v", fs)
	}
	if iss, ok := e.Lookup("#12"); !ok || !iss.Closed() {
		t.Errorf("#12 should be closed: %+v %v", iss, ok)
	}

	_, fs = Parse("gh.json", "github", read("gh-default.json"), nil)
	var msgs []string
	for _, f := range fs {
		if f.Severity != diag.SeverityWarning {
			t.Errorf("truncation is a warning, not %s", f.Severity)
		}
		msgs = append(msgs, f.Message)
	}
	all := strings.Join(msgs, "\n")
	if len(fs) != 1 || !strings.Contains(all, "probably truncated") || !strings.Contains(all, "every issue in it is OPEN") {
		t.Errorf("gh default export not flagged:\n%s", all)
	}
}

// TestWorkflow: the configured workflow decides what is closed, and a
// status it does not map is a warning at its first line, once per status,
// with its count; the record still resolves and counts as unfinished.
func TestWorkflow(t *testing.T) {
	w, err := workflow.DefaultWorkflow.With(map[string]string{"done": "closed", "hooked": "open"})
	if err != nil {
		t.Fatal(err)
	}
	data := `{"id":"bd-1","status":"done"}
{"id":"bd-2","status":"review"}
{"id":"bd-3","status":"hooked"}
{"id":"bd-4","status":"review"}
{"id":"bd-5","status":"qa"}
`
	e, fs := Parse("i.jsonl", "beads", []byte(data), w)
	var got []string
	for _, f := range fs {
		if f.Severity != diag.SeverityWarning {
			t.Errorf("an unmapped status is a warning, not %s", f.Severity)
		}
		got = append(got, fmt.Sprintf("%d: %s", f.Pos.Line, f.Message))
	}
	want := []string{
		"2: status review is not in the workflow, so counted as active (unfinished, never ready); map it under tracker.workflow in .claimslint.yml onto open, active, blocked, deferred or closed (2 record(s), the first on this line)",
		"5: status qa is not in the workflow, so counted as active (unfinished, never ready); map it under tracker.workflow in .claimslint.yml onto open, active, blocked, deferred or closed (1 record(s), the first on this line)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	for id, closed := range map[string]bool{"bd-1": true, "bd-2": false, "bd-3": false, "bd-5": false} {
		iss, ok := e.Lookup(id)
		if !ok || iss.Closed() != closed || iss.Satisfies("open") == closed {
			t.Errorf("%s: %+v closed=%v, want %v", id, iss, iss.Closed(), closed)
		}
	}
	// The default workflow does not know done: it stays unfinished.
	e, fs = Parse("i.jsonl", "beads", []byte(data), nil)
	if iss, _ := e.Lookup("bd-1"); iss.Closed() || len(fs) != 3 {
		t.Errorf("default workflow: bd-1 %+v, %d findings", iss, len(fs))
	}
}

// TestGitHubLinesAndKeptRecords: gh records carry the line they start on,
// a record that is not an issue is reported at its line while the others
// still resolve, and a repeated number is reported, not kept twice.
func TestGitHubLinesAndKeptRecords(t *testing.T) {
	t.Parallel()
	data := "[\n  {\"number\": 1, \"title\": \"a\", \"state\": \"OPEN\"},\n  {\"number\": \"two\"},\n  {\"number\": 3, \"title\": \"c\", \"state\": \"CLOSED\"},\n  {\"number\": 1, \"title\": \"again\", \"state\": \"OPEN\"}\n]\n"
	e, fs := Parse("gh.json", "github", []byte(data), nil)
	if i, ok := e.Lookup("#3"); !ok || i.Line != 4 || !i.Closed() {
		t.Errorf("#3 = %+v, %v; want closed, on line 4", i, ok)
	}
	if i, ok := e.Lookup("#1"); !ok || i.Line != 2 || i.Title != "a" {
		t.Errorf("#1 = %+v, %v; want the first, on line 2", i, ok)
	}
	var lines []int
	for _, f := range fs {
		lines = append(lines, f.Pos.Line)
	}
	if len(fs) != 2 || lines[0] != 3 || lines[1] != 5 {
		t.Errorf("findings at lines %v, want 3 (not a record) and 5 (repeated): %v", lines, fs)
	}
}

// TestBadRecordsQuoteNothing (issue 22): a record that is not the JSON it
// should be is reported by where and what kind, never by its bytes, never
// by a Go type; past MaxBadRecords, one finding counts the rest.
func TestBadRecordsQuoteNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, format, data string
		want               []string
	}{
		{"syntax", "docket", "[core] s3cr3t\n", []string{"tracker export line 1 is not a JSON object: invalid JSON at byte 2 of the record"}},
		{"field type", "docket", `{"id":7}` + "\n" + `{"id":"dk-a","decisions":"s3cr3t"}`, []string{
			`tracker export line 1 is not a JSON object: field "id" is a number, want a string`,
			`tracker export line 2 is not a JSON object: field "decisions" is a string, want an array`}},
		{"not an object", "beads", `["s3cr3t"]`, []string{"tracker export line 1 is not a JSON object: the record is an array, want an object"}},
		{"cut short", "docket", `{"id":"s3cr3t`, []string{"tracker export line 1 is not a JSON object: invalid JSON at byte 13 of the record"}},
		{"github record", "github", `[{"number":"s3cr3t"}]`, []string{`tracker export line 1 is not a gh issue record: field "number" is a string, want a number`}},
		{"github syntax", "github", "[{\"number\":1},\n{s3cr3t}]", []string{"tracker export line 2: not a gh issue record: invalid JSON at byte"}},
		{"github open", "github", `[{"number":1},`, []string{"tracker export line 1: not a gh issue record: the file ends before its JSON does"}},
		{"many", "docket", strings.Repeat("s3cr3t\n", MaxBadRecords+5), append(slices.Repeat([]string{"is not a JSON object: invalid JSON at byte 1 of the record"}, MaxBadRecords),
			`tracker export: 5 more records from line 21 on cannot be read either; is x.jsonl the export tracker.format "docket" reads?`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, fs := Parse("x.jsonl", tc.format, []byte(tc.data), nil)
			if len(fs) != len(tc.want) {
				t.Fatalf("%d findings, want %d: %v", len(fs), len(tc.want), fs)
			}
			for i, f := range fs {
				if !strings.Contains(f.Message, tc.want[i]) || strings.Contains(f.Message, "s3cr3t") || strings.Contains(f.Message, "Go ") || strings.Contains(f.Message, "character") {
					t.Errorf("finding %d = %q, want %q and none of the record's bytes", i, f.Message, tc.want[i])
				}
			}
		})
	}
}

// TestPrefixes: an export's prefixes are those its ids use, sorted, the
// github format's none; past MaxPrefixes the most used are kept and a
// warning says how many were left out (D74).
func TestPrefixes(t *testing.T) {
	t.Parallel()
	var many strings.Builder
	for i := range MaxPrefixes + 3 {
		fmt.Fprintf(&many, "{\"id\":\"p%d-abc\",\"title\":\"t\",\"status\":\"open\"}\n", i)
	}
	many.WriteString("{\"id\":\"p7-abd\",\"title\":\"t\",\"status\":\"open\"}\n")
	for _, tc := range []struct {
		name, format, data string
		want               []string
		warn               string
	}{
		{name: "docket", format: trackerformat.Docket, data: "{\"id\":\"ub-lp9.25\",\"title\":\"t\",\"status\":\"open\"}\n{\"id\":\"dk-7qx\",\"title\":\"t\",\"status\":\"open\"}\n{\"id\":\"dk-8qx\",\"title\":\"t\",\"status\":\"open\"}\n",
			want: []string{"dk", "ub"}},
		{name: "beads wisps", format: trackerformat.Beads, data: "{\"id\":\"bd-wisp-0385z\",\"title\":\"t\",\"status\":\"open\"}\n", // an id with no prefix is refused (TestParse)
			want: []string{"bd"}},
		{name: "empty", format: trackerformat.Docket, data: ""},
		{name: "github", format: trackerformat.GitHub, data: `[{"number":1,"title":"t","state":"OPEN"}]`},
		{name: "too many", format: trackerformat.Docket, data: many.String(), warn: fmt.Sprintf("the export's ids use %d prefixes; claimslint learns the %d most used and ignores 3", MaxPrefixes+3, MaxPrefixes)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e, fs := Parse("issues.jsonl", tc.format, []byte(tc.data), nil)
			var warns []string
			for _, f := range fs {
				warns = append(warns, f.Message)
			}
			if tc.warn == "" {
				if len(fs) != 0 {
					t.Fatalf("findings %q", warns)
				}
				if !slices.Equal(e.Prefixes, tc.want) {
					t.Fatalf("prefixes %q, want %q", e.Prefixes, tc.want)
				}
				return
			}
			if len(fs) != 1 || !strings.Contains(fs[0].Message, tc.warn) {
				t.Fatalf("findings %q, want one saying %q", warns, tc.warn)
			}
			if len(e.Prefixes) != MaxPrefixes || !slices.Contains(e.Prefixes, "p7") || !slices.IsSorted(e.Prefixes) {
				t.Fatalf("%d prefixes (p7, the most used, kept: %v), want %d sorted", len(e.Prefixes), slices.Contains(e.Prefixes, "p7"), MaxPrefixes)
			}
		})
	}
}

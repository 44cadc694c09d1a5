package tracker

import (
	"strings"
	"testing"
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
		{"bad line keeps the rest", "docket", "nope\n" + `{"id":"dk-a1","status":"closed"}`, "dk-a1", "closed", true, 1},
		{"duplicate id", "docket", `{"id":"dk-a1","status":"open"}` + "\n" + `{"id":"dk-a1","status":"closed"}`, "dk-a1", "open", true, 1},
		{"github not an array", "github", `{}`, "#1", "", false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, fs := Parse("x.jsonl", tc.format, []byte(tc.data))
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
	} {
		if got := (Issue{Status: tc.status}).Satisfies(tc.want); got != tc.ok {
			t.Errorf("%s satisfies %q = %v, want %v", tc.status, tc.want, got, tc.ok)
		}
	}
	if !strings.Contains(RuleTracker, "CL004") {
		t.Fatal("tracker findings are CL004")
	}
}

package tracker

import (
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/issueid"
	"github.com/claimslint/claimslint/internal/workflow"
)

// FuzzParse: any bytes in any format, under a workflow that maps one more
// status onto closed, parse without panicking; an issue is closed exactly
// when the workflow maps its status there, and each status the workflow
// does not map gets one warning; at most MaxBadRecords records are
// reported one by one, and one more finding counts the rest.
func FuzzParse(f *testing.F) {
	f.Add("beads", `{"id":"bd-1","status":"shipped"}`+"\n"+`{"id":"bd-2","status":"qa"}`, "shipped")
	f.Add("docket", `{"id":"dk-1","status":"closed","decisions":["D1"]}`, "done")
	f.Add("github", `[{"number":1,"title":"x","state":"CLOSED"}]`, "open")
	f.Add("docket", strings.Repeat("[core]\n", 30), "done")
	f.Fuzz(func(t *testing.T, format, data, done string) {
		w := workflow.DefaultWorkflow
		if issueid.ValidToken(done) {
			if ww, err := w.With(map[string]string{done: "closed"}); err == nil {
				w = ww
			}
		}
		e, fs := Parse("x", format, []byte(data), w)
		unmapped := map[string]bool{}
		for _, i := range e.Issues {
			raw := i.Status
			if c, ok := w[workflow.Status(raw)]; ok && c != i.Class {
				t.Fatalf("%s: class %s, workflow says %s", i.ID, i.Class, c)
			}
			if i.Closed() != (i.Class == workflow.ClassClosed) {
				t.Fatalf("%s: Closed() disagrees with class %s", i.ID, i.Class)
			}
			if _, ok := w[workflow.Status(raw)]; !ok {
				unmapped[raw] = true
			}
		}
		warned, errs := 0, 0
		for _, f := range fs {
			if strings.Contains(f.Message, "is not in the workflow") {
				warned++
			}
			if f.Severity == diag.SeverityError {
				errs++
			}
		}
		if errs > MaxBadRecords+1 {
			t.Fatalf("%d error findings, over %d: %v", errs, MaxBadRecords+1, fs)
		}
		if warned != len(unmapped) {
			t.Fatalf("%d unmapped statuses, %d warnings: %v", len(unmapped), warned, fs)
		}
	})
}

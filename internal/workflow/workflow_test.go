package workflow

import (
	"strings"
	"testing"
)

func TestWorkflowWith(t *testing.T) {
	t.Parallel()
	w, err := DefaultWorkflow.With(map[string]string{"shipped": "closed", "review": "active"})
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := w.Class("shipped"); !ok || c != ClassClosed {
		t.Errorf("shipped is %s (%v), want closed", c, ok)
	}
	if _, ok := DefaultWorkflow["shipped"]; ok {
		t.Error("With changed the default workflow")
	}
	if c, ok := w.Class("unknown"); ok || c != ClassActive {
		t.Errorf("an unmapped status is %s (%v), want active, false", c, ok)
	}
	_, err = DefaultWorkflow.With(map[string]string{"Bad": "closed", "open": "closed", "x": "done"})
	if err == nil {
		t.Fatal("bad entries accepted")
	}
	for _, want := range []string{`"Bad" is not a status`, `"open" is docket's own status`, `"x": class "done"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

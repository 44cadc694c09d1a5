package docket_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/recordtext"
	"github.com/claimslint/claimslint/internal/tracker"
	"github.com/claimslint/claimslint/internal/trackerformat"
	"github.com/claimslint/claimslint/server/docket"
)

// TestTitleRuleShared: docket's export reader and claimslint's tracker
// reader accept and refuse the same titles (D67): a title docket refuses
// in its export is an error finding at its line in claimslint, never
// printed, and one docket accepts is no finding.
func TestTitleRuleShared(t *testing.T) {
	t.Parallel()
	for _, title := range []string{
		"plain", "x $(touch pwned)", "tab\there", "line\nbreak", "cr\rhere", "esc \x1b[2J", "bell\a", "del\x7f", "c1 \u0085",
		"", "   ", "\u00a0", "ünïcödé ✓", "bidi \u202e", strings.Repeat("a", recordtext.MaxTitleLen), strings.Repeat("a", recordtext.MaxTitleLen+1),
		"bad utf8 \xff",
	} {
		i := issue("dk-abc", title)
		line, err := docket.MarshalLine(i)
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid(line) {
			t.Fatalf("%q: not JSON", title)
		}
		_, derr := docket.ReadJSONL("x.jsonl", bytes.NewReader(append(line, '\n')), "")
		e, fs := tracker.Parse("x.jsonl", trackerformat.Docket, append(line, '\n'), nil)
		errs := 0
		for _, f := range fs {
			if f.Severity == diag.SeverityError {
				errs++
			}
		}
		if (derr == nil) != (errs == 0) {
			t.Errorf("title %q: docket says %v, claimslint has %d error findings %v", title, derr, errs, fs)
		}
		if got, _ := e.Lookup("dk-abc"); derr != nil && got.Title != "" {
			t.Errorf("title %q: refused but kept for printing", title)
		}
	}
}

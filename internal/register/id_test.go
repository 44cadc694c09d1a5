package register

import (
	"regexp"
	"testing"

	"github.com/claimslint/claimslint/internal/decisionid"
)

// TestIDPatternReaders: every reader of a decision id built from
// decisionid.Pattern reads D0 and D4a: a register id cell, a file name, a
// reference with a clause.
func TestIDPatternReaders(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"D0", "D4a", "D12"} {
		if m := idCellRE().FindStringSubmatch("**" + id + "**"); m == nil || m[1] != id {
			t.Errorf("id cell **%s** read as %v", id, m)
		}
		if m := FileNameRE.FindStringSubmatch(id + "-title.md"); m == nil || m[1] != id {
			t.Errorf("file name %s-title.md read as %v", id, m)
		}
		if m := refRE().FindStringSubmatch(id + "(C2)"); m == nil || m[1] != id {
			t.Errorf("reference %s(C2) read as %v", id, m)
		}
	}
	if regexp.MustCompile(`^` + decisionid.Pattern + `$`).MatchString("D04") {
		t.Error("decisionid.Pattern accepts D04")
	}
}

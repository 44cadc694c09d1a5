package adopt

import (
	"testing"

	"github.com/claimslint/claimslint/internal/register"
)

// TestSupersedingLabel: the link text is the name as the collection
// writes it (D73).
func TestSupersedingLabel(t *testing.T) {
	t.Parallel()
	heading := &register.Decision{StatusFrom: "heading"}
	line := &register.Decision{StatusFrom: "line"}
	for _, c := range []struct {
		old        *register.Decision
		file, want string
	}{
		{heading, "doc/adr/0008-pool.md", "8. Pool"},
		{line, "docs/adr/0008-pool.md", "ADR-0008"},
		{line, "operator/ODH-ADR-Operator-0017-x.md", "ODH-ADR-Operator-0017"},
		{heading, "adr-020-x.md", "20. Pool"},
		{line, "adr/2026_12_02_a_replacement.md", "2026_12_02_a_replacement"},
		{line, "docs/adr/20200925-x.md", "20200925-x"},
		{line, "rfcs/my-rfc/index.md", "my-rfc"},
		{line, "rfcs/0012-my-rfc/README.md", "ADR-0012"},
	} {
		if got := supersedingLabel(c.old, c.file, "Pool"); got != c.want {
			t.Errorf("supersedingLabel(%s, %q) = %q, want %q", c.old.StatusFrom, c.file, got, c.want)
		}
	}
}

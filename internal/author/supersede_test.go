package author

import (
	"testing"

	"github.com/claimslint/claimslint/internal/register"
)

// TestMarkSuperseded: the status of an adopted record is rewritten on the
// line it was read from, as its tool writes it, and nothing else changes
// (D73).
func TestMarkSuperseded(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, src, want string
		ok              bool
	}{
		{"adr-tools heading", "# 4. Pool\n\n## Status\n\nAccepted\n\nAmends [3. X](0003-x.md)\n",
			"# 4. Pool\n\n## Status\n\nSuperseded by [L](0008-x.md)\n\nAmends [3. X](0003-x.md)\n", true},
		{"MADR front matter", "---\nstatus: accepted\ndate: 2020-01-01\n---\n# T\n",
			"---\nstatus: \"superseded by [L](0008-x.md)\"\ndate: 2020-01-01\n---\n# T\n", true},
		{"quoted front matter", "---\nstatus: \"rejected\"\n---\n# T\n",
			"---\nstatus: \"superseded by [L](0008-x.md)\"\n---\n# T\n", true},
		{"MADR 2 bullet", "# T\n\n* Status: accepted\n* Date: 2020\n",
			"# T\n\n* Status: superseded by [L](0008-x.md)\n* Date: 2020\n", true},
		{"bold line with more", "# T\n\n**Status:** Accepted | **Date:** 2025-03-26\n",
			"# T\n\n**Status:** Superseded by [L](0008-x.md) | **Date:** 2025-03-26\n", true},
		{"metadata table", "# T\n\n| Status         | Approved |\n| Date | 2024 |\n",
			"# T\n\n| Status         | Superseded by [L](0008-x.md) |\n| Date | 2024 |\n", true},
		{"status moved", "# T\n\nnothing here\n", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			d := register.ParseAdopted("doc/adr/0004-x.md", []byte(c.src), nil)
			if c.name == "status moved" {
				d.RawStatus, d.Keys["status"] = "Accepted", d.KeyPos("status")
			}
			got, ok := markSuperseded([]byte(c.src), d, "L", "0008-x.md")
			if ok != c.ok || string(got) != c.want {
				t.Errorf("markSuperseded = %v\n%s\nwant %v\n%s", ok, got, c.ok, c.want)
			}
		})
	}
}

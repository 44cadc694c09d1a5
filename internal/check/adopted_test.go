package check

import (
	"testing"

	"github.com/claimslint/claimslint/internal/config"
)

// TestNearClass: the advice for an unknown status names the class of a
// vocabulary word its leading word is an inflection of, and none for a
// word or sentence the vocabulary does not know (D97).
func TestNearClass(t *testing.T) {
	t.Parallel()
	vocab := config.DefaultStatuses()
	for _, tc := range []struct{ status, class, near string }{
		{"previewing", "proposed", "preview"},
		{"implementing", "accepted", "implemented"},
		{"reviewed", "proposed", "review"},
		{"moved", "", ""},
		{"unknown", "", ""},
		{"parked", "", ""},
		{"working on the implementation, it’s not public yet", "", ""},
		{"", "", ""},
		{"tbd", "", ""},
	} {
		class, near := nearClass(tc.status, vocab)
		if class != tc.class || near != tc.near {
			t.Errorf("nearClass(%q) = %q, %q; want %q, %q", tc.status, class, near, tc.class, tc.near)
		}
	}
}

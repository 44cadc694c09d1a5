package docket

import "testing"

// TestCheckDecision: an issue carries decision ids of the register's one
// grammar (D72): D0 and one lowercase letter included, nothing else.
func TestCheckDecision(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		id string
		ok bool
	}{
		{"D12", true}, {"D0", true}, {"D4a", true},
		{"D04", false}, {"D4A", false}, {"D4ab", false}, {"12", false}, {"D", false},
	} {
		if err := CheckDecision(c.id); (err == nil) != c.ok {
			t.Errorf("CheckDecision(%q) = %v, want ok %v", c.id, err, c.ok)
		}
	}
}

package check_test

import (
	"testing"

	"github.com/claimslint/claimslint/internal/listgen/listgentest"
)

// TestRulesAndKindsAreGenerated: Rules, the ids of internal/ruleid and
// Kinds are what listgen makes of the //registry:rules and
// //registry:kinds values (D103); a stale list names go generate.
func TestRulesAndKindsAreGenerated(t *testing.T) {
	t.Parallel()
	listgentest.Fresh(t, "../..", "internal/check")
}

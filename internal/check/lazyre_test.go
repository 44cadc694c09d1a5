package check

import (
	"regexp"
	"testing"

	"github.com/claimslint/claimslint/internal/register/lazyretest"
)

// TestLazyPatternsCompile compiles every pattern this package compiles at
// first use, not at init (D92): a pattern that does not compile fails
// here, not at a user's first use. The source is read for the patterns, so
// a new one missing from the list fails too.
func TestLazyPatternsCompile(t *testing.T) {
	t.Parallel()
	lazy := map[string]func() *regexp.Regexp{
		"placeholderRE": placeholderRE, "liveRangeRE": liveRangeRE, "frozenMarkerRE": frozenMarkerRE,
	}
	lazyretest.Compile(t, "LazyRE", lazy)
}

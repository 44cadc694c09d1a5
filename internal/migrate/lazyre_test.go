package migrate

import (
	"regexp"
	"testing"

	"github.com/claimslint/claimslint/internal/register/lazyretest"
)

// TestLazyPatternsCompile compiles every pattern register.LazyRE holds
// for this package, as regexp.MustCompile at init once did for every
// process (D92): a pattern that does not compile fails here, not at a
// user's first migration. The source is read for the patterns, so a new one
// missing from the list fails too.
func TestLazyPatternsCompile(t *testing.T) {
	t.Parallel()
	lazy := map[string]func() *regexp.Regexp{
		"awkFileRE": awkFileRE, "bodyAwkRE": bodyAwkRE, "countCmpRE": countCmpRE, "countGrepRE": countGrepRE,
		"countedRE": countedRE, "enumAwkRE": enumAwkRE, "filterFnRE": filterFnRE, "filterRE": filterRE,
		"gitGrepPrefixRE": gitGrepPrefixRE, "grepVRE": grepVRE, "headRE": headRE, "headerIDRE": headerIDRE,
		"liveAltRE": liveAltRE, "liveRangeRE": liveRangeRE, "looseRowRE": looseRowRE, "markerRE": markerRE,
		"nameIDRE": nameIDRE, "nameRE": nameRE, "passWordRE": passWordRE, "rowRE": rowRE, "ruleRE": ruleRE,
		"selfGrepRE": selfGrepRE, "sepRE": sepRE,
	}
	lazyretest.Compile(t, "LazyRE", lazy)
}

package adopt

import (
	"regexp"
	"testing"

	"github.com/claimslint/claimslint/internal/register/lazyretest"
)

// TestLazyPatternsCompile compiles every pattern register.LazyRE holds
// for this package, as regexp.MustCompile at init once did for every
// process (D92): a pattern that does not compile fails here, not at a
// user's first adoption. The source is read for the patterns, so a new one
// missing from the list fails too.
func TestLazyPatternsCompile(t *testing.T) {
	t.Parallel()
	lazy := map[string]func() *regexp.Regexp{
		"adoptKeyRE": adoptKeyRE, "adrDirRE": adrDirRE, "choicesRE": choicesRE, "commentLineRE": commentLineRE,
		"dateNameRE": dateNameRE, "datePlaceholderRE": datePlaceholderRE, "datePrefixRE": datePrefixRE,
		"dateValueRE": dateValueRE, "digitsRE": digitsRE, "featureRE": featureRE, "fieldLineRE": fieldLineRE,
		"fileTokenRE": fileTokenRE, "filledDateRE": filledDateRE, "fmDatePartRE": fmDatePartRE,
		"fmDateRE": fmDateRE, "fmKeyRE": fmKeyRE, "fmTitlePlaceholderRE": fmTitlePlaceholderRE,
		"fmTitleRE": fmTitleRE, "frozenMarkerRE": frozenMarkerRE, "headingRE": headingRE, "htmlOpenRE": htmlOpenRE,
		"idFolderRE": idFolderRE, "idTokenRE": idTokenRE, "leadingNumberRE": leadingNumberRE,
		"linkDefRE": linkDefRE, "listMarkerRE": listMarkerRE, "liveRangeRE": liveRangeRE,
		"localDateRE": localDateRE, "metaLineRE": metaLineRE, "numberTokenRE": numberTokenRE,
		"numberedHeadRE": numberedHeadRE, "optionalRE": optionalRE, "ownIDRE": ownIDRE, "plainYAML": plainYAML,
		"pluralIDRE": pluralIDRE, "prefixedNameRE": prefixedNameRE, "registerHeaderRE": registerHeaderRE,
		"runRE": runRE, "statusLineKeyRE": statusLineKeyRE, "templateNameRE": templateNameRE,
		"templateWordRE": templateWordRE, "topKeyRE": topKeyRE, "xRunRE": xRunRE, "zeroNameRE": zeroNameRE,
	}
	lazyretest.Compile(t, "LazyRE", lazy)
}

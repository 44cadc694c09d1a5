package register

import (
	"regexp"
	"testing"

	"github.com/claimslint/claimslint/internal/register/lazyretest"
)

// TestLazyPatternsCompile compiles every pattern lazyRE holds, as
// regexp.MustCompile at init once did for each process: a pattern that
// does not compile fails here, not at a user's first adoption. The list is
// read from the package's source, so a new lazy pattern is compiled too.
func TestLazyPatternsCompile(t *testing.T) {
	t.Parallel()
	lazy := map[string]func() *regexp.Regexp{
		"bareRefRE": bareRefRE, "blobPathRE": blobPathRE, "claimsNoneRE": claimsNoneRE,
		"commentRE": commentRE, "countRE": countRE, "dateRE": dateRE, "digitsRE": digitsRE, "idCellRE": idCellRE,
		"indexLinkRE": indexLinkRE, "leadingDateRE": leadingDateRE, "mdLinkRE": mdLinkRE, "numberedRE": numberedRE,
		"numberedTitle": numberedTitle, "paddedRefRE": paddedRefRE, "placeholderDateRE": placeholderDateRE,
		"placeholderTitleRE": placeholderTitleRE, "recordNameRE": recordNameRE, "redirectRE": redirectRE,
		"refRE": refRE, "statusLineRE": statusLineRE, "tableCellRE": tableCellRE, "tableSepRE": tableSepRE,
		"templateNameRE": templateNameRE, "templateWordRE": templateWordRE, "titleOnlyRE": titleOnlyRE,
		"zeroNumberRE": zeroNumberRE, "byRefRE": byRefRE, "clauseRE": clauseRE, "refLikeRE": refLikeRE,
		"boldRE": boldRE, "datedRE": datedRE,
	}
	lazyretest.Compile(t, "lazyRE", lazy)
}

package cli

import "github.com/claimslint/claimslint/server/docket"

// hints words each hint of the domain's errors for the command line
// (D101): the domain says what to do, this table says it with docket's
// commands and flags. MCP has its own table in its own words.
var hints = map[docket.Hint]string{
	docket.HintListIDs:    "; docket list shows the ids there are",
	docket.HintCloseOpen:  ": use docket close ID --reason or docket reopen ID to change whether an issue is closed",
	docket.HintCloseHow:   " (docket close ID --reason closes an issue)",
	docket.HintGiveReason: ": give a --reason, it is what a reader of the export will want to know",
	docket.HintReread:     "; show it again and retry",
	docket.HintRewrite:    "; the next docket command rewrites it from the index{detail}, or run docket export once the cause is fixed",
	docket.HintInitPrefix: ": run docket init --prefix dk",
}

// words is err as the command line says it: its text and the hint's words.
func words(err error) string { return docket.Worded(err, hints) }

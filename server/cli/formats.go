package cli

import (
	"strings"

	"github.com/claimslint/claimslint/internal/trackerformat"
	"github.com/claimslint/claimslint/server/docket"
)

// The tracker formats as help and messages name them, derived from
// trackerformat.Formats and what docket writes (D103).

// formatNames joins the names of fs with sep, or as "a, b or c" when sep
// is "".
func formatNames(fs []*trackerformat.Format, sep string) string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.Name
	}
	return joinNames(names, sep)
}

// formatHelps is "docket (the canonical export) or beads (...)": each
// format of fs with its Help.
func formatHelps(fs []*trackerformat.Format) string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.Name + " (" + f.Help + ")"
	}
	return joinNames(names, "")
}

func joinNames(names []string, sep string) string {
	if sep != "" || len(names) < 2 {
		return strings.Join(names, sep)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// exportArgs and importArgs are the arguments of export and import.
func exportArgs() string {
	return "[--check] [-o FILE|-] [--format " + formatNames(docket.ExportFormats(), "|") + "]"
}

func importArgs() string {
	return "FILE|- [--format " + formatNames(trackerformat.Formats, "|") + "] [--dry-run]"
}

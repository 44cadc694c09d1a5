package format

import (
	"fmt"
	"io"

	"github.com/claimslint/claimslint/internal/diag"
)

//registry:printers 1
var textPrinter = &Printer{Name: "text", New: fixed(Text)}

// Text writes one line per finding: path:line:col: message (D12/C2). A
// finding that does not fail the run says so before its message, as gcc
// does: path:line:col: warning: message (tag), or note:; an error keeps
// go vet's shape, with no word before the message (D75). A message or a
// path never breaks the line: its newlines are escaped.
func Text(w io.Writer, fs []diag.Finding) error {
	for _, f := range fs {
		if _, err := fmt.Fprintf(w, "%s: %s%s (%s)\n", location(f), severityWord(f.Severity), Escape(f.Message), Escape(f.Tag())); err != nil {
			return err
		}
	}
	return nil
}

// severityWord is what text writes before the message: "warning: " or
// "note: " for a finding that does not fail the run, nothing for an error.
func severityWord(s diag.Severity) string {
	switch s {
	case diag.SeverityWarning:
		return "warning: "
	case diag.SeverityNote:
		return "note: "
	}
	return ""
}

package format

import (
	"fmt"
	"io"
	"strings"

	"github.com/claimslint/claimslint/internal/diag"
)

//registry:printers 4
var githubPrinter = &Printer{Name: "github", New: fixed(GitHub)}

// escapeData escapes a workflow command's message as @actions/core does,
// after Escape has escaped every other control: a newline is %0A, so the
// runner shows it and no line of the message is read as a command.
func escapeData(s string) string {
	s = strings.ReplaceAll(escape(s, true), "%", "%25")
	s = strings.ReplaceAll(s, "\r", "%0D")
	return strings.ReplaceAll(s, "\n", "%0A")
}

// escapeProperty escapes a workflow command property as @actions/core does.
func escapeProperty(s string) string {
	s = escapeData(s)
	s = strings.ReplaceAll(s, ":", "%3A")
	return strings.ReplaceAll(s, ",", "%2C")
}

// GitHub writes GitHub Actions workflow commands (::error file=...::msg),
// which the runner turns into annotations on the pull request.
func GitHub(w io.Writer, fs []diag.Finding) error {
	for _, f := range fs {
		level := levelName(f.Severity, "notice")
		props := []string{"file=" + escapeProperty(f.Pos.Filename)}
		if f.Pos.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", f.Pos.Line))
		}
		if f.Pos.Column > 0 {
			props = append(props, fmt.Sprintf("col=%d", f.Pos.Column))
		}
		props = append(props, "title="+escapeProperty("claimslint "+f.Tag()))
		if _, err := fmt.Fprintf(w, "::%s %s::%s\n", level, strings.Join(props, ","), escapeData(f.Message+" ("+f.Tag()+")")); err != nil {
			return err
		}
	}
	return nil
}

package format

import (
	"encoding/xml"
	"io"

	"github.com/claimslint/claimslint/internal/diag"
)

//registry:printers 7
var checkstylePrinter = &Printer{Name: "checkstyle", New: fixed(Checkstyle)}

type checkstyleDoc struct {
	XMLName xml.Name         `xml:"checkstyle"`
	Version string           `xml:"version,attr"`
	Files   []checkstyleFile `xml:"file"`
}

type checkstyleFile struct {
	Name   string            `xml:"name,attr"`
	Errors []checkstyleError `xml:"error"`
}

type checkstyleError struct {
	Column   int    `xml:"column,attr"`
	Line     int    `xml:"line,attr"`
	Message  string `xml:"message,attr"`
	Severity string `xml:"severity,attr"`
	Source   string `xml:"source,attr"`
}

// Checkstyle writes a checkstyle XML report (version 5.0) as golangci-lint
// does: one <file> per path, sorted, one <error> per finding with its
// line, column, message, severity (error, warning, info) and source (the
// rule id). A clean run is an empty <checkstyle>.
func Checkstyle(w io.Writer, fs []diag.Finding) error {
	doc := checkstyleDoc{Version: "5.0"}
	for name, group := range byFile(fs) {
		file := checkstyleFile{Name: name}
		for _, f := range group {
			file.Errors = append(file.Errors, checkstyleError{
				Column: f.Pos.Column, Line: f.Pos.Line, Message: xmlText(shown(f)), Severity: levelName(f.Severity, "info"), Source: xmlText(f.Check),
			})
		}
		doc.Files = append(doc.Files, file)
	}
	return writeXML(w, doc)
}

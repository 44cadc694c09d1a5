package format

import (
	"encoding/xml"
	"io"
	"strconv"
	"strings"

	"github.com/claimslint/claimslint/internal/diag"
)

//registry:printers 6
var junitPrinter = &Printer{Name: "junit-xml", New: fixed(JUnitXML)}

type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Errors   int         `xml:"errors,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Failure   *junitFailure `xml:"failure"`
	Skipped   *junitSkipped `xml:"skipped"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Content string `xml:",cdata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// JUnitXML writes a JUnit XML report as golangci-lint's junit-xml-extended
// does: one testsuite per file, one testcase per finding, named by its tag
// (D12/C2, or the rule id), its classname path:line:col, with file and line
// attributes. An error is a <failure type="error"> whose text names the
// rule, file, line and related positions; a warning or a note, which
// fails no run, is a <skipped> case whose message starts "warning:" or
// "note:", so a CI's test page does not show a failed test for it. A
// clean run is an empty <testsuites>.
func JUnitXML(w io.Writer, fs []diag.Finding) error {
	var doc junitSuites
	for name, group := range byFile(fs) {
		s := junitSuite{Name: name}
		for _, f := range group {
			s.Tests++
			c := junitCase{Name: xmlText(f.Tag()), ClassName: xmlText(location(f)), File: name, Line: f.Pos.Line}
			if f.Severity == diag.SeverityError {
				s.Failures++
				lines := []string{"error: " + xmlText(f.Message) + " (" + xmlText(f.Tag()) + ")", "Category: " + xmlText(f.Check), "File: " + name, "Line: " + strconv.Itoa(f.Pos.Line)}
				for _, r := range f.Related {
					lines = append(lines, "Related: "+xmlText(location(diag.Finding{Pos: r.Pos}))+": "+xmlText(r.Message))
				}
				c.Failure = &junitFailure{Message: xmlText(location(f)) + ": " + xmlText(shown(f)), Type: "error", Content: strings.Join(lines, "\n")}
			} else {
				s.Skipped++
				c.Skipped = &junitSkipped{Message: strings.TrimSuffix(severityWord(f.Severity), " ") + " " + xmlText(location(f)) + ": " + xmlText(shown(f))}
			}
			s.Cases = append(s.Cases, c)
		}
		doc.Suites = append(doc.Suites, s)
	}
	return writeXML(w, doc)
}

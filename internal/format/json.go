package format

import (
	"encoding/json"
	"io"

	"github.com/claimslint/claimslint/internal/diag"
)

//registry:printers 2
var jsonPrinter = &Printer{Name: "json", New: fixed(JSON)}

type jsonFinding struct {
	Check    string        `json:"check"`
	Decision string        `json:"decision,omitempty"`
	Claim    string        `json:"claim,omitempty"`
	Severity string        `json:"severity"`
	File     string        `json:"file"`
	Line     int           `json:"line"`
	Column   int           `json:"column"`
	Message  string        `json:"message"`
	Related  []jsonRelated `json:"related,omitempty"`
}

type jsonRelated struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

// jsonDocument is the json format: one object whose findings array is
// never null, so a clean run is {"findings": []} (D75).
type jsonDocument struct {
	Findings []jsonFinding `json:"findings"`
}

// JSON writes one JSON document on one line, {"findings": [...]}, the
// findings in the order given (sorted), an empty array on a clean run
// (D75), as golangci-lint writes {"Issues": [...]}.
func JSON(w io.Writer, fs []diag.Finding) error {
	doc := jsonDocument{Findings: make([]jsonFinding, 0, len(fs))}
	for _, f := range fs {
		jf := jsonFinding{
			Check: f.Check, Decision: f.Decision, Claim: f.Claim, Severity: string(f.Severity),
			File: f.Pos.Filename, Line: f.Pos.Line, Column: f.Pos.Column, Message: f.Message,
		}
		for _, r := range f.Related {
			jf.Related = append(jf.Related, jsonRelated{r.Pos.Filename, r.Pos.Line, r.Pos.Column, r.Message})
		}
		doc.Findings = append(doc.Findings, jf)
	}
	return json.NewEncoder(w).Encode(doc)
}

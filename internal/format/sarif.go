package format

import (
	"encoding/json"
	"io"
	"sort"
	"strings"

	"github.com/claimslint/claimslint/internal/diag"
)

//registry:printers 3
var sarifPrinter = &Printer{Name: "sarif", New: func(rules []RuleDoc, version string) Formatter {
	return FormatterFunc(func(w io.Writer, fs []diag.Finding) error { return SARIF(w, fs, rules, version) })
}}

// SARIF writes a SARIF 2.1.0 log with one run. results is never null and
// every rule carries its help text, as GitHub code scanning requires.
func SARIF(w io.Writer, fs []diag.Finding, rules []RuleDoc, version string) error {
	type msg struct {
		Text string `json:"text"`
	}
	type rule struct {
		ID               string `json:"id"`
		Name             string `json:"name"`
		ShortDescription msg    `json:"shortDescription"`
		FullDescription  msg    `json:"fullDescription"`
		Help             msg    `json:"help"`
	}
	type region struct {
		StartLine   int `json:"startLine,omitempty"`
		StartColumn int `json:"startColumn,omitempty"`
	}
	type artifact struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId"`
	}
	type physical struct {
		ArtifactLocation artifact `json:"artifactLocation"`
		Region           *region  `json:"region,omitempty"`
	}
	type loc struct {
		ID               *int     `json:"id,omitempty"`
		PhysicalLocation physical `json:"physicalLocation"`
		Message          *msg     `json:"message,omitempty"`
	}
	type result struct {
		RuleID           string            `json:"ruleId"`
		RuleIndex        int               `json:"ruleIndex"`
		Level            string            `json:"level"`
		Message          msg               `json:"message"`
		Locations        []loc             `json:"locations"`
		RelatedLocations []loc             `json:"relatedLocations,omitempty"`
		Properties       map[string]string `json:"properties,omitempty"`
	}
	sorted := append([]RuleDoc(nil), rules...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].ID < sorted[j].ID })
	index := map[string]int{}
	var rs []rule
	for i, r := range sorted {
		index[r.ID] = i
		short := r.Doc
		if i := strings.IndexByte(short, '\n'); i >= 0 {
			short = short[:i]
		}
		rs = append(rs, rule{ID: r.ID, Name: r.Name, ShortDescription: msg{short}, FullDescription: msg{r.Doc}, Help: msg{r.Doc}})
	}
	results := []result{}
	for _, f := range fs {
		level := levelName(f.Severity, "note")
		var reg *region
		if f.Pos.Line > 0 {
			reg = &region{StartLine: f.Pos.Line, StartColumn: f.Pos.Column}
		}
		res := result{
			RuleID: f.Check, RuleIndex: index[f.Check], Level: level,
			Message:   msg{f.Message + " (" + f.Tag() + ")"},
			Locations: []loc{{PhysicalLocation: physical{artifact{f.Pos.Filename, "%SRCROOT%"}, reg}}},
		}
		for i, r := range f.Related {
			id := i
			var rreg *region
			if r.Pos.Line > 0 {
				rreg = &region{StartLine: r.Pos.Line, StartColumn: r.Pos.Column}
			}
			res.RelatedLocations = append(res.RelatedLocations, loc{ID: &id, PhysicalLocation: physical{artifact{r.Pos.Filename, "%SRCROOT%"}, rreg}, Message: &msg{r.Message}})
		}
		if f.Decision != "" {
			res.Properties = map[string]string{"decision": f.Decision, "claim": f.Claim}
		}
		results = append(results, res)
	}
	log := map[string]any{
		"$schema": "https://json.schemastore.org/sarif-2.1.0.json",
		"version": "2.1.0",
		"runs": []any{map[string]any{
			"tool": map[string]any{"driver": map[string]any{
				"name":           "claimslint",
				"version":        version,
				"informationUri": "https://github.com/claimslint/claimslint",
				"rules":          rs,
			}},
			"results": results,
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

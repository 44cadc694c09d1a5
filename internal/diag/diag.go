// Package diag defines the findings that claimslint's checks report and the
// driver-side operations on them (sorting, de-duplication, counting).
//
// Checks never print: they return findings, and the driver decides how to
// order and format them, as go/analysis does.
package diag

import (
	"go/token"
	"sort"
)

// Severity ranks a finding. Only SeverityError fails a run.
type Severity string

// The severities a finding can carry.
const (
	// SeverityError fails the run (exit 1).
	SeverityError Severity = "error"
	// SeverityWarning is shown but does not fail the run.
	SeverityWarning Severity = "warning"
	// SeverityNote is informational, e.g. a pending claim of a proposed decision.
	SeverityNote Severity = "note"
)

// Finding is one structured report from a check.
type Finding struct {
	// Pos is where the finding points; Filename is repository-relative with '/'.
	Pos token.Position
	// Check is the rule id (CL001...); claim findings carry CL007.
	Check string
	// Decision and Claim name the claim a finding is about, when there is one.
	Decision string
	Claim    string
	Severity Severity
	Message  string
	// Related are other positions the finding is about, such as the other
	// lines an ambiguous anchor matches; formats that can show them do.
	Related []Related
}

// Related is one secondary position of a finding.
type Related struct {
	Pos     token.Position
	Message string
}

// Same reports whether f and g are the same finding: same position, rule,
// claim, severity, message and related positions.
func (f Finding) Same(g Finding) bool {
	if f.Pos != g.Pos || f.Check != g.Check || f.Decision != g.Decision || f.Claim != g.Claim ||
		f.Severity != g.Severity || f.Message != g.Message || len(f.Related) != len(g.Related) {
		return false
	}
	for i := range f.Related {
		if f.Related[i] != g.Related[i] {
			return false
		}
	}
	return true
}

// Tag is the parenthesised suffix of a text finding: D12/C2 for a claim, the
// rule id otherwise.
func (f Finding) Tag() string {
	if f.Decision != "" && f.Claim != "" {
		return f.Decision + "/" + f.Claim
	}
	return f.Check
}

// Sort orders findings by file, line, column, then tag and message, so output
// is stable whatever order parallel checks finished in.
func Sort(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Pos.Filename != b.Pos.Filename {
			return a.Pos.Filename < b.Pos.Filename
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Column != b.Pos.Column {
			return a.Pos.Column < b.Pos.Column
		}
		if a.Tag() != b.Tag() {
			return a.Tag() < b.Tag()
		}
		return a.Message < b.Message
	})
}

// Dedupe sorts fs and drops exact repeats (same position, tag, severity and
// message), which arise when two rules reach the same fact by different paths.
func Dedupe(fs []Finding) []Finding {
	Sort(fs)
	out := fs[:0]
	for i, f := range fs {
		if i > 0 && f.Same(fs[i-1]) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// Errors counts the findings that fail a run.
func Errors(fs []Finding) int {
	n := 0
	for _, f := range fs {
		if f.Severity == SeverityError {
			n++
		}
	}
	return n
}

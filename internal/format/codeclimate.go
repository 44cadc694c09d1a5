package format

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"github.com/claimslint/claimslint/internal/diag"
)

//registry:printers 5
var codeClimatePrinter = &Printer{Name: "code-climate", New: fixed(CodeClimate)}

// ccIssue is one issue of a code-climate report, the subset GitLab code
// quality reads and golangci-lint writes: description, check_name,
// severity, fingerprint, location.path, location.lines.begin.
type ccIssue struct {
	Description string     `json:"description"`
	CheckName   string     `json:"check_name"`
	Severity    string     `json:"severity"`
	Fingerprint string     `json:"fingerprint"`
	Location    ccLocation `json:"location"`
}

type ccLocation struct {
	Path  string  `json:"path"`
	Lines ccLines `json:"lines"`
}

type ccLines struct {
	Begin int `json:"begin"`
}

// ccSeverity maps a severity to code climate's (info, minor, major,
// critical, blocker): an error is critical, golangci-lint's word for an
// issue that fails the run; a warning minor; a note info.
func ccSeverity(s diag.Severity) string {
	switch s {
	case diag.SeverityWarning:
		return "minor"
	case diag.SeverityNote:
		return "info"
	}
	return "critical"
}

// CodeClimate writes a code-climate JSON array, the report GitLab's code
// quality widget reads (artifacts:reports:codequality): an empty array on
// a clean run. A finding with no line is at line 1, the least GitLab
// takes. Its fingerprint is stable while the finding stands: a hash of
// its rule, tag, path and message and of how many findings before it
// share them, never of its line, so a line moved by an edit above it is
// the same issue to GitLab, and two equal findings in one file differ.
func CodeClimate(w io.Writer, fs []diag.Finding) error {
	out := make([]ccIssue, 0, len(fs))
	seen := map[string]int{}
	for _, f := range fs {
		key := strings.Join([]string{f.Check, f.Tag(), f.Pos.Filename, f.Message}, "\x00")
		n := seen[key]
		seen[key]++
		sum := sha256.Sum256([]byte(key + "\x00" + strconv.Itoa(n)))
		out = append(out, ccIssue{
			Description: shown(f), CheckName: f.Check, Severity: ccSeverity(f.Severity), Fingerprint: hex.EncodeToString(sum[:]),
			Location: ccLocation{Path: f.Pos.Filename, Lines: ccLines{Begin: max(f.Pos.Line, 1)}},
		})
	}
	return json.NewEncoder(w).Encode(out)
}

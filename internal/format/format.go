// Package format writes findings in the formats claimslint offers: text
// (path:line:col: message (tag), with warning: or note: before the message
// of a finding that does not fail the run), one JSON document, SARIF 2.1.0
// for code scanning, GitHub Actions workflow commands, and the reports other
// CIs read as golangci-lint writes them: code-climate JSON (GitLab code
// quality), JUnit XML and checkstyle XML (D75).
package format

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"iter"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/claimslint/claimslint/internal/diag"
)

// Names lists the supported formats.
var Names = []string{"text", "json", "sarif", "github", "code-climate", "junit-xml", "checkstyle"}

// RuleDoc is the help a SARIF rule carries.
type RuleDoc struct {
	ID, Name, Doc string
}

// Formatter writes findings in one output format. Every command that
// reports findings (check, prove, audit) writes them through one (D46).
type Formatter interface {
	Format(w io.Writer, fs []diag.Finding) error
}

// FormatterFunc adapts a function to Formatter.
type FormatterFunc func(w io.Writer, fs []diag.Finding) error

// Format calls f.
func (f FormatterFunc) Format(w io.Writer, fs []diag.Finding) error { return f(w, fs) }

// New returns the formatter called name; rules and version are what SARIF
// output carries.
func New(name string, rules []RuleDoc, version string) (Formatter, error) {
	switch name {
	case "text", "":
		return FormatterFunc(Text), nil
	case "json":
		return FormatterFunc(JSON), nil
	case "sarif":
		return FormatterFunc(func(w io.Writer, fs []diag.Finding) error { return SARIF(w, fs, rules, version) }), nil
	case "github":
		return FormatterFunc(GitHub), nil
	case "code-climate":
		return FormatterFunc(CodeClimate), nil
	case "junit-xml":
		return FormatterFunc(JUnitXML), nil
	case "checkstyle":
		return FormatterFunc(Checkstyle), nil
	}
	return nil, fmt.Errorf("unknown format %q: want one of %s", name, strings.Join(Names, ", "))
}

// Write writes findings in the named format. Findings must already be
// sorted and de-duplicated.
func Write(w io.Writer, name string, fs []diag.Finding, rules []RuleDoc, version string) error {
	f, err := New(name, rules, version)
	if err != nil {
		return err
	}
	return f.Format(w, fs)
}

func location(f diag.Finding) string {
	p := f.Pos
	name := Escape(p.Filename)
	switch {
	case p.Line > 0 && p.Column > 0:
		return fmt.Sprintf("%s:%d:%d", name, p.Line, p.Column)
	case p.Line > 0:
		return fmt.Sprintf("%s:%d", name, p.Line)
	}
	return name
}

// Escape returns s with every rune a terminal, a log viewer or a line
// reader would act on rather than show printed as an escape, as %q prints
// it: newline, carriage return and tab as \n, \r, \t; the other C0
// controls (ESC, NUL, BEL ...), DEL and the C1 controls as \x1b; the
// bidirectional overrides and isolates and the Unicode line and paragraph
// separators as \u202e; a byte that is not UTF-8 as \xff. Everything
// else, backslashes included, is kept, so a pattern reads as written.
//
// It is the one escaping of claimslint's output (D69): a path, a title or a
// message written as text, github, markdown or a line on stderr comes
// through it, so a file name holding a newline and "::error file=" cannot
// print a line of its own, and an ESC in a title cannot rewrite a screen.
func Escape(s string) string { return escape(s, false) }

// Markdown returns s as text that Markdown (GitHub's, in a pull-request
// comment or a table cell) prints as it is: Escape's escaping, then a
// backslash before every ASCII punctuation character Markdown could read
// as markup (emphasis, a code span, a link, an HTML tag, a table's pipe,
// an entity, a mention), so a path or a title from a repository can
// neither break the table it is in nor add a link, an image or a tag.
func Markdown(s string) string {
	shown := Escape(s)
	var b strings.Builder
	for i := 0; i < len(shown); i++ {
		if strings.IndexByte(markdownPunct, shown[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(shown[i])
	}
	return b.String()
}

// markdownPunct are the characters Markdown escapes.
const markdownPunct = "\\`*_{}[]()<>#+!|~&@$^=\""

// escape is Escape; with lines, newline and carriage return are kept for
// the caller's own escaping (the github format's %0A).
func escape(s string, lines bool) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			clean = false // a control, or a multi-byte rune to look at
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case lines && (r == '\n' || r == '\r'), !hidden(r):
			b.WriteString(s[i : i+size])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x100:
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			fmt.Fprintf(&b, "\\u%04x", r)
		}
		i += size
	}
	return b.String()
}

// hidden reports whether r is escaped: C0 controls, DEL, C1 controls, the
// bidirectional overrides, embeddings and isolates, and the line and
// paragraph separators some viewers break lines at.
func hidden(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x2028, r == 0x2029:
		return true
	}
	return false
}

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

// shown is a finding's message and tag as a person reads them in a CI's
// page: escaped as text escapes them, "message (D12/C2)".
func shown(f diag.Finding) string { return Escape(f.Message) + " (" + Escape(f.Tag()) + ")" }

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

// xmlText is s as the XML formats write it: Escape's output, which holds
// no control character, with the two noncharacters XML 1.0 also forbids
// (U+FFFE, U+FFFF) escaped too, so a CDATA section holds only characters
// XML allows; encoding/xml escapes the markup characters.
func xmlText(s string) string {
	s = Escape(s)
	if !strings.ContainsAny(s, "\ufffe\uffff") {
		return s
	}
	return strings.NewReplacer("\ufffe", `\ufffe`, "\uffff", `\uffff`).Replace(s)
}

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

// writeXML writes v after the XML header, indented, ending in a newline.
func writeXML(w io.Writer, v any) error {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
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

// levelName maps a severity to the level words GitHub, SARIF and
// checkstyle share; they differ only in what they call a note.
func levelName(s diag.Severity, note string) string {
	switch s {
	case diag.SeverityWarning:
		return "warning"
	case diag.SeverityNote:
		return note
	}
	return "error"
}

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

// byFile yields the findings of each file, as the XML formats group them:
// files by their escaped name, sorted; each file's findings in the order
// they came.
func byFile(fs []diag.Finding) iter.Seq2[string, []diag.Finding] {
	groups := map[string][]diag.Finding{}
	for _, f := range fs {
		name := xmlText(f.Pos.Filename)
		groups[name] = append(groups[name], f)
	}
	return func(yield func(string, []diag.Finding) bool) {
		for _, name := range slices.Sorted(maps.Keys(groups)) {
			if !yield(name, groups[name]) {
				return
			}
		}
	}
}

// Package format writes findings in the formats claimslint offers: text
// (path:line:col: message (tag), with warning: or note: before the message
// of a finding that does not fail the run), one JSON document, SARIF 2.1.0
// for code scanning, GitHub Actions workflow commands, and the reports other
// CIs read as golangci-lint writes them: code-climate JSON (GitLab code
// quality), JUnit XML and checkstyle XML (D75).
package format

import (
	"encoding/xml"
	"fmt"
	"io"
	"iter"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/claimslint/claimslint/internal/diag"
)

// Printer is one output format (D103), as golangci-lint's printers are: its
// name as --format takes it, and the formatter it makes. rules and version
// are what a format that describes the rules carries (SARIF); the others
// ignore them. Each printer is one file of this package, its value marked
// //registry:printers N (N its place in Printers, which listgen writes).
type Printer struct {
	Name string
	New  func(rules []RuleDoc, version string) Formatter
}

//go:generate go run ../listgen/cmd/listgen

// Names lists the supported formats: the names of Printers, in order.
var Names = printerNames(Printers)

func printerNames(ps []*Printer) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name
	}
	return out
}

// fixed is a printer's New for a format that carries no rule help.
func fixed(f FormatterFunc) func([]RuleDoc, string) Formatter {
	return func([]RuleDoc, string) Formatter { return f }
}

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

// New returns the formatter called name ("" is the first of Printers);
// rules and version are what SARIF output carries.
func New(name string, rules []RuleDoc, version string) (Formatter, error) {
	if name == "" {
		name = Printers[0].Name
	}
	for _, p := range Printers {
		if p.Name == name {
			return p.New(rules, version), nil
		}
	}
	return nil, fmt.Errorf("unknown format %q: want one of %s", name, strings.Join(printerNames(Printers), ", "))
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

// shown is a finding's message and tag as a person reads them in a CI's
// page: escaped as text escapes them, "message (D12/C2)".
func shown(f diag.Finding) string { return Escape(f.Message) + " (" + Escape(f.Tag()) + ")" }

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

// Package tracker reads a tracker's export so that claimslint can resolve the
// issue ids a register names: docket's and beads' JSONL, and the JSON array
// that `gh issue list --json number,title,state,labels` prints, walked by
// internal/trackerformat, the one room of those formats.
package tracker

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/issueid"
	"github.com/claimslint/claimslint/internal/recordtext"
	"github.com/claimslint/claimslint/internal/ruleid"
	"github.com/claimslint/claimslint/internal/trackerformat"
	"github.com/claimslint/claimslint/internal/workflow"
)

// MaxExport bounds the size of a tracker export claimslint reads. An export
// this large is beyond any tracker the register could name ids from by hand,
// and reading one without a bound costs twice its size in memory.
const MaxExport = 64 << 20

// Issue is what claimslint needs of a tracker record.
type Issue struct {
	ID     string
	Title  string
	Status string // lower case: open, in_progress, blocked, deferred, closed, tombstone...
	// Class is where Status stands in the configured workflow (D57).
	Class workflow.Class
	// Decisions lists the D-ids the issue says it carries (docket only).
	Decisions []string
	Line      int
}

// Closed reports whether the issue is finished: its status is mapped onto
// the closed class (closed, a beads tombstone, or whatever the repository's
// tracker.workflow maps there).
func (i Issue) Closed() bool { return i.Class == workflow.ClassClosed }

// Satisfies reports whether the issue's status meets a claim's Require:
// "open" means any status that is not closed; a class name (closed,
// active, blocked, deferred) matches every status the workflow maps onto
// it; other words must match the status exactly.
func (i Issue) Satisfies(want string) bool {
	want = strings.ToLower(strings.TrimSpace(want))
	switch {
	case want == "":
		return true
	case want == "open":
		return !i.Closed()
	case i.Status == want:
		return true
	default:
		_, err := workflow.ParseClass(want)
		return err == nil && i.Class == workflow.Class(want)
	}
}

// Export is a parsed export keyed by id.
type Export struct {
	Path   string
	Issues map[string]Issue
	// Prefixes are the id prefixes the export's records use (the part of
	// an id before its first dash: dk of dk-7qx, bd of bd-au0.7), sorted,
	// at most MaxPrefixes of them, the most used first kept (D74). The
	// github format's #123 has none.
	Prefixes []string
}

// MaxPrefixes bounds the id prefixes claimslint learns from an export: a
// tracker uses one or a few, and each is an alternative of the pattern
// that finds ids in prose, so an export of a million made-up prefixes
// must not make one pattern of them (D74).
const MaxPrefixes = 64

// Lookup returns the issue with id.
func (e *Export) Lookup(id string) (Issue, bool) {
	if e == nil {
		return Issue{}, false
	}
	i, ok := e.Issues[id]
	return i, ok
}

// Parse reads an export's bytes in the given format, classing each status
// with w (nil means workflow.DefaultWorkflow). Records that cannot be read
// are returned as findings at their line; the rest still resolve. A status
// w does not map is a warning at its first line: it counts as unfinished.
func Parse(path, format string, data []byte, w workflow.Workflow) (*Export, []diag.Finding) {
	if w == nil {
		w = workflow.DefaultWorkflow
	}
	f := trackerformat.Lookup(format)
	if f == nil {
		// config refuses an unknown format; a caller that passes one
		// reads it as the JSONL formats are read.
		f = trackerformat.BeadsFormat
	}
	p := &parser{path: path, format: format, f: f, w: w, more: -1,
		e: &Export{Path: path, Issues: map[string]Issue{}}, unmapped: map[workflow.Status]*firstSeen{}}
	if p.walk(data) {
		p.summarize()
	}
	p.unmappedWarnings()
	return p.e, p.fs
}

// firstSeen is where a status w does not map first appears, and how
// many records have it.
type firstSeen struct{ line, n int }

// parser is one Parse: the export read so far, its findings, and the
// counts its warnings need.
type parser struct {
	path, format string
	f            *trackerformat.Format
	w            workflow.Workflow
	e            *Export
	fs           []diag.Finding
	unmapped     map[workflow.Status]*firstSeen
	nbad, more   int // records refused, and the index in fs of the one finding past MaxBadRecords
	n, open      int // records read, and those open
}

// class classes status with the workflow, counting the statuses it does
// not map.
func (p *parser) class(status string, line int) workflow.Class {
	c, ok := p.w.Class(workflow.Status(status))
	if !ok {
		if u := p.unmapped[workflow.Status(status)]; u != nil {
			u.n++
		} else {
			p.unmapped[workflow.Status(status)] = &firstSeen{line, 1}
		}
	}
	return c
}

// bad records a record that cannot be read. A file that is not an export
// (a binary, another format) would be a finding per line: the first
// MaxBadRecords are kept, and one more (fs[more]) says how many followed.
func (p *parser) bad(line int, msg string, args ...any) {
	if p.nbad++; p.nbad > MaxBadRecords {
		if p.more < 0 {
			p.more = len(p.fs)
			p.fs = append(p.fs, diag.Finding{Pos: token.Position{Filename: p.path, Line: line, Column: 1}, Check: ruleid.Tracker, Severity: diag.SeverityError})
		}
		p.fs[p.more].Message = fmt.Sprintf("tracker export: %d more records from line %d on cannot be read either; is %s the export tracker.format %q reads?", p.nbad-MaxBadRecords, p.fs[p.more].Pos.Line, p.path, p.format)
		return
	}
	p.fs = append(p.fs, diag.Finding{
		Pos:      token.Position{Filename: p.path, Line: line, Column: 1},
		Check:    ruleid.Tracker,
		Severity: diag.SeverityError,
		Message:  fmt.Sprintf(msg, args...),
	})
}

// walk reads every record; it says false when the file is not in the
// format at all.
func (p *parser) walk(data []byte) bool {
	err := p.f.Walk(data, func(line int, raw []byte) error {
		p.record(line, raw)
		return nil
	})
	var le *trackerformat.LineError
	switch {
	case errors.Is(err, trackerformat.ErrNotInFormat):
		p.bad(1, "tracker export is not %s", p.f.Desc)
		return false
	case errors.As(err, &le):
		p.bad(le.Line, "tracker export line %d: %s", le.Line, lineProblem(le))
	case err != nil:
		p.bad(1, "tracker export unreadable: %v", err)
	}
	return true
}

// record reads the record on line, raw, into the export unless it is
// refused.
func (p *parser) record(line int, raw []byte) {
	f := p.f
	r, err := f.Read(raw)
	if err != nil {
		p.bad(line, "tracker export line %d is not %s: %s", line, f.Noun, jsonProblem(err))
		return
	}
	p.n++
	if !f.Numbered && !p.validID(line, r.ID) {
		return
	}
	if prev, dup := p.e.Issues[r.ID]; dup {
		what := "id"
		if f.Numbered {
			what = "issue"
		}
		p.bad(line, "tracker export line %d repeats %s %s (first on line %d)", line, what, r.ID, prev.Line)
		return
	}
	if f.StrictTitles {
		// docket refuses this record, and so its whole export
		// (D67): the rule is vocab's, one copy for both readers.
		// The id still resolves; the title is not kept, so no
		// report prints what docket would not store.
		if err := recordtext.CheckTitle(r.Title); err != nil {
			p.bad(line, "tracker export line %d: %v; docket refuses this record, so it refuses the export: correct the title on this line", line, err)
			r.Title = ""
		}
	}
	p.e.Issues[r.ID] = Issue{ID: r.ID, Title: r.Title, Status: r.Status, Class: p.class(r.Status, line), Decisions: r.Decisions, Line: line}
	if r.Status == "open" {
		p.open++
	}
}

// validID refuses a record of a prefixed format with no id or one that
// is not a tracker id.
func (p *parser) validID(line int, id string) bool {
	if id == "" {
		p.bad(line, "tracker export line %d has no id", line)
		return false
	}
	if _, _, ok := issueid.SplitID(id); !ok {
		// One grammar for both tools (D91): vocab's, which docket
		// reads its export with; a NUL or ../ in an id is refused
		// here as there.
		p.bad(line, "tracker export line %d: its id is not a tracker id (a letter, then letters, digits or underscores, a dash, then letters, digits, dashes, underscores and dots, at most %d bytes), so docket refuses it: correct the id on this line", line, issueid.MaxIDLen)
		return false
	}
	return true
}

// summarize adds the format's caveat on the whole file and learns the
// ids' prefixes.
func (p *parser) summarize() {
	if p.f.Caveat != nil {
		if msg := p.f.Caveat(p.n, p.open); msg != "" {
			p.fs = append(p.fs, diag.Finding{Pos: token.Position{Filename: p.path, Line: 1, Column: 1}, Check: ruleid.Tracker, Severity: diag.SeverityWarning, Message: msg})
		}
	}
	var dropped int
	p.e.Prefixes, dropped = idPrefixes(p.e.Issues)
	if dropped > 0 {
		p.fs = append(p.fs, diag.Finding{Pos: token.Position{Filename: p.path, Line: 1, Column: 1}, Check: ruleid.Tracker, Severity: diag.SeverityWarning,
			Message: fmt.Sprintf("the export's ids use %d prefixes; claimslint learns the %d most used and ignores %d (a tracker uses one or a few: is %s one tracker's export?)", MaxPrefixes+dropped, MaxPrefixes, dropped, p.path)})
	}
}

// unmappedWarnings warns of each status the workflow does not map, at
// its first line.
func (p *parser) unmappedWarnings() {
	sts := p.w.Unmapped(keys(p.unmapped))
	slices.SortStableFunc(sts, func(a, b workflow.Status) int { return p.unmapped[a].line - p.unmapped[b].line })
	for _, st := range sts {
		u := p.unmapped[st]
		p.fs = append(p.fs, diag.Finding{Pos: token.Position{Filename: p.path, Line: u.line, Column: 1}, Check: ruleid.Tracker,
			Severity: diag.SeverityWarning, Message: fmt.Sprintf("%s (%d record(s), the first on this line)", workflow.UnmappedNote([]workflow.Status{st}), u.n)})
	}
}

// idPrefixes returns the prefixes of the issues' ids, sorted: the
// MaxPrefixes most used (ties by name), and how many others were left out.
// An id that is not <prefix>-<rest> (issueid.SplitID) has no prefix.
func idPrefixes(issues map[string]Issue) (prefixes []string, dropped int) {
	count := map[string]int{}
	for id := range issues {
		if p, _, ok := issueid.SplitID(id); ok {
			count[p]++
		}
	}
	for p := range count {
		prefixes = append(prefixes, p)
	}
	slices.SortFunc(prefixes, func(a, b string) int {
		if count[a] != count[b] {
			return count[b] - count[a]
		}
		return strings.Compare(a, b)
	})
	if len(prefixes) > MaxPrefixes {
		dropped = len(prefixes) - MaxPrefixes
		prefixes = prefixes[:MaxPrefixes]
	}
	slices.Sort(prefixes)
	return prefixes, dropped
}

// HasPrefix reports whether the export's ids use prefix p.
func (e *Export) HasPrefix(p string) bool {
	return e != nil && slices.Contains(e.Prefixes, p)
}

// MaxBadRecords is how many unreadable records of an export are reported
// one by one; the rest are counted in one finding.
const MaxBadRecords = 20

// jsonProblem says why a record is not the JSON it should be, in the
// export's terms: where the syntax breaks, or which field holds what kind
// of value. It never quotes the record's bytes: an export pointed at
// another file (a key file, git's config) must not print its content.
func jsonProblem(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("invalid JSON at byte %d of the record", syn.Offset)
	case errors.As(err, &typ) && typ.Field != "":
		return fmt.Sprintf("field %q is %s, want %s", typ.Field, jsonValue(typ.Value), jsonKind(typ.Type.Kind()))
	case errors.As(err, &typ):
		return fmt.Sprintf("the record is %s, want an object", jsonValue(typ.Value))
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "the file ends before its JSON does"
	}
	return "not valid JSON"
}

// lineProblem is jsonProblem for the errors a walker stops at: a line over
// the limit says so; a JSON error says where, after what the line is not.
func lineProblem(le *trackerformat.LineError) string {
	err := le.Err
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	if errors.As(err, &syn) || errors.As(err, &typ) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		if le.What != "" {
			return le.What + ": " + jsonProblem(err)
		}
		return jsonProblem(err)
	}
	if le.What != "" {
		return le.What + ": " + err.Error()
	}
	return err.Error()
}

// jsonValue names the kind of JSON value an UnmarshalTypeError found.
func jsonValue(v string) string {
	switch {
	case v == "string", v == "object", v == "array", v == "bool":
		return map[string]string{"string": "a string", "object": "an object", "array": "an array", "bool": "true or false"}[v]
	case strings.HasPrefix(v, "number"):
		return "a number"
	}
	return "a value of the wrong kind"
}

// jsonKind names what a record field holds, as JSON calls it.
func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	}
	return "an object"
}

func keys[V any](m map[workflow.Status]V) []workflow.Status {
	out := make([]workflow.Status, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

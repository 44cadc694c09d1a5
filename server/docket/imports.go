package docket

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/claimslint/claimslint/internal/trackerformat"
)

// Import formats.
const (
	FormatDocket = trackerformat.Docket
	FormatBeads  = trackerformat.Beads
	FormatGitHub = trackerformat.GitHub
)

// MaxProblems caps how many problems (and how many warnings) an import
// lists; the rest are counted.
const MaxProblems = 50

// Edge is a dependency to add to an issue that is not in the imported file
// but must already be in the tracker, or a dependency an import reports.
type Edge struct {
	From string
	Dep  Dep
	Line int
}

// Problem is one thing wrong (or, as a warning, changed) in an import file,
// at a line and a field.
type Problem struct {
	Path  string
	Line  int
	Field string
	Msg   string
}

func (p Problem) String() string {
	if p.Field == "" {
		return fmt.Sprintf("%s:%d: %s", p.Path, p.Line, p.Msg)
	}
	return fmt.Sprintf("%s:%d: %s: %s", p.Path, p.Line, p.Field, p.Msg)
}

// Problems is the error of an import that found bad records: every one it
// found, in file order, at most MaxProblems listed. Nothing was imported.
type Problems struct {
	List  []Problem
	Total int
}

func (e *Problems) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d problem(s); nothing was imported", e.Total)
	for _, p := range e.List {
		b.WriteString("\n")
		b.WriteString(p.String())
	}
	if e.Total > len(e.List) {
		fmt.Fprintf(&b, "\n... and %d more", e.Total-len(e.List))
	}
	return b.String()
}

// Is makes Problems an ErrInvalid: bad content, not a tool failure.
func (e *Problems) Is(target error) bool { return target == ErrInvalid }

// ImportSet is what an import file decodes to: whole records to upsert,
// edges to add to records already stored, and what the decoder changed
// or met on the way.
type ImportSet struct {
	// Format is the format read; Detected says it was not given.
	Format   string
	Detected bool
	Issues   []Issue
	Edges    []Edge
	// Lines maps an issue id to its line in the file, for messages.
	Lines map[string]int
	// Warnings lists what was normalised or kept with a note (at most
	// MaxProblems); WarningCount counts them all.
	Warnings     []Problem
	WarningCount int
	// Foreign counts values kept verbatim that docket does not create, by
	// field (status, type, dependency type) and value.
	Foreign map[string]map[string]int
	// Skipped counts lines that are not issues and were left out with a
	// warning (bd's memory lines).
	Skipped int
}

type decoder struct {
	path     string
	now      time.Time
	problems Problems
	set      *ImportSet
	pend     []pending // beads dependencies held by another record

	// rec, when set, makes this a worker of a parallel decode (lines):
	// what the line does to the import is recorded here, in order, and
	// replayed on the main decoder in file order, so the result is the
	// sequential one.
	rec *[]event
}

// pending is a beads dependency written on a record other than its holder.
type pending struct {
	from string
	dep  Dep
	line int
}

type eventKind uint8

const (
	evBad eventKind = iota
	evWarn
	evForeign
	evAdd
	evSkip
	evEdge
)

// event is one effect of a line on the import, as a parallel worker
// records it.
type event struct {
	kind        eventKind
	line        int
	field, text string
	issue       Issue
	edge        pending
}

func (d *decoder) bad(line int, field, format string, args ...any) {
	if d.rec != nil {
		*d.rec = append(*d.rec, event{kind: evBad, line: line, field: field, text: fmt.Sprintf(format, args...)})
		return
	}
	d.problems.Total++
	if len(d.problems.List) < MaxProblems {
		d.problems.List = append(d.problems.List, Problem{d.path, line, field, fmt.Sprintf(format, args...)})
	}
}

func (d *decoder) warn(line int, field, format string, args ...any) {
	if d.rec != nil {
		*d.rec = append(*d.rec, event{kind: evWarn, line: line, field: field, text: fmt.Sprintf(format, args...)})
		return
	}
	d.set.WarningCount++
	if len(d.set.Warnings) < MaxProblems {
		d.set.Warnings = append(d.set.Warnings, Problem{d.path, line, field, fmt.Sprintf(format, args...)})
	}
}

func (d *decoder) foreign(field, value string, known bool) {
	if known {
		return
	}
	if d.rec != nil {
		*d.rec = append(*d.rec, event{kind: evForeign, field: field, text: value})
		return
	}
	if d.set.Foreign[field] == nil {
		d.set.Foreign[field] = map[string]int{}
	}
	d.set.Foreign[field][value]++
}

// DetectFormat names the format of an import file (trackerformat.Detect).
func DetectFormat(data []byte) (format string, ok bool) { return trackerformat.Detect(data) }

// DecodeImport reads an import file in one of the formats ("" detects it).
// Every record is converted and validated before anything is returned, and
// every problem is collected (file:line: field: problem, at most
// MaxProblems listed) into a *Problems error, so a caller applies all
// records or none. now stamps records that carry no times. prefix is the
// tracker's, for gh numbers; records of other trackers keep their ids.
func DecodeImport(path string, data []byte, format, prefix string, now time.Time) (*ImportSet, error) {
	set := &ImportSet{Format: format, Lines: map[string]int{}, Foreign: map[string]map[string]int{}}
	if format == "" {
		f, ok := DetectFormat(data)
		if !ok {
			return nil, &Problems{List: []Problem{{path, 1, "", "not JSON lines (docket or beads) nor a JSON array (gh issue list --json): give --format " + trackerformat.OrList()}}, Total: 1}
		}
		set.Format, set.Detected = f, true
	}
	f := trackerformat.Lookup(set.Format)
	if f == nil {
		return nil, Invalidf("import format %q: use %s", format, trackerformat.OrList())
	}
	d := &decoder{path: path, now: now, set: set}
	if err := d.decode(f, data, prefix); err != nil {
		return nil, err
	}
	if d.problems.Total > 0 {
		return nil, &d.problems
	}
	return set, nil
}

// add validates a converted record and keeps it, reporting a duplicate id.
func (d *decoder) add(n int, i Issue) {
	i.Normalize()
	if _, _, ok := SplitID(i.ID); !ok {
		d.bad(n, "id", "%q is not <prefix>-<rest> (letters, digits, - _ and .)", i.ID)
		return
	}
	err := i.ValidateContent()
	if err == nil && slices.ContainsFunc(i.Deps, func(x Dep) bool { return x.ID == i.ID }) {
		err = Invalidf("%s depends on itself", i.ID)
	}
	if err != nil {
		d.bad(n, "", "%s", MessageOf(err))
		return
	}
	if d.rec != nil {
		*d.rec = append(*d.rec, event{kind: evAdd, line: n, issue: i})
		return
	}
	d.keep(n, i)
}

// keep keeps a validated record, reporting a duplicate id.
func (d *decoder) keep(n int, i Issue) {
	if first, dup := d.set.Lines[i.ID]; dup {
		d.bad(n, "id", "%s already on line %d", i.ID, first)
		return
	}
	d.set.Lines[i.ID] = n
	d.set.Issues = append(d.set.Issues, i)
}

// skip counts a line that is not an issue.
func (d *decoder) skip() {
	if d.rec != nil {
		*d.rec = append(*d.rec, event{kind: evSkip})
		return
	}
	d.set.Skipped++
}

// edge keeps a dependency that another record holds.
func (d *decoder) edge(p pending) {
	if d.rec != nil {
		*d.rec = append(*d.rec, event{kind: evEdge, edge: p})
		return
	}
	d.pend = append(d.pend, p)
}

// parallelLines is how many lines make a decode worth spreading over the
// cores: a line of JSON takes microseconds, a goroutine less.
var parallelLines = 1024

// lines calls fn on each non-blank line with a decoder to report through.
// A large file is decoded on every core (an import of 10k records spends
// a third of its time here, dk-rls): each worker records what its lines
// do, and the records are replayed here in file order, so problems,
// warnings, counts and the order of records are the sequential ones.
func (d *decoder) lines(data []byte, fn func(d *decoder, n int, line []byte)) {
	type numbered struct {
		n    int
		line []byte
	}
	var all []numbered
	err := eachLine(bytes.NewReader(data), func(n int, line []byte) error {
		all = append(all, numbered{n, line})
		return nil
	})
	workers := runtime.GOMAXPROCS(0)
	if len(all) < parallelLines || workers < 2 {
		for _, l := range all {
			fn(d, l.n, l.line)
		}
	} else {
		out := make([][]event, len(all))
		var next atomic.Int64
		var wg sync.WaitGroup
		const batch = 64
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					lo := int(next.Add(batch)) - batch
					if lo >= len(all) {
						return
					}
					for k := lo; k < min(lo+batch, len(all)); k++ {
						w := &decoder{path: d.path, now: d.now, rec: &out[k]}
						fn(w, all[k].n, all[k].line)
					}
				}
			}()
		}
		wg.Wait()
		for _, evs := range out {
			d.replay(evs)
		}
	}
	if le, ok := err.(*LineError); ok {
		d.bad(le.Line, "", "%v", le.Err)
	} else if err != nil {
		d.bad(0, "", "%v", err)
	}
}

// replay applies a worker's record of one line to d.
func (d *decoder) replay(evs []event) {
	for _, e := range evs {
		switch e.kind {
		case evBad:
			d.bad(e.line, e.field, "%s", e.text)
		case evWarn:
			d.warn(e.line, e.field, "%s", e.text)
		case evForeign:
			d.foreign(e.field, e.text, false)
		case evAdd:
			d.keep(e.line, e.issue)
		case evSkip:
			d.skip()
		case evEdge:
			d.edge(e.edge)
		}
	}
}

func (d *decoder) docket(data []byte) {
	d.lines(data, func(d *decoder, n int, line []byte) {
		i, err := decodeLine(line)
		if err != nil {
			if f, _ := DetectFormat(line); f == FormatBeads {
				d.bad(n, "", "%v; this line looks like a beads export: import it with --format beads (or without --format)", err)
			} else {
				d.bad(n, "", "%v", err)
			}
			return
		}
		d.foreign("status", string(i.Status), slices.Contains(Statuses, i.Status))
		d.foreign("type", string(i.Type), slices.Contains(Types, i.Type))
		for _, dep := range i.Deps {
			d.foreign("dependency type", string(dep.Type), knownDep(dep.Type))
		}
		d.add(n, i)
	})
}

func knownDep(t DepType) bool {
	return slices.Contains(DepTypes, t) || t == DepDependsOn || t == DepParentChild
}

// fields decodes one JSON object into its keys; extra collects the keys
// the caller does not take.
type fields struct {
	d     *decoder
	n     int
	m     map[string]json.RawMessage
	extra map[string]json.RawMessage
	where string // "" for the record, "comments[2]" for a nested object
}

func (d *decoder) object(n int, raw []byte, where string) (*fields, bool) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		what := "a JSON object"
		if err != nil {
			what = fmt.Sprintf("a JSON object (%v)", err)
		}
		d.bad(n, where, "want %s", what)
		return nil, false
	}
	return &fields{d: d, n: n, m: m, extra: map[string]json.RawMessage{}, where: where}, true
}

func (f *fields) name(k string) string {
	if f.where == "" {
		return k
	}
	return f.where + "." + k
}

// take removes key k and decodes it into v; absent or null leaves v alone.
func (f *fields) take(k string, v any) bool {
	raw, ok := f.m[k]
	if !ok {
		return false
	}
	delete(f.m, k)
	if string(raw) == "null" {
		return false
	}
	if err := json.Unmarshal(raw, v); err != nil {
		f.d.bad(f.n, f.name(k), "want %s, got %s", kind(v), short(raw))
		return false
	}
	return true
}

// keep puts the original value of k into extra, for a field whose value
// docket normalised.
func (f *fields) keep(k string, v any) {
	b, _ := json.Marshal(v)
	f.extra[k] = b
}

// rest moves every key not taken into extra and returns it canonically.
func (f *fields) rest() Raw {
	for k, v := range f.m {
		f.extra[k] = v
	}
	r, err := RawOf(f.extra)
	if err != nil {
		f.d.bad(f.n, f.where, "%v", err)
	}
	return r
}

func kind(v any) string {
	switch v.(type) {
	case *string:
		return "a string"
	case *int, *int64:
		return "a whole number"
	case *[]string:
		return "an array of strings"
	case *[]json.RawMessage:
		return "an array"
	}
	return "another JSON type"
}

func short(raw []byte) string {
	if len(raw) > 40 {
		return string(raw[:40]) + "..."
	}
	return string(raw)
}

// time takes a time field: canonical in the record, the original kept in
// extra when it differed (sub-second precision, a zone offset).
func (f *fields) time(k string, required bool) (string, bool) {
	var s string
	if !f.take(k, &s) || s == "" {
		if required {
			f.d.warn(f.n, f.name(k), "missing; set to the import time %s", FormatTime(f.d.now))
			return FormatTime(f.d.now), true
		}
		return "", false
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		f.d.bad(f.n, f.name(k), "%q is not an RFC 3339 time", s)
		return "", false
	}
	c := FormatTime(t)
	if c != s {
		f.keep(k, s)
	}
	return c, true
}

// title takes a title, folding line breaks into spaces with a warning; the
// original is kept in extra.
func (f *fields) title(k string) string {
	var s string
	f.take(k, &s)
	if strings.ContainsAny(s, "\r\n\t") {
		norm := strings.Join(strings.Fields(s), " ")
		f.d.warn(f.n, f.name(k), "line breaks folded into spaces (%q); the original is kept in extra", norm)
		f.keep(k, s)
		return norm
	}
	return s
}

// labels takes labels, turning what docket's label rule refuses (spaces,
// mostly, in gh labels) into dashes with a warning; the originals are then
// kept in extra.
func (f *fields) labels(names []string, original json.RawMessage, k string) []string {
	var out []string
	changed := false
	for _, l := range names {
		if CheckLabel(l) == nil {
			out = append(out, l)
			continue
		}
		norm := strings.Trim(strings.Map(func(r rune) rune {
			if r < 0x80 && (r == '.' || r == '_' || r == ':' || r == '/' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
				return r
			}
			return '-'
		}, l), "-._:/")
		if CheckLabel(norm) != nil {
			f.d.bad(f.n, f.name(k), "label %q cannot be made a docket label (letters, digits and ._:/-, at most 64)", l)
			continue
		}
		f.d.warn(f.n, f.name(k), "label %q stored as %q; the original is kept in extra", l, norm)
		out = append(out, norm)
		changed = true
	}
	if changed || original != nil {
		if original == nil {
			original, _ = json.Marshal(names)
		}
		f.extra[k] = original
	}
	return out
}

// beads converts a beads issues.jsonl (internal/types.Issue as bd export
// writes it). Every key docket has no field for is kept in the record's
// extra, verbatim; statuses, types and dependency types are kept as
// written. One mapping: beads keeps "A depends on B" (type blocks) on A,
// which docket stores on A as depends-on B, so that a dependency whose
// target is not in the file stays on the record that holds it.
func (d *decoder) beads(data []byte) {
	d.lines(data, (*decoder).beadsLine)
	d.resolvePending()
}

// beadsLine converts one line of a beads export.
func (d *decoder) beadsLine(n int, line []byte) {
	f, ok := d.object(n, line, "")
	if !ok || d.beadsMemory(n, f) {
		return
	}
	var i Issue
	i.Schema, i.Version = Schema, 1
	f.take("id", &i.ID)
	if _, _, ok := SplitID(i.ID); !ok {
		d.bad(n, "id", "%q is not an id (<prefix>-<rest>: letters, digits, - _ and .)", i.ID)
		return
	}
	i.Title = f.title("title")
	f.take("description", &i.Description)
	d.beadsKind(n, f, &i)
	var labels []string
	if f.take("labels", &labels) {
		i.Labels = f.labels(labels, nil, "labels")
	}
	i.CreatedAt, _ = f.time("created_at", true)
	if u, ok := f.time("updated_at", false); ok {
		i.UpdatedAt = u
	} else {
		i.UpdatedAt = i.CreatedAt
	}
	closedRaw, hasClosed := f.m["closed_at"]
	if i.Status == StatusClosed {
		c, ok := f.time("closed_at", false)
		if !ok {
			c = i.UpdatedAt
			d.warn(n, "closed_at", "missing on a closed issue; set to updated_at %s", c)
		}
		i.ClosedAt = &c
	} else if hasClosed {
		// docket sets closed_at exactly on closed issues; a beads
		// record of another status keeps it in extra.
		delete(f.m, "closed_at")
		f.extra["closed_at"] = closedRaw
	}
	f.take("close_reason", &i.CloseReason)
	d.beadsComments(n, f, &i)
	var deps []json.RawMessage
	if f.take("dependencies", &deps) {
		for k, raw := range deps {
			d.beadsDep(n, k, raw, &i)
		}
	}
	i.Extra = f.rest()
	d.add(n, i)
}

// beadsMemory reports and skips a line that is a memory, not an issue.
// bd export --include-memories (or --all) writes bd remember's memories
// as {"_type":"memory","key":...,"value":...} lines: not issues, and
// docket has nowhere to keep them (dk-ejv). Each is reported and left
// out; the import goes on.
func (d *decoder) beadsMemory(n int, f *fields) bool {
	var kind string
	if raw, ok := f.m["_type"]; !ok || json.Unmarshal(raw, &kind) != nil || kind != "memory" {
		return false
	}
	var key string
	_ = json.Unmarshal(f.m["key"], &key)
	d.skip()
	d.warn(n, "_type", "memory %q (bd remember) is not an issue; docket keeps issues only, so it is not imported", key)
	return true
}

// beadsKind reads a beads issue's status, priority and type, as beads
// reads them when missing, each kept as written.
func (d *decoder) beadsKind(n int, f *fields, i *Issue) {
	var st, typ string
	f.take("status", &st)
	if st == "" {
		st = string(StatusOpen)
		d.warn(n, "status", "missing; beads reads it as open")
	}
	i.Status = Status(st)
	d.foreign("status", st, slices.Contains(Statuses, i.Status))
	i.Priority = DefaultPriority
	f.take("priority", &i.Priority)
	f.take("issue_type", &typ)
	if typ == "" {
		typ = string(TypeTask)
		d.warn(n, "issue_type", "missing; beads reads it as task")
	}
	i.Type = Type(typ)
	d.foreign("type", typ, slices.Contains(Types, i.Type))
}

// beadsComments reads a beads issue's comments.
func (d *decoder) beadsComments(n int, f *fields, i *Issue) {
	d.comments(n, f, i, func(c *fields) Comment {
		var cm Comment
		c.take("author", &cm.Author)
		c.take("text", &cm.Text)
		cm.Time, _ = c.time("created_at", true)
		return cm
	})
}

// comments reads the comments array of a record, each object through
// read, which takes the members it knows; what read leaves is kept as the
// comment's Extra. An entry that is not an object is reported and left out.
func (d *decoder) comments(n int, f *fields, i *Issue, read func(c *fields) Comment) {
	var comments []json.RawMessage
	if !f.take("comments", &comments) {
		return
	}
	for k, raw := range comments {
		c, ok := d.object(n, raw, fmt.Sprintf("comments[%d]", k))
		if !ok {
			continue
		}
		cm := read(c)
		cm.Extra = c.rest()
		i.Comments = append(i.Comments, cm)
	}
}

// beadsDep reads the k-th dependency of a beads issue: on i when i holds
// it, else pending until every record is read.
func (d *decoder) beadsDep(n, k int, raw json.RawMessage, i *Issue) {
	c, ok := d.object(n, raw, fmt.Sprintf("dependencies[%d]", k))
	if !ok {
		return
	}
	var from, to, typ string
	c.take("issue_id", &from)
	c.take("depends_on_id", &to)
	c.take("type", &typ)
	if _, _, ok := SplitID(to); !ok && !IsExternal(to) {
		d.bad(n, c.name("depends_on_id"), "%q is not an id nor external:<project>:<id>", to)
		return
	}
	dep := Dep{Type: DepType(typ), ID: to}
	if typ == "blocks" || typ == "" {
		dep.Type = DepDependsOn
		if typ == "" {
			c.keep("type", "")
		}
	}
	d.foreign("dependency type", typ, typ == "" || knownDep(DepType(typ)) || typ == "blocks")
	if from != "" && from != i.ID {
		c.keep("issue_id", from)
	}
	dep.Extra = c.rest()
	if from == "" || from == i.ID {
		i.Deps = append(i.Deps, dep)
	} else {
		d.edge(pending{from, dep, n})
	}
}

// resolvePending puts each dependency held on another record on that
// record when the file has it, else in the set's edges.
func (d *decoder) resolvePending() {
	byID := map[string]int{}
	for k, i := range d.set.Issues {
		byID[i.ID] = k
	}
	for _, e := range d.pend {
		if k, ok := byID[e.from]; ok {
			d.set.Issues[k].Deps = append(d.set.Issues[k].Deps, e.dep)
			d.set.Issues[k].Normalize()
			continue
		}
		if _, _, ok := SplitID(e.from); !ok {
			d.bad(e.line, "dependencies.issue_id", "%q is not an id", e.from)
			continue
		}
		d.set.Edges = append(d.set.Edges, Edge{From: e.from, Dep: e.dep, Line: e.line})
	}
}

// github converts the JSON array `gh issue list --json ...` prints (any
// field set; number and title at least). Issue #N becomes <prefix>-N, so a
// re-import updates the same records. state OPEN and CLOSED become open and
// closed; every field docket has no key for is kept in extra.
func (d *decoder) github(data []byte, prefix string) {
	err := trackerformat.GitHubElements(data, func(n int, raw json.RawMessage) error {
		d.githubIssue(n, raw, prefix)
		return nil
	})
	var le *trackerformat.LineError
	switch {
	case errors.Is(err, trackerformat.ErrNotGitHubArray):
		d.bad(1, "", "%v", err)
	case errors.As(err, &le):
		d.bad(le.Line, "", "%v", le.Cause())
	}
}

// githubIssue converts the n-th element of gh's array.
func (d *decoder) githubIssue(n int, raw json.RawMessage, prefix string) {
	f, ok := d.object(n, raw, "")
	if !ok {
		return
	}
	var num int64
	f.take("number", &num)
	if num <= 0 {
		d.bad(n, "number", "want a positive issue number")
		return
	}
	i := Issue{ID: prefix + "-" + strconv.FormatInt(num, 10), Status: StatusOpen, Type: TypeTask, Priority: DefaultPriority, Version: 1, Schema: Schema}
	i.Title = f.title("title")
	f.take("body", &i.Description)
	var state string
	f.take("state", &state)
	if st, known := trackerformat.GitHubStatus(state); !known {
		d.bad(n, "state", "%q: gh writes OPEN or CLOSED", state)
	} else {
		i.Status = Status(st)
	}
	d.githubLabels(n, f, &i)
	i.CreatedAt, _ = f.time("createdAt", true)
	if u, ok := f.time("updatedAt", false); ok {
		i.UpdatedAt = u
	} else {
		i.UpdatedAt = i.CreatedAt
	}
	if i.Status == StatusClosed {
		c, ok := f.time("closedAt", false)
		if !ok {
			c = i.UpdatedAt
			d.warn(n, "closedAt", "missing on a closed issue; set to updatedAt %s", c)
		}
		i.ClosedAt = &c
		i.CloseReason = "closed on GitHub"
		var reason string
		if r, ok := f.m["stateReason"]; ok && json.Unmarshal(r, &reason) == nil && reason != "" {
			i.CloseReason += " (" + strings.ToLower(reason) + ")"
		}
	}
	d.githubComments(n, f, &i)
	i.Extra = f.rest()
	d.add(n, i)
}

// githubLabels reads gh's labels, [{name}, ...]; objects with more than
// a name are kept whole in extra.
func (d *decoder) githubLabels(n int, f *fields, i *Issue) {
	raw, ok := f.m["labels"]
	if !ok {
		return
	}
	var ls []struct {
		Name string `json:"name"`
	}
	delete(f.m, "labels")
	if err := json.Unmarshal(raw, &ls); err != nil {
		d.bad(n, "labels", "want an array of {name}, got %s", short(raw))
		return
	}
	var names []string
	plain := true
	for _, l := range ls {
		names = append(names, l.Name)
	}
	var objs []map[string]json.RawMessage
	_ = json.Unmarshal(raw, &objs)
	for _, o := range objs {
		if len(o) != 1 {
			plain = false
		}
	}
	var orig json.RawMessage
	if !plain {
		orig = raw
	}
	i.Labels = f.labels(names, orig, "labels")
}

// githubComments reads gh's comments; an author that is a login alone is
// read as that login.
func (d *decoder) githubComments(n int, f *fields, i *Issue) {
	d.comments(n, f, i, func(c *fields) Comment {
		var cm Comment
		if a, ok := c.m["author"]; ok {
			var who struct {
				Login string `json:"login"`
			}
			var obj map[string]json.RawMessage
			if json.Unmarshal(a, &who) == nil && json.Unmarshal(a, &obj) == nil {
				cm.Author = who.Login
				if len(obj) == 1 {
					delete(c.m, "author")
				}
			}
		}
		c.take("body", &cm.Text)
		cm.Time, _ = c.time("createdAt", true)
		return cm
	})
}

// ForeignSummary renders Foreign as "status hooked (4), pinned (3); type
// event (299)", sorted by field and value.
func (s *ImportSet) ForeignSummary() string {
	var parts []string
	fieldsOrder := []string{"status", "type", "dependency type"}
	for _, fld := range fieldsOrder {
		m := s.Foreign[fld]
		if len(m) == 0 {
			continue
		}
		vals := make([]string, 0, len(m))
		for v := range m {
			vals = append(vals, v)
		}
		sort.Strings(vals)
		var xs []string
		for _, v := range vals {
			xs = append(xs, fmt.Sprintf("%s (%d)", v, m[v]))
		}
		parts = append(parts, fld+" "+strings.Join(xs, ", "))
	}
	return strings.Join(parts, "; ")
}

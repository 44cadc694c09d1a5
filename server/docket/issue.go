package docket

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/claimslint/claimslint/internal/decisionid"
	"github.com/claimslint/claimslint/internal/issueid"
	"github.com/claimslint/claimslint/internal/recordtext"
	"github.com/claimslint/claimslint/internal/workflow"
)

// Schema is the version of the export record. A reader refuses a record
// whose schema is newer than the one it knows, rather than dropping fields it
// cannot see.
const Schema = 1

// The record speaks the vocabulary docket shares with claimslint
// (internal/workflow): these names are that package's, under docket's.
type (
	// Status is where an issue stands.
	Status = workflow.Status
	// Class is where a status stands in the workflow.
	Class = workflow.Class
	// Workflow maps statuses onto classes.
	Workflow = workflow.Workflow
)

// The statuses and classes (vocab's).
const (
	StatusOpen       = workflow.StatusOpen
	StatusInProgress = workflow.StatusInProgress
	StatusBlocked    = workflow.StatusBlocked
	StatusDeferred   = workflow.StatusDeferred
	StatusClosed     = workflow.StatusClosed
	ClassOpen        = workflow.ClassOpen
	ClassActive      = workflow.ClassActive
	ClassBlocked     = workflow.ClassBlocked
	ClassDeferred    = workflow.ClassDeferred
	ClassClosed      = workflow.ClassClosed
	WorkflowKey      = workflow.WorkflowKey
	MaxIDLen         = issueid.MaxIDLen
)

// The lists and functions of the vocabulary (vocab's).
var (
	Statuses        = workflow.Statuses
	Classes         = workflow.Classes
	DefaultWorkflow = workflow.DefaultWorkflow
	ParseClass      = workflow.ParseClass
	UnmappedNote    = workflow.UnmappedNote
	SplitID         = issueid.SplitID
)

// Unfinished lists every status but closed: what list shows by default.
var Unfinished = []Status{StatusOpen, StatusInProgress, StatusBlocked, StatusDeferred}

// Type is what kind of work an issue is.
type Type string

// The issue types. A residual is what a change knowingly left open; a
// decision issue carries a register row.
const (
	TypeBug      Type = "bug"
	TypeFeature  Type = "feature"
	TypeTask     Type = "task"
	TypeChore    Type = "chore"
	TypeDecision Type = "decision"
	TypeResidual Type = "residual"
)

// Types lists every valid type.
var Types = []Type{TypeBug, TypeFeature, TypeTask, TypeChore, TypeDecision, TypeResidual}

// DepType is the kind of a dependency edge. An edge is stored on the issue
// it starts from: "A blocks B" lives in A's deps, "A parent B" (B is A's
// parent) in A's, and "A related B" in A's.
type DepType string

// The dependency types docket itself creates, and the two it reads with a
// meaning: depends-on (held by the blocked issue, naming its blocker: how
// beads stores "blocks") and parent-child (beads' parent edge, held by the
// child). Any other type an import brings is kept verbatim and drives
// nothing.
const (
	DepBlocks      DepType = "blocks"
	DepParent      DepType = "parent"
	DepRelated     DepType = "related"
	DepDependsOn   DepType = "depends-on"
	DepParentChild DepType = "parent-child"
)

// DepTypes lists the dependency types a user can add.
var DepTypes = []DepType{DepBlocks, DepParent, DepRelated}

// Blocking reports whether an edge of type t keeps an issue from being
// ready: blocks (held by the blocker) and depends-on (held by the blocked).
func (t DepType) Blocking() bool { return t == DepBlocks || t == DepDependsOn }

// Parent reports whether an edge of type t names the holder's parent.
func (t DepType) Parent() bool { return t == DepParent || t == DepParentChild }

// MaxPriority is the lowest priority; 0 is the most urgent.
const MaxPriority = 4

// DefaultPriority is the priority of an issue created without one.
const DefaultPriority = 2

// Dep is one typed edge from the issue that holds it to ID. Extra keeps
// the fields an import brought that docket has no key for (beads'
// created_at, created_by, metadata).
type Dep struct {
	Type  DepType `json:"type"`
	ID    string  `json:"id"`
	Extra Raw     `json:"extra,omitempty"`
}

// Comment is one remark on an issue. Comments are append-only. Extra keeps
// fields an import brought that docket has no key for.
type Comment struct {
	Time   string `json:"time"`
	Author string `json:"author"`
	Text   string `json:"text"`
	Extra  Raw    `json:"extra,omitempty"`
}

// Issue is one record of the export, with its fields in export order. The
// JSON tags fix the key order of the canonical encoding (encoding/json
// writes struct fields in declaration order), so do not reorder them.
type Issue struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Status      Status `json:"status"`
	Type        Type   `json:"type"`
	Priority    int    `json:"priority"`
	// Assignee is who claimed the issue (issue_claim); absent when no one
	// has, so records written before it existed keep their bytes.
	Assignee    string    `json:"assignee,omitempty"`
	Labels      []string  `json:"labels"`
	Decisions   []string  `json:"decisions"`
	Deps        []Dep     `json:"deps"`
	Comments    []Comment `json:"comments"`
	CreatedAt   string    `json:"created_at"`
	UpdatedAt   string    `json:"updated_at"`
	ClosedAt    *string   `json:"closed_at"`
	CloseReason string    `json:"close_reason"`
	Version     int64     `json:"version"`
	Schema      int       `json:"schema"`
	// Extra keeps, as one JSON object with sorted keys, the fields an
	// import brought that docket has no key for; absent when there are
	// none, so records without foreign fields keep their bytes.
	Extra Raw `json:"extra,omitempty"`
}

// ConflictError is returned when an update names a version that is no
// longer current: someone else wrote the issue first.
type ConflictError struct {
	ID         string
	Want, Have int64
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%s is at version %d, not %d: it changed since you read it", e.ID, e.Have, e.Want)
}

// Unwrap makes errors.Is(err, ErrConflict) true.
func (e *ConflictError) Unwrap() error { return ErrConflict }

// TimeFormat is the one timestamp layout of the export: UTC, RFC 3339,
// second precision.
const TimeFormat = time.RFC3339

// FormatTime renders t in the export's layout.
func FormatTime(t time.Time) string { return t.UTC().Truncate(time.Second).Format(TimeFormat) }

var (
	decisionRE = regexp.MustCompile(`^` + decisionid.Pattern + `$`)
	labelRE    = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:/-]*$`)
)

// ValidPrefix reports whether p can prefix ids (issueid.ValidPrefix), as an
// invalid-input error.
func ValidPrefix(p string) error {
	if err := issueid.ValidPrefix(p); err != nil {
		return Invalidf("%v", err)
	}
	return nil
}

// externalRE is beads' reference to an issue of another project,
// external:<project>:<id>.
var externalRE = regexp.MustCompile(`^external:[A-Za-z0-9][A-Za-z0-9_.-]*:[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// IsExternal reports whether id names an issue of another project
// (external:<project>:<id>, as beads writes): a dependency target that is
// never in this tracker, and never dangling.
func IsExternal(id string) bool { return len(id) <= MaxIDLen && externalRE.MatchString(id) }

// CheckStatusToken accepts any status a record may carry (docket's own or
// one kept from an import), for filters.
func CheckStatusToken(s string) error { return checkToken("status", s) }

// CheckDepTypeToken accepts any dependency type a record may carry.
func CheckDepTypeToken(s string) error { return checkToken("dependency type", s) }

// CheckTypeToken accepts any type a record may carry, for filters.
func CheckTypeToken(s string) error { return checkToken("type", s) }

// checkToken accepts a status, type or dependency type kept verbatim from
// an import: lower-case letters, digits, dashes and underscores, starting
// with a letter, at most 64 bytes.
func checkToken(what, s string) error {
	if !issueid.ValidToken(s) {
		return Invalidf("%s %q: use lower-case letters, digits, - and _ (at most 64), starting with a letter", what, s)
	}
	return nil
}

// ParseSettable checks s against the statuses `update --status` sets:
// every one but closed, which close sets with its reason (D76). closed
// itself passes, so that Update refuses it naming close and reopen; an
// unknown status is refused listing only what update sets.
func ParseSettable(s string) (Status, error) {
	if Status(s) == StatusClosed || slices.Contains(Unfinished, Status(s)) {
		return Status(s), nil
	}
	return "", Hintf(HintCloseHow, "status %q: use one of %s", s, joinStrings(Unfinished))
}

// ParseType checks s against the types.
func ParseType(s string) (Type, error) {
	if slices.Contains(Types, Type(s)) {
		return Type(s), nil
	}
	return "", Invalidf("type %q: use one of %s", s, joinStrings(Types))
}

// ParseDepType checks s against the dependency types.
func ParseDepType(s string) (DepType, error) {
	if slices.Contains(DepTypes, DepType(s)) {
		return DepType(s), nil
	}
	return "", Invalidf("dependency type %q: use one of %s", s, joinStrings(DepTypes))
}

func joinStrings[T ~string](xs []T) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = string(x)
	}
	return strings.Join(s, ", ")
}

// CheckTitle rejects an empty title, a title over recordtext.MaxTitleLen
// bytes, and control characters, which would make list output ambiguous:
// recordtext.CheckTitle, the rule claimslint's tracker reader applies too.
func CheckTitle(t string) error {
	if err := recordtext.CheckTitle(t); err != nil {
		return Invalidf("%s", err)
	}
	return nil
}

func checkText(what, s string, newlines bool) error {
	if err := recordtext.CheckText(what, s, newlines); err != nil {
		return Invalidf("%s", err)
	}
	return nil
}

// CheckPriority keeps p within 0..MaxPriority.
func CheckPriority(p int) error {
	if p < 0 || p > MaxPriority {
		return Invalidf("priority %d: use 0 (most urgent) to %d", p, MaxPriority)
	}
	return nil
}

// CheckLabel rejects labels that would not survive a shell or a list
// filter: a letter or digit, then letters, digits and ._:/-.
func CheckLabel(l string) error {
	if !labelRE.MatchString(l) || len(l) > 64 {
		return Invalidf("label %q: use letters, digits and ._:/- (at most 64), starting with a letter or digit", l)
	}
	return nil
}

// MaxAssignee bounds an assignee's length in bytes.
const MaxAssignee = 200

// CheckAssignee accepts a name on one line, at most MaxAssignee bytes.
func CheckAssignee(a string) error {
	if strings.TrimSpace(a) == "" {
		return Invalidf("assignee is empty: give who takes the issue")
	}
	if len(a) > MaxAssignee {
		return Invalidf("assignee of %d bytes: keep it under %d", len(a), MaxAssignee)
	}
	return checkText("assignee", a, false)
}

// CheckDecision accepts register ids like D12.
func CheckDecision(d string) error {
	if !decisionRE.MatchString(d) {
		return Invalidf("decision %q: use a register id like D12", d)
	}
	return nil
}

// Validate checks every field of a record as read from an export or an
// import, so that a hand edit that breaks a rule is reported, not stored.
// prefix, when not empty, is the only id prefix accepted. Statuses, types
// and dependency types outside docket's sets are accepted as long as they
// are tokens: an import keeps them verbatim and the workflow maps them.
func (i *Issue) Validate(prefix string) error {
	p, _, ok := SplitID(i.ID)
	if !ok {
		return Invalidf("id %q is not <prefix>-<rest> (letters, digits, - _ and .)", i.ID)
	}
	if prefix != "" && p != prefix {
		return Invalidf("id %s has prefix %q but this tracker uses %q", i.ID, p, prefix)
	}
	if err := i.ValidateContent(); err != nil {
		return &RecordError{ID: i.ID, Err: unwrapInvalid(err)}
	}
	for _, d := range i.Deps {
		if d.ID == i.ID {
			return Invalidf("%s: depends on itself", i.ID)
		}
	}
	return nil
}

// RecordError is a record refused for what one of its fields holds: the
// record's id, and why.
type RecordError struct {
	ID  string
	Err error
}

func (e *RecordError) Error() string { return e.ID + ": " + e.Err.Error() }

// Unwrap returns why.
func (e *RecordError) Unwrap() error { return e.Err }

// unwrapInvalid strips the "invalid input: " of an error already wrapping
// ErrInvalid, so that a wrapper adding the id keeps one prefix.
func unwrapInvalid(err error) error {
	if e, ok := err.(*Error); ok && e.Code == CodeInvalid {
		return &Error{Code: CodeInvalid, Message: e.Message, Hint: e.Hint, Detail: e.Detail}
	}
	if errors.Is(err, ErrInvalid) {
		return Invalidf("%s", err.Error())
	}
	return err
}

// ValidateContent checks every field but the id: what Create checks before
// an id is drawn.
func (i *Issue) ValidateContent() error {
	if i.Schema != Schema {
		return Invalidf("schema %d, this docket reads schema %d", i.Schema, Schema)
	}
	if err := CheckTitle(i.Title); err != nil {
		return err
	}
	if err := checkText("description", i.Description, true); err != nil {
		return err
	}
	if err := checkToken("status", string(i.Status)); err != nil {
		return err
	}
	if err := checkToken("type", string(i.Type)); err != nil {
		return err
	}
	if err := CheckPriority(i.Priority); err != nil {
		return err
	}
	if i.Assignee != "" {
		if err := CheckAssignee(i.Assignee); err != nil {
			return err
		}
	}
	for _, l := range i.Labels {
		if err := CheckLabel(l); err != nil {
			return err
		}
	}
	for _, d := range i.Decisions {
		if err := CheckDecision(d); err != nil {
			return err
		}
	}
	for _, d := range i.Deps {
		if err := checkToken("dependency type", string(d.Type)); err != nil {
			return err
		}
		if _, _, ok := SplitID(d.ID); !ok && !IsExternal(d.ID) {
			return Invalidf("dependency on %q, which is not an id", d.ID)
		}
	}
	for _, c := range i.Comments {
		if _, err := time.Parse(TimeFormat, c.Time); err != nil {
			return Invalidf("comment time %q is not RFC 3339", c.Time)
		}
		if err := checkText("comment", c.Text, true); err != nil {
			return err
		}
	}
	for _, ts := range []struct{ name, v string }{{"created_at", i.CreatedAt}, {"updated_at", i.UpdatedAt}} {
		if _, err := time.Parse(TimeFormat, ts.v); err != nil {
			return Invalidf("%s %q is not an RFC 3339 time", ts.name, ts.v)
		}
	}
	if (i.Status == StatusClosed) != (i.ClosedAt != nil) {
		return Invalidf("closed_at must be set exactly when the status is closed")
	}
	if i.ClosedAt != nil {
		if _, err := time.Parse(TimeFormat, *i.ClosedAt); err != nil {
			return Invalidf("closed_at %q is not an RFC 3339 time", *i.ClosedAt)
		}
	}
	if i.Version < 1 {
		return Invalidf("version %d, versions start at 1", i.Version)
	}
	return nil
}

// Normalize puts a record into canonical form: nil slices become empty,
// sets are sorted and de-duplicated, times are re-rendered in UTC at second
// precision. Two records with the same content normalize to the same bytes.
func (i *Issue) Normalize() {
	i.Labels = sortedSet(i.Labels)
	i.Decisions = sortedSet(i.Decisions)
	slices.SortFunc(i.Decisions, compareDecision)
	i.Deps = slices.Clone(i.Deps)
	slices.SortFunc(i.Deps, func(a, b Dep) int {
		if c := strings.Compare(string(a.Type), string(b.Type)); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	i.Deps = slices.Compact(i.Deps)
	if i.Deps == nil {
		i.Deps = []Dep{}
	}
	i.Comments = slices.Clone(i.Comments)
	for k := range i.Comments {
		i.Comments[k].Time = canonTime(i.Comments[k].Time)
	}
	// Stable: two comments in the same second keep the order they were made.
	slices.SortStableFunc(i.Comments, func(a, b Comment) int { return strings.Compare(a.Time, b.Time) })
	if i.Comments == nil {
		i.Comments = []Comment{}
	}
	i.CreatedAt = canonTime(i.CreatedAt)
	i.UpdatedAt = canonTime(i.UpdatedAt)
	if i.ClosedAt != nil {
		s := canonTime(*i.ClosedAt)
		i.ClosedAt = &s
	}
}

func canonTime(s string) string {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return s // Validate reports it
	}
	return FormatTime(t)
}

func sortedSet(xs []string) []string {
	out := slices.Clone(xs)
	slices.Sort(out)
	out = slices.Compact(out)
	if out == nil {
		out = []string{}
	}
	return out
}

// compareDecision orders D2 before D10.
func compareDecision(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}

// Clone returns a deep copy of i.
func (i Issue) Clone() Issue {
	i.Labels = slices.Clone(i.Labels)
	i.Decisions = slices.Clone(i.Decisions)
	i.Deps = slices.Clone(i.Deps)
	i.Comments = slices.Clone(i.Comments)
	if i.ClosedAt != nil {
		s := *i.ClosedAt
		i.ClosedAt = &s
	}
	return i
}

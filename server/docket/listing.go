package docket

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// View is which listing a page belongs to.
type View string

// The listings. A cursor from one view or sort is refused by another.
const (
	// ViewList: the query's statuses, or every unfinished status.
	ViewList View = "list"
	// ViewReady: statuses mapped onto the open class that nothing
	// unfinished blocks.
	ViewReady View = "ready"
	// ViewBlocked: unfinished issues with a blocked-class status or an
	// unfinished blocker, directly or through a parent.
	ViewBlocked View = "blocked"
	// ViewSearch: every status, filtered by the query's text.
	ViewSearch View = "search"
	// ViewAll: list --all, every status.
	ViewAll View = "all"
)

// Page is one page of index rows.
type Page struct {
	Rows []Row `json:"rows"`
	// Total counts every row the query selects; More the ones after this
	// page.
	Total int `json:"total"`
	More  int `json:"more"`
	// Next resumes after this page; "" on the last page.
	Next string `json:"next,omitempty"`
}

// DefaultLimit is the page size of list, ready, blocked and search when
// none is given; MaxLimit the largest an agent may ask for (the CLI's
// --limit 0 means all).
const (
	DefaultLimit = 50
	MaxLimit     = 500
)

// ArgError names the argument (flag or tool parameter) whose value is
// wrong, so each front end can say it its own way: --status for the CLI,
// status for an MCP tool.
type ArgError struct {
	Arg string
	Err error
}

func (e *ArgError) Error() string {
	return e.Arg + ": " + MessageOf(e.Err)
}

// Unwrap returns the cause (an ErrInvalid).
func (e *ArgError) Unwrap() error { return e.Err }

// ArgErr wraps err (when not nil) as an error of the argument arg.
func ArgErr(arg string, err error) error {
	if err == nil {
		return nil
	}
	return &ArgError{Arg: arg, Err: err}
}

// ListParams are the arguments of list, ready, blocked and search, as the
// CLI's flags and the MCP tools' parameters give them. Both validate them
// here, so they accept and refuse exactly the same values.
type ListParams struct {
	Statuses []string
	All      bool
	Type     string
	Label    string
	Decision string
	// Priority, when set, selects issues of that priority only.
	Priority *int
	// Assignee, when set, selects the issues that assignee holds.
	Assignee string
	Text     string
	Sort     string
	Limit    int
	Cursor   string
	// Fields selects the record keys to print; empty means the row columns.
	Fields []string
}

// RowFields are the keys a listing serves from index columns.
var RowFields = []string{"id", "title", "status", "type", "priority", "created_at", "updated_at"}

// RecordFields are the keys --fields may name: every key of the record.
var RecordFields = []string{"id", "title", "description", "status", "type", "priority", "assignee", "labels", "decisions", "deps", "comments", "created_at", "updated_at", "closed_at", "close_reason", "version", "schema", "extra"}

// NeedsRecords reports whether the fields ask for more than the row
// columns, so full records must be decoded.
func (p ListParams) NeedsRecords() bool {
	for _, f := range p.Fields {
		if !slices.Contains(RowFields, f) {
			return true
		}
	}
	return false
}

// Query validates the parameters and returns the index query.
func (p ListParams) Query() (Query, error) {
	var q Query
	var errs []error
	for _, s := range p.Statuses {
		s = strings.TrimSpace(s)
		if err := CheckStatusToken(s); err != nil {
			errs = append(errs, ArgErr("status", err))
			continue
		}
		q.Statuses = append(q.Statuses, Status(s))
	}
	if p.All && len(q.Statuses) > 0 {
		errs = append(errs, ArgErr("all", Invalidf("give all or status, not both")))
	}
	if p.Type != "" {
		if err := CheckTypeToken(p.Type); err != nil {
			errs = append(errs, ArgErr("type", err))
		}
		q.Type = Type(p.Type)
	}
	if p.Label != "" {
		errs = append(errs, ArgErr("label", CheckLabel(p.Label)))
		q.Label = p.Label
	}
	if p.Decision != "" {
		errs = append(errs, ArgErr("decision", CheckDecision(p.Decision)))
		q.Decision = p.Decision
	}
	if p.Assignee != "" {
		errs = append(errs, ArgErr("assignee", CheckAssignee(p.Assignee)))
		q.Assignee = p.Assignee
	}
	if p.Priority != nil {
		errs = append(errs, ArgErr("priority", CheckPriority(*p.Priority)))
		q.Priority = p.Priority
	}
	q.Text = strings.TrimSpace(p.Text)
	if len(q.Text) > 500 {
		errs = append(errs, ArgErr("query", Invalidf("%d bytes: keep it under 500", len(q.Text))))
	}
	s, err := ParseSort(p.Sort)
	errs = append(errs, ArgErr("sort", err))
	q.Sort = s
	if p.Limit < 0 {
		errs = append(errs, ArgErr("limit", Invalidf("%d: use 0 for all, or a positive number", p.Limit)))
	}
	q.Limit = p.Limit
	for _, f := range p.Fields {
		if !slices.Contains(RecordFields, f) {
			errs = append(errs, ArgErr("fields", Invalidf("%q: use any of %s", f, strings.Join(RecordFields, ", "))))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return q, err
	}
	return q, nil
}

// MoreLine is what a listing says after a page that is not the last.
func MoreLine(p Page, cursorFlag, limitFlag string) string {
	if p.More == 0 {
		return ""
	}
	return fmt.Sprintf("%d more; %s 0 for all, or %s %s for the next page", p.More, limitFlag, cursorFlag, p.Next)
}

// Check validates what a caller supplies to create an issue, naming the
// argument of each problem: the CLI and the MCP tools both call it.
func (n NewIssue) Check() error {
	var errs []error
	errs = append(errs, ArgErr("title", CheckTitle(n.Title)))
	if n.Type != "" {
		_, err := ParseType(string(n.Type))
		errs = append(errs, ArgErr("type", err))
	}
	errs = append(errs, ArgErr("priority", CheckPriority(n.Priority)))
	for _, l := range n.Labels {
		errs = append(errs, ArgErr("labels", CheckLabel(l)))
	}
	for _, d := range n.Decisions {
		errs = append(errs, ArgErr("decisions", CheckDecision(d)))
	}
	return errors.Join(errs...)
}

// Check validates a patch, naming the argument of each problem.
func (p Patch) Check() error {
	var errs []error
	if p.Title != nil {
		errs = append(errs, ArgErr("title", CheckTitle(*p.Title)))
	}
	if p.Status != nil {
		_, err := ParseSettable(string(*p.Status))
		errs = append(errs, ArgErr("status", err))
	}
	if p.Type != nil {
		_, err := ParseType(string(*p.Type))
		errs = append(errs, ArgErr("type", err))
	}
	if p.Priority != nil {
		errs = append(errs, ArgErr("priority", CheckPriority(*p.Priority)))
	}
	if p.Assignee != nil && *p.Assignee != "" {
		errs = append(errs, ArgErr("assignee", CheckAssignee(*p.Assignee)))
	}
	for _, l := range append(append([]string{}, p.AddLabels...), p.RemoveLabels...) {
		errs = append(errs, ArgErr("labels", CheckLabel(l)))
	}
	for _, d := range append(append([]string{}, p.AddDecisions...), p.RemoveDecisions...) {
		errs = append(errs, ArgErr("decisions", CheckDecision(d)))
	}
	return errors.Join(errs...)
}

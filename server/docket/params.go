package docket

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/claimslint/claimslint/server"
)

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

func (e *ArgError) Error() string { return e.Arg + ": " + strings.TrimPrefix(e.Err.Error(), server.ErrInvalid.Error()+": ") }

// Unwrap returns the cause (an ErrInvalid).
func (e *ArgError) Unwrap() error { return e.Err }

func argErr(arg string, err error) error {
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
var RecordFields = []string{"id", "title", "description", "status", "type", "priority", "labels", "decisions", "deps", "comments", "created_at", "updated_at", "closed_at", "close_reason", "version", "schema", "extra"}

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
func (p ListParams) Query() (server.Query, error) {
	var q server.Query
	var errs []error
	for _, s := range p.Statuses {
		s = strings.TrimSpace(s)
		if err := server.CheckStatusToken(s); err != nil {
			errs = append(errs, argErr("status", err))
			continue
		}
		q.Statuses = append(q.Statuses, server.Status(s))
	}
	if p.All && len(q.Statuses) > 0 {
		errs = append(errs, argErr("all", server.Invalidf("give all or status, not both")))
	}
	if p.Type != "" {
		if err := server.CheckTypeToken(p.Type); err != nil {
			errs = append(errs, argErr("type", err))
		}
		q.Type = server.Type(p.Type)
	}
	if p.Label != "" {
		errs = append(errs, argErr("label", server.CheckLabel(p.Label)))
		q.Label = p.Label
	}
	if p.Decision != "" {
		errs = append(errs, argErr("decision", server.CheckDecision(p.Decision)))
		q.Decision = p.Decision
	}
	q.Text = strings.TrimSpace(p.Text)
	if len(q.Text) > 500 {
		errs = append(errs, argErr("query", server.Invalidf("%d bytes: keep it under 500", len(q.Text))))
	}
	s, err := server.ParseSort(p.Sort)
	errs = append(errs, argErr("sort", err))
	q.Sort = s
	if p.Limit < 0 {
		errs = append(errs, argErr("limit", server.Invalidf("%d: use 0 for all, or a positive number", p.Limit)))
	}
	q.Limit = p.Limit
	for _, f := range p.Fields {
		if !slices.Contains(RecordFields, f) {
			errs = append(errs, argErr("fields", server.Invalidf("%q: use any of %s", f, strings.Join(RecordFields, ", "))))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return q, err
	}
	return q, nil
}

// Listing validates p and returns one page of view.
func (s *Service) Listing(ctx context.Context, view View, p ListParams) (Page, error) {
	q, err := p.Query()
	if err != nil {
		return Page{}, err
	}
	if view == ViewList && p.All {
		q.Exclude = nil
		q.Statuses = nil
		p, err := s.Page(ctx, q, viewAll, p.Cursor)
		return p, argCursor(err)
	}
	if view == ViewSearch && len(server.SearchWords(q.Text)) == 0 {
		return Page{}, argErr("query", server.Invalidf("has no words: give letters or digits to look for in titles and descriptions"))
	}
	page, err := s.Page(ctx, q, view, p.Cursor)
	return page, argCursor(err)
}

func argCursor(err error) error {
	if err != nil && strings.Contains(err.Error(), "cursor") {
		var ae *ArgError
		if !errors.As(err, &ae) {
			return &ArgError{Arg: "cursor", Err: err}
		}
	}
	return err
}

// MoreLine is what a listing says after a page that is not the last.
func MoreLine(p Page, cursorFlag, limitFlag string) string {
	if p.More == 0 {
		return ""
	}
	return fmt.Sprintf("%d more; %s 0 for all, or %s %s for the next page", p.More, limitFlag, cursorFlag, p.Next)
}

package docket

import (
	"context"
	"errors"
	"strings"
)

// Listing validates p and returns one page of view.
func (s *Service) Listing(ctx context.Context, view View, p ListParams) (Page, error) {
	q, err := p.Query()
	if err != nil {
		return Page{}, err
	}
	if view == ViewList && p.All {
		q.Exclude = nil
		q.Statuses = nil
		p, err := s.Page(ctx, q, ViewAll, p.Cursor)
		return p, argCursor(err)
	}
	if view == ViewSearch && len(SearchWords(q.Text)) == 0 {
		return Page{}, ArgErr("query", Invalidf("has no words: give letters or digits to look for in titles and descriptions"))
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

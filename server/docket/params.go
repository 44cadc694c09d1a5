package docket

import (
	"context"
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
		return s.Page(ctx, q, ViewAll, p.Cursor)
	}
	if view == ViewSearch && len(SearchWords(q.Text)) == 0 {
		return Page{}, ArgErr("query", Invalidf("has no words: give letters or digits to look for in titles and descriptions"))
	}
	page, err := s.Page(ctx, q, view, p.Cursor)
	return page, err
}

package docket

import (
	"context"
	"errors"
	"strings"

	"github.com/claimslint/claimslint/server"
)

// Listing validates p and returns one page of view.
func (s *Service) Listing(ctx context.Context, view server.View, p server.ListParams) (server.Page, error) {
	q, err := p.Query()
	if err != nil {
		return server.Page{}, err
	}
	if view == server.ViewList && p.All {
		q.Exclude = nil
		q.Statuses = nil
		p, err := s.Page(ctx, q, server.ViewAll, p.Cursor)
		return p, argCursor(err)
	}
	if view == server.ViewSearch && len(server.SearchWords(q.Text)) == 0 {
		return server.Page{}, server.ArgErr("query", server.Invalidf("has no words: give letters or digits to look for in titles and descriptions"))
	}
	page, err := s.Page(ctx, q, view, p.Cursor)
	return page, argCursor(err)
}

func argCursor(err error) error {
	if err != nil && strings.Contains(err.Error(), "cursor") {
		var ae *server.ArgError
		if !errors.As(err, &ae) {
			return &server.ArgError{Arg: "cursor", Err: err}
		}
	}
	return err
}

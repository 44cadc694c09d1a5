package docket

import (
	"context"
	"encoding/base64"
	"encoding/json"

	"github.com/claimslint/claimslint/server"
)

type cursor struct {
	View     server.View `json:"v"`
	Sort     server.Sort `json:"s"`
	Priority int         `json:"p,omitempty"`
	Time     string      `json:"t,omitempty"`
	ID       string      `json:"i"`
}

func encodeCursor(v server.View, s server.Sort, k server.Key) string {
	b, _ := json.Marshal(cursor{View: v, Sort: s, Priority: k.Priority, Time: k.Time, ID: k.ID})
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeCursor(v server.View, s server.Sort, c string) (*server.Key, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	var cur cursor
	if err == nil {
		err = json.Unmarshal(b, &cur)
	}
	if err != nil || cur.ID == "" {
		return nil, server.Invalidf("cursor %q is not one docket gave out: pass the next cursor of the previous page unchanged, or none for the first page", c)
	}
	if cur.View != v || cur.Sort != s {
		return nil, server.Invalidf("cursor is for %s sorted by %s, not %s sorted by %s: start again without a cursor", cur.View, cur.Sort, v, s)
	}
	return &server.Key{Priority: cur.Priority, Time: cur.Time, ID: cur.ID}, nil
}

// Page returns one page of view's rows from index columns, without
// decoding a record: at most q.Limit rows (all when 0), after cursor ("" for
// the first page), with the total and the cursor of the next page.
func (s *Service) Page(ctx context.Context, q server.Query, view server.View, cursor string) (server.Page, error) {
	var err error
	if q.Sort, err = server.ParseSort(string(q.Sort)); err != nil {
		return server.Page{}, err
	}
	if q.Limit < 0 {
		return server.Page{}, server.Invalidf("limit %d: use 0 for all, or a positive number", q.Limit)
	}
	if cursor != "" {
		if q.After, err = decodeCursor(view, q.Sort, cursor); err != nil {
			return server.Page{}, err
		}
	}
	switch view {
	case server.ViewList:
		s.unfinished(&q)
	case server.ViewReady:
		q.Statuses, q.Exclude, q.Ready = s.opts.Workflow.Of(server.ClassOpen), nil, true
	case server.ViewBlocked:
		q.Statuses, q.Blocked = nil, true
		q.Exclude = s.opts.Workflow.Of(server.ClassClosed)
	case server.ViewAll:
		q.Statuses, q.Exclude = nil, nil
	case server.ViewSearch:
		if len(server.SearchWords(q.Text)) == 0 {
			return server.Page{}, server.Invalidf("search needs words to look for")
		}
	default:
		return server.Page{}, server.Invalidf("view %q: use list, ready, blocked or search", view)
	}
	q = s.query(q)
	var p server.Page
	err = s.read(ctx, func(r Reader) error {
		var err error
		if p.Rows, err = r.Rows(q); err != nil {
			return err
		}
		all := q
		all.After = nil
		if p.Total, err = r.Count(all); err != nil {
			return err
		}
		if q.After != nil {
			rest, err := r.Count(q)
			if err != nil {
				return err
			}
			p.More = rest - len(p.Rows)
		} else {
			p.More = p.Total - len(p.Rows)
		}
		return nil
	})
	if err != nil {
		return server.Page{}, err
	}
	if p.More < 0 {
		p.More = 0
	}
	if p.More > 0 && len(p.Rows) > 0 {
		p.Next = encodeCursor(view, q.Sort, server.KeyOf(p.Rows[len(p.Rows)-1], q.Sort))
	}
	return p, nil
}

// Records returns the full records of rows, in the rows' order.
func (s *Service) Records(ctx context.Context, rows []server.Row) ([]server.Issue, error) {
	out := make([]server.Issue, 0, len(rows))
	err := s.read(ctx, func(r Reader) error {
		for _, row := range rows {
			i, err := r.Get(row.ID)
			if err != nil {
				return err
			}
			out = append(out, i)
		}
		return nil
	})
	return out, err
}

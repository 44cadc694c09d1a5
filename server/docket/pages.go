package docket

import (
	"context"
	"encoding/base64"
	"encoding/json"
)

type cursor struct {
	View     View   `json:"v"`
	Sort     Sort   `json:"s"`
	Priority int    `json:"p,omitempty"`
	Time     string `json:"t,omitempty"`
	ID       string `json:"i"`
}

func encodeCursor(v View, s Sort, k Key) string {
	b, _ := json.Marshal(cursor{View: v, Sort: s, Priority: k.Priority, Time: k.Time, ID: k.ID})
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeCursor(v View, s Sort, c string) (*Key, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	var cur cursor
	if err == nil {
		err = json.Unmarshal(b, &cur)
	}
	if err != nil || cur.ID == "" {
		return nil, ArgErr("cursor", Invalidf("cursor %q is not one docket gave out: pass the next cursor of the previous page unchanged, or none for the first page", c))
	}
	if cur.View != v || cur.Sort != s {
		return nil, ArgErr("cursor", Invalidf("cursor is for %s sorted by %s, not %s sorted by %s: start again without a cursor", cur.View, cur.Sort, v, s))
	}
	return &Key{Priority: cur.Priority, Time: cur.Time, ID: cur.ID}, nil
}

// Page returns one page of view's rows from index columns, without
// decoding a record: at most q.Limit rows (all when 0), after cursor ("" for
// the first page), with the total and the cursor of the next page.
func (s *Service) Page(ctx context.Context, q Query, view View, cursor string) (Page, error) {
	var err error
	if q.Sort, err = ParseSort(string(q.Sort)); err != nil {
		return Page{}, err
	}
	if q.Limit < 0 {
		return Page{}, Invalidf("limit %d: use 0 for all, or a positive number", q.Limit)
	}
	if cursor != "" {
		if q.After, err = decodeCursor(view, q.Sort, cursor); err != nil {
			return Page{}, err
		}
	}
	switch view {
	case ViewList:
		s.unfinished(&q)
	case ViewReady:
		q.Statuses, q.Exclude, q.Ready = s.opts.Workflow.Of(ClassOpen), nil, true
	case ViewBlocked:
		q.Statuses, q.Blocked = nil, true
		q.Exclude = s.opts.Workflow.Of(ClassClosed)
	case ViewAll:
		q.Statuses, q.Exclude = nil, nil
	case ViewSearch:
		if len(SearchWords(q.Text)) == 0 {
			return Page{}, Invalidf("search needs words to look for")
		}
	default:
		return Page{}, Invalidf("view %q: use list, ready, blocked or search", view)
	}
	q = s.query(q)
	var p Page
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
		return Page{}, err
	}
	if p.More < 0 {
		p.More = 0
	}
	if p.More > 0 && len(p.Rows) > 0 {
		p.Next = encodeCursor(view, q.Sort, KeyOf(p.Rows[len(p.Rows)-1], q.Sort))
	}
	return p, nil
}

// Records returns the full records of rows, in the rows' order.
func (s *Service) Records(ctx context.Context, rows []Row) ([]Issue, error) {
	out := make([]Issue, 0, len(rows))
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

package mcp

import (
	"encoding/json"
	"strconv"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/mcp/wire"
)

// sortedOutput is a tool output that writes its own structured content:
// the bytes sortKeys(json.Marshal(o)) would give, built in one pass with
// no Marshal, no reflection and no second scan (D82). An error means the
// output is built the general way instead, which says what is wrong.
type sortedOutput interface {
	appendSorted(b []byte) ([]byte, error)
}

// encodeOutput is a tool output's structured content as go-sdk sends it:
// every object's members in key order (D82).
func encodeOutput(o any) ([]byte, error) {
	if s, ok := o.(sortedOutput); ok {
		if b, err := s.appendSorted(nil); err == nil {
			return b, nil
		}
	}
	b, err := json.Marshal(o)
	if err != nil {
		return nil, err
	}
	return sortKeys(b)
}

// appendSorted writes {"issue":record} with the record's keys in order,
// as sortKeys(json.Marshal(o)) does; TestIssueOutBytes and
// FuzzIssueOutBytes hold the two to the same bytes.
func (o IssueOut) appendSorted(b []byte) ([]byte, error) {
	i := &o.Issue
	if b == nil {
		b = make([]byte, 0, 320+len(i.Title)+len(i.Description)+64*len(i.Comments))
	}
	b = append(b, `{"issue":{`...)
	if i.Assignee != "" {
		b = wire.AppendJSONString(append(b, `"assignee":`...), i.Assignee)
		b = append(b, ',')
	}
	b = wire.AppendJSONString(append(b, `"close_reason":`...), i.CloseReason)
	b = append(b, `,"closed_at":`...)
	if i.ClosedAt == nil {
		b = append(b, "null"...)
	} else {
		b = wire.AppendJSONString(b, *i.ClosedAt)
	}
	b = append(b, `,"comments":`...)
	b, err := appendComments(b, i.Comments)
	if err != nil {
		return nil, err
	}
	b = wire.AppendJSONString(append(b, `,"created_at":`...), i.CreatedAt)
	b = appendStrings(append(b, `,"decisions":`...), i.Decisions)
	b = append(b, `,"deps":`...)
	if b, err = appendDeps(b, i.Deps); err != nil {
		return nil, err
	}
	b = wire.AppendJSONString(append(b, `,"description":`...), i.Description)
	if i.Extra != "" {
		if b, err = appendRaw(append(b, `,"extra":`...), i.Extra); err != nil {
			return nil, err
		}
	}
	b = wire.AppendJSONString(append(b, `,"id":`...), i.ID)
	b = appendStrings(append(b, `,"labels":`...), i.Labels)
	b = strconv.AppendInt(append(b, `,"priority":`...), int64(i.Priority), 10)
	b = strconv.AppendInt(append(b, `,"schema":`...), int64(i.Schema), 10)
	b = wire.AppendJSONString(append(b, `,"status":`...), string(i.Status))
	b = wire.AppendJSONString(append(b, `,"title":`...), i.Title)
	b = wire.AppendJSONString(append(b, `,"type":`...), string(i.Type))
	b = wire.AppendJSONString(append(b, `,"updated_at":`...), i.UpdatedAt)
	b = strconv.AppendInt(append(b, `,"version":`...), i.Version, 10)
	return append(b, "}}"...), nil
}

// appendComments writes comments with each one's keys in order (author,
// extra, text, time); nil is null, as json.Marshal has it.
func appendComments(b []byte, cs []docket.Comment) ([]byte, error) {
	if cs == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for k, c := range cs {
		if k > 0 {
			b = append(b, ',')
		}
		b = wire.AppendJSONString(append(b, `{"author":`...), c.Author)
		if c.Extra != "" {
			var err error
			if b, err = appendRaw(append(b, `,"extra":`...), c.Extra); err != nil {
				return nil, err
			}
		}
		b = wire.AppendJSONString(append(b, `,"text":`...), c.Text)
		b = wire.AppendJSONString(append(b, `,"time":`...), c.Time)
		b = append(b, '}')
	}
	return append(b, ']'), nil
}

// appendDeps writes deps with each one's keys in order (extra, id, type).
func appendDeps(b []byte, ds []docket.Dep) ([]byte, error) {
	if ds == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for k, d := range ds {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		if d.Extra != "" {
			var err error
			if b, err = appendRaw(append(b, `"extra":`...), d.Extra); err != nil {
				return nil, err
			}
			b = append(b, ',')
		}
		b = wire.AppendJSONString(append(b, `"id":`...), d.ID)
		b = wire.AppendJSONString(append(b, `,"type":`...), string(d.Type))
		b = append(b, '}')
	}
	return append(b, ']'), nil
}

// appendRaw writes an imported record's foreign fields as json.Marshal and
// then sortKeys would: a rare case, so the general way.
func appendRaw(b []byte, r docket.Raw) ([]byte, error) {
	m, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	s, err := sortKeys(m)
	if err != nil {
		return nil, err
	}
	return append(b, s...), nil
}

func appendStrings(b []byte, ss []string) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for k, s := range ss {
		if k > 0 {
			b = append(b, ',')
		}
		b = wire.AppendJSONString(b, s)
	}
	return append(b, ']')
}

package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
)

// sortKeys re-emits the JSON value b with every object's members in key
// order, its whitespace dropped and, of members with the same key, only
// the last kept: the bytes go-sdk sends for a tool's output, which it
// decodes into a Go value and encodes again (D82), without building that
// value. Unlike the round trip it keeps numbers and strings as written (1.0
// stays 1.0, "\u0041" stays so), which json.Marshal's output already is.
// b must be valid JSON; anything else is an error.
func sortKeys(b []byte) ([]byte, error) {
	s := keySorter{in: b, out: make([]byte, 0, len(b))}
	if err := s.value(0); err != nil {
		return nil, err
	}
	if s.ws(); s.pos != len(s.in) {
		return nil, errSortKeys
	}
	return s.out, nil
}

var errSortKeys = errors.New("sort keys: not one JSON value")

// maxSortDepth bounds the nesting sortKeys follows, as encoding/json's
// decoder bounds its own.
const maxSortDepth = 10000

type keySorter struct {
	in, out []byte
	pos     int
}

// member is one object member already written to out: its key, decoded
// (a slice of the input when it holds no escape, so no copy), and the
// bytes of `"key":value` in out.
type member struct {
	key        []byte
	start, end int
}

// inlineMembers is how many members an object's list holds before it
// grows onto the heap: a docket issue has fewer.
const inlineMembers = 24

func (s *keySorter) ws() {
	for s.pos < len(s.in) {
		switch s.in[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

func (s *keySorter) value(depth int) error {
	if depth > maxSortDepth {
		return errSortKeys
	}
	s.ws()
	if s.pos >= len(s.in) {
		return errSortKeys
	}
	switch c := s.in[s.pos]; {
	case c == '{':
		return s.object(depth)
	case c == '[':
		s.out = append(s.out, '[')
		s.pos++
		s.ws()
		if s.pos < len(s.in) && s.in[s.pos] == ']' {
			s.pos++
			s.out = append(s.out, ']')
			return nil
		}
		for {
			if err := s.value(depth + 1); err != nil {
				return err
			}
			s.ws()
			if s.pos >= len(s.in) {
				return errSortKeys
			}
			c := s.in[s.pos]
			s.pos++
			s.out = append(s.out, c)
			if c == ']' {
				return nil
			}
			if c != ',' {
				return errSortKeys
			}
		}
	case c == '"':
		start := s.pos
		if err := s.str(); err != nil {
			return err
		}
		s.out = append(s.out, s.in[start:s.pos]...)
		return nil
	default:
		start := s.pos
		for s.pos < len(s.in) {
			switch s.in[s.pos] {
			case ',', ']', '}', ' ', '\t', '\n', '\r':
				goto done
			}
			s.pos++
		}
	done:
		lit := s.in[start:s.pos]
		if len(lit) == 0 || !json.Valid(lit) {
			return errSortKeys
		}
		s.out = append(s.out, lit...)
		return nil
	}
}

// str moves past one string, escapes included. A string that is not
// plain printable ASCII is checked as JSON.
func (s *keySorter) str() error {
	start := s.pos
	s.pos++ // the opening quote
	plain := true
	for s.pos < len(s.in) {
		switch c := s.in[s.pos]; {
		case c == '\\':
			plain = false
			s.pos += 2
		case c == '"':
			s.pos++
			if !plain && !json.Valid(s.in[start:s.pos]) {
				return errSortKeys
			}
			return nil
		default:
			plain = plain && c >= 0x20 && c < 0x80
			s.pos++
		}
	}
	return errSortKeys
}

func (s *keySorter) object(depth int) error {
	s.pos++
	s.ws()
	base := len(s.out)
	s.out = append(s.out, '{')
	if s.pos < len(s.in) && s.in[s.pos] == '}' {
		s.pos++
		s.out = append(s.out, '}')
		return nil
	}
	var inline [inlineMembers]member
	ms := inline[:0]
	for {
		s.ws()
		if s.pos >= len(s.in) || s.in[s.pos] != '"' {
			return errSortKeys
		}
		kstart := s.pos
		if err := s.str(); err != nil {
			return err
		}
		raw := s.in[kstart:s.pos]
		key := raw[1 : len(raw)-1]
		if bytes.IndexByte(raw, '\\') >= 0 {
			var dec string
			if err := json.Unmarshal(raw, &dec); err != nil {
				return errSortKeys
			}
			key = []byte(dec)
		}
		s.ws()
		if s.pos >= len(s.in) || s.in[s.pos] != ':' {
			return errSortKeys
		}
		s.pos++
		if len(ms) > 0 {
			s.out = append(s.out, ',')
		}
		start := len(s.out)
		s.out = append(append(s.out, raw...), ':')
		if err := s.value(depth + 1); err != nil {
			return err
		}
		ms = append(ms, member{key, start, len(s.out)})
		s.ws()
		if s.pos >= len(s.in) {
			return errSortKeys
		}
		c := s.in[s.pos]
		s.pos++
		if c == '}' {
			break
		}
		if c != ',' {
			return errSortKeys
		}
	}
	sorted := slices.IsSortedFunc(ms, func(a, b member) int { return cmpKey(a.key, b.key) })
	if sorted && !hasDupKeys(ms) {
		s.out = append(s.out, '}') // in order as written: out holds it already
		return nil
	}
	slices.SortStableFunc(ms, func(a, b member) int { return cmpKey(a.key, b.key) })
	// Of equal keys keep the last, as decoding into a map does.
	kept := ms[:0]
	for k, m := range ms {
		if k+1 < len(ms) && bytes.Equal(ms[k+1].key, m.key) {
			continue
		}
		kept = append(kept, m)
	}
	return s.rewrite(base, kept)
}

// rewrite replaces out[base:] (the '{' and the members written so far)
// with the object of ms, in their order.
func (s *keySorter) rewrite(base int, ms []member) error {
	body := slices.Clone(s.out[base:])
	s.out = append(s.out[:base], '{')
	for k, m := range ms {
		if k > 0 {
			s.out = append(s.out, ',')
		}
		s.out = append(s.out, body[m.start-base:m.end-base]...)
	}
	s.out = append(s.out, '}')
	return nil
}

func hasDupKeys(ms []member) bool {
	for k := 1; k < len(ms); k++ {
		if bytes.Equal(ms[k].key, ms[k-1].key) {
			return true
		}
	}
	return false
}

// cmpKey orders keys as encoding/json orders a map's: by their bytes.
func cmpKey(a, b []byte) int { return bytes.Compare(a, b) }

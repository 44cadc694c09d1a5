package docket

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Raw is a JSON object kept as its canonical text (keys sorted, no
// insignificant space, no HTML escaping), or "" for none. It is a string so
// that records stay comparable; an empty Raw is omitted from a record.
type Raw string

// MarshalJSON writes the object as stored.
func (r Raw) MarshalJSON() ([]byte, error) {
	if r == "" {
		return []byte("{}"), nil
	}
	return []byte(r), nil
}

// UnmarshalJSON accepts an object and stores it canonically; an empty
// object is stored as "".
func (r *Raw) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("extra: want a JSON object: %w", err)
	}
	c, err := RawOf(m)
	if err != nil {
		return err
	}
	*r = c
	return nil
}

// RawOf returns the canonical text of the object m, or "" when m is
// empty. Values keep their content; only insignificant space goes.
func RawOf(m map[string]json.RawMessage) (Raw, error) {
	if len(m) == 0 {
		return "", nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return "", fmt.Errorf("extra: %w", err)
	}
	return Raw(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), nil
}

// Map decodes r into its fields.
func (r Raw) Map() map[string]json.RawMessage {
	m := map[string]json.RawMessage{}
	if r != "" {
		_ = json.Unmarshal([]byte(r), &m) // r was produced by RawOf
	}
	return m
}

package docket

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/claimslint/claimslint/internal/trackerformat"
)

// MaxLine is the longest export line docket reads (trackerformat.MaxLine, 16
// MiB). A longer line is reported, not truncated.
const MaxLine = trackerformat.MaxLine

// MarshalLine returns the canonical one-line encoding of a normalized issue,
// without the trailing newline. HTML escaping is off so that a title with
// "<" reads as written; it does not affect determinism.
func MarshalLine(i Issue) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(i); err != nil {
		return nil, fmt.Errorf("encode %s: %w", i.ID, err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// normalizedByID returns normalized copies of issues, sorted by id.
func normalizedByID(issues []Issue) []Issue {
	sorted := make([]Issue, len(issues))
	for k, i := range issues {
		i = i.Clone()
		i.Normalize()
		sorted[k] = i
	}
	slices.SortFunc(sorted, func(a, b Issue) int { return strings.Compare(a.ID, b.ID) })
	return sorted
}

// Canonical returns the export bytes for a set of issues: each normalized,
// one per line, sorted by id, every line ending in a newline. The same set
// always yields the same bytes.
func Canonical(issues []Issue) ([]byte, error) {
	sorted := normalizedByID(issues)
	var out bytes.Buffer
	for k, i := range sorted {
		if k > 0 && sorted[k-1].ID == i.ID {
			return nil, fmt.Errorf("canonical export: id %s appears twice", i.ID)
		}
		line, err := MarshalLine(i)
		if err != nil {
			return nil, err
		}
		out.Write(line)
		out.WriteByte('\n')
	}
	return out.Bytes(), nil
}

// Hash is the content hash of an export, used to notice that the file
// changed under the index (a pull, a checkout, a merge).
func Hash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// LineError says which line of an export or import is bad and why.
type LineError struct {
	Path string
	Line int
	Err  error
}

func (e *LineError) Error() string {
	return fmt.Sprintf("%s:%d: %v", e.Path, e.Line, e.Err)
}

// Unwrap returns the cause.
func (e *LineError) Unwrap() error { return e.Err }

// Is makes every line error an ErrInvalid: bad content, not a tool failure.
func (e *LineError) Is(target error) bool { return target == ErrInvalid }

// ReadJSONL decodes a docket export. Every line must be one JSON object
// with exactly the record's keys, valid by Validate; empty lines are
// skipped. prefix, when set, is the only id prefix accepted. The first bad
// line stops the read, so a caller applies all records or none.
func ReadJSONL(path string, r io.Reader, prefix string) ([]Issue, error) {
	var out []Issue
	seen := map[string]int{}
	err := eachLine(r, func(n int, line []byte) error {
		i, err := decodeLine(line)
		if err != nil {
			return &LineError{path, n, err}
		}
		if err := i.Validate(prefix); err != nil {
			return &LineError{path, n, err}
		}
		if first, dup := seen[i.ID]; dup {
			return &LineError{path, n, fmt.Errorf("id %s already on line %d", i.ID, first)}
		}
		seen[i.ID] = n
		i.Normalize()
		out = append(out, i)
		return nil
	})
	if err != nil {
		var le *LineError
		if errors.As(err, &le) {
			if le.Path == "" {
				le.Path = path
			}
			return nil, err
		}
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return out, nil
}

// decodeLine decodes one export line: one JSON object with exactly the
// record's keys (extra optional), and no other value after it.
func decodeLine(line []byte) (Issue, error) {
	var i Issue
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&i); err != nil {
		return i, fmt.Errorf("not a docket record: %v", err)
	}
	if dec.More() || trailing(dec) {
		return i, errors.New("more than one JSON value on the line")
	}
	if err := requireKeys(line); err != nil {
		return i, err
	}
	return i, nil
}

// recordKeys are the keys every record must carry, so that a hand edit that
// drops one is caught instead of read as a zero value.
var recordKeys = []string{"id", "title", "description", "status", "type", "priority", "labels", "decisions", "deps", "comments", "created_at", "updated_at", "closed_at", "close_reason", "version", "schema"}

func requireKeys(line []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil {
		return fmt.Errorf("not a JSON object: %v", err)
	}
	for _, k := range recordKeys {
		if _, ok := m[k]; !ok {
			return fmt.Errorf("missing key %q", k)
		}
	}
	return nil
}

func trailing(dec *json.Decoder) bool {
	var extra json.RawMessage
	return dec.Decode(&extra) != io.EOF
}

// eachLine calls fn with each non-blank line and its 1-based number
// (trackerformat.Lines), a line codec cannot read reported as a *LineError.
func eachLine(r io.Reader, fn func(n int, line []byte) error) error {
	err := trackerformat.Lines(r, fn)
	if ce, ok := err.(*trackerformat.LineError); ok {
		return &LineError{"", ce.Line, ce.Cause()}
	}
	return err
}

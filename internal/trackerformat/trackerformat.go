// Package trackerformat holds the facts of the tracker export formats docket and
// claimslint read: docket's JSONL, beads' issues.jsonl and the JSON array
// `gh issue list --json` prints. Their names, how a file's format is
// detected, how its records are walked with their line numbers, and the
// fields each format writes live here once; docket's import and export
// convert records to and from docket's record over these, and claimslint's
// tracker reader resolves ids over the same walkers. It imports nothing of
// docket's, so claimslint can import it.
package trackerformat

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// The names of the formats, as tracker.format and docket's --format name
// them (each format's value is in its own file).
const (
	Docket = "docket"
	Beads  = "beads"
	GitHub = "github"
)

// Format is one tracker export format (D103): its name, how a file in it
// is recognised, walked and read, and, for a format docket writes without
// a codec of its own, how records are written. Everything that handles
// formats iterates Formats: detection here, docket's import and export,
// claimslint's tracker reader, the configuration's check and help. A
// format is one file of this package holding its value, marked
// //registry:formats N, N its place in Formats (which listgen writes).
type Format struct {
	// Name is what tracker.format and --format say.
	Name string
	// Desc names a file in the format, in a sentence ("beads'
	// issues.jsonl shape").
	Desc string
	// Help is what help says of the format after its name.
	Help string
	// Why says how Detect recognises the format, for init --adopt's notes.
	Why string
	// Sniff reports whether a file whose first non-space byte starts t is
	// in the format (t is never empty). Detect asks the formats in the
	// order of Formats, and the first that says yes names the file.
	Sniff func(t []byte) bool
	// Walk calls fn with each record of data and the line it starts on.
	// A file that is not in the format at all is an error that Is
	// ErrNotInFormat; a record past reading stops the walk with a
	// *LineError; an error fn returns stops it too, as it is.
	Walk func(data []byte, fn func(line int, raw []byte) error) error
	// Read reads the fields both tools need of one record walked; its
	// error is the JSON (or other) decoding error, as it is.
	Read func(raw []byte) (Record, error)
	// Write writes records in the format, in the order given; nil for a
	// format docket only reads, or writes with a codec of its own.
	Write func(recs []Record) []byte
	// Noun names one record, after "is not" ("a JSON object").
	Noun string
	// Numbered: the format's ids are issue numbers (#123), not tracker ids
	// with a prefix; claimslint learns no prefix from such an export.
	Numbered bool
	// StrictTitles: docket refuses a record of this format whose title
	// breaks recordtext's rules, and so the whole export (D67).
	StrictTitles bool
	// Caveat, when set, says what is doubtful about an export of n
	// readable records of which open are open ("" when nothing is).
	Caveat func(n, open int) string
}

// Record is what both tools read of any record: its id, title, status (in
// lower case) and the decisions it says it carries.
type Record struct {
	ID, Title, Status string
	Decisions         []string
}

//go:generate go run ../listgen/cmd/listgen

// Lookup returns the format called name, or nil.
func Lookup(name string) *Format {
	for _, f := range Formats {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Known reports whether f names a format.
func Known(f string) bool { return Lookup(f) != nil }

// Names lists the formats' names, in the order of Formats.
func Names() []string {
	out := make([]string, len(Formats))
	for i, f := range Formats {
		out[i] = f.Name
	}
	return out
}

// OrList names the formats as messages do: "docket, beads or github".
func OrList() string {
	n := Names()
	if len(n) < 2 {
		return strings.Join(n, "")
	}
	return strings.Join(n[:len(n)-1], ", ") + " or " + n[len(n)-1]
}

// ErrNotInFormat is what a format's Walk returns (wrapped, or as a value
// whose Is says so) for a file that is not in the format at all.
var ErrNotInFormat = errors.New("not in the format")

// notIn is an ErrNotInFormat that says what the file is not.
type notIn string

func (e notIn) Error() string        { return string(e) }
func (e notIn) Is(target error) bool { return target == ErrNotInFormat }

// MaxLine bounds one line of a JSONL file: a record this long is not one
// anybody wrote, and a line without a bound costs its size in memory.
const MaxLine = 16 << 20

// LineError says which line of a file cannot be read and why.
type LineError struct {
	Line int
	// What the line was found not to be ("not a gh issue record"), or ""
	// when Err says it all; kept apart from Err so a reader can word the
	// cause its own way without cutting text (D101).
	What string
	Err  error
}

func (e *LineError) Error() string {
	if e.What != "" {
		return fmt.Sprintf("line %d: %s: %v", e.Line, e.What, e.Err)
	}
	return fmt.Sprintf("line %d: %v", e.Line, e.Err)
}

// Unwrap returns the cause.
func (e *LineError) Unwrap() error { return e.Err }

// Cause is the line's problem without its number: what it is not, then
// why.
func (e *LineError) Cause() error {
	if e.What != "" {
		return fmt.Errorf("%s: %w", e.What, e.Err)
	}
	return e.Err
}

// Lines calls fn with each non-blank line of a JSONL file (docket's or
// beads'), trimmed, and its 1-based number. A line over MaxLine stops the
// walk with a *LineError; so does an error fn returns, as it is.
func Lines(r io.Reader, fn func(n int, line []byte) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	n := 0
	for {
		line, err := readLine(br)
		if len(line) > 0 || err == nil {
			n++
			if t := bytes.TrimSpace(line); len(t) > 0 {
				if len(t) > MaxLine {
					return &LineError{Line: n, Err: fmt.Errorf("line is %d bytes, over the %d limit", len(t), MaxLine)}
				}
				if ferr := fn(n, t); ferr != nil {
					return ferr
				}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLine reads up to and without the next '\n', stopping early (and
// reporting the overlength through the caller) past MaxLine+1 bytes.
func readLine(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		buf = append(buf, chunk...)
		if err == bufio.ErrBufferFull {
			if len(buf) > MaxLine+1 {
				// Drain the rest of the line so the count stays right.
				for err == bufio.ErrBufferFull {
					_, err = br.ReadSlice('\n')
				}
				if err != nil && err != io.EOF {
					return buf, err
				}
				return buf, nil
			}
			continue
		}
		if err == nil {
			return buf[:len(buf)-1], nil
		}
		return buf, err
	}
}

// Detect names the format of a file: the first of Formats whose Sniff
// recognises it. An empty file holds nothing in any format and is the
// first format's; ok is false when no format recognises the file.
func Detect(data []byte) (format string, ok bool) {
	t := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(t) == 0 {
		return Formats[0].Name, true
	}
	for _, f := range Formats {
		if f.Sniff(t) {
			return f.Name, true
		}
	}
	return "", false
}

// firstObject returns the keys of the JSON object on t's first line, or
// ok false when that line is not one.
func firstObject(t []byte) (probe map[string]json.RawMessage, ok bool) {
	if t[0] != '{' {
		return nil, false
	}
	line, _, _ := bytes.Cut(t, []byte("\n"))
	return probe, json.Unmarshal(line, &probe) == nil
}

// jsonlRecord is the record of the JSONL formats (docket's and beads').
type jsonlRecord struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Status    string   `json:"status"`
	Decisions []string `json:"decisions"`
}

// walkLines is Walk for a JSONL format: Lines over data.
func walkLines(data []byte, fn func(line int, raw []byte) error) error {
	return Lines(bytes.NewReader(data), fn)
}

// readJSONL is Read for a JSONL format.
func readJSONL(raw []byte) (Record, error) {
	var r jsonlRecord
	if err := json.Unmarshal(raw, &r); err != nil {
		return Record{}, err
	}
	return Record{ID: r.ID, Title: r.Title, Status: strings.ToLower(r.Status), Decisions: r.Decisions}, nil
}

// IsNumbered reports whether the format called name numbers its ids
// (#123) rather than prefixing them; an unknown name does not.
func IsNumbered(name string) bool {
	f := Lookup(name)
	return f != nil && f.Numbered
}

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
	"slices"
	"strings"
)

// The formats, as tracker.format and docket import --format name them.
const (
	Docket = "docket"
	Beads  = "beads"
	GitHub = "github"
)

// Formats lists every format in the order messages name them.
var Formats = []string{Docket, Beads, GitHub}

// Known reports whether f names a format.
func Known(f string) bool { return slices.Contains(Formats, f) }

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

// Detect names the format of a file: a JSON array is gh's; a line holding
// docket's schema key is docket's; any other object per line is beads'.
// ok is false when the file holds no JSON object at all.
func Detect(data []byte) (format string, ok bool) {
	t := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(t) == 0 {
		return Docket, true // an empty file holds nothing in any format
	}
	if t[0] == '[' {
		return GitHub, true
	}
	if t[0] != '{' {
		return "", false
	}
	line, _, _ := bytes.Cut(t, []byte("\n"))
	var probe map[string]json.RawMessage
	if json.Unmarshal(line, &probe) != nil {
		return "", false
	}
	if _, ok := probe["schema"]; ok {
		return Docket, true
	}
	return Beads, true
}

// GitHubList is the command that exports every issue of a repository in
// the shape GitHub's format reads.
const GitHubList = "gh issue list --state all --limit 10000 --json number,title,state,labels"

// GitHubDefaultLimit is how many issues gh issue list prints without
// --limit: an export of exactly that many is probably cut short.
const GitHubDefaultLimit = 30

// ErrNotGitHubArray is what GitHubElements returns for a file that is not
// a JSON array at all.
var ErrNotGitHubArray = errors.New("not the JSON array that gh issue list --json prints")

// GitHubElements calls fn with each element of the JSON array gh issue
// list prints and the line it starts on. A file that is not an array is
// ErrNotGitHubArray; an element that is not JSON, or an array left open,
// stops the walk with a *LineError at its line (gh writes one array, so
// nothing after it can be read); an error fn returns stops it too, as it
// is.
func GitHubElements(data []byte, fn func(line int, raw json.RawMessage) error) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	// lineAt is the line of the first byte of the next value at or after
	// off (InputOffset points before the separating comma and spaces).
	lineAt := func(off int64) int {
		for off < int64(len(data)) && bytes.IndexByte([]byte(", \t\r\n"), data[off]) >= 0 {
			off++
		}
		return 1 + bytes.Count(data[:off], []byte("\n"))
	}
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('[') {
		return ErrNotGitHubArray
	}
	for dec.More() {
		n := lineAt(dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return &LineError{Line: n, What: "not a gh issue record", Err: err}
		}
		if err := fn(n, raw); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return &LineError{Line: lineAt(dec.InputOffset()), What: "unterminated array", Err: err}
	}
	return nil
}

// GitHubStatus returns the status a gh state stands for: OPEN (or no
// state) is open, CLOSED is closed; known is false for any other state,
// which is then returned in lower case.
func GitHubStatus(state string) (status string, known bool) {
	switch strings.ToUpper(state) {
	case "OPEN", "":
		return "open", true
	case "CLOSED":
		return "closed", true
	}
	return strings.ToLower(state), false
}

// BeadsKeys is the order bd writes an issue's keys in: the field order of
// beads' internal/types.Issue from December 2025 (when it wrote "wisp")
// through January 2026 and in its current source, merged (each version
// writes a subsequence of it; every issues.jsonl beads committed from
// December 2025 to its last in January 2026 is in this order), then the
// counts and parent that bd export appends after the embedded Issue
// (types.IssueWithCounts). "_type" leads, as bd export writes it. Keys
// outside the list follow, sorted (D59).
var BeadsKeys = []string{
	"_type", "id", "title", "description", "design", "acceptance_criteria", "notes", "spec_id",
	"status", "priority", "issue_type", "assignee", "owner", "estimated_minutes",
	"created_at", "created_by", "updated_at", "started_at", "closed_at", "close_reason", "closed_by_session",
	"due_at", "defer_until", "external_ref", "source_system", "metadata",
	"compaction_level", "compacted_at", "compacted_at_commit", "original_size",
	"labels", "dependencies", "comments",
	"deleted_at", "deleted_by", "delete_reason", "original_type",
	"sender", "wisp", "ephemeral", "no_history", "wisp_type", "pinned", "is_template", "bonded_from",
	"creator", "validations", "quality_score", "crystallizes",
	"await_type", "await_id", "timeout", "waiters", "holder",
	"source_formula", "source_location", "hook_bead", "role_bead", "agent_state", "last_activity",
	"role_type", "rig", "mol_type", "work_type", "event_kind", "actor", "target", "payload",
	"dependency_count", "dependent_count", "comment_count", "parent",
}

// BeadsDepKeys and BeadsCommentKeys are the field orders of beads'
// types.Dependency and types.Comment.
var (
	BeadsDepKeys     = []string{"issue_id", "depends_on_id", "type", "created_at", "created_by", "metadata", "thread_id"}
	BeadsCommentKeys = []string{"id", "issue_id", "author", "text", "created_at"}
)

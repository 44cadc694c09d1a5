package trackerformat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// GitHubFormat is the JSON array `gh issue list --json` prints. Its ids
// are issue numbers, #123; an export of exactly gh's default limit is
// probably cut short.
//
//registry:formats 3
var GitHubFormat = &Format{
	Name:  GitHub,
	Desc:  "the JSON array `" + GitHubList + "` prints",
	Help:  "the JSON array gh issue list --json prints",
	Why:   "the JSON array gh issue list prints (internal/trackerformat.Detect)",
	Sniff: func(t []byte) bool { return t[0] == '[' },
	Walk: func(data []byte, fn func(line int, raw []byte) error) error {
		return GitHubElements(data, func(line int, raw json.RawMessage) error { return fn(line, raw) })
	},
	Read: func(raw []byte) (Record, error) {
		var r struct {
			Number int    `json:"number"`
			Title  string `json:"title"`
			State  string `json:"state"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return Record{}, err
		}
		st, _ := GitHubStatus(r.State)
		return Record{ID: "#" + strconv.Itoa(r.Number), Title: r.Title, Status: st}, nil
	},
	Noun:     "a gh issue record",
	Numbered: true,
	// gh issue list stops at 30 issues and lists open ones only unless
	// told otherwise; an export of that shape is probably cut short, and
	// an id missing from it may exist.
	Caveat: func(n, open int) string {
		if n != GitHubDefaultLimit {
			return ""
		}
		hint := ""
		if open == n {
			hint = " and every issue in it is OPEN (open-only is gh's default)"
		}
		return fmt.Sprintf("the export has exactly %d issues, gh issue list's default --limit%s: it is probably truncated; export with %s", GitHubDefaultLimit, hint, GitHubList)
	},
}

// GitHubList is the command that exports every issue of a repository in
// the shape GitHub's format reads.
const GitHubList = "gh issue list --state all --limit 10000 --json number,title,state,labels"

// GitHubDefaultLimit is how many issues gh issue list prints without
// --limit: an export of exactly that many is probably cut short.
const GitHubDefaultLimit = 30

// ErrNotGitHubArray is what GitHubElements returns for a file that is not
// a JSON array at all; it Is ErrNotInFormat.
var ErrNotGitHubArray error = notIn("not the JSON array that gh issue list --json prints")

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
	// The offsets only grow, so the newlines are counted from the last
	// one asked for: counting from the start each time was quadratic in
	// the number of elements.
	seen, line := int64(0), 1
	lineAt := func(off int64) int {
		for off < int64(len(data)) && bytes.IndexByte([]byte(", \t\r\n"), data[off]) >= 0 {
			off++
		}
		if off < seen {
			return 1 + bytes.Count(data[:off], []byte("\n"))
		}
		line += bytes.Count(data[seen:off], []byte("\n"))
		seen = off
		return line
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

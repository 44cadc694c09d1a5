// Package tracker reads a tracker's export so that claimslint can resolve the
// issue ids a register names: docket's and beads' JSONL, and the JSON array
// that `gh issue list --json number,title,state,labels` prints.
package tracker

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"go/token"
	"strconv"
	"strings"

	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/ruleid"
)

// MaxExport bounds the size of a tracker export claimslint reads. An export
// this large is beyond any tracker the register could name ids from by hand,
// and reading one without a bound costs twice its size in memory.
const MaxExport = 64 << 20

// ghDefaultLimit is how many issues gh issue list prints without --limit.
const ghDefaultLimit = 30

// Issue is what claimslint needs of a tracker record.
type Issue struct {
	ID     string
	Title  string
	Status string // lower case: open, in_progress, blocked, deferred, closed, tombstone...
	// Decisions lists the D-ids the issue says it carries (docket only).
	Decisions []string
	Line      int
}

// Closed reports whether the issue is finished (closed, or deleted as a
// beads tombstone).
func (i Issue) Closed() bool { return i.Status == "closed" || i.Status == "tombstone" }

// Satisfies reports whether the issue's status meets a claim's Require:
// "open" means any status that is not closed; other words must match
// exactly.
func (i Issue) Satisfies(want string) bool {
	want = strings.ToLower(strings.TrimSpace(want))
	switch want {
	case "":
		return true
	case "open":
		return !i.Closed()
	default:
		return i.Status == want
	}
}

// Export is a parsed export keyed by id.
type Export struct {
	Path   string
	Issues map[string]Issue
}

// Lookup returns the issue with id.
func (e *Export) Lookup(id string) (Issue, bool) {
	if e == nil {
		return Issue{}, false
	}
	i, ok := e.Issues[id]
	return i, ok
}

type jsonlRecord struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Status    string   `json:"status"`
	Decisions []string `json:"decisions"`
}

type ghRecord struct {
	Number int    `json:"number"`
	Title  string `json:"title"`
	State  string `json:"state"`
}

// Parse reads an export's bytes in the given format. Records that cannot be
// read are returned as findings at their line; the rest still resolve.
func Parse(path, format string, data []byte) (*Export, []diag.Finding) {
	e := &Export{Path: path, Issues: map[string]Issue{}}
	var fs []diag.Finding
	bad := func(line int, format string, args ...any) {
		fs = append(fs, diag.Finding{
			Pos:      token.Position{Filename: path, Line: line, Column: 1},
			Check:    ruleid.Tracker,
			Severity: diag.SeverityError,
			Message:  fmt.Sprintf(format, args...),
		})
	}
	switch format {
	case "github":
		var recs []ghRecord
		if err := json.Unmarshal(data, &recs); err != nil {
			bad(1, "tracker export is not the JSON array `gh issue list --json number,title,state,labels` prints: %v", err)
			return e, fs
		}
		open := 0
		for _, r := range recs {
			id := "#" + strconv.Itoa(r.Number)
			e.Issues[id] = Issue{ID: id, Title: r.Title, Status: strings.ToLower(r.State), Line: 1}
			if strings.EqualFold(r.State, "open") {
				open++
			}
		}
		// gh issue list stops at 30 issues and lists open ones only unless
		// told otherwise; an export of that shape is probably cut short, and
		// an id missing from it may exist.
		warn := func(format string, args ...any) {
			fs = append(fs, diag.Finding{Pos: token.Position{Filename: path, Line: 1, Column: 1}, Check: ruleid.Tracker,
				Severity: diag.SeverityWarning, Message: fmt.Sprintf(format, args...)})
		}
		if len(recs) == ghDefaultLimit {
			hint := ""
			if open == len(recs) {
				hint = " and every issue in it is OPEN (open-only is gh's default)"
			}
			warn("the export has exactly %d issues, gh issue list's default --limit%s: it is probably truncated; export with gh issue list --state all --limit 10000 --json number,title,state,labels", ghDefaultLimit, hint)
		}
	default:
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 0, 64*1024), 64*1024*1024)
		n := 0
		for sc.Scan() {
			n++
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 {
				continue
			}
			var r jsonlRecord
			if err := json.Unmarshal(line, &r); err != nil {
				bad(n, "tracker export line %d is not a JSON object: %v", n, err)
				continue
			}
			if r.ID == "" {
				bad(n, "tracker export line %d has no id", n)
				continue
			}
			if prev, dup := e.Issues[r.ID]; dup {
				bad(n, "tracker export line %d repeats id %s (first on line %d)", n, r.ID, prev.Line)
				continue
			}
			e.Issues[r.ID] = Issue{ID: r.ID, Title: r.Title, Status: strings.ToLower(r.Status), Decisions: r.Decisions, Line: n}
		}
		if err := sc.Err(); err != nil {
			bad(n+1, "tracker export unreadable after line %d: %v", n, err)
		}
	}
	return e, fs
}

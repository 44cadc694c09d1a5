package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Import formats.
const (
	FormatDocket = "docket"
	FormatBeads  = "beads"
	FormatGitHub = "github"
)

// Edge is a dependency to add to an issue that is not in the imported file
// but must already be in the tracker (a beads "A depends on B" lands on B).
type Edge struct {
	From string
	Dep  Dep
	Line int
}

// ImportSet is what an import file decodes to: whole records to upsert,
// and edges to add to records already stored.
type ImportSet struct {
	Issues []Issue
	Edges  []Edge
	// Lines maps an issue id to its line in the file, for messages.
	Lines map[string]int
}

// DecodeImport reads an import file in one of the formats. Every record is
// converted and validated before anything is returned, so a bad line means
// nothing is applied. now stamps records that carry no times.
func DecodeImport(path string, data []byte, format, prefix string, now time.Time) (*ImportSet, error) {
	switch format {
	case FormatDocket, "":
		issues, err := ReadJSONL(path, bytes.NewReader(data), prefix)
		if err != nil {
			return nil, err
		}
		set := &ImportSet{Issues: issues, Lines: map[string]int{}}
		return set, nil
	case FormatBeads:
		return decodeBeads(path, data, prefix, now)
	case FormatGitHub:
		return decodeGitHub(path, data, prefix, now)
	}
	return nil, Invalidf("import format %q: use docket, beads or github", format)
}

type beadsDep struct {
	IssueID     string `json:"issue_id"`
	DependsOnID string `json:"depends_on_id"`
	Type        string `json:"type"`
}

type beadsComment struct {
	Author    string `json:"author"`
	Text      string `json:"text"`
	CreatedAt string `json:"created_at"`
}

type beadsIssue struct {
	ID                 string         `json:"id"`
	Title              string         `json:"title"`
	Description        string         `json:"description"`
	Design             string         `json:"design"`
	AcceptanceCriteria string         `json:"acceptance_criteria"`
	Notes              string         `json:"notes"`
	Status             string         `json:"status"`
	Priority           *int           `json:"priority"`
	IssueType          string         `json:"issue_type"`
	Labels             []string       `json:"labels"`
	Dependencies       []beadsDep     `json:"dependencies"`
	Comments           []beadsComment `json:"comments"`
	CreatedAt          string         `json:"created_at"`
	UpdatedAt          string         `json:"updated_at"`
	ClosedAt           string         `json:"closed_at"`
	CloseReason        string         `json:"close_reason"`
}

// decodeBeads converts a beads issues.jsonl. Beads keeps edges on the
// dependent ("A depends on B"); docket keeps a blocks edge on the blocker,
// so "A depends on B" becomes "B blocks A". Design, acceptance criteria and
// notes are kept as sections of the description rather than dropped.
func decodeBeads(path string, data []byte, prefix string, now time.Time) (*ImportSet, error) {
	set := &ImportSet{Lines: map[string]int{}}
	byID := map[string]int{}
	type pending struct {
		from string
		dep  Dep
		line int
	}
	var edges []pending
	err := eachLine(bytes.NewReader(data), func(n int, line []byte) error {
		var b beadsIssue
		if err := json.Unmarshal(line, &b); err != nil {
			return &LineError{path, n, fmt.Errorf("not a beads record: %v", err)}
		}
		i := Issue{
			ID:          b.ID,
			Title:       b.Title,
			Description: b.Description,
			Priority:    DefaultPriority,
			Labels:      b.Labels,
			CreatedAt:   orNow(b.CreatedAt, now),
			UpdatedAt:   orNow(b.UpdatedAt, now),
			CloseReason: b.CloseReason,
			Version:     1,
			Schema:      Schema,
		}
		for _, sec := range []struct{ head, text string }{{"Design", b.Design}, {"Acceptance criteria", b.AcceptanceCriteria}, {"Notes", b.Notes}} {
			if strings.TrimSpace(sec.text) != "" {
				i.Description = strings.TrimLeft(i.Description+"\n\n## "+sec.head+"\n\n"+sec.text, "\n")
			}
		}
		if b.Priority != nil {
			i.Priority = *b.Priority
		}
		switch b.Status {
		case "tombstone":
			i.Status = StatusClosed
			if i.CloseReason == "" {
				i.CloseReason = "deleted in beads"
			}
		case "":
			i.Status = StatusOpen
		default:
			i.Status = Status(b.Status)
		}
		switch b.IssueType {
		case "epic":
			i.Type = TypeFeature
			i.Labels = append(i.Labels, "epic")
		case "":
			i.Type = TypeTask
		default:
			i.Type = Type(b.IssueType)
		}
		if i.Status == StatusClosed {
			c := orNow(b.ClosedAt, now)
			if b.ClosedAt == "" {
				c = i.UpdatedAt
			}
			i.ClosedAt = &c
		} else {
			i.CloseReason = ""
		}
		for _, c := range b.Comments {
			i.Comments = append(i.Comments, Comment{Time: orNow(c.CreatedAt, now), Author: c.Author, Text: c.Text})
		}
		for _, d := range b.Dependencies {
			from := d.IssueID
			if from == "" {
				from = b.ID
			}
			switch d.Type {
			case "blocks", "":
				edges = append(edges, pending{d.DependsOnID, Dep{Type: DepBlocks, ID: from}, n})
			case "parent-child":
				edges = append(edges, pending{from, Dep{Type: DepParent, ID: d.DependsOnID}, n})
			case "related", "discovered-from":
				edges = append(edges, pending{from, Dep{Type: DepRelated, ID: d.DependsOnID}, n})
			default:
				return &LineError{path, n, Invalidf("beads dependency type %q: docket knows blocks, parent-child, related and discovered-from", d.Type)}
			}
		}
		i.Normalize()
		if err := i.Validate(prefix); err != nil {
			return &LineError{path, n, err}
		}
		if first, dup := byID[i.ID]; dup {
			return &LineError{path, n, fmt.Errorf("id %s already on line %d", i.ID, set.Lines[set.Issues[first].ID])}
		}
		byID[i.ID] = len(set.Issues)
		set.Lines[i.ID] = n
		set.Issues = append(set.Issues, i)
		return nil
	})
	if err != nil {
		return nil, lineErr(path, err)
	}
	for _, e := range edges {
		if k, ok := byID[e.from]; ok {
			set.Issues[k].Deps = append(set.Issues[k].Deps, e.dep)
			set.Issues[k].Normalize()
			if err := set.Issues[k].Validate(prefix); err != nil {
				return nil, &LineError{path, e.line, err}
			}
			continue
		}
		if p, _, ok := SplitID(e.from); !ok || (prefix != "" && p != prefix) {
			return nil, &LineError{path, e.line, Invalidf("dependency on %q, which is not an id of this tracker", e.from)}
		}
		set.Edges = append(set.Edges, Edge{From: e.from, Dep: e.dep, Line: e.line})
	}
	return set, nil
}

type ghIssue struct {
	Number      int64  `json:"number"`
	Title       string `json:"title"`
	Body        string `json:"body"`
	State       string `json:"state"`
	StateReason string `json:"stateReason"`
	Labels      []struct {
		Name string `json:"name"`
	} `json:"labels"`
	CreatedAt string `json:"createdAt"`
	UpdatedAt string `json:"updatedAt"`
	ClosedAt  string `json:"closedAt"`
	Comments  []struct {
		Author struct {
			Login string `json:"login"`
		} `json:"author"`
		Body      string `json:"body"`
		CreatedAt string `json:"createdAt"`
	} `json:"comments"`
}

// decodeGitHub converts the JSON array `gh issue list --json
// number,title,body,state,labels,createdAt,updatedAt,closedAt,comments`
// prints. Issue #N becomes <prefix>-N, so a re-import updates the same
// records.
func decodeGitHub(path string, data []byte, prefix string, now time.Time) (*ImportSet, error) {
	if prefix == "" {
		return nil, Invalidf("a GitHub import needs the tracker's prefix; run docket init --prefix first")
	}
	set := &ImportSet{Lines: map[string]int{}}
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
		return nil, &LineError{path, 1, Invalidf("not the JSON array that gh issue list --json prints")}
	}
	for dec.More() {
		n := lineAt(dec.InputOffset())
		var g ghIssue
		if err := dec.Decode(&g); err != nil {
			return nil, &LineError{path, n, fmt.Errorf("not a gh issue record: %v", err)}
		}
		if g.Number <= 0 {
			return nil, &LineError{path, n, Invalidf("gh record without a positive number")}
		}
		i := Issue{
			ID:          prefix + "-" + strconv.FormatInt(g.Number, 10),
			Title:       g.Title,
			Description: g.Body,
			Status:      StatusOpen,
			Type:        TypeTask,
			Priority:    DefaultPriority,
			CreatedAt:   orNow(g.CreatedAt, now),
			UpdatedAt:   orNow(g.UpdatedAt, now),
			Version:     1,
			Schema:      Schema,
		}
		for _, l := range g.Labels {
			i.Labels = append(i.Labels, l.Name)
		}
		if strings.EqualFold(g.State, "closed") {
			i.Status = StatusClosed
			c := orNow(g.ClosedAt, now)
			i.ClosedAt = &c
			i.CloseReason = "closed on GitHub"
			if g.StateReason != "" {
				i.CloseReason += " (" + strings.ToLower(g.StateReason) + ")"
			}
		}
		for _, c := range g.Comments {
			i.Comments = append(i.Comments, Comment{Time: orNow(c.CreatedAt, now), Author: c.Author.Login, Text: c.Body})
		}
		i.Normalize()
		if err := i.Validate(prefix); err != nil {
			return nil, &LineError{path, n, err}
		}
		if first, dup := set.Lines[i.ID]; dup {
			return nil, &LineError{path, n, fmt.Errorf("issue #%d already on line %d", g.Number, first)}
		}
		set.Lines[i.ID] = n
		set.Issues = append(set.Issues, i)
	}
	if _, err := dec.Token(); err != nil {
		return nil, &LineError{path, lineAt(dec.InputOffset()), fmt.Errorf("unterminated array: %v", err)}
	}
	return set, nil
}

func orNow(s string, now time.Time) string {
	if s == "" {
		return FormatTime(now)
	}
	return s
}

func lineErr(path string, err error) error {
	var le *LineError
	if errors.As(err, &le) {
		if le.Path == "" {
			le.Path = path
		}
		return le
	}
	return fmt.Errorf("read %s: %w", path, err)
}

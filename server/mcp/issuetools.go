package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/claimslint/claimslint/internal/decisionid"
	"github.com/claimslint/claimslint/server/docket"
	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func ptr[T any](v T) *T { return &v }

// readOnlyTool marks the tools that change nothing.
var readOnlyTool = &sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)}

// writes marks a tool that changes the tracker (and only the tracker).
func writes(destructive, idempotent bool) *sdk.ToolAnnotations {
	return &sdk.ToolAnnotations{DestructiveHint: ptr(destructive), IdempotentHint: idempotent, OpenWorldHint: ptr(false)}
}

// inSchema is T's input schema with the constraints the server enforces
// written in: enums, ranges, lengths and patterns, so a schema-valid call
// is one the server accepts.
func inSchema[T any](patch func(p map[string]*jsonschema.Schema)) *jsonschema.Schema {
	s, err := jsonschema.For[T](schemaOptions)
	if err != nil {
		panic(fmt.Sprintf("input schema of %T: %v", *new(T), err))
	}
	if patch != nil {
		patch(s.Properties)
	}
	return s
}

func enum[T ~string](xs []T) []any {
	out := make([]any, len(xs))
	for k, x := range xs {
		out[k] = string(x)
	}
	return out
}

const (
	idPattern       = `^[A-Za-z][A-Za-z0-9_]*-[A-Za-z0-9][A-Za-z0-9_.-]*$`
	tokenPattern    = `^[a-z][a-z0-9_-]*$`
	labelPattern    = `^[A-Za-z0-9][A-Za-z0-9._:/-]*$`
	decisionPattern = `^` + decisionid.Pattern + `$`
)

func idProp(p map[string]*jsonschema.Schema, name string) {
	if s := p[name]; s != nil {
		s.Pattern, s.MaxLength = idPattern, ptr(docket.MaxIDLen)
	}
}

func items(s *jsonschema.Schema, pattern string, max int) {
	if s != nil && s.Items != nil {
		s.Items.Pattern, s.Items.MaxLength = pattern, ptr(max)
	}
}

func titleProp(s *jsonschema.Schema) {
	if s != nil {
		s.MinLength, s.MaxLength = ptr(1), ptr(500)
	}
}

func priorityProp(s *jsonschema.Schema) {
	if s != nil {
		s.Minimum, s.Maximum = ptr(0.0), ptr(float64(docket.MaxPriority))
	}
}

// toolErr words an error for an agent: it names the tool and, for a bad
// argument, the argument; a hint that names a command line names the tool
// to use instead.
func toolErr(tool string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %s", tool, toolText(err))
}

// toolText is err as a tool caller reads it, without the tool's name.
func toolText(err error) string {
	var msgs []string
	var parts []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		parts = j.Unwrap()
	} else {
		parts = []error{err}
	}
	for _, e := range parts {
		var ae *docket.ArgError
		// A tool error names the tool where the CLI says "invalid input".
		msg := docket.Say(e, toolHints)
		if errors.As(e, &ae) {
			m := docket.Say(ae.Err, toolHints)
			msg = fmt.Sprintf("argument %q: ", ae.Arg) + strings.TrimPrefix(m, ae.Arg+" ")
		}
		msgs = append(msgs, msg)
	}
	return strings.Join(msgs, "; ")
}

// toolHints words each hint of the domain's errors for a tool caller
// (D101): the tools and arguments to use, never the command line's.
var toolHints = map[docket.Hint]string{
	docket.HintListIDs:    "; issue_list or issue_search shows the ids there are",
	docket.HintCloseOpen:  ": use issue_close (with a reason) or issue_reopen to change whether an issue is closed",
	docket.HintCloseHow:   " (issue_close, with a reason, closes an issue)",
	docket.HintGiveReason: ": give the argument reason, it is what a reader of the export will want to know",
	docket.HintReread:     "; call issue_show again and retry with its version as if_version",
	docket.HintRewrite:    "; the next docket call rewrites it from the index{detail}, or run docket export once the cause is fixed",
	docket.HintInitPrefix: ": run docket init --prefix dk",
}

// IssueOut wraps one record, so structured content is always an object.
type IssueOut struct {
	Issue docket.Issue `json:"issue"`
}

// PageOut is one page of a listing: index rows, not whole records (issue_show
// has those), the total, how many more, and the cursor of the next page.
// With fields, records holds the chosen keys of each record, in the rows'
// order, and issues is empty.
type PageOut struct {
	Issues     []docket.Row     `json:"issues"`
	Records    []map[string]any `json:"records,omitempty"`
	Total      int              `json:"total"`
	More       int              `json:"more"`
	NextCursor string           `json:"nextCursor,omitempty"`
}

func summary(verb string, i docket.Issue) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{
		Text: fmt.Sprintf("%s %s: %s (%s, %s, P%d, version %d)", verb, i.ID, i.Title, i.Status, i.Type, i.Priority, i.Version)}}}
}

func pageSummary(what string, p docket.Page) *sdk.CallToolResult {
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d %s", len(p.Rows), p.Total, what)
	if p.More > 0 {
		fmt.Fprintf(&b, "; %d more: call again with cursor from nextCursor", p.More)
	}
	for _, r := range p.Rows {
		fmt.Fprintf(&b, "\n%s P%d %s %s", r.ID, r.Priority, r.Status, r.Title)
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: b.String()}}}
}

func pageOut(p docket.Page) PageOut {
	rows := p.Rows
	if rows == nil {
		rows = []docket.Row{}
	}
	return PageOut{Issues: rows, Total: p.Total, More: p.More, NextCursor: p.Next}
}

func (t *tools) issueTools() []tool {
	var out []tool
	add := func(tl tool) { out = append(out, tl) }
	issueOut, pageOutSchema := outSchema[IssueOut](), outSchema[PageOut]()
	add(newTool(&sdk.Tool{Name: "issue_create", Title: "Create an issue", Annotations: writes(false, false), OutputSchema: issueOut,
		InputSchema: inSchema[CreateIn](func(p map[string]*jsonschema.Schema) {
			titleProp(p["title"])
			p["type"].Enum = enum(docket.Types)
			priorityProp(p["priority"])
			items(p["labels"], labelPattern, 64)
			items(p["decisions"], decisionPattern, 16)
		}),
		Description: "Create an issue; returns it with its new id."}, t.create))
	listSchema := func(p map[string]*jsonschema.Schema) {
		items(p["status"], tokenPattern, 64)
		if p["type"] != nil {
			p["type"].Pattern = tokenPattern
		}
		if p["label"] != nil {
			p["label"].Pattern = labelPattern
		}
		if p["decision"] != nil {
			p["decision"].Pattern = decisionPattern
		}
		p["sort"].Enum = enum(docket.Sorts)
		p["limit"].Minimum, p["limit"].Maximum = ptr(1.0), ptr(float64(docket.MaxLimit))
		if p["query"] != nil {
			p["query"].MinLength, p["query"].MaxLength = ptr(1), ptr(500)
		}
		priorityProp(p["priority"])
		if p["assignee"] != nil {
			p["assignee"].MinLength, p["assignee"].MaxLength = ptr(1), ptr(docket.MaxAssignee)
		}
		if p["fields"] != nil {
			p["fields"].Items.Enum = enum(docket.RecordFields)
		}
	}
	add(newTool(&sdk.Tool{Name: "issue_list", Title: "List issues", Annotations: readOnlyTool, OutputSchema: pageOutSchema, InputSchema: inSchema[ListIn](listSchema),
		Description: "List issues, most urgent first, a page at a time (limit, default 50; cursor from nextCursor); closed ones only with all or status. Rows, not whole records: issue_show has those."}, t.list))
	add(newTool(&sdk.Tool{Name: "issue_ready", Title: "List ready issues", Annotations: readOnlyTool, OutputSchema: pageOutSchema, InputSchema: inSchema[PageIn](listSchema),
		Description: "List open issues that nothing unfinished blocks (directly or through a parent), a page at a time."}, t.ready))
	add(newTool(&sdk.Tool{Name: "issue_blocked", Title: "List blocked issues", Annotations: readOnlyTool, OutputSchema: pageOutSchema, InputSchema: inSchema[PageIn](listSchema),
		Description: "List unfinished issues that something unfinished blocks (directly or through a parent), or whose status is a blocked one, a page at a time."}, t.blocked))
	add(newTool(&sdk.Tool{Name: "issue_search", Title: "Search issues", Annotations: readOnlyTool, OutputSchema: pageOutSchema, InputSchema: inSchema[SearchIn](listSchema),
		Description: "Find issues of any status whose title or description has a word starting with each word of query, a page at a time."}, t.search))
	add(newTool(&sdk.Tool{Name: "issue_stats", Title: "Count the issues", Annotations: readOnlyTool, OutputSchema: outSchema[StatsOut](),
		Description: "Count the tracker's issues: in all, unfinished and closed, ready and blocked, and by status, type and priority."}, t.stats))
	add(newTool(&sdk.Tool{Name: "issue_show", Title: "Show an issue", Annotations: readOnlyTool, OutputSchema: issueOut,
		InputSchema: inSchema[IDIn](func(p map[string]*jsonschema.Schema) { idProp(p, "id") }),
		Description: "Show one issue by id: the whole record."}, t.show))
	add(newTool(&sdk.Tool{Name: "issue_update", Title: "Update an issue", Annotations: writes(true, false), OutputSchema: issueOut,
		InputSchema: inSchema[UpdateIn](func(p map[string]*jsonschema.Schema) {
			idProp(p, "id")
			titleProp(p["title"])
			p["status"].Enum = enum(docket.Unfinished)
			p["type"].Enum = enum(docket.Types)
			priorityProp(p["priority"])
			p["assignee"].MaxLength = ptr(docket.MaxAssignee)
			items(p["add_labels"], labelPattern, 64)
			items(p["remove_labels"], labelPattern, 64)
			items(p["add_decisions"], decisionPattern, 16)
			items(p["remove_decisions"], decisionPattern, 16)
			p["if_version"].Minimum = ptr(0.0)
		}),
		Description: "Change fields of an issue; if_version makes it fail when someone else wrote it first. Closing and reopening are issue_close and issue_reopen."}, t.update))
	add(newTool(&sdk.Tool{Name: "issue_claim", Title: "Claim an issue", Annotations: writes(false, false), OutputSchema: issueOut,
		InputSchema: inSchema[ClaimIn](func(p map[string]*jsonschema.Schema) {
			idProp(p, "id")
			p["assignee"].MinLength, p["assignee"].MaxLength = ptr(1), ptr(docket.MaxAssignee)
			p["if_version"].Minimum = ptr(0.0)
		}),
		Description: "Take an unfinished issue: set its assignee and move it to in progress in one write. Refused while someone else holds it; issue_update with assignee \"\" releases it."}, t.claim))
	add(newTool(&sdk.Tool{Name: "issue_close", Title: "Close an issue", Annotations: writes(true, false), OutputSchema: issueOut,
		InputSchema: inSchema[CloseIn](func(p map[string]*jsonschema.Schema) {
			idProp(p, "id")
			p["reason"].MinLength = ptr(1)
			p["if_version"].Minimum = ptr(0.0)
		}),
		Description: "Close an issue with a reason; the record is kept."}, t.closeIssue))
	add(newTool(&sdk.Tool{Name: "issue_reopen", Title: "Reopen an issue", Annotations: writes(true, false), OutputSchema: issueOut,
		InputSchema: inSchema[ReopenIn](func(p map[string]*jsonschema.Schema) {
			idProp(p, "id")
			p["if_version"].Minimum = ptr(0.0)
		}),
		Description: "Set a closed issue back to open and clear its close reason."}, t.reopen))
	add(newTool(&sdk.Tool{Name: "issue_comment", Title: "Comment on an issue", Annotations: writes(false, false), OutputSchema: issueOut,
		InputSchema: inSchema[CommentIn](func(p map[string]*jsonschema.Schema) {
			idProp(p, "id")
			p["text"].MinLength = ptr(1)
		}),
		Description: "Add a comment to an issue."}, t.comment))
	add(newTool(&sdk.Tool{Name: "dep_add", Title: "Add a dependency", Annotations: writes(false, true), OutputSchema: issueOut,
		InputSchema: inSchema[DepIn](func(p map[string]*jsonschema.Schema) {
			idProp(p, "id")
			idProp(p, "target")
			p["type"].Enum = enum(docket.DepTypes)
		}),
		Description: "Add an edge from id to target: blocks (id blocks target), parent (target is id's parent) or related. An edge that would close a cycle is refused; one already there changes nothing."}, t.depAdd))
	add(newTool(&sdk.Tool{Name: "dep_remove", Title: "Remove a dependency", Annotations: writes(true, true), OutputSchema: issueOut,
		InputSchema: inSchema[DepIn](func(p map[string]*jsonschema.Schema) {
			idProp(p, "id")
			idProp(p, "target")
			p["type"].Pattern = tokenPattern
		}),
		Description: "Remove the edge of that type from id to target (any type the issue holds, imported ones too)."}, t.depRemove))
	return out
}

// CreateIn is issue_create's input.
type CreateIn struct {
	Title       string   `json:"title" jsonschema:"one-line title"`
	Description string   `json:"description,omitempty" jsonschema:"free text"`
	Type        string   `json:"type,omitempty" jsonschema:"default task"`
	Priority    *int     `json:"priority,omitempty" jsonschema:"0 (most urgent) to 4; default 2"`
	Labels      []string `json:"labels,omitempty"`
	Decisions   []string `json:"decisions,omitempty" jsonschema:"register ids the issue carries, like D12"`
}

func (t *tools) create(ctx context.Context, _ *sdk.CallToolRequest, in CreateIn) (*sdk.CallToolResult, IssueOut, error) {
	n := docket.NewIssue{Title: in.Title, Description: in.Description, Type: docket.Type(in.Type), Priority: docket.DefaultPriority, Labels: in.Labels, Decisions: in.Decisions}
	if in.Priority != nil {
		n.Priority = *in.Priority
	}
	if err := n.Check(); err != nil {
		return nil, IssueOut{}, toolErr("issue_create", err)
	}
	i, err := t.store.Create(ctx, n)
	if !committed(err) {
		return nil, IssueOut{}, toolErr("issue_create", err)
	}
	return summary("created", i), IssueOut{i}, toolErr("issue_create", err)
}

// committed reports a write that is stored (perhaps with the export
// behind, which the error still says).
func committed(err error) bool { return err == nil || errors.Is(err, docket.ErrUnexported) }

// PageIn is the input of issue_ready and issue_blocked: filters, fields
// and paging.
type PageIn struct {
	Type     string   `json:"type,omitempty" jsonschema:"only issues of this type"`
	Priority *int     `json:"priority,omitempty" jsonschema:"only issues of this priority, 0 (most urgent) to 4"`
	Label    string   `json:"label,omitempty" jsonschema:"only issues with this label"`
	Decision string   `json:"decision,omitempty" jsonschema:"only issues that carry this decision, like D12"`
	Assignee string   `json:"assignee,omitempty" jsonschema:"only issues this assignee holds"`
	Fields   []string `json:"fields,omitempty" jsonschema:"return these keys of each record (in records) instead of the rows"`
	Limit    int      `json:"limit,omitempty" jsonschema:"at most this many issues; default 50"`
	Cursor   string   `json:"cursor,omitempty" jsonschema:"nextCursor of the previous page"`
	Sort     string   `json:"sort,omitempty" jsonschema:"default priority (most urgent, then oldest); updated is newest first"`
}

// ListIn is issue_list's input.
type ListIn struct {
	Status   []string `json:"status,omitempty" jsonschema:"only these statuses"`
	Label    string   `json:"label,omitempty"`
	Decision string   `json:"decision,omitempty" jsonschema:"only issues that carry this decision, like D12"`
	Type     string   `json:"type,omitempty"`
	Priority *int     `json:"priority,omitempty" jsonschema:"only issues of this priority, 0 (most urgent) to 4"`
	Assignee string   `json:"assignee,omitempty" jsonschema:"only issues this assignee holds"`
	Fields   []string `json:"fields,omitempty" jsonschema:"return these keys of each record (in records) instead of the rows"`
	All      bool     `json:"all,omitempty" jsonschema:"include closed issues"`
	Limit    int      `json:"limit,omitempty" jsonschema:"at most this many issues; default 50"`
	Cursor   string   `json:"cursor,omitempty" jsonschema:"nextCursor of the previous page"`
	Sort     string   `json:"sort,omitempty" jsonschema:"default priority (most urgent, then oldest); updated is newest first"`
}

// SearchIn is issue_search's input.
type SearchIn struct {
	Query  string   `json:"query" jsonschema:"words to find in titles and descriptions"`
	Fields []string `json:"fields,omitempty" jsonschema:"return these keys of each record (in records) instead of the rows"`
	Limit  int      `json:"limit,omitempty" jsonschema:"at most this many issues; default 50"`
	Cursor string   `json:"cursor,omitempty" jsonschema:"nextCursor of the previous page"`
	Sort   string   `json:"sort,omitempty"`
}

// limit applies the agent's default page size and its bound: 0 means
// DefaultLimit (an agent never gets an unbounded page).
func limit(tool string, n int) (int, error) {
	if n == 0 {
		return docket.DefaultLimit, nil
	}
	if n < 0 || n > docket.MaxLimit {
		return 0, toolErr(tool, docket.ArgErr("limit", docket.Invalidf("%d: use 1 to %d (default %d)", n, docket.MaxLimit, docket.DefaultLimit)))
	}
	return n, nil
}

func (t *tools) page(ctx context.Context, tool, what string, view docket.View, p docket.ListParams) (*sdk.CallToolResult, PageOut, error) {
	var err error
	if p.Limit, err = limit(tool, p.Limit); err != nil {
		return nil, PageOut{}, err
	}
	page, err := t.store.Listing(ctx, view, p)
	if err != nil {
		return nil, PageOut{}, toolErr(tool, err)
	}
	out := pageOut(page)
	if len(p.Fields) > 0 {
		if out.Records, err = t.project(ctx, page.Rows, p.Fields); err != nil {
			return nil, PageOut{}, toolErr(tool, err)
		}
		out.Issues = []docket.Row{}
	}
	res := pageSummary(what, page)
	// A status the workflow does not map is reported on every listing,
	// as docket's CLI notes it on stderr (D57).
	u, err := t.store.Unmapped(ctx)
	if err != nil {
		return nil, PageOut{}, toolErr(tool, err)
	}
	if len(u) > 0 {
		text := res.Content[0].(*sdk.TextContent)
		text.Text += "\nnote: " + docket.UnmappedNote(u)
	}
	return res, out, nil
}

// project is the chosen keys of each row's record, as the export writes
// them (docket list --fields): from the row when its columns hold them
// all, else from the whole record.
func (t *tools) project(ctx context.Context, rows []docket.Row, fields []string) ([]map[string]any, error) {
	fromRecord := docket.ListParams{Fields: fields}.NeedsRecords()
	out := make([]map[string]any, 0, len(rows))
	for _, r := range rows {
		var full []byte
		var err error
		if fromRecord {
			var i docket.Issue
			if i, err = t.store.Get(ctx, r.ID); err == nil {
				full, err = docket.MarshalLine(i)
			}
		} else {
			full, err = json.Marshal(r)
		}
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if err := json.Unmarshal(full, &m); err != nil {
			return nil, fmt.Errorf("read the record of %s: %w", r.ID, err)
		}
		pick := make(map[string]any, len(fields))
		for _, f := range fields {
			pick[f] = m[f]
		}
		out = append(out, pick)
	}
	return out, nil
}

func (t *tools) list(ctx context.Context, _ *sdk.CallToolRequest, in ListIn) (*sdk.CallToolResult, PageOut, error) {
	return t.page(ctx, "issue_list", "issues", docket.ViewList, docket.ListParams{Statuses: in.Status, All: in.All, Type: in.Type, Priority: in.Priority, Label: in.Label, Decision: in.Decision, Assignee: in.Assignee, Fields: in.Fields, Sort: in.Sort, Limit: in.Limit, Cursor: in.Cursor})
}

func (in PageIn) params() docket.ListParams {
	return docket.ListParams{Type: in.Type, Priority: in.Priority, Label: in.Label, Decision: in.Decision, Assignee: in.Assignee, Fields: in.Fields, Sort: in.Sort, Limit: in.Limit, Cursor: in.Cursor}
}

func (t *tools) ready(ctx context.Context, _ *sdk.CallToolRequest, in PageIn) (*sdk.CallToolResult, PageOut, error) {
	return t.page(ctx, "issue_ready", "ready issues", docket.ViewReady, in.params())
}

func (t *tools) blocked(ctx context.Context, _ *sdk.CallToolRequest, in PageIn) (*sdk.CallToolResult, PageOut, error) {
	return t.page(ctx, "issue_blocked", "blocked issues", docket.ViewBlocked, in.params())
}

func (t *tools) search(ctx context.Context, _ *sdk.CallToolRequest, in SearchIn) (*sdk.CallToolResult, PageOut, error) {
	return t.page(ctx, "issue_search", "matching issues", docket.ViewSearch, docket.ListParams{Text: in.Query, Fields: in.Fields, Sort: in.Sort, Limit: in.Limit, Cursor: in.Cursor})
}

// IDIn names one issue.
type IDIn struct {
	ID string `json:"id" jsonschema:"issue id, like dk-7qx"`
}

func (t *tools) show(ctx context.Context, _ *sdk.CallToolRequest, in IDIn) (*sdk.CallToolResult, IssueOut, error) {
	i, err := t.store.Get(ctx, in.ID)
	if err != nil {
		return nil, IssueOut{}, toolErr("issue_show", docket.ArgErr("id", err))
	}
	return summary("issue", i), IssueOut{i}, nil
}

// UpdateIn is issue_update's input.
type UpdateIn struct {
	ID              string   `json:"id"`
	Title           *string  `json:"title,omitempty"`
	Description     *string  `json:"description,omitempty"`
	Status          string   `json:"status,omitempty" jsonschema:"use issue_close and issue_reopen to close and reopen"`
	Type            string   `json:"type,omitempty"`
	Priority        *int     `json:"priority,omitempty"`
	Assignee        *string  `json:"assignee,omitempty" jsonschema:"who holds it; \"\" releases it (issue_claim takes it)"`
	AddLabels       []string `json:"add_labels,omitempty"`
	RemoveLabels    []string `json:"remove_labels,omitempty"`
	AddDecisions    []string `json:"add_decisions,omitempty"`
	RemoveDecisions []string `json:"remove_decisions,omitempty"`
	IfVersion       int64    `json:"if_version,omitempty" jsonschema:"fail unless the issue is at this version"`
}

func (t *tools) update(ctx context.Context, _ *sdk.CallToolRequest, in UpdateIn) (*sdk.CallToolResult, IssueOut, error) {
	p := docket.Patch{Title: in.Title, Description: in.Description, Priority: in.Priority, Assignee: in.Assignee,
		AddLabels: in.AddLabels, RemoveLabels: in.RemoveLabels, AddDecisions: in.AddDecisions, RemoveDecisions: in.RemoveDecisions, IfVersion: in.IfVersion}
	if in.Status != "" {
		st := docket.Status(in.Status)
		p.Status = &st
	}
	if in.Type != "" {
		typ := docket.Type(in.Type)
		p.Type = &typ
	}
	if err := p.Check(); err != nil {
		return nil, IssueOut{}, toolErr("issue_update", err)
	}
	i, err := t.store.Update(ctx, in.ID, p)
	if !committed(err) {
		return nil, IssueOut{}, toolErr("issue_update", err)
	}
	return summary("updated", i), IssueOut{i}, toolErr("issue_update", err)
}

// ClaimIn is issue_claim's input.
type ClaimIn struct {
	ID        string `json:"id"`
	Assignee  string `json:"assignee,omitempty" jsonschema:"who takes it; default: the MCP client's name"`
	IfVersion int64  `json:"if_version,omitempty" jsonschema:"fail unless the issue is at this version"`
}

func (t *tools) claim(ctx context.Context, req *sdk.CallToolRequest, in ClaimIn) (*sdk.CallToolResult, IssueOut, error) {
	who := in.Assignee
	if who == "" {
		who = clientName(req)
	}
	if who == "" {
		return nil, IssueOut{}, toolErr("issue_claim", docket.ArgErr("assignee", docket.Invalidf("empty, and the client gave no name: say who takes the issue")))
	}
	i, err := t.store.Claim(ctx, in.ID, who, in.IfVersion)
	if !committed(err) {
		return nil, IssueOut{}, toolErr("issue_claim", err)
	}
	return summary("claimed by "+i.Assignee+":", i), IssueOut{i}, toolErr("issue_claim", err)
}

// CloseIn is issue_close's input.
type CloseIn struct {
	ID        string `json:"id"`
	Reason    string `json:"reason" jsonschema:"why it is closed"`
	IfVersion int64  `json:"if_version,omitempty"`
}

func (t *tools) closeIssue(ctx context.Context, _ *sdk.CallToolRequest, in CloseIn) (*sdk.CallToolResult, IssueOut, error) {
	if strings.TrimSpace(in.Reason) == "" {
		return nil, IssueOut{}, toolErr("issue_close", docket.ArgErr("reason", docket.Invalidf("empty: say why it is closed; a reader of the export will want to know")))
	}
	i, err := t.store.CloseIssue(ctx, in.ID, in.Reason, in.IfVersion)
	if !committed(err) {
		return nil, IssueOut{}, toolErr("issue_close", err)
	}
	return summary("closed", i), IssueOut{i}, toolErr("issue_close", err)
}

// ReopenIn is issue_reopen's input.
type ReopenIn struct {
	ID        string `json:"id"`
	IfVersion int64  `json:"if_version,omitempty"`
}

func (t *tools) reopen(ctx context.Context, _ *sdk.CallToolRequest, in ReopenIn) (*sdk.CallToolResult, IssueOut, error) {
	i, err := t.store.Reopen(ctx, in.ID, in.IfVersion)
	if !committed(err) {
		return nil, IssueOut{}, toolErr("issue_reopen", err)
	}
	return summary("reopened", i), IssueOut{i}, toolErr("issue_reopen", err)
}

// CommentIn is issue_comment's input.
type CommentIn struct {
	ID     string `json:"id"`
	Text   string `json:"text"`
	Author string `json:"author,omitempty" jsonschema:"who is commenting; default: the MCP client's name"`
}

func (t *tools) comment(ctx context.Context, req *sdk.CallToolRequest, in CommentIn) (*sdk.CallToolResult, IssueOut, error) {
	author := in.Author
	if author == "" {
		author = clientName(req)
	}
	if strings.TrimSpace(in.Text) == "" {
		return nil, IssueOut{}, toolErr("issue_comment", docket.ArgErr("text", docket.Invalidf("empty: write the comment")))
	}
	i, err := t.store.Comment(ctx, in.ID, author, in.Text)
	if !committed(err) {
		return nil, IssueOut{}, toolErr("issue_comment", err)
	}
	return summary("commented on", i), IssueOut{i}, toolErr("issue_comment", err)
}

// DepIn is the input of dep_add and dep_remove.
type DepIn struct {
	ID     string `json:"id" jsonschema:"the issue that holds the edge"`
	Type   string `json:"type" jsonschema:"blocks: id blocks target; parent: target is id's parent; related"`
	Target string `json:"target" jsonschema:"the issue the edge points to"`
}

func (t *tools) depAdd(ctx context.Context, _ *sdk.CallToolRequest, in DepIn) (*sdk.CallToolResult, IssueOut, error) {
	if _, err := docket.ParseDepType(in.Type); err != nil {
		return nil, IssueOut{}, toolErr("dep_add", docket.ArgErr("type", err))
	}
	if in.ID == in.Target {
		return nil, IssueOut{}, toolErr("dep_add", docket.ArgErr("target", docket.Invalidf("%s: an issue cannot depend on itself", in.Target)))
	}
	i, err := t.store.AddDep(ctx, in.ID, docket.Dep{Type: docket.DepType(in.Type), ID: in.Target})
	if !committed(err) {
		return nil, IssueOut{}, toolErr("dep_add", err)
	}
	return summary(fmt.Sprintf("%s %s %s;", in.ID, in.Type, in.Target), i), IssueOut{i}, toolErr("dep_add", err)
}

func (t *tools) depRemove(ctx context.Context, _ *sdk.CallToolRequest, in DepIn) (*sdk.CallToolResult, IssueOut, error) {
	if err := docket.CheckDepTypeToken(in.Type); err != nil {
		return nil, IssueOut{}, toolErr("dep_remove", docket.ArgErr("type", err))
	}
	i, err := t.store.RemoveDep(ctx, in.ID, docket.Dep{Type: docket.DepType(in.Type), ID: in.Target})
	if !committed(err) {
		return nil, IssueOut{}, toolErr("dep_remove", err)
	}
	return summary(fmt.Sprintf("removed %s %s %s;", in.ID, in.Type, in.Target), i), IssueOut{i}, toolErr("dep_remove", err)
}

// StatsOut is issue_stats's output: counts over every issue.
type StatsOut struct {
	Total      int            `json:"total"`
	Unfinished int            `json:"unfinished"`
	Closed     int            `json:"closed"`
	Ready      int            `json:"ready"`
	Blocked    int            `json:"blocked"`
	ByStatus   map[string]int `json:"by_status"`
	ByType     map[string]int `json:"by_type"`
	ByPriority map[string]int `json:"by_priority" jsonschema:"keyed P0 to P4"`
}

func (t *tools) stats(ctx context.Context, _ *sdk.CallToolRequest, _ NoIn) (*sdk.CallToolResult, StatsOut, error) {
	out, err := t.countIssues(ctx)
	if err != nil {
		return nil, StatsOut{}, toolErr("issue_stats", err)
	}
	return text(fmt.Sprintf("%d issues: %d unfinished (%d ready, %d blocked), %d closed", out.Total, out.Unfinished, out.Ready, out.Blocked, out.Closed)), out, nil
}

// countIssues counts from the index rows of every issue and the totals of
// the ready, blocked and unfinished listings: the same selections as the
// listing tools.
func (t *tools) countIssues(ctx context.Context) (StatsOut, error) {
	out := StatsOut{ByStatus: map[string]int{}, ByType: map[string]int{}, ByPriority: map[string]int{}}
	all, err := t.store.Listing(ctx, docket.ViewList, docket.ListParams{All: true})
	if err != nil {
		return out, err
	}
	for _, r := range all.Rows {
		out.ByStatus[string(r.Status)]++
		out.ByType[string(r.Type)]++
		out.ByPriority[fmt.Sprintf("P%d", r.Priority)]++
	}
	out.Total = all.Total
	for _, c := range []struct {
		view docket.View
		n    *int
	}{{docket.ViewList, &out.Unfinished}, {docket.ViewReady, &out.Ready}, {docket.ViewBlocked, &out.Blocked}} {
		p, err := t.store.Listing(ctx, c.view, docket.ListParams{Limit: 1})
		if err != nil {
			return out, err
		}
		*c.n = p.Total
	}
	out.Closed = out.Total - out.Unfinished
	return out, nil
}

// NoIn is the input of tools that take none.
type NoIn struct{}

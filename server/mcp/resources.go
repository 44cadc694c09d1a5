package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/server/docket"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The register and the tracker as MCP resources (D81): two fixed
// resources, decision://register (decision_list's rows) and
// decision://claims (every claim's state, as claims_check finds it), and
// two templates, decision://{id} (a decision's text and its claims) and
// issue://{id} (an issue's record), whose ids completion/complete
// offers. resources/list pages through the fixed ones, every decision and
// every issue.
const (
	registerURI      = "decision://register"
	claimsURI        = "decision://claims"
	decisionTemplate = "decision://{id}"
	issueTemplate    = "issue://{id}"
	decisionScheme   = "decision://"
	issueScheme      = "issue://"
	jsonMIME         = "application/json"
	markdownMIME     = "text/markdown"
)

// ResourcePage is how many resources one resources/list page holds.
const ResourcePage = 100

// maxCompletions is the most values one completion/complete answers, as
// the specification bounds it.
const maxCompletions = 100

func (t *tools) addResources(s *sdk.Server) {
	s.AddResource(&sdk.Resource{URI: registerURI, Name: "register", Title: "The decision register", MIMEType: jsonMIME,
		Description: "Every decision of the register with its status and claim counts (decision_list)."}, t.readRegister)
	s.AddResource(&sdk.Resource{URI: claimsURI, Name: "claims", Title: "The state of every claim", MIMEType: jsonMIME,
		Description: "Whether the code still does what each decision says: every claim's state and where it rests (claims_check, without the findings of the register rules)."}, t.readClaims)
	s.AddResourceTemplate(&sdk.ResourceTemplate{URITemplate: decisionTemplate, Name: "decision", Title: "A decision", MIMEType: markdownMIME,
		Description: "One decision, like decision://D12: its file's text (text/markdown), then its record and the state of each claim (application/json)."}, t.readDecision)
	s.AddResourceTemplate(&sdk.ResourceTemplate{URITemplate: issueTemplate, Name: "issue", Title: "An issue", MIMEType: jsonMIME,
		Description: "One issue of the tracker, like issue://dk-7qx: the whole record (issue_show)."}, t.readIssue)
}

func jsonContents(uri string, v any) (*sdk.ResourceContents, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", uri, err)
	}
	return &sdk.ResourceContents{URI: uri, MIMEType: jsonMIME, Text: string(b)}, nil
}

// resourceErr is the error of a read that failed for a reason other than
// a missing resource: -32603 (a plain error would reach the client as code
// 0), its message naming the resource.
func resourceErr(uri string, err error) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("read %s: %s", uri, toolText(err))}
}

func (t *tools) readRegister(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	out, err := listWork.call(ctx, t, NoIn{})
	if err != nil {
		return nil, resourceErr(registerURI, err)
	}
	c, err := jsonContents(registerURI, out)
	if err != nil {
		return nil, err
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{c}}, nil
}

// ClaimsOut is decision://claims: whether every claim holds, and each
// one's state.
type ClaimsOut struct {
	OK     bool               `json:"ok"`
	Claims []check.ClaimState `json:"claims"`
}

func (t *tools) readClaims(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	out, err := claimsWork.call(ctx, t, CheckIn{})
	if err != nil {
		return nil, resourceErr(claimsURI, err)
	}
	held := !slices.ContainsFunc(out.Claims, func(c check.ClaimState) bool { return c.State == check.StateFailed })
	c, err := jsonContents(claimsURI, ClaimsOut{OK: held, Claims: out.Claims})
	if err != nil {
		return nil, err
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{c}}, nil
}

// DecisionRecord is the JSON part of decision://{id}: decision_show's
// output without the text, which is the resource's first part.
type DecisionRecord struct {
	ID      string             `json:"id"`
	Title   string             `json:"title"`
	Status  string             `json:"status"`
	File    string             `json:"file"`
	Tracker []string           `json:"tracker"`
	Claims  []check.ClaimState `json:"claims"`
}

func (t *tools) readDecision(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	uri := req.Params.URI
	id := strings.TrimPrefix(uri, decisionScheme)
	if docket.CheckDecision(id) != nil {
		return nil, sdk.ResourceNotFoundError(uri)
	}
	out, err := showWork.call(ctx, t, DecisionIn{ID: id})
	if err != nil {
		if _, ok := errors.AsType[*noDecisionError](err); ok {
			return nil, sdk.ResourceNotFoundError(uri)
		}
		return nil, resourceErr(uri, err)
	}
	rec, err := jsonContents(uri, DecisionRecord{ID: out.ID, Title: out.Title, Status: out.Status, File: out.File, Tracker: out.Tracker, Claims: out.Claims})
	if err != nil {
		return nil, err
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: markdownMIME, Text: out.Text}, rec}}, nil
}

func (t *tools) readIssue(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	uri := req.Params.URI
	id := strings.TrimPrefix(uri, issueScheme)
	i, err := t.store.Get(ctx, id)
	if err != nil {
		if errors.Is(err, docket.ErrNotFound) || errors.Is(err, docket.ErrInvalid) {
			return nil, sdk.ResourceNotFoundError(uri)
		}
		return nil, resourceErr(uri, err)
	}
	c, err := jsonContents(uri, i)
	if err != nil {
		return nil, err
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{c}}, nil
}

// listResources answers resources/list itself: the SDK lists only
// resources added one by one, and decisions and issues are many and
// change. A page holds ResourcePage resources; the cursor says where the
// next one starts: "d" then the index of the next decision, or "i" then
// the tracker's own cursor.
func (t *tools) listResources(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		lr, ok := req.(*sdk.ListResourcesRequest)
		if method != "resources/list" || !ok {
			return next(ctx, method, req)
		}
		cursor := ""
		if lr.Params != nil {
			cursor = lr.Params.Cursor
		}
		return t.resourcePage(ctx, cursor)
	}
}

func badCursor(cursor string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("cursor %q: not one this server gave; call resources/list without a cursor to start again", shown(cursor))}
}

// parseCursor reads a resources/list cursor: "" (the first page), "d" and
// the index of the next decision (kind 'd', start), or "i" and the
// tracker's own cursor (kind 'i', rest, which the tracker checks).
func parseCursor(cursor string) (kind byte, start int, rest string, err error) {
	switch {
	case cursor == "":
		return 'd', 0, "", nil
	case cursor[0] == 'd':
		n, convErr := strconv.Atoi(cursor[1:])
		if convErr != nil || n < 0 || strconv.Itoa(n) != cursor[1:] {
			return 0, 0, "", badCursor(cursor)
		}
		return 'd', n, "", nil
	case cursor[0] == 'i':
		return 'i', 0, cursor[1:], nil
	}
	return 0, 0, "", badCursor(cursor)
}

func (t *tools) resourcePage(ctx context.Context, cursor string) (*sdk.ListResourcesResult, error) {
	// As the SDK's own lists: the same for every client, stale at once.
	res := &sdk.ListResourcesResult{Resources: []*sdk.Resource{}, Cacheable: sdk.Cacheable{TTLMs: 0, CacheScope: "public"}}
	kind, start, rest, err := parseCursor(cursor)
	switch {
	case err != nil:
		return nil, err
	case kind == 'i':
		return t.issuePage(ctx, res, rest)
	case cursor == "":
		res.Resources = append(res.Resources,
			&sdk.Resource{URI: registerURI, Name: "register", Title: "The decision register", MIMEType: jsonMIME},
			&sdk.Resource{URI: claimsURI, Name: "claims", Title: "The state of every claim", MIMEType: jsonMIME})
	}
	ds, err := listWork.call(ctx, t, NoIn{})
	if err != nil {
		// A tracker without a register (or with one that cannot be read)
		// still lists its issues. decision://register and decision://claims
		// are left out: a listed resource must be readable, and reading
		// either gives the whole error.
		if cursor != "" {
			return nil, resourceErr(registerURI, err)
		}
		res.Resources = res.Resources[:0]
		return t.issuePage(ctx, res, "")
	}
	if start > len(ds.Decisions) {
		return nil, badCursor(cursor)
	}
	k := start
	for ; k < len(ds.Decisions) && len(res.Resources) < ResourcePage; k++ {
		d := ds.Decisions[k]
		res.Resources = append(res.Resources, &sdk.Resource{URI: decisionScheme + d.ID, Name: d.ID, Title: d.Title, MIMEType: markdownMIME,
			Description: fmt.Sprintf("%s; %d claims, %d failed", d.Status, d.Claims, d.Failed)})
	}
	if k < len(ds.Decisions) {
		res.NextCursor = fmt.Sprintf("d%d", k)
		return res, nil
	}
	if len(res.Resources) == ResourcePage {
		res.NextCursor = "i"
		return res, nil
	}
	return t.issuePage(ctx, res, "")
}

// issuePage fills res up to ResourcePage with issues, from the tracker's
// cursor.
func (t *tools) issuePage(ctx context.Context, res *sdk.ListResourcesResult, cursor string) (*sdk.ListResourcesResult, error) {
	page, err := t.store.Listing(ctx, docket.ViewList, docket.ListParams{All: true, Sort: string(docket.SortID), Limit: ResourcePage - len(res.Resources), Cursor: cursor})
	if err != nil {
		if cursor != "" && errors.Is(err, docket.ErrInvalid) {
			return nil, badCursor("i" + cursor)
		}
		return nil, fmt.Errorf("list the issues: %w", err)
	}
	for _, r := range page.Rows {
		res.Resources = append(res.Resources, &sdk.Resource{URI: issueScheme + r.ID, Name: r.ID, Title: r.Title, MIMEType: jsonMIME,
			Description: fmt.Sprintf("%s %s, P%d", r.Status, r.Type, r.Priority)})
	}
	if page.Next != "" {
		res.NextCursor = "i" + page.Next
	}
	return res, nil
}

// complete answers completion/complete: decision ids for decision://{id}
// and the prompts' decision arguments, issue ids for issue://{id}; the
// ids that start with what the client typed, in order, at most 100.
func (t *tools) complete(ctx context.Context, req *sdk.CompleteRequest) (*sdk.CompleteResult, error) {
	p := req.Params
	empty := &sdk.CompleteResult{Completion: sdk.CompletionResultDetails{Values: []string{}}}
	if p == nil || p.Ref == nil {
		return empty, nil
	}
	var ids []string
	switch {
	case p.Ref.Type == "ref/resource" && p.Ref.URI == decisionTemplate && p.Argument.Name == "id",
		p.Ref.Type == "ref/prompt" && p.Ref.Name == "author_decision" && p.Argument.Name == "supersedes":
		ds, err := listWork.call(ctx, t, NoIn{})
		if err != nil {
			return nil, resourceErr(registerURI, err)
		}
		for _, d := range ds.Decisions {
			ids = append(ids, d.ID)
		}
	case p.Ref.Type == "ref/resource" && p.Ref.URI == issueTemplate && p.Argument.Name == "id":
		page, err := t.store.Listing(ctx, docket.ViewList, docket.ListParams{All: true, Sort: string(docket.SortID)})
		if err != nil {
			return nil, fmt.Errorf("list the issues: %w", err)
		}
		for _, r := range page.Rows {
			ids = append(ids, r.ID)
		}
	default:
		return empty, nil
	}
	var values []string
	for _, id := range ids {
		if strings.HasPrefix(strings.ToLower(id), strings.ToLower(p.Argument.Value)) {
			values = append(values, id)
		}
	}
	out := &sdk.CompleteResult{Completion: sdk.CompletionResultDetails{Values: values, Total: len(values)}}
	if len(values) > maxCompletions {
		out.Completion.Values, out.Completion.HasMore = values[:maxCompletions], true
	}
	if out.Completion.Values == nil {
		out.Completion.Values = []string{}
	}
	return out, nil
}

package mcp

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/claimslint/claimslint/internal/decisionid"
	"github.com/claimslint/claimslint/server/docket"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The workflows docket ships, as MCP prompts (D81): author a decision
// spec first, with claims that can fail; triage the ready queue. Each
// prompt's text is built from this repository: its register, its
// decisions directory, the next free id, the ready issues.

// triageDefault and triageMax bound the ready issues triage_ready puts in
// its prompt.
const (
	triageDefault = 20
	triageMax     = 100
)

func (t *tools) addPrompts(s *sdk.Server) {
	s.AddPrompt(&sdk.Prompt{Name: "author_decision", Title: "Author a decision, spec first",
		Description: "Write a new decision into the register before the code: its row, its file with a Confirmation table of claims anchored on the production lines that implement it, then check and accept it.",
		Arguments: []*sdk.PromptArgument{
			{Name: "title", Title: "Title", Description: "what is decided, in one line", Required: true},
			{Name: "context", Title: "Context", Description: "the problem the decision answers"},
			{Name: "supersedes", Title: "Supersedes", Description: "the id of a decision this one replaces, like D12"},
		}}, t.authorPrompt)
	s.AddPrompt(&sdk.Prompt{Name: "triage_ready", Title: "Triage the ready queue",
		Description: "Go through the issues nothing blocks, most urgent first: confirm each one's priority and type, link it to its decision, and pick the next to work on.",
		Arguments: []*sdk.PromptArgument{
			{Name: "limit", Title: "Limit", Description: fmt.Sprintf("how many ready issues to include: 1 to %d (default %d)", triageMax, triageDefault)},
			{Name: "label", Title: "Label", Description: "only the ready issues with this label"},
		}}, t.triagePrompt)
}

func promptArgErr(prompt, arg, msg string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("%s: argument %q: %s", prompt, arg, msg)}
}

func userText(s string) *sdk.PromptMessage {
	return &sdk.PromptMessage{Role: "user", Content: &sdk.TextContent{Text: s}}
}

func (t *tools) authorPrompt(ctx context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
	args := req.Params.Arguments
	title := strings.TrimSpace(args["title"])
	if title == "" {
		return nil, promptArgErr("author_decision", "title", "required: say what is decided, in one line")
	}
	if len(title) > 500 {
		return nil, promptArgErr("author_decision", "title", fmt.Sprintf("%d bytes: keep it under 500", len(title)))
	}
	sup := strings.TrimSpace(args["supersedes"])
	if sup != "" {
		if err := docket.CheckDecision(sup); err != nil {
			return nil, promptArgErr("author_decision", "supersedes", docket.MessageOf(err))
		}
	}
	next := "the next free id"
	if ds, err := listWork.call(ctx, t, NoIn{}); err == nil {
		if id := nextID(ds); id != "" {
			next = id
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Write a new decision, %s: %q, spec first: into the register before any code changes.\n", next, title)
	if c := strings.TrimSpace(args["context"]); c != "" {
		fmt.Fprintf(&b, "\nContext: %s\n", c)
	}
	fmt.Fprintf(&b, "\n1. Read the register %s (resource %s) and the decisions near this one (resource decision://<id>), so the new one does not contradict an accepted one.", t.register, registerURI)
	fmt.Fprintf(&b, "\n2. Add one row for %s to the register's table, in id order, with status proposed.", next)
	fmt.Fprintf(&b, "\n3. Write %s/%s-<slug>.md: YAML front matter (id, status: proposed, date, tracker, residuals), then Context and Problem Statement, Decision Outcome and Consequences.", t.decisions, next)
	b.WriteString("\n4. End it with a `## Confirmation` table, `| Claim | Kind | Path | Anchor | Require | Why |`: each claim anchored on the production line that implements the decision (not a comment, not a test), so that it fails when the code stops doing what the decision says.")
	if sup != "" {
		fmt.Fprintf(&b, "\n5. Say that it supersedes %s (claimslint new --supersedes %s writes the relation); accepting it retires %s.", sup, sup, sup)
	} else {
		b.WriteString("\n5. If it replaces an accepted decision, say so (claimslint new --supersedes).")
	}
	b.WriteString("\n6. Call claims_check with the new id as decision: the claims must fail before the code exists and hold after it; a claim that cannot fail proves nothing.")
	b.WriteString("\n7. When they hold, call decision_accept; it is refused while a claim does not hold.")
	b.WriteString("\nRecord what you notice and leave alone as tracker issues (issue_create) and list them in the front matter's residuals.")
	return &sdk.GetPromptResult{Description: "Author " + next + " spec first", Messages: []*sdk.PromptMessage{userText(b.String())}}, nil
}

// nextID is the id after the highest one of the register ("" when it has
// none).
func nextID(ds DecisionsOut) string {
	top := -1
	for _, d := range ds.Decisions {
		if decisionid.Valid(d.ID) {
			top = max(top, decisionid.Number(d.ID))
		}
	}
	if top < 0 || top >= 1<<30 {
		return ""
	}
	return fmt.Sprintf("D%d", top+1)
}

func (t *tools) triagePrompt(ctx context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
	args := req.Params.Arguments
	n := triageDefault
	if s := strings.TrimSpace(args["limit"]); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 || v > triageMax {
			return nil, promptArgErr("triage_ready", "limit", fmt.Sprintf("%s: use a whole number from 1 to %d (default %d)", shown(s), triageMax, triageDefault))
		}
		n = v
	}
	label := strings.TrimSpace(args["label"])
	page, err := t.store.Listing(ctx, docket.ViewReady, docket.ListParams{Label: label, Limit: n})
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "triage_ready: " + toolText(err)}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Triage the ready queue: the %d of %d issues nothing unfinished blocks", len(page.Rows), page.Total)
	if label != "" {
		fmt.Fprintf(&b, " with label %s", label)
	}
	b.WriteString(", most urgent first:\n")
	for _, r := range page.Rows {
		fmt.Fprintf(&b, "\n- %s P%d %s %s: %s", r.ID, r.Priority, r.Type, r.Status, r.Title)
	}
	if len(page.Rows) == 0 {
		b.WriteString("\n(none)")
	}
	if page.More > 0 {
		fmt.Fprintf(&b, "\n\n%d more: issue_ready with cursor %s.", page.More, page.Next)
	}
	b.WriteString("\n\nFor each: read it (issue_show, or resource issue://<id>); check that its priority (0 most urgent to 4) and type are right and fix them with issue_update; link it to the decision it serves (add_decisions) or note that it needs one; close what is done or no longer wanted with issue_close and a reason.")
	b.WriteString(" Then say which one to take next and why.")
	return &sdk.GetPromptResult{Description: "Triage the ready queue", Messages: []*sdk.PromptMessage{userText(b.String())}}, nil
}

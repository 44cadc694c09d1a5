package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/claimslint/claimslint/internal/check"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The register tools' text content is a short summary of their
// structuredContent, not the JSON again (D81): a full claims_check's
// JSON is hundreds of kilobytes, which a client would put in front of a
// model twice.

// summaryLines bounds the per-item lines of a summary; the rest is
// counted, and is in structuredContent.
const summaryLines = 20

func text(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

// claimCounts is "N claims: a held, b failed, c pending" of cs.
func claimCounts(cs []check.ClaimState) string {
	n := map[string]int{}
	for _, c := range cs {
		n[c.State]++
	}
	parts := []string{}
	for _, st := range []string{check.StateOK, check.StateFailed, check.StatePending, check.StateRetired} {
		if n[st] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[st], st))
		}
	}
	s := fmt.Sprintf("%d claims", len(cs))
	if len(parts) > 0 {
		s += ": " + strings.Join(parts, ", ")
	}
	return s
}

// more says how many lines a summary left out.
func more(b *strings.Builder, n int, what string) {
	if n > summaryLines {
		fmt.Fprintf(b, "\n%d more %s in structuredContent", n-summaryLines, what)
	}
}

func decisionsSummary(out DecisionsOut) string {
	var b strings.Builder
	claims, failed, pending := 0, 0, 0
	for _, d := range out.Decisions {
		claims, failed, pending = claims+d.Claims, failed+d.Failed, pending+d.Pending
	}
	fmt.Fprintf(&b, "%d decisions; %d claims, %d failed, %d pending", len(out.Decisions), claims, failed, pending)
	for k, d := range out.Decisions {
		if k == summaryLines {
			break
		}
		fmt.Fprintf(&b, "\n%s %s %s (%d claims, %d failed)", d.ID, d.Status, strings.TrimPrefix(d.Title, d.ID+": "), d.Claims, d.Failed)
	}
	more(&b, len(out.Decisions), "decisions")
	return b.String()
}

func decisionSummary(out DecisionOut) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %s (%s); %s", out.ID, out.Status, strings.TrimPrefix(out.Title, out.ID+": "), out.File, claimCounts(out.Claims))
	for k, c := range out.Claims {
		if k == summaryLines {
			break
		}
		fmt.Fprintf(&b, "\n%s %s %s", c.Claim, c.Kind, c.State)
		if c.Message != "" {
			fmt.Fprintf(&b, ": %s", c.Message)
		}
	}
	more(&b, len(out.Claims), "claims")
	b.WriteString("\nthe decision's text is in structuredContent (text)")
	return b.String()
}

func checkSummary(out CheckOut) string {
	var b strings.Builder
	errs := 0
	for _, f := range out.Findings {
		if f.Severity == "error" {
			errs++
		}
	}
	verdict := "ok"
	if !out.OK {
		verdict = "failing"
	}
	fmt.Fprintf(&b, "%s: %d findings (%d errors); %s", verdict, len(out.Findings), errs, claimCounts(out.Claims))
	for k, f := range out.Findings {
		if k == summaryLines {
			break
		}
		fmt.Fprintf(&b, "\n%s:%d:%d: %s %s: %s", f.File, f.Line, f.Column, f.Severity, f.Check, f.Message)
	}
	more(&b, len(out.Findings), "findings")
	return b.String()
}

func statusSummary(out StatusOut) string {
	if !out.Done {
		return fmt.Sprintf("%s stays %s: %d findings refuse it (in unheld); nothing was changed", out.ID, out.From, len(out.Unheld))
	}
	if len(out.Updated) == 0 {
		return fmt.Sprintf("%s is %s already; nothing was changed", out.ID, out.Status)
	}
	s := fmt.Sprintf("%s: %s -> %s; updated %s", out.ID, out.From, out.Status, strings.Join(out.Updated, ", "))
	if len(out.Retired) > 0 {
		s += "; retired " + strings.Join(out.Retired, ", ")
	}
	return s
}

// checkStages is how many steps claims_check's progress counts: it has
// the check slot and runs (1), then has its result (2). A check's own
// work is one step: it runs in a child process (D71) that reports only
// its result, so there is no finer count to report without making one up.
const checkStages = 2

// progress sends notifications/progress for one request, when its client
// gave a progressToken; otherwise it sends nothing.
type progress struct {
	ctx     context.Context
	session *sdk.ServerSession
	token   any
	total   float64
}

func newProgress(ctx context.Context, req *sdk.CallToolRequest, total int) progress {
	p := progress{ctx: ctx, total: float64(total)}
	if req != nil && req.Params != nil && req.Session != nil {
		p.session, p.token = req.Session, req.Params.GetProgressToken()
	}
	return p
}

// report says step of total is done, with msg.
func (p progress) report(step int, msg string) {
	if p.token == nil || p.session == nil {
		return
	}
	// A lost progress notification must not fail the call it reports on.
	_ = p.session.NotifyProgress(p.ctx, &sdk.ProgressNotificationParams{ProgressToken: p.token, Progress: float64(step), Total: p.total, Message: msg})
}

package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server/mcp"
	"github.com/claimslint/claimslint/server/mcp/streamhttp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// declaredCapabilities is what docket mcp declares at initialize (D81):
// every feature it serves, no listChanged or subscribe it never sends.
const declaredCapabilities = `{"completions":{},"logging":{},"prompts":{},"resources":{},"tools":{}}`

// TestCapabilitiesDeclared: the initialize result's capabilities are
// exactly the declared bytes, over stdio, and with --read-only too.
func TestCapabilitiesDeclared(t *testing.T) {
	t.Parallel()
	for _, ro := range []bool{false, true} {
		store, _ := newStore(t)
		out := serveWith(t, serveOptions{Store: store, Dir: t.TempDir(), ReadOnly: ro}, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`+"\n"))
		if want := `"capabilities":` + declaredCapabilities + `,`; !strings.Contains(string(out), want) {
			t.Errorf("read-only %v: initialize answered\n%s\nwant it to hold %s", ro, out, want)
		}
	}
}

// featureRepo is tinyRepo (D1 holds, D2 fails) with a tracker holding
// dk-aaa, and the environment that runs this test binary as docket there.
func featureRepo(t *testing.T) ([]string, string) {
	dir := tinyRepo(t)
	export := filepath.Join(dir, ".knowledge", "tracker", "issues.jsonl")
	if err := os.MkdirAll(filepath.Dir(export), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(export, []byte(seedIssue), 0o644); err != nil {
		t.Fatal(err)
	}
	return append(os.Environ(), "DOCKET_AS_BINARY=1", "DOCKET_DB="+filepath.Join(dir, ".docket", "index.db"), "DOCKET_EXPORT="+export), dir
}

// progressLog collects the progress notifications a client receives.
type progressLog struct {
	mu   sync.Mutex
	seen []*sdk.ProgressNotificationParams
}

func (p *progressLog) handler(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seen = append(p.seen, req.Params)
}

func (p *progressLog) get() []*sdk.ProgressNotificationParams {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.seen)
}

// connect starts docket mcp in a featureRepo and connects the go-sdk
// client to it: "stdio" spawns the docket process over real pipes; "http"
// serves Streamable HTTP on a loopback port.
func connect(t *testing.T, mode string, readOnly bool) (*sdk.ClientSession, *progressLog) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	progress := &progressLog{}
	client := sdk.NewClient(&sdk.Implementation{Name: "features", Version: "1"}, &sdk.ClientOptions{ProgressNotificationHandler: progress.handler})
	var transport sdk.Transport
	env, dir := featureRepo(t)
	switch mode {
	case "stdio":
		args := []string{"mcp"}
		if readOnly {
			args = append(args, "--read-only")
		}
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env, cmd.Dir = env, dir
		transport = &sdk.CommandTransport{Command: cmd}
	case "http":
		store, _ := newStore(t)
		ready := make(chan string, 1)
		served := make(chan error, 1)
		go func() {
			served <- serveHTTP(ctx, serveOptions{Store: store, Dir: dir, CheckProcess: childProcess(t), ReadOnly: readOnly}, streamhttp.HTTPOptions{Addr: "127.0.0.1:0", Ready: ready})
		}()
		t.Cleanup(func() { cancel(); <-served })
		transport = &sdk.StreamableClientTransport{Endpoint: "http://" + <-ready + streamhttp.HTTPPath}
	}
	session, err := client.Connect(ctx, transport, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { session.Close() })
	return session, progress
}

// TestResourcesPromptsAndProgress drives every feature D81 declares with
// the go-sdk client, over real pipes and over HTTP: the capabilities, the
// resources and templates, completion of ids, the prompts, and
// claims_check's progress.
func TestResourcesPromptsAndProgress(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"stdio", "http"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			s, progress := connect(t, mode, false)

			caps, _ := json.Marshal(s.InitializeResult().Capabilities)
			if string(caps) != declaredCapabilities {
				t.Errorf("capabilities %s, want %s", caps, declaredCapabilities)
			}

			list, err := s.ListResources(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var uris []string
			for _, r := range list.Resources {
				uris = append(uris, r.URI)
			}
			if want := []string{"decision://register", "decision://claims", "decision://D1", "decision://D2", "issue://dk-aaa"}; !slices.Equal(uris, want) || list.NextCursor != "" {
				t.Errorf("resources/list gave %v (next %q), want %v", uris, list.NextCursor, want)
			}
			tpl, err := s.ListResourceTemplates(ctx, nil)
			if err != nil || len(tpl.ResourceTemplates) != 2 || tpl.ResourceTemplates[0].URITemplate != "decision://{id}" || tpl.ResourceTemplates[1].URITemplate != "issue://{id}" {
				t.Errorf("resources/templates/list: %v %+v", err, tpl)
			}

			d1, err := s.ReadResource(ctx, &sdk.ReadResourceParams{URI: "decision://D1"})
			if err != nil {
				t.Fatal(err)
			}
			if len(d1.Contents) != 2 || d1.Contents[0].MIMEType != "text/markdown" || !strings.Contains(d1.Contents[0].Text, "Frames are small.") ||
				d1.Contents[1].MIMEType != "application/json" || !strings.Contains(d1.Contents[1].Text, `"state":"ok"`) {
				t.Errorf("decision://D1: %+v", d1.Contents)
			}
			claims, err := s.ReadResource(ctx, &sdk.ReadResourceParams{URI: "decision://claims"})
			if err != nil || len(claims.Contents) != 1 || !strings.HasPrefix(claims.Contents[0].Text, `{"ok":false,`) || !strings.Contains(claims.Contents[0].Text, `"decision":"D2","status":"accepted","claim":"C1","kind":"present","state":"failed"`) {
				t.Errorf("decision://claims: %v %+v", err, claims)
			}
			issue, err := s.ReadResource(ctx, &sdk.ReadResourceParams{URI: "issue://dk-aaa"})
			if err != nil || !strings.Contains(issue.Contents[0].Text, `"id":"dk-aaa","title":"seeded"`) {
				t.Errorf("issue://dk-aaa: %v %+v", err, issue)
			}
			for _, uri := range []string{"decision://D9", "issue://dk-none", "issue://../../etc/passwd", "decision://register/../x"} {
				if _, err := s.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri}); err == nil || !strings.Contains(err.Error(), "Resource not found") {
					t.Errorf("%s: %v, want resource not found", uri, err)
				}
			}

			for _, c := range []struct{ uri, value, want string }{
				{"decision://{id}", "D", "D1,D2"},
				{"decision://{id}", "d2", "D2"},
				{"issue://{id}", "dk-", "dk-aaa"},
				{"issue://{id}", "zz", ""},
			} {
				res, err := s.Complete(ctx, &sdk.CompleteParams{Ref: &sdk.CompleteReference{Type: "ref/resource", URI: c.uri}, Argument: sdk.CompleteParamsArgument{Name: "id", Value: c.value}})
				if err != nil || strings.Join(res.Completion.Values, ",") != c.want {
					t.Errorf("complete %s %q: %v %+v, want %s", c.uri, c.value, err, res, c.want)
				}
			}

			prompts, err := s.ListPrompts(ctx, nil)
			if err != nil || len(prompts.Prompts) != 2 || prompts.Prompts[0].Name != "author_decision" || prompts.Prompts[1].Name != "triage_ready" {
				t.Fatalf("prompts/list: %v %+v", err, prompts)
			}
			author, err := s.GetPrompt(ctx, &sdk.GetPromptParams{Name: "author_decision", Arguments: map[string]string{"title": "Frames carry a checksum", "supersedes": "D1"}})
			if err != nil {
				t.Fatal(err)
			}
			text := author.Messages[0].Content.(*sdk.TextContent).Text
			for _, want := range []string{`Write a new decision, D3: "Frames carry a checksum"`, "docs/decisions/D3-<slug>.md", "## Confirmation", "supersedes D1", "claims_check", "decision_accept"} {
				if !strings.Contains(text, want) {
					t.Errorf("author_decision lacks %q:\n%s", want, text)
				}
			}
			if _, err := s.GetPrompt(ctx, &sdk.GetPromptParams{Name: "author_decision", Arguments: map[string]string{}}); err == nil || !strings.Contains(err.Error(), `author_decision: argument "title": required`) {
				t.Errorf("author_decision without a title: %v", err)
			}
			triage, err := s.GetPrompt(ctx, &sdk.GetPromptParams{Name: "triage_ready", Arguments: map[string]string{"limit": "5"}})
			if err != nil || !strings.Contains(triage.Messages[0].Content.(*sdk.TextContent).Text, "- dk-aaa P2 task open: seeded") {
				t.Errorf("triage_ready: %v %+v", err, triage)
			}
			if _, err := s.GetPrompt(ctx, &sdk.GetPromptParams{Name: "triage_ready", Arguments: map[string]string{"limit": "1000"}}); err == nil || !strings.Contains(err.Error(), `triage_ready: argument "limit"`) {
				t.Errorf("triage_ready limit 1000: %v", err)
			}

			params := &sdk.CallToolParams{Name: "claims_check", Arguments: map[string]any{}}
			params.SetProgressToken("check-1")
			res, err := s.CallTool(ctx, params)
			if err != nil || res.IsError {
				t.Fatalf("claims_check: %v %+v", err, res)
			}
			summary := res.Content[0].(*sdk.TextContent).Text
			if !strings.HasPrefix(summary, "failing: 1 findings (1 errors); 2 claims: 1 ok, 1 failed\n") || strings.Contains(summary, `"claims"`) {
				t.Errorf("claims_check's text is not its summary:\n%s", summary)
			}
			// Over HTTP the progress comes in the POST's own event stream
			// (D80). Notifications may trail the reply on the client's side.
			var seen []*sdk.ProgressNotificationParams
			for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
				if seen = progress.get(); len(seen) == 3 {
					break
				}
			}
			var steps []string
			for _, p := range seen {
				if p.ProgressToken != "check-1" || p.Total != 2 {
					t.Errorf("progress %+v: want token check-1, total 2", p)
				}
				steps = append(steps, strings.SplitN(p.Message, ":", 2)[0])
			}
			if got := strings.Join(steps, " / "); got != "queued for the register check slot / checking the claims / failing" || seen[2].Progress != 2 {
				t.Errorf("progress of claims_check: %s (%+v)", got, seen)
			}
		})
	}
}

// TestReadOnlyMode: with --read-only only the tools that change nothing
// are listed; a write tool called anyway is refused and changes nothing;
// resources and prompts are served as ever.
func TestReadOnlyMode(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"stdio", "http"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			s, _ := connect(t, mode, true)
			tools, err := s.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tl := range tools.Tools {
				names = append(names, tl.Name)
			}
			want := slices.Sorted(func(yield func(string) bool) {
				for n := range mcp.ReadOnlySet() {
					if !yield(n) {
						return
					}
				}
			})
			if !slices.Equal(slices.Sorted(slices.Values(names)), want) {
				t.Errorf("--read-only lists %v, want the read-only tools %v", names, want)
			}
			res, err := s.CallTool(ctx, &sdk.CallToolParams{Name: "issue_create", Arguments: map[string]any{"title": "should not exist"}})
			if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*sdk.TextContent).Text, "issue_create: refused: this docket mcp runs with --read-only") {
				t.Errorf("issue_create under --read-only: %v %+v", err, res)
			}
			list, err := s.CallTool(ctx, &sdk.CallToolParams{Name: "issue_search", Arguments: map[string]any{"query": "should"}})
			if err != nil || list.IsError || !strings.HasPrefix(list.Content[0].(*sdk.TextContent).Text, "0 of 0 matching issues") {
				t.Errorf("the refused create changed something: %v %+v", err, list)
			}
			if _, err := s.ReadResource(ctx, &sdk.ReadResourceParams{URI: "issue://dk-aaa"}); err != nil {
				t.Errorf("resources under --read-only: %v", err)
			}
			if _, err := s.GetPrompt(ctx, &sdk.GetPromptParams{Name: "triage_ready"}); err != nil {
				t.Errorf("prompts under --read-only: %v", err)
			}
		})
	}
}

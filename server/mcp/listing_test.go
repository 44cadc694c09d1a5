package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/server/docket"
)

// TestFiltersFieldsAndStats: issue_ready and issue_blocked take the
// filters of issue_list (type, priority, label, decision), the listings
// take fields, and issue_stats counts what the listings select.
func TestFiltersFieldsAndStats(t *testing.T) {
	t.Parallel()
	store, _ := newStore(t) // dk-aaa: task, P2
	ctx := context.Background()
	mk := func(n docket.NewIssue) string {
		i, err := store.Create(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		return i.ID
	}
	bug := mk(docket.NewIssue{Title: "a bug", Type: "bug", Priority: 0, Labels: []string{"wire"}, Decisions: []string{"D3"}})
	feat := mk(docket.NewIssue{Title: "a feature", Type: "feature", Priority: 1})
	held := mk(docket.NewIssue{Title: "held", Type: "bug", Priority: 1, Labels: []string{"wire"}})
	if _, err := store.AddDep(ctx, feat, docket.Dep{Type: docket.DepBlocks, ID: held}); err != nil {
		t.Fatal(err)
	}
	done := mk(docket.NewIssue{Title: "done", Priority: 3})
	if _, err := store.CloseIssue(ctx, done, "shipped", 0); err != nil {
		t.Fatal(err)
	}
	byID := []string{bug, held} // sort id
	slices.Sort(byID)
	cases := []struct {
		tool, args string
		want       string // the ids of the page, or a fragment of the structured content
	}{
		{"issue_ready", `{}`, "ids " + strings.Join([]string{bug, feat, "dk-aaa"}, ",")},
		{"issue_ready", `{"type":"bug"}`, "ids " + bug},
		{"issue_ready", `{"priority":1}`, "ids " + feat},
		{"issue_ready", `{"priority":0,"type":"feature"}`, "ids "},
		{"issue_ready", `{"label":"wire"}`, "ids " + bug},
		{"issue_ready", `{"decision":"D3"}`, "ids " + bug},
		{"issue_blocked", `{}`, "ids " + held},
		{"issue_blocked", `{"type":"bug","label":"wire","priority":1}`, "ids " + held},
		{"issue_blocked", `{"type":"feature"}`, "ids "},
		{"issue_list", `{"priority":2}`, "ids dk-aaa"},
		{"issue_list", `{"fields":["id","labels"],"type":"bug","sort":"id"}`, fmt.Sprintf(`"issues":[],"more":0,"records":[{"id":%q,"labels":["wire"]},{"id":%q,"labels":["wire"]}]`, byID[0], byID[1])},
		{"issue_ready", `{"fields":["title"],"label":"wire"}`, `"records":[{"title":"a bug"}]`},
		{"issue_search", `{"query":"held","fields":["deps","version"]}`, `"records":[{"deps":[],"version":1}]`},
		{"issue_stats", `{}`, `{"blocked":1,"by_priority":{"P0":1,"P1":2,"P2":1,"P3":1},"by_status":{"closed":1,"open":4},"by_type":{"bug":2,"feature":1,"task":2},"closed":1,"ready":3,"total":5,"unfinished":4}`},
		{"issue_ready", `{"priority":5}`, `error issue_ready: argument "priority": 5 is over the maximum 4`},
		{"issue_list", `{"fields":["secret"]}`, `error issue_list: argument "fields": item 1: "secret" is not one of id, title,`},
	}
	var in strings.Builder
	in.WriteString(initLines)
	for k, c := range cases {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`+"\n", k, c.tool, c.args)
	}
	got := map[int]string{}
	for id, r := range toolReplies(serve(t, store, []byte(in.String()))) {
		c := cases[id]
		switch {
		case r.IsError:
			got[id] = "error " + r.Text
		case strings.HasPrefix(c.want, "ids "):
			var p struct{ Issues []struct{ ID string } }
			json.Unmarshal(r.Structured, &p)
			var ids []string
			for _, i := range p.Issues {
				ids = append(ids, i.ID)
			}
			got[id] = "ids " + strings.Join(ids, ",")
		default:
			got[id] = string(r.Structured)
		}
	}
	for k, c := range cases {
		if g := got[k]; !strings.Contains(g, c.want) || (strings.HasPrefix(c.want, "ids ") && g != c.want) {
			t.Errorf("%s %s:\n got %s\nwant %s", c.tool, c.args, g, c.want)
		}
	}
}

// TestResourcesListPages: resources/list holds 100 resources a page, the
// fixed ones and the decisions first, then the issues, and its cursor
// reaches every one exactly once; a cursor it did not give is refused;
// completion answers at most 100 ids and says there are more.
func TestResourcesListPages(t *testing.T) {
	t.Parallel()
	store, _ := newStore(t)
	ctx := context.Background()
	for k := 0; k < 150; k++ {
		if _, err := store.Create(ctx, docket.NewIssue{Title: fmt.Sprintf("issue %d", k)}); err != nil {
			t.Fatal(err)
		}
	}
	page := func(cursor string) (uris []string, next string, errMsg string) {
		params := `{}`
		if cursor != "" {
			params = fmt.Sprintf(`{"cursor":%q}`, cursor)
		}
		out := serveWith(t, serveOptions{Store: store, Dir: tinyRepo(t)}, []byte(initLines+`{"jsonrpc":"2.0","id":"p","method":"resources/list","params":`+params+"}\n"))
		for _, l := range strings.Split(string(out), "\n") {
			var m struct {
				ID     string `json:"id"`
				Result struct {
					Resources  []struct{ URI string }
					NextCursor string
				}
				Error *struct {
					Code    int
					Message string
				}
			}
			if json.Unmarshal([]byte(l), &m) != nil || m.ID != "p" {
				continue
			}
			if m.Error != nil {
				return nil, "", fmt.Sprintf("%d %s", m.Error.Code, m.Error.Message)
			}
			for _, r := range m.Result.Resources {
				uris = append(uris, r.URI)
			}
			return uris, m.Result.NextCursor, ""
		}
		t.Fatalf("no answer to resources/list:\n%s", out)
		return nil, "", ""
	}
	seen := map[string]int{}
	var sizes []int
	cursor := ""
	for k := 0; k < 5; k++ {
		uris, next, errMsg := page(cursor)
		if errMsg != "" {
			t.Fatalf("cursor %q: %s", cursor, errMsg)
		}
		sizes = append(sizes, len(uris))
		for _, u := range uris {
			seen[u]++
		}
		if cursor = next; next == "" {
			break
		}
	}
	if fmt.Sprint(sizes) != "[100 55]" || len(seen) != 155 {
		t.Errorf("pages of %v, %d distinct resources; want [100 55] and 155 (2 fixed, 2 decisions, 151 issues)", sizes, len(seen))
	}
	for u, n := range seen {
		if n != 1 {
			t.Errorf("%s listed %d times", u, n)
		}
	}
	for _, bad := range []string{"zz", "d-1", "d999", "d01", "inot-a-cursor"} {
		if _, _, errMsg := page(bad); !strings.HasPrefix(errMsg, "-32602 cursor ") {
			t.Errorf("cursor %q: %q, want -32602 naming the cursor", bad, errMsg)
		}
	}
	out := serve(t, store, []byte(initLines+`{"jsonrpc":"2.0","id":"c","method":"completion/complete","params":{"ref":{"type":"ref/resource","uri":"issue://{id}"},"argument":{"name":"id","value":"dk-"}}}`+"\n"))
	if !strings.Contains(string(out), `"hasMore":true,"total":151,"values":["dk-`) {
		t.Errorf("completion of 151 ids:\n%s", out)
	}
}

// TestIssueClaim: issue_claim takes an issue for the client (its name by
// default) and moves it to in_progress; another claimant is refused and
// changes nothing; the assignee filters the listings; issue_update with
// assignee "" releases it.
func TestIssueClaim(t *testing.T) {
	t.Parallel()
	store, _ := newStore(t)
	cases := []struct{ tool, args, want string }{
		{"issue_claim", `{"id":"dk-aaa"}`, `text claimed by conformance: dk-aaa: seeded (in_progress, task, P2, version 2)`},
		{"issue_claim", `{"id":"dk-aaa","assignee":"other"}`, `error issue_claim: dk-aaa is held by conformance: claimed by someone else; ask them, or pick another issue`},
		{"issue_list", `{"assignee":"conformance","fields":["id","assignee","status"]}`, `"records":[{"assignee":"conformance","id":"dk-aaa","status":"in_progress"}]`},
		{"issue_list", `{"assignee":"other"}`, `"issues":[],"more":0,"total":0`},
		{"issue_ready", `{}`, `"issues":[],"more":0,"total":0`},
		{"issue_update", `{"id":"dk-aaa","assignee":"","status":"open"}`, `"assignee"`},
		{"issue_claim", `{"id":"dk-aaa","assignee":"other"}`, `text claimed by other: dk-aaa: seeded (in_progress, task, P2, version 4)`},
		{"issue_claim", `{"id":"dk-aaa","assignee":"x\ny"}`, `error issue_claim: argument "assignee": `},
	}
	var in strings.Builder
	in.WriteString(initLines)
	for k, c := range cases {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`+"\n#await \"id\":%d,\n", k, c.tool, c.args, k)
	}
	for id, r := range toolReplies(serve(t, store, []byte(in.String()))) {
		c := cases[id]
		got := string(r.Structured)
		switch {
		case r.IsError:
			got = "error " + r.Text
		case strings.HasPrefix(c.want, "text "):
			got = "text " + r.Text
		}
		if c.want == `"assignee"` {
			if strings.Contains(got, c.want) || r.IsError {
				t.Errorf("%s %s: the release left %s", c.tool, c.args, got)
			}
		} else if !strings.Contains(got, c.want) {
			t.Errorf("%s %s:\n got %s\nwant %s", c.tool, c.args, got, c.want)
		}
	}
}

// toolReply is one tools/call reply: isError, its first text, and its
// structured content.
type toolReply struct {
	IsError    bool
	Text       string
	Structured json.RawMessage
	Line       string // the whole reply
}

// toolReplies reads the replies in out to calls with integer ids, by id.
func toolReplies(out []byte) map[int]toolReply {
	got := map[int]toolReply{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var m struct {
			ID     *int `json:"id"`
			Result struct {
				IsError bool `json:"isError"`
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
				Structured json.RawMessage `json:"structuredContent"`
			} `json:"result"`
		}
		if json.Unmarshal([]byte(l), &m) != nil || m.ID == nil {
			continue
		}
		r := toolReply{IsError: m.Result.IsError, Structured: m.Result.Structured, Line: l}
		if len(m.Result.Content) > 0 {
			r.Text = m.Result.Content[0].Text
		}
		got[*m.ID] = r
	}
	return got
}

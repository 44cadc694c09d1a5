package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/mcp"
)

// registryArgs are arguments each tool of the registry accepts on the
// tracker TestReadOnlyToolsLogNoWrite builds: $1 is the seeded dk-aaa,
// $2 a second issue. A tool missing here fails the test, so a new tool is
// exercised the day it joins the registry.
var registryArgs = []struct {
	tool, args string
}{
	{"issue_create", `{"title":"third"}`},
	{"issue_list", `{}`},
	{"issue_ready", `{}`},
	{"issue_blocked", `{}`},
	{"issue_search", `{"query":"seeded"}`},
	{"issue_stats", `{}`},
	{"issue_show", `{"id":"$1"}`},
	{"issue_update", `{"id":"$1","priority":1}`},
	{"issue_comment", `{"id":"$1","text":"a note","author":"a"}`},
	{"issue_claim", `{"id":"$1","assignee":"agent-1"}`},
	{"dep_add", `{"id":"$1","target":"$2","type":"blocks"}`},
	{"dep_remove", `{"id":"$1","target":"$2","type":"blocks"}`},
	{"issue_close", `{"id":"$2","reason":"done"}`},
	{"issue_reopen", `{"id":"$2"}`},
	{"decision_list", `{}`},
	{"decision_show", `{"id":"D1"}`},
	{"claims_check", `{"decision":"D1"}`},
	// D1 is accepted already: the call succeeds and changes nothing.
	{"decision_accept", `{"id":"D1"}`},
	{"decision_status", `{"id":"D1","status":"accepted"}`},
}

// TestReadOnlyToolsLogNoWrite: every tool of the registry, called with
// success over stdio at log level info, sends the "tracker was written"
// notifications/message before its reply exactly when its annotations
// say it writes. The read-only set is derived from those annotations, so
// a read-only tool whose call logs a write (issue_search and
// issue_blocked did, while the set was a list of its own) fails here.
func TestReadOnlyToolsLogNoWrite(t *testing.T) {
	t.Parallel()
	store, _ := newStore(t)
	second, err := store.Create(context.Background(), docket.NewIssue{Title: "second"})
	if err != nil {
		t.Fatal(err)
	}
	names, readOnly := mcp.Registry()
	var tested []string
	for _, c := range registryArgs {
		tested = append(tested, c.tool)
	}
	if a, b := slices.Sorted(slices.Values(names)), slices.Sorted(slices.Values(tested)); !slices.Equal(a, b) {
		t.Fatalf("the registry has %v, registryArgs covers %v", a, b)
	}
	if !maps.Equal(mcp.ReadOnlySet(), func() map[string]bool {
		m := map[string]bool{}
		for n, ro := range readOnly {
			if ro {
				m[n] = true
			}
		}
		return m
	}()) {
		t.Errorf("the read-only set %v is not the annotations' %v", mcp.ReadOnlySet(), readOnly)
	}
	var in strings.Builder
	in.WriteString(initLines)
	in.WriteString(`{"jsonrpc":"2.0","id":"lvl","method":"logging/setLevel","params":{"level":"info"}}` + "\n#await \"id\":\"lvl\"\n")
	for k, c := range registryArgs {
		args := strings.NewReplacer("$1", "dk-aaa", "$2", second.ID).Replace(c.args)
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":"r%d","method":"tools/call","params":{"name":%q,"arguments":%s}}`+"\n#await \"id\":\"r%d\"\n", k, c.tool, args, k)
	}
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	out := serveDir(t, store, root, []byte(in.String()))
	// Each call is sent once the reply before it is out, so the lines
	// between two replies are what the second call sent.
	var logged []string
	replies := 0
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var m struct {
			ID     string `json:"id"`
			Method string `json:"method"`
			Params struct {
				Data struct{ Tool string } `json:"data"`
			} `json:"params"`
			Result struct {
				IsError bool `json:"isError"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		switch {
		case m.Method == "notifications/message":
			logged = append(logged, m.Params.Data.Tool)
		case strings.HasPrefix(m.ID, "r"):
			var k int
			fmt.Sscanf(m.ID, "r%d", &k)
			c := registryArgs[k]
			replies++
			if m.Result.IsError {
				t.Errorf("%s: %s", c.tool, l)
			}
			wrote := slices.Equal(logged, []string{c.tool})
			if wrote == readOnly[c.tool] {
				t.Errorf("%s: readOnlyHint %v, but the logs before its reply were %v", c.tool, readOnly[c.tool], logged)
			}
			logged = nil
		}
	}
	if replies != len(registryArgs) {
		t.Errorf("%d replies to %d calls:\n%s", replies, len(registryArgs), out)
	}
	if n := len(mcp.ReadOnlySet()); n != 9 {
		t.Errorf("%d read-only tools, D24 says nine", n)
	}
}

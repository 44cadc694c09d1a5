package mcp_test

import (
	"regexp"
	"strings"
	"testing"
)

var createdID = regexp.MustCompile(`dk-[0-9a-z]{3}\b`)

// TestFastCallsAreTheSDKs: the transport serves a plain tools/call of a
// read-only issue tool itself (D82); every reply it writes is the one the
// SDK's dispatch writes for the same frames, byte for byte: results,
// tool errors, refused arguments, titles with HTML characters, and the
// frames the fast path leaves to the SDK.
func TestFastCallsAreTheSDKs(t *testing.T) {
	t.Parallel()
	frames := fastFrames()
	in := []byte(initLines + strings.Join(frames, "\n") + "\n")
	run := func(o serveOptions) []string {
		store, _ := newStore(t)
		o.Store, o.Dir, o.MaxInFlight = store, t.TempDir(), 1
		lines := sortedLines(serveWith(t, o, in))
		for k, l := range lines {
			// The created issue's id is random: the same in both runs
			// once named alike.
			lines[k] = createdID.ReplaceAllStringFunc(l, func(id string) string {
				if id == "dk-aaa" {
					return id
				}
				return "dk-new"
			})
		}
		return lines
	}
	fast, sdk := run(serveOptions{}), run(throughSDK(serveOptions{}))
	if len(fast) != len(frames)+1 {
		t.Fatalf("%d replies to %d requests", len(fast), len(frames)+1)
	}
	for k := range max(len(fast), len(sdk)) {
		var f, s string
		if k < len(fast) {
			f = fast[k]
		}
		if k < len(sdk) {
			s = sdk[k]
		}
		if f != s {
			t.Errorf("reply %d:\nfast path: %s\nSDK:       %s", k, f, s)
		}
	}
}

// fastFrames are the requests TestFastCallsAreTheSDKs sends, over stdio
// and over HTTP: an issue made first, then calls the fast path takes and
// calls it leaves to the SDK.
func fastFrames() []string {
	call := func(id, params string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":` + params + `}`
	}
	return []string{
		create("1", `<b>&amp; "quoted" \u2028 ünïcode</b>`),
		call("2", `{"name":"issue_show","arguments":{"id":"dk-aaa"}}`),
		call("3", `{"name":"issue_show","arguments":{"id":"dk-zzz"}}`),
		call("4", `{"name":"issue_show","arguments":{"id":7}}`),
		call("5", `{"name":"issue_show","arguments":{}}`),
		call("6", `{"name":"issue_show","arguments":{"id":"dk-aaa","extra":true}}`),
		call("7", `{"name":"issue_list","arguments":{}}`),
		call("8", `{"name":"issue_list","arguments":{"limit":1,"fields":["id","title"]}}`),
		call("9", `{"name":"issue_search","arguments":{"query":"quoted"}}`),
		call("10", `{"name":"issue_ready","arguments":{}}`),
		call("11", `{"name":"issue_blocked","arguments":{}}`),
		call("12", `{"name":"issue_stats","arguments":{}}`),
		call(`"s"`, `{"name":"issue\u005fshow","arguments":{"id":"dk-aaa"}}`),
		call("13", `{"arguments":{"id":"dk-aaa"},"name":"issue_show"}`),
		call("14", `{"name":"issue_show","arguments":{"id":"dk-aaa"},"_meta":{"progressToken":1}}`),
		call("15", `{"name":"issue_show","arguments":null}`),
		call("16", `{"name":"issue_show"}`),
		call("17", `{"name":"Issue_Show","arguments":{"id":"dk-aaa"}}`),
		call("18", `{"Name":"issue_show","arguments":{"id":"dk-aaa"}}`),
		call("19", `{"name":"issue_show","arguments":{"id":`+strings.Repeat("[", 1200)+strings.Repeat("]", 1200)+`}}`),
		call("20", `{"name":"issue_list","arguments":{"status":"nope"}}`),
		call("21", `{"name":"issue_show","arguments":[]}`),
	}
}

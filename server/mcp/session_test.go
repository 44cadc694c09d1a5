package mcp_test

import (
	"bytes"
	"context"
	"fmt"
	"github.com/claimslint/claimslint/server/mcp/internal/mcptest"
	"os"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/server/docket"
)

type reply = mcptest.Reply

func replies(t *testing.T, out []byte) []reply { t.Helper(); return mcptest.Replies(t, out) }

func create(id, title string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"issue_create","arguments":{"title":%q}}}`, id, title)
}

// TestOutOfBandFramesDoNotRun: frames the screen answers (or drops)
// carry issue_create; none of them may reach the store.
func TestOutOfBandFramesDoNotRun(t *testing.T) {
	t.Parallel()
	store, export := newStore(t)
	before, _ := os.ReadFile(export)
	frames := []string{
		strings.Replace(create("1", "duplicated id"), `"id":1`, `"id":1,"id":1`, 1),
		strings.Replace(create("2", "different ids"), `"id":2`, `"id":2,"id":3`, 1),
		create("null", "null id"),
		create(`{"a":1}`, "object id"),
		create("1.5", "fractional id"),
		"[" + create("4", "in a batch") + "]",
		strings.Replace(create("5", "old version"), `"2.0"`, `"1.0"`, 1),
		create("6", "trailing data") + " {}",
		"\xef\xbb\xbf" + create("7", "byte order mark"),
		strings.Replace(create("8", "two methods"), `"method":"tools/call"`, `"method":"tools/call","method":"tools/call"`, 1),
		strings.Replace(create("9", "no id"), `"id":9,`, ``, 1),
		`{"jsonrpc":"2.0","id":10,"result":` + create("11", "inside a response") + `}`,
	}
	out := serve(t, store, []byte(initLines+strings.Join(frames, "\n")+"\n"))
	is, err := store.List(context.Background(), docket.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(is) != 1 || is[0].ID != "dk-aaa" {
		var titles []string
		for _, i := range is {
			titles = append(titles, i.Title)
		}
		t.Errorf("the store holds %v: an out-of-band frame ran", titles)
	}
	after, _ := os.ReadFile(export)
	if !bytes.Equal(before, after) {
		t.Error("the export changed")
	}
	// Every frame owed an answer got exactly one, plus the initialize reply.
	if got, want := len(replies(t, out)), 1+10; got != want {
		t.Errorf("%d replies, want %d:\n%s", got, want, out)
	}
}

// TestManyInFlight: 512 tools/call interleaved with malformed frames, all
// written before any reply is read and stdin closed at once: every id is
// answered exactly once, and every malformed frame once with id null.
func TestManyInFlight(t *testing.T) {
	t.Parallel()
	store, _ := newStore(t)
	var in strings.Builder
	in.WriteString(initLines)
	const n = 512
	malformed := 0
	for k := range n {
		switch k % 4 {
		case 0:
			in.WriteString(create(fmt.Sprint(k), fmt.Sprintf("issue %d", k)) + "\n")
		case 1:
			fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":"s%d","method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-aaa"}}}`+"\n", k)
		case 2:
			fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"issue_list","arguments":{}}}`+"\n", k)
		case 3:
			fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", k)
		}
		if k%8 == 0 {
			in.WriteString("{not json\n[1]\n\"ping\"\n")
			malformed += 3
		}
	}
	out := serve(t, store, []byte(in.String()))
	seen := map[string]int{}
	nulls := 0
	for _, r := range replies(t, out) {
		if string(r.ID) == "null" {
			nulls++
			continue
		}
		seen[string(r.ID)]++
		if r.Error != nil {
			t.Errorf("id %s: error %d %s", r.ID, r.Error.Code, r.Error.Message)
		}
	}
	for k := range n {
		id := fmt.Sprint(k)
		if k%4 == 1 {
			id = fmt.Sprintf(`"s%d"`, k)
		}
		if seen[id] != 1 {
			t.Errorf("id %s answered %d times", id, seen[id])
		}
	}
	if nulls != malformed {
		t.Errorf("%d id-null errors, want %d", nulls, malformed)
	}
	is, _ := store.List(context.Background(), docket.Filter{})
	if len(is) != 1+n/4 {
		t.Errorf("store holds %d issues, want %d", len(is), 1+n/4)
	}
}

// TestOversizeLine: a line over the limit is answered once with id null,
// and the frame after it is served.
func TestOversizeLine(t *testing.T) {
	t.Parallel()
	store, _ := newStore(t)
	big := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 17<<20) + `"}}`
	out := serve(t, store, []byte(big+"\n"+`{"jsonrpc":"2.0","id":2,"method":"ping"}`+"\n"))
	want := `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: the frame is longer than the 16 MiB limit; it was discarded"}}
{"jsonrpc":"2.0","id":2,"result":{}}
`
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

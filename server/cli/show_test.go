package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/server/docket"
)

// TestShowManyEdges: show lists what an issue blocks through others'
// depends-on edges by a set of its own blocks edges, not a search of them
// for each id (D91: 420,000 edges were still being searched at 300 s).
// Its own edges are listed once, the others' after them.
func TestShowManyEdges(t *testing.T) {
	t.Parallel()
	const n = 420_000
	i := docket.Issue{ID: "dk-1", Title: "t", Status: "open", Type: "task"}
	var blocked []string
	for k := range n {
		id := fmt.Sprintf("dk-%06d", k)
		i.Deps = append(i.Deps, docket.Dep{Type: docket.DepBlocks, ID: id})
		blocked = append(blocked, id)
	}
	blocked = append(blocked, "dk-other")
	var b strings.Builder
	if err := writeShow(&b, i, nil, blocked); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if got := strings.Count(out, "\nblocks dk-"); got != n {
		t.Errorf("%d own edges listed, want %d", got, n)
	}
	if !strings.Contains(out, "\nblocks (their depends-on): dk-other\n") {
		t.Errorf("the other's edge is not listed alone: %.200s", out[strings.LastIndex(out, "\nblocks"):])
	}
}

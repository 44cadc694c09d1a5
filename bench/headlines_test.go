package main

import (
	"strings"
	"testing"
	"time"
)

// TestHeadlinesFromTables: every figure of a headline line is one the
// tables of the same report print, so the list cannot drift from them;
// and a part the run did not measure has no headline.
func TestHeadlinesFromTables(t *testing.T) {
	t.Parallel()
	st := func(med time.Duration) stats {
		return stats{median: med, min: med - time.Millisecond, max: med + time.Millisecond, n: 5, cpu: med}
	}
	r := &report{started: time.Date(2026, 12, 2, 5, 0, 0, 0, time.UTC), load: "0.40 0.30 0.20"}
	r.real = []realCase{{name: "Go standard library", files: 11478, claims: 1000, claimed: 1000,
		checkS: st(123400 * time.Microsecond), floorS: st(100 * time.Millisecond), gateS: st(6170 * time.Millisecond)}}
	r.store = []storeCase{{n: 100000, create: st(201 * time.Millisecond), exportOp: st(190 * time.Millisecond),
		listings: []listingCase{{name: "list", args: []string{"list"}, total: 80000, warm: st(400 * time.Microsecond), cold: st(13700 * time.Microsecond)}}}}
	md := r.markdown()
	head := r.headlines()
	for _, want := range []string{"123.4 ms", "1.2x the I/O floor", "50x faster than the shell gate", "`list` 0.4 ms (13.7 ms as a process)", "2026-12-02 05:00 UTC", "0.40 0.30 0.20"} {
		if !strings.Contains(head, want) {
			t.Errorf("headlines lack %q:\n%s", want, head)
		}
	}
	tables := md[strings.Index(md, head)+len(head):]
	for _, fig := range []string{"123.4 ms", "1.2x", "50x", "0.4 ms", "13.7 ms"} {
		if !strings.Contains(tables, fig) {
			t.Errorf("headline figure %s is in no table:\n%s", fig, tables)
		}
	}
	for _, absent := range []string{"docket mcp` over stdio", "report --out", "Hostile Markdown ("} {
		if strings.Contains(head, absent) {
			t.Errorf("a headline for a part the run did not measure: %q", absent)
		}
	}
	if !strings.Contains(md, head) {
		t.Error("the full run's report does not carry the headlines")
	}
	r.quick = true
	if strings.Contains(r.markdown(), "Headline figures") {
		t.Error("a --quick run's report carries headlines")
	}
}

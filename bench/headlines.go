package main

import (
	"fmt"
	"strings"
	"time"
)

// headlines is the list of headline figures at the top of a full run's
// report, computed from the same results as the tables below it, so that
// it cannot drift from them (D92): each line names the section it comes
// from. A part the run did not measure has no line.
func (r *report) headlines() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", headlineLead)
	run := fmt.Sprintf("; run of %s, load average %s when it began", r.started.UTC().Format("2006-01-02 15:04 UTC"), r.load)
	line := func(ref, format string, args ...any) {
		fmt.Fprintf(&b, "- "+format+" (*%s*%s).\n", append(args, ref, run)...)
	}
	for _, c := range r.real {
		if c.skipped != "" {
			continue
		}
		line("claimslint check on real trees", "`claimslint check` on the %s (%d files) with %d claims that each name one file: %s, %.1fx the I/O floor measured in the same run (%.1fx its reads alone), %.0fx faster than the shell gate",
			c.name, c.files, c.claims, ms(c.checkS.median), ratio(c.checkS.median, c.floorS.median), ratio(c.checkS.median, c.readsS.median), ratio(c.gateS.median, c.checkS.median))
	}
	for _, c := range r.claims {
		if c.files == 10000 {
			line("claimslint check against a shell gate", "On a generated tree of %d files and %d claims: %s, %.0fx faster than the shell gate", c.files, c.claims, ms(c.checkS.median), ratio(c.gateS.median, c.checkS.median))
		}
	}
	if len(r.hostile) > 0 {
		var worst time.Duration
		for _, c := range r.hostile {
			worst = max(worst, c.s.median)
		}
		line("Hostile Markdown", "Hostile Markdown (%d inputs of issue 16): each answered in at most %s", len(r.hostile), ms(worst))
	}
	if len(r.budget) > 0 {
		var worst time.Duration
		var rss int64
		for _, c := range r.budget {
			worst, rss = max(worst, c.s.max), max(rss, c.s.rssKiB)
		}
		line("Stalling inputs and the budget", "The stalling inputs of issue 22 under `--budget 10s`: each finishes or is refused in at most %s, under %s", ms(worst), mib(rss))
	}
	if d, s, g := r.mcpAt("docket mcp", 64), r.mcpAt("go-sdk", 64), r.mcpAt("mcp-go", 64); d != nil && s != nil && g != nil && s.throughput > 0 && g.throughput > 0 {
		lost, dup := 0, 0
		for _, m := range r.mcp {
			if m.server == "docket mcp" {
				lost, dup = lost+m.lost, dup+m.dup+m.stray
			}
		}
		line("docket mcp against go-sdk's stock stdio server and mcp-go", "`docket mcp` over stdio at 64 in flight: %.0f `issue_show` replies/s, %.2fx the stock go-sdk server and %.2fx mcp-go, at %.0f µs of CPU per reply; %d lost and %d duplicated over every run, malformed frames included",
			d.throughput, d.throughput/s.throughput, d.throughput/g.throughput, float64(d.cpuPerCall.Nanoseconds())/1000, lost, dup)
	}
	if r.http != nil {
		for _, h := range r.http.results {
			if h.target && h.inflight == 64 {
				line("docket mcp --http", "`docket mcp --http` with its defaults, 64 in flight: %.2fx mcp-go's streamable HTTP server's throughput and %.2fx the stock go-sdk streamable handler's", h.goRatio, h.ratio)
			}
		}
	}
	if len(r.rss) > 0 {
		var peak int64
		for _, c := range r.rss {
			for _, p := range c.peaksKiB {
				peak = max(peak, p)
			}
		}
		line("docket mcp's memory with large replies", "`docket mcp` with 4.8 MiB replies stays under %s", mib(peak))
	}
	for _, s := range r.store {
		if s.n != 100000 || s.sparse {
			continue
		}
		var pages []string
		for _, l := range s.listings {
			pages = append(pages, fmt.Sprintf("`%s` %s (%s as a process)", strings.Join(l.args, " "), ms(l.warm.median), ms(l.cold.median)))
		}
		line("docket store", "docket at 100k issues: create %s, export %s; a listing's default page warm: %s", ms(s.create.median), ms(s.exportOp.median), strings.Join(pages, ", "))
	}
	if r.site != nil {
		line("The report as a site", "`claimslint report --out` on %d decisions and %d claims: %s, largest page %d bytes", r.site.decisions, r.site.claims, ms(r.site.s.median), r.site.largestBytes)
	}
	if g := r.regions; g != nil {
		line("Regions", "%d claims confined to their function on the Go standard library: %s, %.2fx the same claims without regions (CPU %.2fx)", g.claims, ms(g.regions.median), ratio(g.regions.median, g.plain.median), ratio(g.regions.cpu, g.plain.cpu))
	}
	b.WriteString("\n")
	return b.String()
}

// mcpAt is the well-formed run of the server whose name starts with
// server at inflight, or nil.
func (r *report) mcpAt(server string, inflight int) *mcpResult {
	for k := range r.mcp {
		m := &r.mcp[k]
		if m.inflight == inflight && !m.malformed && strings.HasPrefix(m.server, server) && !strings.HasSuffix(m.server, "(before)") {
			return m
		}
	}
	return nil
}

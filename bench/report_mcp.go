package main

import (
	"fmt"
	"strings"
)

// httpTarget is the throughput target of issue 15: docket mcp --http
// within 10% of the stock handler's throughput.
const httpTarget = 0.90

// mcpgoTarget is issue 32's: docket mcp at least as fast as mcp-go.
const mcpgoTarget = 1.0

func (r *report) httpSection(b *strings.Builder) {
	h := r.http
	if len(h.results) == 0 {
		return
	}
	x0 := h.results[0]
	b.WriteString("## docket mcp --http against mcp-go and go-sdk's stock streamable handler\n\n")
	fmt.Fprintf(b, "Each server runs as its own process on 127.0.0.1 over the same store (100 issues). `docket mcp --http` is the screen and gate of D55 in front of go-sdk's handler, run with its defaults (4 requests handled at once, D54; its connection caps, D91, lifted to %s so that 512 connections are the client's, not the cap's) and at 64 in flight also with `--max-in-flight 64`. The target is mcp-go's streamable HTTP server with its defaults (`bench/baselines/mcpgo -http`, one `issue_show` tool over the same store). The baseline is go-sdk's stock streamable handler with no front, serving docket's own MCP server (the same `issue_show` tool and middleware; `bench/baselines/sdkhttp`), configured for JSON replies: the reply mode docket's front asks the SDK for (D55). At 64 in flight the handler's default, SSE replies, is shown for reference, and so is docket's front (`mcp.NewHTTPHandler`, its defaults) served by the baseline's program: what the front costs, apart from the rest of docket's process. The client opens one 2025-11-25 session per server and keeps 1, 64 or 512 `tools/call issue_show` requests in flight over keep-alive connections; a call whose reply is not a result carrying its id is lost. After a warm-up of twice a round's calls per server, %d rounds of %d calls (4 per request in flight at 512) run against each server in turn. Throughput is calls over a round's wall time (median and slowest-fastest round); \"x baseline\" and \"x mcp-go\" are the medians, over the rounds, of a server's throughput over the other's in the same turn, so that load which drifts over the run moves both sides of a ratio alike. CPU is the server process's user + system time per call (median round), with the same per-turn ratio against the baseline; latency percentiles are over every call. Then each server takes %d posts at the same level with every tenth body a truncated request: \"malformed\" counts the well-formed calls lost and the truncated bodies left without a JSON-RPC error.\n\n",
		strings.Join(httpConnCaps, " "), x0.rounds, x0.calls, x0.calls)
	b.WriteString("| in flight | server | calls/s | slowest-fastest round | x mcp-go | x baseline | server CPU per call | CPU x baseline | p50 | p99 | lost | malformed: lost, unanswered | peak RSS |\n|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, x := range h.results {
		name := x.name
		if x.baseline {
			name += " (baseline)"
		}
		if x.mcpgo {
			name += " (target)"
		}
		fmt.Fprintf(b, "| %d | %s | %.0f | %.0f-%.0f | %.2fx | %.2fx | %.0f µs | %.2fx | %s | %s | %d | %d, %d of %d | %s |\n", x.inflight, name, x.throughput, x.tputMin, x.tputMax, x.goRatio, x.ratio,
			float64(x.cpuPerCall.Nanoseconds())/1000, x.cpuRatio, ms(x.p50), ms(x.p99), x.lost, x.badLost, x.badUnanswered, x.calls-x.badCalls, mib(x.rssKiB))
	}
	b.WriteString("\nTargets:\n\n")
	defer b.WriteString(missedNote)
	lost := 0
	for _, x := range h.results {
		if strings.HasPrefix(x.name, "docket") && !strings.HasSuffix(x.name, "(before)") {
			lost += x.lost + x.badLost + x.badUnanswered
		}
		if !x.target {
			continue
		}
		var rs, gs []string
		for k, v := range x.ratios {
			rs = append(rs, fmt.Sprintf("%.2f", v))
			gs = append(gs, fmt.Sprintf("%.2f", x.goRatios[k]))
		}
		fmt.Fprintf(b, "- %d in flight: %s at %.2fx mcp-go's throughput (median of %d turns: %s; target at least %.2fx): %s; at %.2fx the stock handler's (%s), at %.2fx its CPU per call (target at least %.2fx): %s.\n",
			x.inflight, x.name, x.goRatio, len(x.goRatios), strings.Join(gs, ", "), mcpgoTarget, met(x.goRatio >= mcpgoTarget), x.ratio, strings.Join(rs, ", "), x.cpuRatio, httpTarget, met(x.ratio >= httpTarget))
	}
	for _, x := range h.results {
		if x.target {
			for _, g := range h.results {
				if g.mcpgo && g.inflight == x.inflight && g.rssKiB > 0 {
					fmt.Fprintf(b, "- %d in flight: peak RSS %s against mcp-go's %s, %.2fx (target at most 1.5x): %s.\n", x.inflight, mib(x.rssKiB), mib(g.rssKiB), float64(x.rssKiB)/float64(g.rssKiB), met(float64(x.rssKiB) <= 1.5*float64(g.rssKiB)))
				}
			}
		}
	}
	fmt.Fprintf(b, "- zero lost replies from docket mcp --http, malformed bodies included: %d lost, %s. (512 in flight with every tenth body malformed, in process: `go test ./server/mcp -run TestHTTPConcurrentMalformed`.)\n\n", lost, met(lost == 0))
}

func (r *report) rssSection(b *strings.Builder) {
	b.WriteString("## docket mcp's memory with large replies\n\n")
	fmt.Fprintf(b, "One tracker with one issue whose description is %.0f MB, so that each `tools/call issue_show` reply is %.1f MiB; `docket mcp` with its defaults (4 requests handled at once, a 128 MiB soft memory limit; D54), over stdio and over HTTP (`--http`, where a request waits for a handling slot once its body is read and keeps it until its reply is written; D61). Peak RSS is the kernel's maximum resident set size for the process. A client that never reads: over stdio the requests the pipe took; over HTTP the requests written before the writes stopped (the server reads a connection's next request only once it has written the reply to the last).\n\n",
		float64(rssDescription)/1e6, float64(r.rss[0].maxReply)/(1<<20))
	b.WriteString("| client | runs | replies | peak RSS (each run) | target < 200 MiB |\n|---|---:|---|---|---|\n")
	for _, c := range r.rss {
		var peaks []string
		worst := int64(0)
		for _, p := range c.peaksKiB {
			peaks = append(peaks, mib(p))
			worst = max(worst, p)
		}
		replies := fmt.Sprintf("%d of %d read, %d errors, largest %.1f MiB", c.replies, c.sent, c.errors, float64(c.maxReply)/(1<<20))
		name := c.name
		if c.dur > 0 {
			name = fmt.Sprintf("%s for %s", c.name, c.dur)
			replies = fmt.Sprintf("none read; %d requests written", c.accepted)
		}
		fmt.Fprintf(b, "| %s | %d | %s | %s | %s |\n", name, len(c.peaksKiB), replies, strings.Join(peaks, ", "), met(worst < 200*1024 && (c.dur > 0 || (c.replies == c.sent && c.errors == 0))))
	}
	b.WriteString("\n")
}

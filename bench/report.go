package main

import (
	_ "embed"
	"fmt"
	"strings"
	"time"
)

//go:embed gotest.md
var goTestSection string

// introSection follows the header of a full run's report: how to run the
// benchmarks; the headline figures follow it, generated (headlines).
//
//go:embed intro.md
var introSection string

type report struct {
	quick   bool
	started time.Time
	load    string // /proc/loadavg's first three fields when the run began
	machine machineInfo
	claims  []claimsCase
	real    []realCase
	scale   []scaleCase
	mcp     []mcpResult
	http    *httpCompare
	rss     []rssCase
	store   []storeCase
	imports []importCase
	writers writersResult
	hostile []hostileCase
	attacks *attacks
	// attacks31: issue 31's attacks on docket mcp --http (D91).
	attacks31 *attacks31
	budget    []budgetCase
	site      *siteResult
	// regions: what a Within cell costs (issue 34, D94).
	regions *regionsResult
}

func met(ok bool) string {
	if ok {
		return "met"
	}
	return "**missed**"
}

func ratio(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func (r *report) markdown() string {
	var b strings.Builder
	cmd := "bench/run.sh"
	if r.quick {
		cmd += " --quick"
	}
	fmt.Fprintf(&b, "# Benchmarks\n\nEvery table below comes from one run of `%s` (the `bench/` module), on this machine:\n%d cores (`nproc`), %s, %s, %s. Each figure is the median of several runs after one warm-up run; min-max beside it; peak memory is the kernel's maximum resident set size for the process and the children it waited for, an upper bound: Linux counts into it the bench's own resident set when it started the process (the child runs in the bench's memory until it execs), so a figure near the bench's size says little. Rerun the command to reproduce every figure; `--only claims|real|scale|mcp|stdio|http|rss|attacks|store|hostile|budget|site|regions` runs one part.\n\n",
		cmd, r.machine.nproc, r.machine.cpu, r.machine.goVer, r.machine.os)
	if r.quick {
		b.WriteString("**This is a `--quick` run: small sizes, short runs, for CI smoke. It is not the published run.**\n\n")
	} else {
		b.WriteString(introSection)
		b.WriteString(r.headlines())
	}
	if len(r.claims) > 0 {
		r.claimsSection(&b)
	}
	if len(r.real) > 0 {
		r.realSection(&b)
	}
	if len(r.scale) > 0 {
		r.scaleSection(&b)
	}
	if len(r.mcp) > 0 {
		r.mcpSection(&b)
	}
	if r.http != nil {
		r.httpSection(&b)
	}
	if len(r.rss) > 0 {
		r.rssSection(&b)
	}
	if r.attacks != nil {
		r.attacksSection(&b)
	}
	if r.attacks31 != nil {
		r.attacks31Section(&b)
	}
	if len(r.store) > 0 {
		r.storeSection(&b)
	}
	if len(r.hostile) > 0 {
		r.hostileSection(&b)
	}
	if len(r.budget) > 0 {
		r.budgetSection(&b)
	}
	if r.site != nil {
		r.siteSection(&b)
	}
	if r.regions != nil {
		r.regionsSection(&b)
	}
	b.WriteString(goTestSection)
	return b.String()
}

func (r *report) claimsSection(b *strings.Builder) {
	b.WriteString("## claimslint check against a shell gate, one rg pass and cat\n\n")
	b.WriteString("A generator writes N files (Go, shell and Markdown in turn, 40 lines each, 100 per directory, every token also in a comment) and a register of M claims, 10 per decision: 60% `present`, 30% `anchored` with a Require, 5% `exec`, 5% `tracker`; each present or anchored claim reads one directory. The tree is a git repository. Compared on the same tree:\n\n")
	b.WriteString("- **claimslint**: `claimslint check` (warm cache);\n- **shell gate**: the gate the seed's team wrote: one `grep -rqE` per present row, `grep -rnE anchor | grep -cE require` per anchored row, `git ls-files -s` per exec row, a `grep` of the export per tracker row (it cannot tell code from comments);\n- **rg**: one `rg -c -f patterns.txt` over the claims' directories, all anchors as one alternation: the floor one scan costs;\n- **cat**: `find dirs -type f | xargs cat > /dev/null` over the same directories: the I/O floor.\n\n")
	b.WriteString("| tree | claimslint | shell gate | rg | cat | gate / claimslint | claimslint / rg | claimslint peak memory | per file read |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, c := range r.claims {
		rg := "not installed"
		rgRatio := "-"
		if c.rg {
			rg = fmt.Sprintf("%s (%s-%s)", ms(c.rgS.median), ms(c.rgS.min), ms(c.rgS.max))
			rgRatio = fmt.Sprintf("%.1fx", ratio(c.checkS.median, c.rgS.median))
		}
		fmt.Fprintf(b, "| %s | %s (%s-%s) | %s (%s-%s) | %s | %s | %.0fx | %s | %s | %.1f µs |\n",
			c.name, ms(c.checkS.median), ms(c.checkS.min), ms(c.checkS.max),
			ms(c.gateS.median), ms(c.gateS.min), ms(c.gateS.max),
			rg, ms(c.catS.median), ratio(c.gateS.median, c.checkS.median), rgRatio, mib(c.checkS.rssKiB),
			float64(c.checkS.median.Microseconds())/float64(c.files))
	}
	b.WriteString("\nTargets:\n\n")
	defer b.WriteString(missedNote)
	for _, c := range r.claims {
		if c.claims == 1000 && strings.HasPrefix(c.name, "10000") {
			x := ratio(c.gateS.median, c.checkS.median)
			fmt.Fprintf(b, "- at 1,000 claims, at least 50x faster than the shell gate: %.0fx, %s.\n", x, met(x >= 50))
			if c.rg {
				y := ratio(c.checkS.median, c.rgS.median)
				fmt.Fprintf(b, "- at 1,000 claims, within 2x of the single rg pass: %.1fx, %s.\n", y, met(y <= 2))
			}
		}
		if c.files == 50000 {
			fmt.Fprintf(b, "- peak memory under 200 MiB at 50k files: %s, %s.\n", mib(c.checkS.rssKiB), met(c.checkS.rssKiB < 200*1024))
		}
	}
	var small, large *claimsCase
	for k := range r.claims {
		c := &r.claims[k]
		if c.files == 1000 {
			small = c
		}
		if c.files == 50000 {
			large = c
		}
	}
	if small != nil && large != nil {
		per := func(c *claimsCase) float64 { return float64(c.checkS.median.Microseconds()) / float64(c.files) }
		g := per(large) / per(small)
		fmt.Fprintf(b, "- cost linear in files read, not files x claims: per-file cost %.1f µs at 1k files/100 claims and %.1f µs at 50k files/5,000 claims (%.2fx for 50x the files and 50x the claims), %s.\n",
			per(small), per(large), g, met(g < 2))
	}
	b.WriteString("\n")
}

// mcpTarget is D82's throughput target: docket mcp at 64 in flight at
// least 3.5x the stock go-sdk stdio server.
const mcpTarget = 3.5

func (r *report) mcpSection(b *strings.Builder) {
	b.WriteString("## docket mcp against go-sdk's stock stdio server and mcp-go\n\n")
	rounds := 1
	for _, m := range r.mcp {
		rounds = max(rounds, m.rounds)
	}
	fmt.Fprintf(b, "Each server runs as its own process over stdio pipes, with one `issue_show` tool over the same store (100 issues). After an `initialize` handshake, the client keeps N `tools/call issue_show` requests in flight at all times, for 5 s (2 s with `--quick`) or 100,000 calls, and matches every reply to its request by id: a second reply to one request is a duplicate, and a request with no reply 10 s after the run, or when the server ends the session, is lost. Each level runs %d rounds of well-formed frames, the servers taking turns (replies/s and CPU per reply: the median round, slowest-fastest beside it; lost and duplicated: summed over the rounds), then one run in which a malformed frame (a `tools/call` cut short) follows every ninth request, 10%% of the frames: each must be answered with a parse error, id null, and the session must go on. CPU per reply is the server process's user + system time over the replies it sent. The baselines are in `bench/baselines/`; D82 says where docket's time goes.\n\n", rounds)
	b.WriteString("| in flight | server | frames | calls | replies/s | slowest-fastest | server CPU per reply | p50 | p99 | lost | duplicated | malformed answered | peak RSS |\n|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, m := range r.mcp {
		frames, answered := "well-formed", "-"
		if m.malformed {
			frames, answered = "10% malformed", fmt.Sprintf("%d of %d", m.parseErrs, m.bad)
		}
		lost := fmt.Sprint(m.lost)
		if m.exited {
			lost += " (the server ended the session)"
		}
		fmt.Fprintf(b, "| %d | %s | %s | %d | %.0f | %.0f-%.0f | %.0f µs | %s | %s | %s | %d | %s | %s |\n", m.inflight, m.server, frames, m.calls, m.throughput, m.tputMin, m.tputMax,
			float64(m.cpuPerCall.Nanoseconds())/1000, ms(m.p50), ms(m.p99), lost, m.dup, answered, mib(m.rssKiB))
	}
	b.WriteString("\nTargets:\n\n")
	get := func(server string, lv int) *mcpResult {
		for k := range r.mcp {
			if r.mcp[k].inflight == lv && !r.mcp[k].malformed && strings.HasPrefix(r.mcp[k].server, server) {
				return &r.mcp[k]
			}
		}
		return nil
	}
	lost, dup, bad, answered := 0, 0, 0, 0
	for _, m := range r.mcp {
		if m.server == "docket mcp" {
			lost += m.lost
			dup += m.dup + m.stray
			if m.malformed {
				bad += m.bad
				answered += m.parseErrs
			}
		}
	}
	for _, lv := range []int{1, 64, 512} {
		d, s, g := get("docket", lv), get("go-sdk", lv), get("mcp-go", lv)
		if d == nil || s == nil || s.throughput <= 0 || g == nil {
			continue
		}
		x := d.throughput / s.throughput
		fmt.Fprintf(b, "- %d in flight: docket mcp at %.2fx the stock go-sdk server's throughput, mcp-go at %.2fx (target: at least 0.90x): %s.\n", lv, x, g.throughput/s.throughput, met(x >= 0.9))
		if lv == 64 {
			fmt.Fprintf(b, "- 64 in flight: docket mcp at %.2fx the stock go-sdk server's throughput (target of D82: at least %.1fx): %s.\n", x, mcpTarget, met(x >= mcpTarget))
		}
		if p := get("docket mcp (before)", lv); p != nil && p.throughput > 0 {
			fmt.Fprintf(b, "  - (before: docket mcp (before) at %.2fx the stock go-sdk server; now %.2fx its throughput at %.2fx its CPU per reply.)\n", p.throughput/s.throughput, d.throughput/p.throughput, float64(d.cpuPerCall)/float64(max(p.cpuPerCall, 1)))
		}
	}
	fmt.Fprintf(b, "- zero lost and zero duplicated replies from docket mcp everywhere, every malformed frame answered: %d lost, %d duplicated, %d of %d malformed frames answered, %s.\n\n", lost, dup, answered, bad, met(lost == 0 && dup == 0 && answered == bad))
	b.WriteString(missedNote)
}

func (r *report) storeSection(b *strings.Builder) {
	b.WriteString("## docket store\n\n")
	b.WriteString("The store is seeded by one import of N issues: a fifth closed, a blocks edge on every tenth, one label and one decision each. Each operation then goes through the `Store` interface, as the CLI and the MCP tools call it. Every operation first checks that the export has not changed under the index: a hash of the whole file, skipped when its size and mtime are those last found in sync and older than one second (D14). Every write rewrites the export in full (temp file, fsync, rename), by design (D14). Reads are measured first, on a tracker at rest (1.5 s after the last write); `list` returns the open issues (80% of N), `ready` the open issues that no unfinished issue blocks. The last row is a mature tracker: 100k issues, 1% open.\n\n")
	b.WriteString("`list --limit 50` and `ready --limit 50` are one page served from index columns (D50), as the CLI's default and the MCP tools do; `list (all open)` and `ready (all)` decode every record they return. `issue_list page` is the size of the default `issue_list` reply (50 rows, summary text) through `docket mcp`'s server in process.\n\n")
	b.WriteString("| issues | create | update | list --limit 50 | ready --limit 50 | list (all open) | ready (all) | export (rewrite) | export size | issue_list page |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range r.store {
		if s.sparse {
			fmt.Fprintf(b, "| %d, 1%% open | - | - | - | - | %s | %s | - | - | - |\n", s.n, ms(s.list.median), ms(s.ready.median))
			continue
		}
		fmt.Fprintf(b, "| %d | %s | %s | %s | %s | %s | %s | %s | %.1f MiB | %.1f KiB |\n", s.n, ms(s.create.median), ms(s.update.median), ms(s.list50.median), ms(s.ready50.median), ms(s.list.median), ms(s.ready.median), ms(s.exportOp.median), float64(s.exportBytes)/(1<<20), float64(s.pageBytes)/1024)
	}
	b.WriteString("\nProcess CPU time of the same operations (user + system, every thread of the bench process, the garbage collector's included; median), which on a shared machine says what an operation costs when wall time includes waiting for a core:\n\n")
	b.WriteString("| issues | create | update | list --limit 50 | ready --limit 50 | list (all open) | ready (all) | export (rewrite) |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range r.store {
		if s.sparse {
			fmt.Fprintf(b, "| %d, 1%% open | - | - | - | - | %s | %s | - |\n", s.n, ms(s.list.cpu), ms(s.ready.cpu))
			continue
		}
		fmt.Fprintf(b, "| %d | %s | %s | %s | %s | %s | %s | %s |\n", s.n, ms(s.create.cpu), ms(s.update.cpu), ms(s.list50.cpu), ms(s.ready50.cpu), ms(s.list.cpu), ms(s.ready.cpu), ms(s.exportOp.cpu))
	}
	for _, sc := range r.store {
		if len(sc.listings) == 0 {
			continue
		}
		fmt.Fprintf(b, "\nThe listings' default page (50 rows, the row columns; no record is decoded, D93) at %d issues: *warm* is the `Listing` call in a process that has the tracker open (CPU: that process's); *cold* is the command as a user runs it, a `docket` process that opens the index, checks the export and prints the page (CPU: the process's user + system time). Both are medians of %d runs after a warm-up, min-max beside them.\n\n", sc.n, sc.listings[0].warm.n)
		b.WriteString("| command | rows selected | warm | warm CPU | cold (`docket ...`) | cold CPU |\n|---|---:|---:|---:|---:|---:|\n")
		for _, l := range sc.listings {
			fmt.Fprintf(b, "| `docket %s` | %d | %s (%s-%s) | %s | %s (%s-%s) | %s |\n", strings.Join(l.args, " "), l.total,
				ms(l.warm.median), ms(l.warm.min), ms(l.warm.max), ms(l.warm.cpu), ms(l.cold.median), ms(l.cold.min), ms(l.cold.max), ms(l.cold.cpu))
		}
	}
	for _, ic := range r.imports {
		fmt.Fprintf(b, "\nImport of %d beads-shaped records (%.1f MiB in beads' Go shape: extra fields, sub-second local times, tombstones, hierarchical ids, blocks and parent-child dependencies, some on ids outside the file) into a fresh tracker, export written: %s (%s-%s), %s of CPU; its export imported into another fresh tracker writes the same bytes: %v.\n",
			ic.n, float64(ic.bytes)/(1<<20), ms(ic.s.median), ms(ic.s.min), ms(ic.s.max), ms(ic.s.cpu), ic.stable)
	}
	w := r.writers
	fmt.Fprintf(b, "\n%d writer processes, %d operations each (creates, and updates with `--if-version` of a random issue), on one tracker: %.1f s wall, %.0f operations/s, %d succeeded, %d conflicts (reported, not lost); %d unique ids; export holds %d issues and equals what the index would write: %v.\n\n",
		w.procs, w.ops, w.wall.Seconds(), w.opsPerSec, w.ok, w.conflicts, w.ids, w.exportIssues, w.exportAgrees)
	b.WriteString("Targets:\n\n")
	defer b.WriteString(missedNote)
	for _, ic := range r.imports {
		fmt.Fprintf(b, "- import of 10k beads-shaped records under 1 s, the round trip byte-stable: %s, stable %v, %s.\n", ms(ic.s.median), ic.stable, met(ic.s.median < time.Second && ic.stable))
	}
	for _, s := range r.store {
		switch {
		case s.n == 100000 && s.sparse:
			fmt.Fprintf(b, "- `ready` on 100k issues of which 1%% are open: %s, %s.\n", ms(s.ready.median), met(s.ready.median < 50*time.Millisecond))
		case s.n == 100000:
			fmt.Fprintf(b, "- export of 100k issues under 2 s: %s, %s.\n", ms(s.exportOp.median), met(s.exportOp.median < 2*time.Second))
			fmt.Fprintf(b, "- `list --limit 50` on 100k issues (80%% open) under 20 ms: %s, %s.\n", ms(s.list50.median), met(s.list50.median < 20*time.Millisecond))
			fmt.Fprintf(b, "- `ready --limit 50` on 100k issues (80%% open) under 20 ms: %s, %s.\n", ms(s.ready50.median), met(s.ready50.median < 20*time.Millisecond))
			fmt.Fprintf(b, "- the default `issue_list` page under 64 KiB: %.1f KiB, %s.\n", float64(s.pageBytes)/1024, met(s.pageBytes < 64<<10))
			fmt.Fprintf(b, "- `ready` on 100k issues of which 80%% are open (about 72,000 ready, each returned as a full record) under 50 ms: %s, %s.\n", ms(s.ready.median), met(s.ready.median < 50*time.Millisecond))
			for _, l := range s.listings {
				fmt.Fprintf(b, "- `docket %s`'s page on 100k issues under 50 ms warm: %s, %s (cold, as a process: %s).\n", strings.Join(l.args, " "), ms(l.warm.median), met(l.warm.median < 50*time.Millisecond), ms(l.cold.median))
			}
		}
	}
	b.WriteString("\n")
}

// missedNote follows each list of targets.
const missedNote = "Where a target is missed, [D31](decisions/D31-benchmark-targets-which-hold-and-which-were-wrong.md) says why the target is wrong and what replaces it.\n\n"

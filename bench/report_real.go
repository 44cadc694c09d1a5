package main

import (
	"fmt"
	"strings"
)

func (r *report) realSection(b *strings.Builder) {
	b.WriteString("## claimslint check on real trees, against the I/O floor\n\n")
	b.WriteString("A copy of a real tree nobody here wrote, committed to git, with 1,000 `anchored` claims that each name one file and anchor on a `func` (Go) or `pub fn` (Rust) line that occurs once in it (one line per file in Go; in Rust, whose tree has too few such files, up to 8 lines per file, taken first line of every file, then second); candidate lines claimslint finds outside code (in a `#[cfg(test)]` module, a comment, a string) are dropped before the 1,000 are kept. Compared in the same run, `claimslint check`, the floor and the shell gate taking turns:\n\n")
	b.WriteString("- **floor**: a Go program of its own that runs `git ls-files -s` and reads the claimed files, each once (`bench/floor`, standard library only, so its start-up is a small program's): what any gate must do at least, the issue's yardstick;\n- **reads alone**: the same program without its git run (`floor -no-git`): `claimslint check` reads the git index itself and starts no git (D9), so this is the floor of what it does;\n- **shell gate**: one `grep -cE anchor file` per claim, which cannot tell code from comments or tests.\n\n")
	fmt.Fprintf(b, "The tree's writes are flushed to disk before any timing. Wall time is the median of %d alternating runs after a warm-up round (the shell gate's, of %d runs taken among those rounds, one every %d); CPU time", realRuns, gateRuns, realRuns/gateRuns)
	b.WriteString(" (user + system, with children) is given beside it because the machine is shared: wall time there includes waiting for a core.\n\n")
	b.WriteString("| tree | files | claims | files claimed | claimslint | floor | claimslint / floor | CPU: claimslint / floor | reads alone | claimslint / reads alone | shell gate | gate / claimslint | claimslint peak memory |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, c := range r.real {
		if c.skipped != "" {
			fmt.Fprintf(b, "| %s | - | - | - | skipped: %s | | | | | | | | |\n", c.name, c.skipped)
			continue
		}
		fmt.Fprintf(b, "| %s | %d | %d | %d | %s (%s-%s) | %s (%s-%s) | %.1fx | %s / %s = %.1fx | %s (%s-%s) | %.1fx | %s | %.0fx | %s |\n",
			c.name, c.files, c.claims, c.claimed, ms(c.checkS.median), ms(c.checkS.min), ms(c.checkS.max),
			ms(c.floorS.median), ms(c.floorS.min), ms(c.floorS.max), ratio(c.checkS.median, c.floorS.median),
			ms(c.checkS.cpu), ms(c.floorS.cpu), ratio(c.checkS.cpu, c.floorS.cpu),
			ms(c.readsS.median), ms(c.readsS.min), ms(c.readsS.max), ratio(c.checkS.median, c.readsS.median),
			ms(c.gateS.median), ratio(c.gateS.median, c.checkS.median), mib(c.checkS.rssKiB))
	}
	if r.load != "" {
		fmt.Fprintf(b, "\nThe load average (`/proc/loadavg`) was %s when the run began, on a 2-core machine other jobs share.\n", r.load)
	}
	b.WriteString("\nTargets (issue 32, D92; they were 2.5x and 30x before):\n\n")
	for _, c := range r.real {
		if c.skipped != "" {
			continue
		}
		x, y := ratio(c.checkS.median, c.floorS.median), ratio(c.gateS.median, c.checkS.median)
		fmt.Fprintf(b, "- %s: within 1.5x of the floor: %.1fx, %s (CPU time: %.1fx; against the reads alone %.1fx); at least 40x the shell gate: %.0fx, %s.\n", c.name, x, met(x <= 1.5), ratio(c.checkS.cpu, c.floorS.cpu), ratio(c.checkS.median, c.readsS.median), y, met(y >= 40))
	}
	b.WriteString("\n" + missedNote)
}

func (r *report) scaleSection(b *strings.Builder) {
	b.WriteString("## Claims at scale and hostile anchors\n\n")
	b.WriteString("Inputs built to make a naive engine slow (issue 16), each in its own git repository, `claimslint check` timed as above.\n\n")
	b.WriteString("| input | claimslint check (wall) | CPU (user + system) | peak memory | target | |\n|---|---:|---:|---:|---|---|\n")
	for _, h := range r.scale {
		fmt.Fprintf(b, "| %s | %s (%s-%s) | %s | %s | %s | %s |\n", h.name, ms(h.checkS.median), ms(h.checkS.min), ms(h.checkS.max), ms(h.checkS.cpu), mib(h.checkS.rssKiB), h.target, met(h.checkS.median.Seconds() < h.limit))
	}
	for _, h := range r.scale {
		if h.note != "" {
			fmt.Fprintf(b, "\n%s: check exits 1 at once with\n\n```\n%s\n```\n", h.name, strings.TrimSpace(h.note))
		}
	}
	b.WriteString("\n" + missedNote)
}

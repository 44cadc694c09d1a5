package impact

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/claimslint/claimslint/internal/format"
)

// Formats are the output formats of `claimslint impact`.
var Formats = []string{"text", "markdown", "json"}

// Marker is the first line of the Markdown comment: the GitHub Action finds
// the comment it posted before by it, and updates it.
const Marker = "<!-- claimslint impact -->"

// Write writes r in the named format (one of Formats).
func Write(w io.Writer, name string, r Result) error {
	switch name {
	case "text":
		return WriteText(w, r)
	case "markdown":
		return WriteMarkdown(w, r)
	case "json":
		return WriteJSON(w, r)
	}
	return fmt.Errorf("unknown format %q: want %s", name, strings.Join(Formats, ", "))
}

// WriteText writes one line a touch, `path:line: D3 C1: detail` (no
// `:line` for a whole file, no claim for a decision's text), the
// decisions in id order; nothing when the change touches none. Every
// field from the repository goes through format.Escape (D69).
func WriteText(w io.Writer, r Result) error {
	bw := bufio.NewWriter(w)
	for _, d := range r.Decisions {
		for _, t := range d.Touches {
			where := format.Escape(t.Path)
			if t.Line > 0 {
				where += fmt.Sprintf(":%d", t.Line)
			}
			who := format.Escape(d.ID)
			if t.Claim != "" {
				who += " " + format.Escape(t.Claim)
			}
			fmt.Fprintf(bw, "%s: %s: %s\n", where, who, format.Escape(t.Detail))
		}
	}
	return bw.Flush()
}

// WriteMarkdown writes a pull-request comment: the Marker, a heading, one
// line saying what was compared, and a table per decision touched. Every
// field from the repository goes through format.Markdown.
func WriteMarkdown(w io.Writer, r Result) error {
	bw := bufio.NewWriter(w)
	md := format.Markdown
	fmt.Fprintf(bw, "%s\n### Decisions this change touches\n\n", Marker)
	base := md(r.Base)
	if short := shortCommit(r.BaseCommit); r.Base == r.BaseCommit {
		base = short // a commit the Action names: short is enough
	} else if short != "" {
		base += " (" + short + ")"
	}
	if len(r.Decisions) == 0 {
		fmt.Fprintf(bw, "Compared with %s: no decision's pinned lines, claim rows or text changed.\n", base)
		return bw.Flush()
	}
	fmt.Fprintf(bw, "Compared with %s: %d decision(s), %d change(s). A claim may still hold: these are the lines a reviewer reads the decision for.\n", base, len(r.Decisions), r.Touched())
	for _, d := range r.Decisions {
		fmt.Fprintf(bw, "\n#### %s: %s (%s)\n\n", md(d.ID), md(d.Title), md(d.Status))
		fmt.Fprintf(bw, "| Where | Claim | What | Change |\n|---|---|---|---|\n")
		for _, t := range d.Touches {
			where := md(t.Path)
			if t.Line > 0 {
				where += fmt.Sprintf(":%d", t.Line)
			}
			if t.Side == SideBase {
				where += " (" + md(r.Base) + ")"
			}
			claim := md(t.Claim)
			if claim == "" {
				claim = "-"
			}
			fmt.Fprintf(bw, "| %s | %s | %s | %s |\n", where, claim, strings.ReplaceAll(t.Kind, "-", " "), md(t.Detail))
		}
	}
	return bw.Flush()
}

func shortCommit(sha string) string {
	if len(sha) < 12 {
		return sha
	}
	return sha[:12]
}

// WriteJSON writes r as one indented JSON document: {"base", "base_commit",
// "head", "decisions": [{"id", "title", "status", "path", "touches":
// [{"kind", "path", "line", "side", "claim", "detail"}]}]}. Fields may be
// added; none is removed or renamed without a decision.
func WriteJSON(w io.Writer, r Result) error {
	if r.Decisions == nil {
		r.Decisions = []Decision{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

package impact

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/format"
)

// writers are the output formats of `claimslint impact`, one value each
// (D103), in the order help names them.
var writers = []struct {
	name  string
	write func(io.Writer, Result) error
}{
	{"text", WriteText},
	{"markdown", WriteMarkdown},
	{"json", WriteJSON},
}

// Formats are the output formats of `claimslint impact` (writers' names).
var Formats = func() []string {
	out := make([]string, len(writers))
	for i, w := range writers {
		out[i] = w.name
	}
	return out
}()

// Marker is the first line of the Markdown comment: the GitHub Action finds
// the comment it posted before by it, and updates it.
const Marker = "<!-- claimslint impact -->"

// Write writes r in the named format (one of Formats).
func Write(w io.Writer, name string, r Result) error {
	for _, wr := range writers {
		if wr.name == name {
			return wr.write(w, r)
		}
	}
	return fmt.Errorf("unknown format %q: want %s", name, strings.Join(Formats, ", "))
}

// WriteText writes one line a touch, `path:line: D3 C1: detail` (no
// `:line` for a whole file, no claim for a decision's text), the
// decisions in id order; nothing when the change touches none. A touch
// of a claim that fails now says so, and why (D88). Every
// field from the repository goes through format.Escape (D69).
func WriteText(w io.Writer, r Result) error {
	bw := bufio.NewWriter(w)
	for _, d := range r.Decisions {
		failing := map[string]string{}
		for _, c := range d.Claims {
			if c.State == check.StateFailed {
				failing[c.ID] = c.Message
			}
		}
		for _, t := range d.Touches {
			where := format.Escape(t.Path)
			if t.Line > 0 {
				where += fmt.Sprintf(":%d", t.Line)
			}
			who := format.Escape(d.ID)
			if t.Claim != "" {
				who += " " + format.Escape(t.Claim)
			}
			detail := t.Detail
			if why, ok := failing[t.Claim]; ok {
				detail += "; the claim fails now: " + why // D88
			}
			fmt.Fprintf(bw, "%s: %s: %s\n", where, who, format.Escape(detail))
		}
	}
	return bw.Flush()
}

// WriteMarkdown writes a pull-request comment: the Marker, a heading, one
// line saying what was compared, and per decision touched a heading, its
// touched claims and whether each still holds, and a table of its touches
// with the line as it was and as it is. With Options.Links, the decision,
// each claim and each line link to the file at its commit (D88). Every
// field from the repository goes through format.Markdown, and every path
// in a link is percent-encoded.
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
	fmt.Fprintf(bw, "Compared with %s: %s, %s. A claim may still hold: these are the lines a reviewer reads the decision for.\n", base, format.Count(len(r.Decisions), "decision"), format.Count(r.Touched(), "change"))
	for _, d := range r.Decisions {
		side := SideHead
		if !slices.ContainsFunc(d.Touches, func(t Touch) bool { return t.Side == SideHead || t.Path != d.Path }) {
			side = SideBase // a deleted decision is read at the base
		}
		fmt.Fprintf(bw, "\n#### %s: %s (%s)\n\n", r.link(md(d.ID), side, d.Path, 0), md(d.Title), md(d.Status))
		if len(d.Claims) > 0 {
			var cs []string
			for _, c := range d.Claims {
				word := claimWord(c)
				cs = append(cs, r.link(md(c.ID), SideHead, d.Path, c.Line)+" "+word)
			}
			fmt.Fprintf(bw, "Claims: %s.\n\n", strings.Join(cs, "; "))
		}
		fmt.Fprintf(bw, "| Where | Claim | What | Change | Was | Now |\n|---|---|---|---|---|---|\n")
		for _, t := range d.Touches {
			where := md(t.Path)
			if t.Line > 0 {
				where += fmt.Sprintf(":%d", t.Line)
			}
			where = r.link(where, t.Side, t.Path, t.Line)
			if t.Side == SideBase {
				where += " (" + md(r.Base) + ")"
			}
			claim := md(t.Claim)
			if claim == "" {
				claim = "-"
			}
			fmt.Fprintf(bw, "| %s | %s | %s | %s | %s | %s |\n", where, claim, strings.ReplaceAll(t.Kind, "-", " "), md(t.Detail), cell(t.Old), cell(t.New))
		}
	}
	return bw.Flush()
}

// claimWord says whether a claim still holds, a failing one in bold with
// why.
func claimWord(c Claim) string {
	switch c.State {
	case check.StateOK:
		return "holds"
	case check.StateFailed:
		if c.Message != "" {
			return "**fails**: " + format.Markdown(c.Message)
		}
		return "**fails**"
	case StateDeleted:
		return "was deleted"
	}
	return "is " + format.Markdown(c.State)
}

// cell shows a line in a table cell, "-" when there is none.
func cell(line string) string {
	if line == "" {
		return "-"
	}
	return format.Markdown(line)
}

// link makes text a link to path (at line, when not 0) at the commit of
// side, when Options.Links was given; text as it is otherwise.
func (r Result) link(text, side, path string, line int) string {
	commit := r.HeadCommit
	if side == SideBase {
		commit = r.BaseCommit
	}
	if r.links == "" || commit == "" || path == "" {
		return text
	}
	var segs []string
	for _, s := range strings.Split(path, "/") {
		segs = append(segs, strings.NewReplacer("(", "%28", ")", "%29").Replace(url.PathEscape(s)))
	}
	u := strings.ReplaceAll(r.links, "{commit}", commit) + strings.Join(segs, "/")
	if line > 0 {
		u += fmt.Sprintf("#L%d", line)
	}
	return "[" + text + "](" + u + ")"
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

// ValidLinks checks Options.Links: empty, or an http or https URL with
// {commit} in it and nothing Markdown would read as the end of a link.
func ValidLinks(links string) error {
	if links == "" {
		return nil
	}
	u, err := url.Parse(links)
	switch {
	case err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "":
		return fmt.Errorf("%q: want an http or https URL, such as https://github.com/OWNER/REPO/blob/{commit}/", format.Escape(links))
	case !strings.Contains(links, "{commit}"):
		return fmt.Errorf("%q: write {commit} where the commit goes, such as https://github.com/OWNER/REPO/blob/{commit}/", format.Escape(links))
	case strings.ContainsAny(links, " \t\r\n()<>[]\"'`\\"):
		return fmt.Errorf("%q: a space, a quote, a bracket or a parenthesis would end the link: percent-encode it", format.Escape(links))
	}
	return nil
}

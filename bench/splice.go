package main

import "strings"

// section is one "## " section of a page: its heading line and its text,
// the heading included.
type section struct {
	heading, text string
}

// sections splits a Markdown page at its "## " headings: the header
// before the first, and each section, its heading line included. Lines
// inside a fenced block are never headings.
func sections(page string) (header string, out []section) {
	fenced := false
	for _, line := range strings.SplitAfter(page, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		switch {
		case !fenced && strings.HasPrefix(line, "## "):
			out = append(out, section{heading: strings.TrimRight(line, "\n"), text: line})
		case len(out) == 0:
			header += line
		default:
			out[len(out)-1].text += line
		}
	}
	return header, out
}

// headlineHeading is the heading of intro.md, under which a full run
// lists its headline figures.
const headlineHeading = "## How to run it, and the headline figures"

// splice is page with the sections of run in place of page's sections of
// the same heading, so that a run of some parts (--only) rewrites those
// parts alone, and sections no run writes (figures measured by a Go test
// or by hand, each saying how) are kept where they are. A section page
// lacks is added before page's last one (the Go microbenchmarks). A full
// run's header replaces page's; a partial run keeps page's header and its
// headline section, whose list is a full run's (D92).
func splice(page, run string, full bool) string {
	pHeader, ps := sections(page)
	rHeader, rs := sections(run)
	if len(ps) == 0 {
		return run
	}
	if full {
		pHeader = rHeader
	}
	index := map[string]int{}
	for i, s := range ps {
		index[s.heading] = i
	}
	var added []section
	for k, s := range rs {
		if !full && k == 0 && s.heading == headlineHeading {
			continue
		}
		if i, ok := index[s.heading]; ok {
			ps[i] = s
		} else {
			added = append(added, s)
		}
	}
	var b strings.Builder
	b.WriteString(pHeader)
	for i, s := range ps {
		if i == len(ps)-1 {
			for _, a := range added {
				b.WriteString(a.text)
			}
		}
		b.WriteString(s.text)
	}
	return b.String()
}

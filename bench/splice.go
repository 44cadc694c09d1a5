package main

import (
	"regexp"
	"slices"
	"strings"
)

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

// headlineLead opens the headline list.
const headlineLead = "Headline figures, generated from the tables below; each names its table and the run that measured it (a 2-core machine other jobs may share):"

// headlineRef finds the table a headline names: the last "(*Table*" or
// "(see *Table*" of its line.
var headlineRef = regexp.MustCompile(`\((?:see )?\*([^*]+)\*`)

// refOf is the table a headline line names, or "".
func refOf(line string) string {
	m := headlineRef.FindAllStringSubmatch(line, -1)
	if len(m) == 0 {
		return ""
	}
	return m[len(m)-1][1]
}

// names reports whether the headline ref names the section of heading:
// a ref is the start of its table's heading.
func names(ref, heading string) bool {
	return ref != "" && strings.HasPrefix(strings.TrimPrefix(heading, "## "), ref)
}

// mergeHeadlines is the run's headline section (intro.md's text, which no
// run measures, and its list) with the page's headlines of the tables the
// run did not measure kept: a headline names its table, so the list stays
// the one the tables on the page say, each line from the run that wrote
// its table (D92). The lines keep the order of their tables on the page.
func mergeHeadlines(page, run section, measured []string, order []string) section {
	bullet := func(l string) bool { return strings.HasPrefix(l, "- ") && refOf(l) != "" }
	var lines []string
	for _, l := range strings.SplitAfter(page.text, "\n") {
		if bullet(l) && !slices.ContainsFunc(measured, func(h string) bool { return names(refOf(l), h) }) {
			lines = append(lines, l)
		}
	}
	var head, tail []string
	seen := false
	for _, l := range strings.SplitAfter(run.text, "\n") {
		switch {
		case bullet(l):
			seen = true
			lines = append(lines, l)
		case !seen:
			head = append(head, l)
		default:
			tail = append(tail, l)
		}
	}
	if !seen && len(lines) > 0 {
		// The run measured no table with a headline: the page's lines go
		// where its list would be, before the section's closing blank line.
		for len(head) > 0 && strings.TrimSpace(head[len(head)-1]) == "" {
			head = head[:len(head)-1]
		}
		head = append(head, "\n")
		tail = append([]string{"\n"}, tail...)
	}
	rank := func(l string) int {
		return slices.IndexFunc(order, func(h string) bool { return names(refOf(l), h) })
	}
	slices.SortStableFunc(lines, func(a, b string) int { return rank(a) - rank(b) })
	return section{heading: run.heading, text: strings.Join(head, "") + strings.Join(lines, "") + strings.Join(tail, "")}
}

// splice is page with the sections of run in place of page's sections of
// the same heading, so that a run of some parts (--only) rewrites those
// parts alone, and sections no run writes (figures measured by a Go test
// or by hand, each saying how) are kept where they are. A section page
// lacks is added before page's last one (the Go microbenchmarks). A full
// run's header replaces page's; a partial run keeps page's header, and in
// the headline section the page's headlines of the tables it did not
// measure (mergeHeadlines, D92).
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
	var measured []string
	for _, s := range rs {
		measured = append(measured, s.heading)
	}
	// The order of the sections on the spliced page: the page's, with
	// the run's new ones before its last.
	var order []string
	for _, s := range ps[:len(ps)-1] {
		order = append(order, s.heading)
	}
	for _, s := range rs {
		if _, ok := index[s.heading]; !ok {
			order = append(order, s.heading)
		}
	}
	order = append(order, ps[len(ps)-1].heading)
	for k, s := range rs {
		if !full && k == 0 && s.heading == headlineHeading {
			if i, ok := index[s.heading]; ok {
				ps[i] = mergeHeadlines(ps[i], s, measured[1:], order)
			}
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

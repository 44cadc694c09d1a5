// Package author writes to the register. `claimslint new` allocates the
// next decision id, writes the decision file from a template, inserts the
// register row, moves the live range at every range site and writes the
// reciprocal supersession reference; `accept` and `status` move a
// decision through its lifecycle (D78); `init` sets up a repository that
// has no register. It plans every edit in memory first (an internal/plan
// Plan), so a dry run prints the exact diff and a real run writes exactly
// that. Adoption (init --adopt, and new in an adopted collection's
// dialect) is internal/adopt, which author calls and which never imports
// author (D100).
package author

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/claimslint/claimslint/internal/adopt"
	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/decisionid"
	"github.com/claimslint/claimslint/internal/plan"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/snapshot"
)

// NewOptions are the inputs of New.
type NewOptions struct {
	Dir        string
	Title      string
	Status     string // default proposed
	Supersedes string // D43 or D43(6)
	Date       time.Time
	// Author is who writes the record: an adopted collection's author
	// or decider field takes it (D96); "" leaves the field empty.
	Author string
	// KeepRecords leaves an adopted record's file as written when it is
	// superseded: only the register row changes (D73).
	KeepRecords bool
}

var refRE = register.LazyRE(`^(` + decisionid.Pattern + `)(\([^)]+\))?$`)

// New plans a new decision. It fails, changing nothing, on an empty
// title, an unknown superseded decision, or a register it cannot place a
// row in.
func New(o NewOptions) (*plan.Plan, error) {
	title, err := newTitle(&o)
	if err != nil {
		return nil, err
	}
	res, err := snapshot.Load(o.Dir)
	if err != nil {
		return nil, err
	}
	reg := res.Register
	if !reg.Found || len(reg.Rows) == 0 {
		return nil, fmt.Errorf("%s has no register table with a first row to follow; write the header and one row by hand first", res.Config.Register)
	}
	for _, d := range res.Decisions {
		if strings.EqualFold(strings.TrimSpace(d.Title), title) || strings.EqualFold(d.Title, d.FileID+": "+title) {
			return &plan.Plan{ID: d.FileID, File: d.Path, Existing: d.Path}, nil
		}
	}
	old, err := superseded(o, res)
	if err != nil {
		return nil, err
	}
	pl := place(&o, res, title)
	if _, err := os.Stat(filepath.Join(o.Dir, filepath.FromSlash(pl.file))); err == nil {
		return nil, fmt.Errorf("%s already exists; remove it or pick another title", pl.file)
	}
	if o.Date.IsZero() {
		o.Date = time.Now()
	}
	p := &plan.Plan{ID: pl.id, File: pl.file}
	text, err := newText(o, res, pl, title, old)
	if err != nil {
		return nil, err
	}
	p.Changes = append(p.Changes, plan.Change{Path: pl.file, New: text})
	carryClaims(o, p, old, pl.col != nil)

	edits := map[string][]byte{}
	read := func(rel string) ([]byte, error) {
		if b, ok := edits[rel]; ok {
			return b, nil
		}
		return plan.ReadIn(o.Dir, rel)
	}
	if err := newRegisterEdits(o, res, pl, title, edits, read); err != nil {
		return nil, err
	}
	if old != nil {
		notes, err := supersedeEdits(o, res, old, pl, title, edits, read)
		if err != nil {
			return nil, err
		}
		p.Notes = append(p.Notes, notes...)
	}
	if err := p.AddEdits(o.Dir, edits); err != nil {
		return nil, err
	}
	return p, nil
}

// newTitle checks o's title and status, defaulting the status to
// proposed, and returns the title trimmed.
func newTitle(o *NewOptions) (string, error) {
	title := strings.TrimSpace(o.Title)
	if title == "" || strings.ContainsAny(title, "\n|") {
		return "", fmt.Errorf("title %q: give a one-line title without |", o.Title)
	}
	if o.Status == "" {
		o.Status = "proposed"
	}
	switch o.Status {
	case "proposed", "accepted":
	default:
		return "", fmt.Errorf("status %q: a new decision is proposed or accepted", o.Status)
	}
	return title, nil
}

// superseded is the decision o.Supersedes names, nil when it names none.
func superseded(o NewOptions, res *snapshot.Snapshot) (*register.Decision, error) {
	if o.Supersedes == "" {
		return nil, nil
	}
	m := refRE().FindStringSubmatch(o.Supersedes)
	if m == nil {
		return nil, fmt.Errorf("--supersedes %q: write a decision id like D43, or a clause like D43(6)", o.Supersedes)
	}
	var old *register.Decision
	for _, d := range res.Decisions {
		if d.FileID == m[1] {
			old = d
		}
	}
	if old == nil {
		return nil, fmt.Errorf("--supersedes %s: no such decision in %s", o.Supersedes, res.Config.Decisions)
	}
	return old, nil
}

// placement is where a new decision goes: its id and file, the number
// the live range moves to, the range it moves from, and the adopted
// collection it joins (nil for none) or whether it is an inline row.
type placement struct {
	id, file string
	n, top   int
	oldRange string
	col      *adopt.Collection
	inline   bool
}

// place names the new decision: the next number, in the adopted
// collection's scheme after adoption, a claims file in an inline
// register.
func place(o *NewOptions, res *snapshot.Snapshot, title string) placement {
	reg := res.Register
	// n is the highest number of any id (D4a counts as 4, so the next is
	// D5); the range ends at the highest plain id (D72).
	n, top := 0, 0
	for _, row := range reg.Rows {
		n = max(n, row.N)
		if row.Plain {
			top = max(top, row.N)
		}
	}
	for _, d := range res.Decisions {
		if p, ok := decisionid.Parse(d.FileID); ok {
			n = max(n, p.N)
			if p.Plain() {
				top = max(top, p.N)
			}
		}
	}
	pl := placement{oldRange: fmt.Sprintf("D1..D%d", top), top: top}
	maxID := n
	n++
	pl.id = decisionid.ID{N: n}.String()
	pl.file = path.Join(strings.TrimSuffix(res.Config.Decisions, "/"), pl.id+"-"+plan.Slug(title)+".md")
	if len(res.Config.Adopt) > 0 {
		// After adoption there is one author of new records: the next one
		// is named in its folder's scheme, and its id is its number where
		// the folder's ids are numbers (D41, D72).
		if o.Date.IsZero() {
			o.Date = time.Now()
		}
		pl.col = adopt.Adopted(res.Config.Adopt, res.Decisions)
		pl.file = pl.col.NextPath(title, o.Date)
		taken := map[string]bool{}
		for _, row := range reg.Rows {
			taken[row.ID] = true
		}
		for _, d := range res.Decisions {
			taken[d.FileID] = true
		}
		pl.id = pl.col.NextID(pl.file, maxID, taken)
		if p, ok := decisionid.Parse(pl.id); ok && p.Plain() {
			n = p.N
		}
	}
	pl.n = n
	pl.inline = inlineNext(res)
	if pl.inline {
		// The register's rows are its decisions: the next one is a row in
		// their shape, and its claims file (D35, D65).
		pl.file = path.Join(res.Config.ClaimsDir(), pl.id+".md")
	}
	return pl
}

// newText is the new decision's file: an inline row's claims file, an
// adopted record in its dialect, or the register's template.
func newText(o NewOptions, res *snapshot.Snapshot, pl placement, title string, old *register.Decision) ([]byte, error) {
	switch {
	case pl.inline:
		return claimsTemplate(pl.id, title, res.Config.Register), nil
	case pl.col != nil:
		// An adopted collection's new record is written in its dialect
		// (D73): its template filled in, else its latest record's shape.
		return pl.col.NewRecord(adopt.NewOptions{Dir: o.Dir, Status: o.Status, Supersedes: o.Supersedes, Date: o.Date, Author: o.Author}, pl.file, title, old, res.Config.Statuses)
	}
	return template(pl.id, title, o.Status, o.Supersedes, o.Date), nil
}

// newRegisterEdits writes the new row into the register and moves the
// live range at the range sites and on the lines claims pin to it.
func newRegisterEdits(o NewOptions, res *snapshot.Snapshot, pl placement, title string, edits map[string][]byte, read func(string) ([]byte, error)) error {
	reg := res.Register
	regSrc, err := read(res.Config.Register)
	if err != nil {
		return fmt.Errorf("read register: %w", err)
	}
	rel, err := filepath.Rel(path.Dir(res.Config.Register), pl.file)
	if err != nil {
		return err
	}
	var row []byte
	if pl.inline {
		row, err = inlineRow(regSrc, reg, res.Config, pl.id, title, o.Status)
	} else {
		row, err = plan.NewRow(regSrc, reg, pl.id, title, filepath.ToSlash(rel), o.Status)
	}
	if err != nil {
		return err
	}
	edits[res.Config.Register] = row
	live := max(pl.n, pl.top)
	for _, site := range res.Config.RangeSites {
		src, err := read(site)
		if err != nil {
			return fmt.Errorf("read range site %s: %w", site, err)
		}
		// Only the live range moves; a record that quotes an older range
		// (D1..D40 in last year's notes) is history and stays.
		re := regexp.MustCompile(`\b` + regexp.QuoteMeta(pl.oldRange) + `\b`)
		edits[site] = re.ReplaceAll(src, []byte(fmt.Sprintf("D1..D%d", live)))
	}
	// The lines claims pin to the live range with a placeholder move with
	// it, so those claims hold after new as the range sites do (D64).
	bumps, err := check.LiveRangeEdits(res, max(pl.n, pl.top), read)
	if err != nil {
		return fmt.Errorf("move the live range on the lines claims pin: %w", err)
	}
	for rel, b := range bumps {
		edits[rel] = b
	}
	return nil
}

// supersedeEdits writes the reciprocal reference into old at once, and
// retires old when the new decision is accepted superseding it whole.
func supersedeEdits(o NewOptions, res *snapshot.Snapshot, old *register.Decision, pl placement, title string, edits map[string][]byte, read func(string) ([]byte, error)) ([]string, error) {
	whole := !strings.Contains(o.Supersedes, "(")
	// The reciprocal reference is written at once; the old decision is
	// retired only when the new one is accepted (D78): until then the
	// old one is still the decision, and its claims are still checked.
	if !old.Inline && (!old.Adopted || old.ID != "") {
		src, err := read(old.Path)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", old.Path, err)
		}
		out, err := addSupersededBy(src, pl.id)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", old.Path, err)
		}
		edits[old.Path] = out
	}
	if whole && o.Status == "accepted" {
		return retire(res, old, pl.id, pl.file, title, o.KeepRecords, edits, read)
	}
	return nil, nil
}

// retire makes old superseded by the decision id (its file, its title):
// its front matter's status, or an adopted record's own status line where
// and as its tool writes it (D73), and its register row (D78: at the
// moment id is accepted). The edits go into edits; read reads a file as
// edited so far.
func retire(res *snapshot.Snapshot, old *register.Decision, id, file, title string, keepRecords bool, edits map[string][]byte, read func(string) ([]byte, error)) ([]string, error) {
	var notes []string
	if old.Status == "superseded" || old.Status == "deprecated" {
		return nil, nil
	}
	if !old.Inline && (!old.Adopted || old.ID != "") {
		src, err := read(old.Path)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", old.Path, err)
		}
		out, err := setStatus(src, "superseded")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", old.Path, err)
		}
		edits[old.Path] = out
	}
	if old.Adopted && old.ID == "" && !keepRecords {
		// An adopted record says it is superseded in its own file, where
		// and as its tool writes it (D73): adr-tools' Status section,
		// MADR's front matter, log4brains' Status line, a metadata table.
		src, err := read(old.Path)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", old.Path, err)
		}
		link, err := filepath.Rel(path.Dir(old.Path), file)
		if err != nil {
			return nil, err
		}
		label := adopt.SpelledLabel(read, old, src, file, title)
		if out, ok := markSuperseded(src, old, label, filepath.ToSlash(link)); ok {
			edits[old.Path] = out
		} else if old.StatusFrom == "folder" {
			// Its folder says its status; its file says what replaced it,
			// below its title (D96).
			edits[old.Path] = markInPlace(src, old, label, filepath.ToSlash(link))
		} else if side := old.KeyPos("status").Filename; old.StatusFrom == "sidecar" {
			// A KEP: its kep.yaml says replaced, its README.md what
			// replaced it (D96).
			ss, err := read(side)
			if err != nil {
				return nil, fmt.Errorf("read %s: %w", side, err)
			}
			edits[side] = markSidecar(ss, old.KeyPos("status").Line)
			edits[old.Path] = markInPlace(src, old, label, filepath.ToSlash(link))
		} else {
			notes = append(notes, fmt.Sprintf("%s: its status %q was not found where it was read; the file is left as written, mark it superseded by hand", old.Path, old.RawStatus))
		}
	}
	regSrc, err := read(res.Config.Register)
	if err != nil {
		return nil, err
	}
	reg := register.ParseRegister(res.Config.Register, regSrc)
	var out []byte
	if old.Inline && !res.Register.HasStatus {
		// An inline row says it in its words (D65).
		out, err = markRetired(regSrc, reg, res.Config, old.FileID, id)
	} else {
		out, err = setRowStatus(regSrc, old.FileID, "superseded")
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", res.Config.Register, err)
	}
	edits[res.Config.Register] = out
	return notes, nil
}

func template(id, title, status, supersedes string, date time.Time) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "---\nid: %s\nstatus: %s\ndate: %s\n", id, status, date.UTC().Format("2006-01-02"))
	if supersedes != "" {
		fmt.Fprintf(&b, "supersedes: [%s]\n", supersedes)
	}
	fmt.Fprintf(&b, "tracker: []\n---\n# %s: %s\n\n", id, title)
	b.WriteString(`## Context and Problem Statement

What forces a decision, in two or three sentences.

## Decision Outcome

What we decided and why. Keep it to the behaviour the claims below check.

### Consequences

What gets easier, what gets harder, what stays open (name the tracker ids).

## Confirmation

Each claim anchors on the production line that does the work; a proposed
decision's claims are reported as pending until the code lands.

| Claim | Kind | Path | Anchor | Require | Why |
|---|---|---|---|---|---|
`)
	return []byte(b.String())
}

var statusKeyRE = register.LazyRE(`(?m)^status:[ \t]*[^\n]*$`)

// setStatus sets the status: key of a decision's front matter (D43: new
// --supersedes D3 makes D3 superseded, so check passes at once).
func setStatus(src []byte, status string) ([]byte, error) {
	s := string(src)
	end := strings.Index(s[4:], "\n---")
	if !strings.HasPrefix(s, "---\n") || end < 0 {
		return nil, fmt.Errorf("no front matter to write status: into")
	}
	fm := s[4 : 4+end+1]
	if !statusKeyRE().MatchString(fm) {
		fm += "status: " + status + "\n"
	} else {
		fm = statusKeyRE().ReplaceAllLiteralString(fm, "status: "+status)
	}
	return []byte("---\n" + fm + s[4+end+1:]), nil
}

// setRowStatus rewrites the Status cell of decision id's register row.
func setRowStatus(src []byte, id, status string) ([]byte, error) {
	reg := register.ParseRegister("register", src)
	lines := strings.SplitAfter(string(src), "\n")
	for _, row := range reg.Rows {
		if row.ID != id || !reg.HasStatus {
			continue
		}
		i := row.StatusPos.Line - 1
		if i < 0 || i >= len(lines) || row.StatusPos.Column < 1 {
			break
		}
		l := lines[i]
		start := row.StatusPos.Column - 1
		stop := strings.IndexByte(l[start:], '|')
		if stop < 0 {
			break
		}
		cell := l[start : start+stop]
		lines[i] = l[:start] + status + l[start+len(strings.TrimRight(cell, " ")):]
		return []byte(strings.Join(lines, "")), nil
	}
	return nil, fmt.Errorf("no register row for %s with a Status cell to set to %s", id, status)
}

// addSupersededBy adds id to the superseded-by list of a decision's front
// matter, creating the key if needed.
func addSupersededBy(src []byte, id string) ([]byte, error) {
	s := string(src)
	if !strings.HasPrefix(s, "---\n") {
		return nil, fmt.Errorf("no front matter to write superseded-by: into")
	}
	end := strings.Index(s[4:], "\n---")
	if end < 0 {
		return nil, fmt.Errorf("front matter is not closed")
	}
	fm := s[4 : 4+end+1]
	re := regexp.MustCompile(`(?m)^superseded-by:[ \t]*\[(.*)\][ \t]*$`)
	if m := re.FindStringSubmatchIndex(fm); m != nil {
		items := strings.TrimSpace(fm[m[2]:m[3]])
		for _, it := range strings.Split(items, ",") {
			if strings.TrimSpace(it) == id {
				return src, nil
			}
		}
		if items != "" {
			items += ", "
		}
		fm = fm[:m[2]] + items + id + fm[m[3]:]
	} else if regexp.MustCompile(`(?m)^superseded-by:`).MatchString(fm) {
		return nil, fmt.Errorf("superseded-by: is not a [list] on one line; add %s by hand", id)
	} else {
		fm += "superseded-by: [" + id + "]\n"
	}
	return []byte("---\n" + fm + s[4+end+1:]), nil
}

// markSuperseded rewrites the status of an adopted record on the line it
// was read from (D73): the status words as written become "Superseded by
// [label](link)", in the record's own case; front matter is quoted as
// YAML needs. ok is false when the line no longer holds the status.
func markSuperseded(src []byte, old *register.Decision, label, link string) ([]byte, bool) {
	at, ok := findStatus(src, old)
	if !ok {
		return nil, false
	}
	raw, line, i := at.raw, at.line(), at.i
	phrase := supersededBy(raw)
	if r, _ := utf8.DecodeRuneInString(raw); !unicode.IsLower(r) {
		rs := []rune(phrase)
		phrase = string(unicode.ToUpper(rs[0])) + string(rs[1:])
	}
	text := fmt.Sprintf("%s [%s](%s)", phrase, label, link)
	if old.StatusFrom == "front matter" {
		text = strconv.Quote(text)
		// A quoted YAML value replaces the quotes around it too.
		if i > 0 && (line[i-1] == '"' || line[i-1] == '\'') && i+len(raw) < len(line) && line[i+len(raw)] == line[i-1] {
			i--
			raw = line[i : i+len(raw)+2]
		}
	}
	return at.with(line[:i] + text + line[i+len(raw):]), true
}

// markSidecar writes the vocabulary's first English word for superseded
// (replaced, a KEP's own) as the status on line n of a sidecar file.
func markSidecar(src []byte, n int) []byte {
	word := "superseded"
	for _, row := range config.WorldStatuses {
		if row.Lang == "en" && row.Status == "superseded" {
			word, _, _ = strings.Cut(row.Words, ",")
		}
	}
	lines := strings.SplitAfter(string(src), "\n")
	if n >= 1 && n <= len(lines) && strings.HasPrefix(lines[n-1], "status:") {
		lines[n-1] = "status: " + word + "\n"
	}
	return []byte(strings.Join(lines, ""))
}

// markInPlace writes "Superseded by [label](link)" as a paragraph below
// the title of a record whose folder is its status (D96), in the language
// of its folder's name, English when the vocabulary does not know it; at
// the top, below any front matter, when it has no title heading.
func markInPlace(src []byte, old *register.Decision, label, link string) []byte {
	phrase := supersededBy(path.Base(path.Dir(old.Path)))
	line := strings.ToUpper(phrase[:1]) + phrase[1:] + " [" + label + "](" + link + ")\n"
	lines := strings.SplitAfter(string(src), "\n")
	at := 0
	if len(lines) > 0 && strings.TrimSpace(lines[0]) == "---" {
		for i := 1; i < len(lines); i++ {
			if strings.TrimSpace(lines[i]) == "---" {
				at = i + 1
				break
			}
		}
	}
	for i := at; i < len(lines); i++ {
		if h, ok := strings.CutPrefix(lines[i], "# "); ok && register.IsSectionTitle(strings.TrimSpace(h)) {
			return []byte(strings.Join(slices.Insert(lines, i, line, "\n"), "")) // above a first section
		} else if ok {
			return []byte(strings.Join(slices.Insert(lines, i+1, "\n", line), ""))
		}
	}
	return []byte(strings.Join(slices.Insert(lines, at, line, "\n"), ""))
}

// supersededBy is "superseded by" in the language of a record's status
// words raw (D97): "ersetzt durch" where it says Akzeptiert; English
// where the vocabulary has no phrase in its language.
func supersededBy(raw string) string {
	lang := adopt.WorldLang(register.StatusWords(raw))
	for _, row := range config.WorldStatuses {
		if lang == "en" || row.Lang != lang || row.Status != "superseded" {
			continue
		}
		var words []string
		for _, w := range strings.Split(row.Words, ",") {
			words = append(words, strings.TrimSpace(w))
		}
		if p := register.SupersededByPhrase(words); p != "" {
			return p
		}
	}
	return "superseded by"
}

// statusAt is where an adopted record's status was read (D73): the
// record's lines, the index of the one holding it, and the status words
// and their offset in that line.
type statusAt struct {
	lines []string
	n, i  int
	raw   string
}

func (s statusAt) line() string { return s.lines[s.n] }

// with returns the record with its status line replaced by line.
func (s statusAt) with(line string) []byte {
	s.lines[s.n] = line
	return []byte(strings.Join(s.lines, ""))
}

// findStatus finds the status words of d on the line they were read from;
// ok is false when the line no longer holds them. A metadata row that
// states more ("**Status:** Accepted | **Date:** …") keeps the rest.
func findStatus(src []byte, d *register.Decision) (statusAt, bool) {
	raw := strings.TrimSpace(d.RawStatus)
	if i := strings.Index(raw, "|"); i > 0 {
		raw = strings.TrimSpace(raw[:i])
	}
	pos, ok := d.Keys["status"]
	if raw == "" || !ok || pos.Line < 1 {
		return statusAt{}, false
	}
	lines := strings.SplitAfter(string(src), "\n")
	if pos.Line > len(lines) {
		return statusAt{}, false
	}
	i := strings.Index(lines[pos.Line-1], raw)
	if i < 0 {
		return statusAt{}, false
	}
	return statusAt{lines: lines, n: pos.Line - 1, i: i, raw: raw}, true
}

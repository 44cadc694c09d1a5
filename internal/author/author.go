// Package author writes to the register: `claimslint new` allocates the
// next decision id, writes the decision file from a template, inserts the
// register row, moves the live range at every range site and writes the
// reciprocal supersession reference. It plans every edit in memory first,
// so a dry run prints the exact diff and a real run writes exactly that.
package author

import (
	"bytes"
	"fmt"
	"maps"
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

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/decisionid"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/repo"
	"github.com/claimslint/claimslint/internal/snapshot"
	"github.com/rogpeppe/go-internal/diff"
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

// Change is one file's planned content.
type Change struct {
	Path     string // repository-relative
	Old, New []byte // Old is nil for a new file
}

// Plan is what New will do.
type Plan struct {
	ID      string
	File    string
	Changes []Change
	// Existing is set when a decision with this title already exists: the
	// plan is empty and running it again changes nothing.
	Existing string
	// Adopted lists, for init --adopt, each existing record and its id.
	Adopted []string
	// Summary is what init --adopt found, printed before it writes (D72).
	Summary []string
	// Notes are what the user should know: records skipped, statuses not
	// in the vocabulary.
	Notes []string
	// Inferred are the settings init --adopt read from an inline
	// register's tree, each with why (D65).
	Inferred []Inferred
	// Addition is what init --adopt would add to an existing
	// .claimslint.yml, which it never overwrites.
	Addition string
	// Next are the steps to print after the plan, when they are not
	// init's usual ones.
	Next []string
}

var refRE = regexp.MustCompile(`^(` + decisionid.Pattern + `)(\([^)]+\))?$`)

// New plans a new decision. It fails, changing nothing, on an empty
// title, an unknown superseded decision, or a register it cannot place a
// row in.
func New(o NewOptions) (*Plan, error) {
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
			return &Plan{ID: d.FileID, File: d.Path, Existing: d.Path}, nil
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
	p := &Plan{ID: pl.id, File: pl.file}
	text, err := newText(o, res, pl, title, old)
	if err != nil {
		return nil, err
	}
	p.Changes = append(p.Changes, Change{Path: pl.file, New: text})
	carryClaims(o, p, old, pl.col != nil)

	edits := map[string][]byte{}
	read := func(rel string) ([]byte, error) {
		if b, ok := edits[rel]; ok {
			return b, nil
		}
		return readIn(o.Dir, rel)
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
	for _, rel := range sortedKeys(edits) {
		orig, err := readIn(o.Dir, rel)
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(orig, edits[rel]) {
			p.Changes = append(p.Changes, Change{Path: rel, Old: orig, New: edits[rel]})
		}
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
	m := refRE.FindStringSubmatch(o.Supersedes)
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
	col      *collection
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
	pl.file = path.Join(strings.TrimSuffix(res.Config.Decisions, "/"), pl.id+"-"+slug(title)+".md")
	if len(res.Config.Adopt) > 0 {
		// After adoption there is one author of new records: the next one
		// is named in its folder's scheme, and its id is its number where
		// the folder's ids are numbers (D41, D72).
		if o.Date.IsZero() {
			o.Date = time.Now()
		}
		pl.col = adoptedCollection(res.Config.Adopt, res.Decisions)
		pl.file = pl.col.nextPath(title, o.Date)
		taken := map[string]bool{}
		for _, row := range reg.Rows {
			taken[row.ID] = true
		}
		for _, d := range res.Decisions {
			taken[d.FileID] = true
		}
		pl.id = pl.col.nextID(pl.file, maxID, taken)
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
		return newInDialect(o, pl.col, pl.file, title, old, res.Config.Statuses)
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
		row, err = newRow(regSrc, reg, pl.id, title, filepath.ToSlash(rel), o.Status)
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
		label := spelledLabel(read, old, src, file, title)
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

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// Paths lists the existing files the plan edits (for the dirty check).
func (p *Plan) Paths() []string {
	var out []string
	for _, c := range p.Changes {
		if c.Old != nil {
			out = append(out, c.Path)
		}
	}
	return out
}

// Diff is the unified diff of the plan.
func (p *Plan) Diff() []byte {
	var b bytes.Buffer
	for _, c := range p.Changes {
		oldName := "a/" + c.Path
		if c.Old == nil {
			oldName = "/dev/null"
		}
		b.Write(diff.Diff(oldName, c.Old, "b/"+c.Path, c.New))
	}
	return b.Bytes()
}

// Apply writes the plan under dir. Each file is replaced by rename, so a
// crash leaves every file either old or new.
//
// Every path is opened beneath dir with os.Root: a register, range site or
// directory that is a symbolic link out of the repository is refused, never
// read or written through (issue 16).
func (p *Plan) Apply(dir string) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	for _, c := range p.Changes {
		name := filepath.FromSlash(c.Path)
		if err := root.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return fmt.Errorf("write %s: %w", c.Path, err)
		}
		tmp := name + ".claimslint-new"
		// An edited file keeps its mode: a gate script whose knob line
		// moves with the live range stays executable (D64).
		mode := os.FileMode(0o644)
		if st, err := root.Lstat(name); err == nil && st.Mode().IsRegular() {
			mode = st.Mode().Perm()
		}
		if err := root.WriteFile(tmp, c.New, mode); err != nil {
			return fmt.Errorf("write %s: %w", c.Path, err)
		}
		if err := root.Chmod(tmp, mode); err != nil {
			root.Remove(tmp)
			return fmt.Errorf("write %s: %w", c.Path, err)
		}
		if err := root.Rename(tmp, name); err != nil {
			root.Remove(tmp)
			return fmt.Errorf("write %s: %w", c.Path, err)
		}
	}
	return nil
}

// readIn reads rel beneath dir, following links only inside it: a regular
// file of at most snapshot.MaxMarkdown bytes, never a named pipe a read
// would wait on (repo.ReadIn).
func readIn(dir, rel string) ([]byte, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return repo.ReadIn(root, filepath.FromSlash(rel), snapshot.MaxMarkdown)
}

// readDirIn lists the directory rel beneath dir, as readIn reads a file:
// through os.Root, so neither it nor a link in its path leads outside the
// repository (D9).
func readDirIn(dir, rel string) ([]os.DirEntry, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	f, err := root.Open(filepath.FromSlash(rel))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	es, err := f.ReadDir(-1)
	slices.SortFunc(es, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) }) // as os.ReadDir
	return es, err
}

var nonSlug = regexp.MustCompile(`[^a-z0-9]+`)

// slug turns a title into a file-name part: lower case, words joined by
// '-', at most 60 bytes, cut at a word boundary.
func slug(title string) string {
	s := strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(title), "-"), "-")
	if len(s) > 60 {
		s = s[:60]
		if i := strings.LastIndexByte(s, '-'); i > 20 {
			s = s[:i]
		}
	}
	if s == "" {
		s = "decision"
	}
	return s
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

// newRow inserts the register row after the last row, with a cell for each
// header column: the id, a link titled with the decision's title, the
// status, and empty cells for any other column.
func newRow(src []byte, reg *register.Register, id, title, link, status string) ([]byte, error) {
	lines := strings.SplitAfter(string(src), "\n")
	first, last := reg.Rows[0].Pos.Line, reg.Rows[len(reg.Rows)-1].Pos.Line
	if first < 3 || last > len(lines) {
		return nil, fmt.Errorf("cannot find the register table's header above line %d", first)
	}
	header := strings.Trim(strings.TrimSpace(lines[first-3]), "|")
	var cells []string
	for _, h := range strings.Split(header, "|") {
		switch h = strings.ToLower(strings.TrimSpace(h)); {
		case h == "id":
			cells = append(cells, id)
		case strings.Contains(h, "decision") || strings.Contains(h, "title"):
			cells = append(cells, fmt.Sprintf("[%s](%s)", title, linkDest(link)))
		case h == "status":
			cells = append(cells, status)
		default:
			cells = append(cells, "")
		}
	}
	row := "| " + strings.Join(cells, " | ") + " |\n"
	row = strings.ReplaceAll(row, "|  |", "| |")
	if !strings.HasSuffix(lines[last-1], "\n") {
		lines[last-1] += "\n"
	}
	out := append(append(append([]string{}, lines[:last]...), row), lines[last:]...)
	return []byte(strings.Join(out, "")), nil
}

var statusKeyRE = regexp.MustCompile(`(?m)^status:[ \t]*[^\n]*$`)

// setStatus sets the status: key of a decision's front matter (D43: new
// --supersedes D3 makes D3 superseded, so check passes at once).
func setStatus(src []byte, status string) ([]byte, error) {
	s := string(src)
	end := strings.Index(s[4:], "\n---")
	if !strings.HasPrefix(s, "---\n") || end < 0 {
		return nil, fmt.Errorf("no front matter to write status: into")
	}
	fm := s[4 : 4+end+1]
	if !statusKeyRE.MatchString(fm) {
		fm += "status: " + status + "\n"
	} else {
		fm = statusKeyRE.ReplaceAllLiteralString(fm, "status: "+status)
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

// WritesWorkflow reports whether the plan creates or changes a workflow
// file (init's doc-lint.yml), whose pin the user should hear about.
func (p *Plan) WritesWorkflow() bool {
	for _, ch := range p.Changes {
		if strings.HasPrefix(ch.Path, ".github/workflows/") {
			return true
		}
	}
	return false
}

// supersedingLabel is the link text an adopted record's tool writes for
// the record that supersedes it (D73): adr-tools' "12. Title" in a Status
// section; elsewhere the name up to its number as the collection writes it
// (ODH-ADR-Operator-0017, adr-020) or MADR's ADR-0012 for a bare number;
// the file name for a date-named or unnumbered record.
func supersedingLabel(old *register.Decision, file, title string) string {
	base := path.Base(file)
	if b := strings.ToLower(base); b == "readme.md" || b == "index.md" {
		base = path.Base(path.Dir(file)) + ".md" // one folder per record: the folder names it
	}
	name := strings.TrimSuffix(base, ".md")
	if dateNameRE.MatchString(base) {
		return name
	}
	prefixed := prefixedNameRE.FindStringSubmatch(base)
	m := leadingNumberRE.FindString(base)
	if m == "" && prefixed != nil {
		m = prefixed[1]
	}
	n, err := strconv.Atoi(m)
	switch {
	case m == "" || err != nil:
		return name
	case old.StatusFrom == "heading":
		return fmt.Sprintf("%d. %s", n, title)
	case prefixed != nil:
		return prefixed[0]
	}
	return "ADR-" + m
}

var (
	leadingNumberRE = regexp.MustCompile(`^[0-9]{1,9}`)
	dateNameRE      = regexp.MustCompile(`^(?:19|20)[0-9]{2}[-_]?(?:0[1-9]|1[0-2])`)
	prefixedNameRE  = regexp.MustCompile(`^(?:[A-Za-z][A-Za-z0-9]*-)+([0-9]{1,9})`)
)

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
	lang := worldLang(register.StatusWords(raw))
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

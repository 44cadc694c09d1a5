package adopt

import (
	"bytes"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/decisionid"
	"github.com/claimslint/claimslint/internal/plan"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/repo"
	"github.com/claimslint/claimslint/internal/snapshot"
)

// AdoptDirs are where init --adopt looks for existing records, in order.
var AdoptDirs = []string{"docs/adr", "doc/adr", "docs/architecture/decisions", "docs/decisions", "adr", "docs/architecture/adr"}

var adrDirRE = register.LazyRE(`^[^\n]+`)

// Dir returns the collection directory named by the repository's
// own tools: .claimslint.yml's adopt:, then adr-tools' .adr-dir.
func Dir(root string, cfg config.Config) string {
	if len(cfg.Adopt) > 0 {
		return commonDir(cfg.Adopt.Dirs())
	}
	if b, err := plan.ReadIn(root, ".adr-dir"); err == nil {
		if m := adrDirRE().Find(bytes.TrimSpace(b)); m != nil {
			return strings.TrimSpace(string(m))
		}
	}
	return ""
}

// Inline adopts a register of rows without decision files as it is
// kept (D35, D65); it returns nil and no error when the tree holds none.
func Inline(o InitOptions, cfg config.Config, hasConfig bool) (*plan.Plan, error) {
	rp, err := repo.Open(o.Dir)
	if err != nil {
		return nil, err
	}
	if err := rp.ListUntracked([]string{""}); err != nil {
		return nil, err
	}
	in, err := findInline(cfg, rp)
	if err != nil || in == nil {
		return nil, err
	}
	return adoptInline(o, cfg, rp, in, hasConfig)
}

// First is init's first decision and the register around it: its id
// and file, the register's link to it and to its folder, the rows of the
// adopted records before it, the live range's end, the adopt: key and
// the notes on the adopted collection.
type First struct {
	ID, File         string
	RegLink, DirLink string
	Rows             string
	Top              string
	AdoptKey         string
	Notes            []string
}

// FirstDecision places init's first decision: D1, or after an adopted
// collection's records in its scheme.
func FirstDecision(c *Collection, date time.Time) First {
	col := c.inner()
	n := 1
	var rows strings.Builder
	f := First{File: "docs/decisions/D1-record-decisions-with-claimslint.md", RegLink: "decisions/D1-record-decisions-with-claimslint.md", DirLink: "decisions/"}
	firstID := ""
	if col != nil {
		col.assign(nil, 0)
		var ds []*register.Decision
		for _, r := range col.records {
			ds = append(ds, r.d)
			n = max(n, decisionid.Number(r.id)+1)
		}
		snapshot.Relate(ds)
		for _, r := range col.records {
			link, _ := filepath.Rel("docs", r.path)
			fmt.Fprintf(&rows, "| %s | [%s](%s) | %s |\n", r.id, plan.RowTitle(r.d.Title), plan.LinkDest(filepath.ToSlash(link)), rowStatus(r.d))
		}
		f.File = col.nextPath("record decisions with claimslint", date)
		taken := map[string]bool{}
		for _, r := range col.records {
			taken[r.id] = true
		}
		firstID = col.nextID(f.File, n-1, taken)
		l, _ := filepath.Rel("docs", f.File)
		f.RegLink = filepath.ToSlash(l)
		f.AdoptKey = renderAdopt(col.schemes) +
			"# Other status words: map them to proposed, accepted, rejected, deprecated or superseded.\n# statuses: {parked: proposed}\n"
		f.Notes = col.notes()
		l, _ = filepath.Rel("docs", path.Dir(f.File))
		f.DirLink = filepath.ToSlash(l) + "/"
	}
	f.Rows = rows.String()
	f.ID = decisionid.ID{N: n}.String()
	if firstID != "" {
		f.ID = firstID
	}
	f.Top = liveTop(col, f.ID)
	return f
}

// liveTop is the end of the live range: the highest plain id, which an
// adopted record may hold; D0 and D4a never end it (D72).
func liveTop(col *collection, id string) string {
	topN := 0
	if p, ok := decisionid.Parse(id); ok && p.Plain() {
		topN = p.N
	}
	if col != nil {
		for _, r := range col.records {
			if p, ok := decisionid.Parse(r.id); ok && p.Plain() {
				topN = max(topN, p.N)
			}
		}
	}
	return decisionid.ID{N: topN}.String()
}

// rowStatus is the status init writes in a record's row: the mapped status,
// or the record's own words when the vocabulary does not know them (check
// then says which statuses: entry to add).
func rowStatus(d *register.Decision) string {
	if d.Status == "" {
		return "proposed"
	}
	return strings.ReplaceAll(d.Status, "|", "-")
}

func adoptedLine(r *record) string {
	s := r.path + " is " + r.id + ", " + rowStatus(r.d)
	if w := register.StatusWords(r.d.RawStatus); w != "" && w != r.d.Status {
		s += " (" + w + ")"
	}
	return s
}

// notes are the things init --adopt says about a collection besides the
// mapping: files it skipped and why, records without a status, statuses
// it could not map.
func (c *collection) notes() []string {
	var out []string
	for _, s := range c.skipped {
		out = append(out, "skipped "+s.path+": "+s.why)
	}
	for _, r := range c.records {
		if r.d.StatusFrom != "unstated" && !register.ValidStatus(r.d.Status) {
			out = append(out, fmt.Sprintf("%s: status %q is not in the status vocabulary: add it under statuses: in %s, then write the mapped status in its register row", r.path, r.d.RawStatus, config.FileName))
		}
	}
	return out
}

// Again registers the records of the adopted collection that have no
// register row yet, each with the id its folder's rule gives (D72), and
// writes adopt: again with the folders merged: folders already listed keep
// their settings, new ones are added. Rows already written keep their
// ids; no record is touched.
func Again(o InitOptions, cfg config.Config, dir string) (*plan.Plan, error) {
	if dir == "" {
		return nil, fmt.Errorf("%s exists and names no adopt: directory; run claimslint init --adopt DIR", config.FileName)
	}
	col, err := findCollection(o.Dir, dir, cfg)
	if err != nil {
		return nil, err
	}
	res, err := snapshot.Load(o.Dir)
	if err != nil {
		return nil, err
	}
	if !res.Register.Found || len(res.Register.Rows) == 0 {
		return nil, fmt.Errorf("%s has no register table with a row to follow", cfg.Register)
	}
	n := 0
	for _, row := range res.Register.Rows {
		n = max(n, row.N)
	}
	oldN := n
	regSrc, err := plan.ReadIn(o.Dir, cfg.Register)
	if err != nil {
		return nil, fmt.Errorf("read register: %w", err)
	}
	have := registeredRecords(cfg, res.Register, col)
	col.assign(have, n)
	p := &plan.Plan{Notes: col.notes(), Summary: col.summary()}
	var fresh []*record
	for _, r := range col.records {
		if _, ok := have[r.path]; ok {
			continue
		}
		n = max(n, decisionid.Number(r.id))
		fresh = append(fresh, r)
	}
	edits := map[string][]byte{}
	cfgSrc, err := plan.ReadIn(o.Dir, config.FileName)
	if err != nil {
		return nil, err
	}
	if out := replaceAdopt(cfgSrc, renderAdopt(col.schemes)); !bytes.Equal(out, cfgSrc) {
		edits[config.FileName] = out
	}
	if len(fresh) == 0 && len(edits) == 0 {
		p.Notes = append(p.Notes, "every record of "+col.dir+" is registered; nothing changed")
		return p, nil
	}
	if err := addFreshRows(cfg, res, fresh, regSrc, p, edits); err != nil {
		return nil, err
	}
	if n != oldN {
		if err := moveRange(o.Dir, cfg.RangeSites, oldN, n, edits); err != nil {
			return nil, err
		}
	}
	if err := p.AddEdits(o.Dir, edits); err != nil {
		return nil, err
	}
	return p, nil
}

// registeredRecords maps each record of col that a register row links to
// that row's id.
func registeredRecords(cfg config.Config, reg *register.Register, col *collection) map[string]string {
	registered := map[string]string{}
	for _, row := range reg.Rows {
		if row.Link != "" && !strings.Contains(row.Link, "://") {
			registered[register.LinkTarget(path.Dir(cfg.Register), row.Link)] = row.ID
		}
	}
	have := map[string]string{}
	for _, r := range col.records {
		if id, ok := registered[r.path]; ok {
			have[r.path] = id
		}
	}
	return have
}

// addFreshRows writes a register row for each record of fresh, related
// to the adopted records already registered, into regSrc.
func addFreshRows(cfg config.Config, res *snapshot.Snapshot, fresh []*record, regSrc []byte, p *plan.Plan, edits map[string][]byte) error {
	var ds []*register.Decision
	for _, d := range res.Decisions {
		if d.Adopted {
			ds = append(ds, d)
		}
	}
	for _, r := range fresh {
		ds = append(ds, r.d)
	}
	snapshot.Relate(ds)
	reg := res.Register
	for _, r := range fresh {
		link, _ := filepath.Rel(path.Dir(cfg.Register), r.path)
		var err error
		regSrc, err = plan.NewRow(regSrc, reg, r.id, plan.RowTitle(r.d.Title), filepath.ToSlash(link), rowStatus(r.d))
		if err != nil {
			return err
		}
		reg = register.ParseRegister(cfg.Register, regSrc)
		p.Adopted = append(p.Adopted, adoptedLine(r))
	}
	if len(fresh) > 0 {
		edits[cfg.Register] = regSrc
	}
	return nil
}

// moveRange moves the live range D1..D<oldN> to D1..D<n> at each range
// site, reading it as edited so far.
func moveRange(dir string, sites []string, oldN, n int, edits map[string][]byte) error {
	oldRange := fmt.Sprintf("D1..D%d", oldN)
	for _, site := range sites {
		src, ok := edits[site]
		if !ok {
			var err error
			if src, err = plan.ReadIn(dir, site); err != nil {
				return fmt.Errorf("read range site %s: %w", site, err)
			}
		}
		re := regexp.MustCompile(`\b` + regexp.QuoteMeta(oldRange) + `\b`)
		edits[site] = re.ReplaceAll(src, []byte(fmt.Sprintf("D1..D%d", n)))
	}
	return nil
}

// commonDir is the deepest folder that holds every one of dirs.
func commonDir(dirs []string) string {
	if len(dirs) == 0 {
		return ""
	}
	c := path.Clean(dirs[0])
	for _, d := range dirs[1:] {
		d = path.Clean(d)
		for c != "." && d != c && !strings.HasPrefix(d, c+"/") {
			c = path.Dir(c)
		}
	}
	return c
}

// renderAdopt writes adopt: as a list of folders (D72).
func renderAdopt(schemes []register.Scheme) string {
	var b strings.Builder
	b.WriteString("# Existing records, read in place (D41, D72): each folder, the pattern of its\n" +
		"# record names, how a name gives the id (number: base + number; ordinal: in order),\n" +
		"# where the status lives (file or folder) and the status of a record that states none.\n" +
		"adopt:\n")
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	for _, s := range schemes {
		fmt.Fprintf(&b, "  - dir: %s\n", q(s.Dir))
		if s.Pattern != "" {
			fmt.Fprintf(&b, "    pattern: %s\n", q(s.Pattern))
		}
		if s.IDs != "" {
			fmt.Fprintf(&b, "    ids: %s\n", s.IDs)
		}
		if s.Base != 0 {
			fmt.Fprintf(&b, "    base: %d\n", s.Base)
		}
		if s.Status != "" {
			fmt.Fprintf(&b, "    status: %s\n", s.Status)
		}
		if s.Unstated != "" {
			fmt.Fprintf(&b, "    unstated: %s\n", s.Unstated)
		}
		if s.Template != "" {
			fmt.Fprintf(&b, "    template: %s\n", q(s.Template))
		}
		if s.Next != "" {
			fmt.Fprintf(&b, "    next: %s\n", s.Next)
		}
	}
	return b.String()
}

var adoptKeyRE = register.LazyRE(`^[A-Za-z_][A-Za-z0-9_-]*\s*:`)

// replaceAdopt replaces the adopt: key of a configuration (the key line
// and the indented or list lines under it, with init's comment above it)
// with block, or appends block when there is none.
func replaceAdopt(src []byte, block string) []byte {
	lines := strings.SplitAfter(string(src), "\n")
	start, end := -1, -1
	for i, l := range lines {
		if start < 0 {
			if strings.HasPrefix(l, "adopt:") {
				start = i
			}
			continue
		}
		if adoptKeyRE().MatchString(l) || strings.HasPrefix(l, "# Other status words") {
			end = i
			break
		}
	}
	if start < 0 {
		out := string(src)
		if out != "" && !strings.HasSuffix(out, "\n") {
			out += "\n"
		}
		return []byte(out + block)
	}
	if end < 0 {
		end = len(lines)
	}
	for start > 0 && strings.HasPrefix(lines[start-1], "# ") && (strings.Contains(lines[start-1], "read in place") || strings.HasPrefix(lines[start-1], "# record names") || strings.HasPrefix(lines[start-1], "# where the status")) {
		start--
	}
	// Trailing blank or comment lines inside the block belong to what follows.
	for end > start && strings.TrimSpace(lines[end-1]) == "" {
		end--
	}
	return []byte(strings.Join(lines[:start], "") + block + strings.Join(lines[end:], ""))
}

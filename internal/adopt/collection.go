package adopt

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/decisionid"
	"github.com/claimslint/claimslint/internal/plan"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/repo"
)

// record is one existing record of the adopted collection.
type record struct {
	path   string
	scheme int
	name   register.RecordName
	d      *register.Decision
	id     string
}

// skip is a file of the collection's folder that is not a record, and why.
type skip struct{ path, why string }

// collection is the adopted folders (schemes) and their records, in id
// order.
type collection struct {
	dir     string
	schemes []register.Scheme
	// named is the scheme each folder's built-in pattern is called in the
	// summary.
	named map[int]string
	// fresh are the schemes this run adds to adopt:.
	fresh   map[int]bool
	records []*record
	skipped []skip
	// why says how init --adopt found the folder when none was named and
	// none of AdoptDirs holds records (D96).
	why string
}

// MaxAdoptFiles bounds the files init --adopt reads below a collection's
// folder: a collection is thousands of records at most.
const MaxAdoptFiles = 20000

// detectSchemes reads the scheme of each folder below dir from the names
// of the Markdown files in it (D72): the built-in pattern that most of a
// folder's files match, one entry per folder that holds records.
func detectSchemes(files []string, dir string) ([]register.Scheme, map[int]string, []skip, error) {
	prefix := ""
	if dir != "." {
		prefix = dir + "/"
	}
	mds, err := adoptMarkdown(files, prefix, dir)
	if err != nil {
		return nil, nil, nil, err
	}
	count := map[[2]string]int{}
	var order [][2]string
	names := map[string]string{}
	var skipped []skip
	cands := map[string]schemeCand{}
	for _, f := range mds {
		rel := f[len(prefix):]
		if why := register.SkipReason(rel); why != "" {
			skipped = append(skipped, skip{f, skipWhy(why)})
			continue
		}
		c, ok := classifyRecord(rel)
		if !ok && register.TemplateName(rel) {
			// No record name, and a name that says template.
			skipped = append(skipped, skip{f, "a template (its name says so), not a record"})
			continue
		}
		if !ok {
			skipped = append(skipped, skip{f, "no record name (no number or date in it, and not a record's own folder)"})
			continue
		}
		cands[f] = c
		k := [2]string{c.entry, c.pattern}
		if count[k] == 0 {
			order = append(order, k)
		}
		count[k]++
		names[c.pattern] = c.name
	}
	// One pattern a folder: the one most of its files match.
	best := map[string][2]string{}
	for _, k := range order {
		if b, ok := best[k[0]]; !ok || count[k] > count[b] {
			best[k[0]] = k
		}
	}
	schemes, named := bestSchemes(dir, best, names)
	for _, f := range mds {
		c, ok := cands[f]
		if ok && best[c.entry][1] != c.pattern {
			skipped = append(skipped, skip{f, "not in its folder's scheme (" + names[best[c.entry][1]] + ")"})
		}
	}
	for i := range schemes {
		if err := schemes[i].Compile(); err != nil {
			return nil, nil, nil, err
		}
	}
	slices.SortFunc(skipped, func(a, b skip) int { return strings.Compare(a.path, b.path) })
	return schemes, named, skipped, nil
}

// adoptMarkdown is the Markdown files below prefix, at most
// MaxAdoptFiles of them.
func adoptMarkdown(files []string, prefix, dir string) ([]string, error) {
	var mds []string
	for _, f := range files {
		if !strings.HasPrefix(f, prefix) || !strings.HasSuffix(strings.ToLower(f), ".md") {
			continue
		}
		if len(mds) >= MaxAdoptFiles {
			return nil, fmt.Errorf("--adopt %s: more than %d Markdown files below it; name the folder of the records", dir, MaxAdoptFiles)
		}
		mds = append(mds, f)
	}
	return mds, nil
}

// skipWhy words register.SkipReason's reason for init --adopt's notes.
func skipWhy(why string) string {
	switch why {
	case "index":
		return "the folder's index, not a record"
	}
	return why
}

// schemeCand is the folder (relative to the collection) and built-in
// pattern a file's name matches.
type schemeCand struct {
	entry, pattern, name string
}

// classifyRecord finds the built-in pattern rel's name matches: its
// base name, or for a record that is a folder (NNNN-title/README.md) its
// last two segments.
func classifyRecord(rel string) (schemeCand, bool) {
	segs := strings.Split(rel, "/")
	base := segs[len(segs)-1]
	own := len(segs) >= 2 && (strings.EqualFold(base, "README.md") || strings.EqualFold(base, "index.md") || strings.TrimSuffix(base, ".md") == segs[len(segs)-2])
	if !own { // a record that is a folder: NNNN-title/NNNN-title.md
		for _, bp := range register.BuiltinPatterns[:5] {
			s := register.Scheme{Dir: ".", Pattern: bp.Pattern}
			if _, ok := s.Match(base); ok {
				return schemeCand{path.Dir(rel), bp.Pattern, bp.Name}, true
			}
		}
	}
	if len(segs) < 2 {
		return schemeCand{}, false
	}
	two := strings.Join(segs[len(segs)-2:], "/")
	for _, bp := range register.BuiltinPatterns[5:] {
		s := register.Scheme{Dir: ".", Pattern: bp.Pattern}
		if _, ok := s.Match(two); ok {
			e := "."
			if len(segs) > 2 {
				e = strings.Join(segs[:len(segs)-2], "/")
			}
			return schemeCand{e, bp.Pattern, bp.Name}, true
		}
	}
	return schemeCand{}, false
}

// bestSchemes is one scheme per folder, in folder order, with the name
// of each one's pattern by index.
func bestSchemes(dir string, best map[string][2]string, names map[string]string) ([]register.Scheme, map[int]string) {
	var schemes []register.Scheme
	named := map[int]string{}
	var entries []string
	for e := range best {
		entries = append(entries, e)
	}
	slices.Sort(entries)
	for _, e := range entries {
		d := dir
		if e != "." {
			d = path.Join(dir, e)
		}
		named[len(schemes)] = names[best[e][1]]
		schemes = append(schemes, register.Scheme{Dir: d, Pattern: best[e][1]})
	}
	return schemes, named
}

// findCollection reads the collection of dir (or of the first directory of
// AdoptDirs that has records): its folders' schemes, detected from the
// names, merged over those adopt: already lists, and its records.
func findCollection(root, dir string, cfg config.Config) (*collection, error) {
	dirs := AdoptDirs
	if dir != "" {
		if err := config.InsideRepo(dir); err != nil {
			return nil, fmt.Errorf("--adopt %s: %w", dir, err)
		}
		dirs = []string{path.Clean(strings.ReplaceAll(dir, "\\", "/"))}
	}
	rp, err := repo.Open(root)
	if err != nil {
		return nil, err
	}
	var prefixes []string
	for _, d := range dirs {
		prefixes = append(prefixes, dirPrefixOf(d))
	}
	if dir == "" {
		prefixes = []string{""} // the whole tree, to discover a folder
	}
	if err := rp.ListUntracked(prefixes); err != nil {
		return nil, err
	}
	why := ""
	if dir == "" {
		dirs, why = discoverIfEmpty(rp, dirs)
	}
	for _, ad := range dirs {
		if _, err := plan.ReadDirIn(root, ad); err != nil {
			if dir != "" {
				return nil, fmt.Errorf("--adopt %s: %w", dir, err)
			}
			continue
		}
		c, err := readCollection(root, rp, ad, cfg, why)
		if err != nil || c != nil {
			return c, err
		}
		if dir != "" {
			return nil, fmt.Errorf("--adopt %s: no records there: no Markdown file below it has a numbered (0001-title.md, adr-001-title.md), dated (20200925-title.md, 2020-09-25-title.md, 2020_09_25_title.md) or folder-per-record (title/README.md) name", dir)
		}
	}
	return nil, fmt.Errorf("--adopt: no numbered (0001-title.md) or dated (20200925-title.md) records in %s; name the directory with --adopt DIR", strings.Join(dirs, ", "))
}

// discoverIfEmpty is dirs, unless none of them holds records: then the
// folder discoverDir finds in the tree, and why.
func discoverIfEmpty(rp *repo.Repo, dirs []string) ([]string, string) {
	for _, ad := range dirs {
		if n, _ := countRecords(rp.Files, ad); n > 0 {
			return dirs, ""
		}
	}
	if d, reason := discoverDir(rp.Files); d != "" {
		return []string{d}, reason
	}
	return dirs, ""
}

// readCollection reads the collection in folder ad: its schemes merged
// over those adopt: lists, its records settled and in order. It returns
// nil and no error when ad holds no records.
func readCollection(root string, rp *repo.Repo, ad string, cfg config.Config, why string) (*collection, error) {
	schemes, named, skipped, err := detectSchemes(rp.Files, ad)
	if err != nil {
		return nil, err
	}
	merged, newNamed, fresh := mergeSchemes(cfg.Adopt, schemes, named)
	for k := range fresh {
		rfcTemplate(rp, ad, &merged[k])
	}
	c := &collection{dir: ad, schemes: merged, named: newNamed, fresh: fresh, skipped: skipped, why: why}
	if err := c.read(root, rp, register.FindRecords(rp.Files, merged), cfg.Statuses); err != nil {
		return nil, err
	}
	if len(c.records) == 0 {
		return nil, nil
	}
	ds := make([]*register.Decision, len(c.records))
	for i, r := range c.records {
		ds[i] = r.d
	}
	register.SharedTitles(ds)
	c.settle(cfg.Statuses)
	slices.SortStableFunc(c.records, func(a, b *record) int {
		if a.scheme != b.scheme {
			return a.scheme - b.scheme
		}
		return register.CompareNames(a.name, b.name)
	})
	return c, nil
}

// mergeSchemes adds the schemes detected to those adopt: lists, which
// keep their settings; it returns the merged list, each one's pattern
// name by index, and which are new.
func mergeSchemes(listed, schemes []register.Scheme, named map[int]string) ([]register.Scheme, map[int]string, map[int]bool) {
	merged := slices.Clone(listed)
	newNamed, fresh := map[int]string{}, map[int]bool{}
	for i, s := range schemes {
		k := slices.IndexFunc(merged, func(m register.Scheme) bool { return path.Clean(m.Dir) == s.Dir })
		if k < 0 {
			k = len(merged)
			merged = append(merged, s)
			fresh[k] = true
		}
		newNamed[k] = named[i]
	}
	return merged, newNamed, fresh
}

// rfcTemplate marks a new folder of an RFC process, whose new RFCs are
// 0000-title.md numbered on merge: its template and "zero" numbering.
func rfcTemplate(rp *repo.Repo, ad string, s *register.Scheme) {
	for _, t := range []string{path.Join(s.Dir, "0000-template.md"), path.Join(ad, "0000-template.md")} {
		if rp.Present(t) && (ad != s.Dir || zeroRecords(rp.Files, s.Dir, t)) {
			// An RFC process: new RFCs are 0000-title.md, numbered on merge.
			s.Template, s.Next = t, "zero"
			return
		}
	}
}

func dirPrefixOf(d string) string {
	if d == "." || d == "" {
		return ""
	}
	return strings.TrimSuffix(d, "/") + "/"
}

// settle fills in each new folder's id rule, status source, unstated
// status, base and template from its records (D72); folders adopt:
// already lists keep what it says.
func (c *collection) settle(statuses map[string]string) {
	by := map[int][]*record{}
	for _, r := range c.records {
		by[r.scheme] = append(by[r.scheme], r)
	}
	unit := c.unit()
	taken := numberSpaces{} // by base, the numbers taken in that space
	for i := range c.schemes {
		s := &c.schemes[i]
		rs := by[i]
		if !c.fresh[i] || len(rs) == 0 {
			if s.IDs == "number" {
				for _, r := range rs {
					taken.take(s.Base, r.name.Number)
				}
				taken.take(s.Base, -1)
			}
			continue
		}
		s.IDs = "ordinal"
		if seen, ok := ownNumbers(rs); ok {
			s.IDs = "number"
			// Folders share a number space (base 0) unless their numbers
			// repeat; then the next free block of ids is theirs.
			s.Base = taken.free(seen, unit)
			for n := range seen {
				taken.take(s.Base, n)
			}
		}
		c.settleStatus(s, rs, statuses)
	}
	for i := range c.schemes {
		if !c.fresh[i] {
			for _, r := range by[i] {
				c.schemes[i].Apply(r.d, r.name, statuses)
			}
		}
	}
}

// numberSpaces holds, by a number space's base, the numbers its folders'
// records take.
type numberSpaces map[int]map[int]bool

// take marks number n taken in the space at base; a negative n only
// opens the space.
func (t numberSpaces) take(base, n int) {
	if t[base] == nil {
		t[base] = map[int]bool{}
	}
	if n >= 0 {
		t[base][n] = true
	}
}

// free is the first base, in steps of unit, whose space takes none of
// the numbers seen.
func (t numberSpaces) free(seen map[int]bool, unit int) int {
	base := 0
	for t.clashes(base, seen) {
		base += unit
	}
	return base
}

// clashes says whether the space at base takes any of the numbers seen.
func (t numberSpaces) clashes(base int, seen map[int]bool) bool {
	for n := range seen {
		if t[base][n] {
			return true
		}
	}
	return false
}

// ownNumbers is the numbers of a folder's records, and whether they are
// its ids: every record has one and few repeat (0000 and 0004a are ids of
// their own: D0, D4a).
func ownNumbers(rs []*record) (map[int]bool, bool) {
	exceptions, numbered := 0, 0
	seen := map[int]bool{}
	own := map[string]bool{}
	for _, r := range rs {
		if r.name.Number < 0 || r.name.Date != "" {
			continue
		}
		numbered++
		id := ownID(register.Scheme{IDs: "number"}, r.name)
		if id == "" || own[id] {
			exceptions++
		}
		own[id] = true
		seen[r.name.Number] = true
	}
	return seen, numbered == len(rs) && exceptions*4 <= len(rs)
}

// settleStatus sets where a new folder's records state their status,
// and the status of one that states none, and applies it to them.
func (c *collection) settleStatus(s *register.Scheme, rs []*record, statuses map[string]string) {
	if _, ok := register.MapStatus(path.Base(s.Dir), statuses); ok && s.Dir != c.dir {
		s.Status = "folder" // an RFC process's accepted/, implemented/, withdrawn/
	}
	for _, r := range rs {
		s.Apply(r.d, r.name, statuses)
		if r.d.RawStatus == "" && r.d.Status == "" {
			s.Unstated = "accepted"
		}
	}
	for _, r := range rs {
		s.Apply(r.d, r.name, statuses)
	}
}

// unit is the size of a number space's block of ids: 10 to the widest
// number's width, so numbers of that width never reach the next block.
func (c *collection) unit() int {
	unit := 10
	for _, r := range c.records {
		if r.name.Date == "" {
			unit = max(unit, pow10(r.name.Width))
		}
	}
	return unit
}

func pow10(n int) int {
	p := 1
	for range min(n, 8) {
		p *= 10
	}
	return p
}

// ownID is the id a record's own number gives it in scheme s (D72): Base
// plus its number, with its letter suffix in lower case (0000 is D0, 0004a
// is D4a, KIT-ADR-0021-B-… is D21b), or "" where the folder's ids are not
// numbers or the name has no number.
func ownID(s register.Scheme, n register.RecordName) string {
	if s.IDs != "number" || n.Number < 0 || n.Date != "" {
		return ""
	}
	suffix := strings.ToLower(strings.Trim(n.Suffix, "-"))
	if len(suffix) > 1 {
		return ""
	}
	id := decisionid.ID{N: s.Base + n.Number, Suffix: suffix}.String()
	if !decisionid.Valid(id) {
		return ""
	}
	return id
}

// assign gives each record without an id in have (path to id) its id
// (D72): its own number (plus its folder's Base) in a folder whose ids are
// numbers, letter suffix included; the others (ordinal folders, and a
// number that repeats in its number space) take the next ids above every
// block of numbers, in the collection's order. ids in have are kept.
func (c *collection) assign(have map[string]string, maxID int) {
	start := 1
	taken := map[string]bool{}
	for _, id := range have {
		taken[id] = true
	}
	unit := c.unit()
	for _, s := range c.schemes {
		if s.IDs == "number" {
			start = max(start, s.Base+unit)
		}
	}
	next := max(start, maxID+1)
	for _, r := range c.records {
		if id, ok := have[r.path]; ok {
			r.id = id
			continue
		}
		if id := ownID(c.schemes[r.scheme], r.name); id != "" && !taken[id] {
			taken[id] = true
			r.id = id
		}
	}
	for _, r := range c.records {
		if r.id != "" {
			continue
		}
		for taken[decisionid.ID{N: next}.String()] {
			next++
		}
		r.id = decisionid.ID{N: next}.String()
		taken[r.id] = true
	}
	for _, r := range c.records {
		r.d.FileID = r.id
	}
}

// target is the scheme new writes to: a status folder of proposed, then
// of accepted records (an RFC process's accepted/), else the folder of the
// collection's latest record.
func (c *collection) target() int {
	if i := c.statusFolder("proposed"); i >= 0 {
		return i
	}
	if i := c.newestScheme(); c.schemes[i].Status != "folder" || c.statusFolder("accepted") < 0 {
		return i
	}
	// No folder means proposed: a folder whose records state their
	// status in the file takes the new record before the accepted
	// folder, where check would read it as accepted (yarn's text/ beside
	// accepted/; dk-zcp).
	for i, s := range c.schemes {
		if s.Status != "folder" && c.has(i) {
			return i
		}
	}
	return c.statusFolder("accepted")
}

// statusFolder is the scheme of the folder whose name means status want,
// -1 when none does.
func (c *collection) statusFolder(want string) int {
	for i, s := range c.schemes {
		if s.Status == "folder" {
			if st, ok := register.MapStatus(path.Base(s.Dir), config.DefaultStatuses()); ok && st == want {
				return i
			}
		}
	}
	return -1
}

// has reports whether scheme t holds a record.
func (c *collection) has(t int) bool {
	return slices.ContainsFunc(c.records, func(r *record) bool { return r.scheme == t })
}

// read reads the records found, each with its sidecar (a KEP's kep.yaml,
// D96), and leaves out templates and redirect stubs, saying why.
func (c *collection) read(root string, rp *repo.Repo, found []register.Found, statuses map[string]string) error {
	for _, fr := range found {
		if !rp.Present(fr.Path) {
			continue
		}
		src, err := plan.ReadIn(root, fr.Path)
		if err != nil {
			return err
		}
		d := register.ParseAdopted(fr.Path, src, statuses)
		if side := register.Sidecar(fr.Path); side != "" && rp.Present(side) {
			// A KEP's status is in its kep.yaml (D96).
			if b, err := plan.ReadIn(root, side); err == nil {
				register.ApplySidecar(d, side, b, statuses)
			}
		}
		switch {
		case d.Template != "":
			c.skipped = append(c.skipped, skip{fr.Path, "template: " + d.Template})
		case d.Index:
			c.skipped = append(c.skipped, skip{fr.Path, "the folder's index: it states no status and links the records below it"})
		case d.Redirect:
			c.skipped = append(c.skipped, skip{fr.Path, "a redirect stub: it only says where its document moved"})
		default:
			c.records = append(c.records, &record{path: fr.Path, scheme: fr.Scheme, name: fr.Name, d: d})
		}
	}
	return nil
}

// newestRecords is how many of the newest records say which folder new
// writes to (D96).
const newestRecords = 5

// newestScheme is the scheme most of the collection's newest records are
// in, the newest record's on a tie: a collection that once numbered a
// record high in a sub-folder (KEEP's stdlib/) keeps writing where its
// records are written now.
func (c *collection) newestScheme() int {
	rs := slices.Clone(c.records)
	slices.SortStableFunc(rs, func(a, b *record) int { return register.CompareNames(b.name, a.name) })
	rs = rs[:min(len(rs), newestRecords)]
	count := map[int]int{}
	best := -1
	for _, r := range rs {
		count[r.scheme]++
		if best < 0 || count[r.scheme] > count[best] {
			best = r.scheme
		}
	}
	return max(best, 0)
}

// usualLayout is the date layout most records of scheme t are named in
// (2006-01-02 over the 2006-1-2 of one record; dk-6e1), last's own on a
// tie.
func (c *collection) usualLayout(t int, last *record) string {
	count := map[string]int{}
	best := last.name.DateLayout
	for _, r := range c.records {
		if r.scheme == t && r.name.DateLayout != "" {
			count[r.name.DateLayout]++
		}
	}
	for _, l := range slices.Sorted(maps.Keys(count)) {
		if count[l] > count[best] {
			best = l
		}
	}
	return best
}

// nextPath is the path of the next record, named in its folder's scheme
// (D72): the next number of its number space at the same width with the
// same prefix, 0000 where the process numbers records on merge (next:
// zero), or the date in the records' own layout.
func (c *collection) nextPath(title string, date time.Time) string {
	t := c.target()
	s := c.schemes[t]
	var last *record
	maxN := 0
	for _, r := range c.records {
		if r.scheme == t && (last == nil || register.CompareNames(last.name, r.name) < 0) {
			last = r
		}
		if o := c.schemes[r.scheme]; o.IDs == s.IDs && o.Base == s.Base && r.name.Date == "" {
			maxN = max(maxN, r.name.Number)
		}
	}
	sl := plan.Slug(title)
	if last == nil {
		return path.Join(s.Dir, fmt.Sprintf("%04d-%s.md", maxN+1, sl))
	}
	name := nameOf(last.name.Path)
	folder := last.name.Path != name && !strings.HasSuffix(last.name.Path, "/"+name)
	if ln := last.name; ln.Date != "" {
		sep := "-"
		if m := datePrefixRE().FindString(name); len(m) < len(name) {
			sep = name[len(m) : len(m)+1]
			if !strings.Contains(name[len(m):], "-") {
				sl = strings.ReplaceAll(sl, "-", "_") // 2020_03_03_topic_words.md
			}
		}
		if folder {
			// 2023-05-12-slug/README.md: the date names the folder (D96).
			return path.Join(s.Dir, date.UTC().Format(c.usualLayout(t, last))+sep+sl, path.Base(last.name.Path))
		}
		return path.Join(s.Dir, date.UTC().Format(c.usualLayout(t, last))+sep+sl+".md")
	}
	num := last.name.Number
	if m := idFolderRE().FindStringSubmatch(name); num < 0 && folder && m != nil {
		// CIP-0001/README.md: folders named by a prefixed number alone;
		// new continues it (CIP-0151/README.md; D96).
		top := 0
		for _, r := range c.records {
			if k := idFolderRE().FindStringSubmatch(nameOf(r.name.Path)); r.scheme == t && k != nil && k[1] == m[1] {
				n, _ := strconv.Atoi(k[2])
				top = max(top, n)
			}
		}
		return path.Join(s.Dir, fmt.Sprintf("%s%0*d", m[1], len(m[2]), top+1), path.Base(last.name.Path))
	}
	if num < 0 {
		if folder {
			return path.Join(s.Dir, sl, path.Base(last.name.Path))
		}
		return path.Join(s.Dir, sl+".md")
	}
	width := last.name.Width
	next := maxN + 1
	if s.Next == "zero" {
		next = 0
	}
	prefix := ""
	if loc := digitsRE().FindStringIndex(name); loc != nil {
		prefix = name[:loc[0]]
	}
	base := fmt.Sprintf("%s%0*d-%s", prefix, width, next, sl)
	if folder {
		inner := path.Base(last.name.Path)
		switch {
		case strings.ToLower(inner) == "readme.md" || strings.ToLower(inner) == "index.md":
		case strings.HasSuffix(name, "-"+strings.TrimSuffix(inner, ".md")):
			inner = sl + ".md" // 08-notebook-diff/notebook-diff.md
		default:
			inner = base + ".md"
		}
		return path.Join(s.Dir, base, inner)
	}
	return path.Join(s.Dir, base+".md")
}

var (
	digitsRE     = register.LazyRE(`[0-9]{1,9}`)
	datePrefixRE = register.LazyRE(`^[0-9]+(?:[-_][0-9]+){0,2}`)
)

// nameOf is a record's own name: its file name, or its folder's for a
// record that is a folder (NNNN-title/README.md).
func nameOf(rel string) string {
	segs := strings.Split(rel, "/")
	if len(segs) >= 2 {
		return segs[len(segs)-2]
	}
	return rel
}

// summary is what init --adopt prints before it writes (D72): the records
// found, each folder's scheme, id rule and status source, and what it left
// out.
func (c *collection) summary() []string {
	by := map[int]int{}
	unstated := map[int]int{}
	for _, r := range c.records {
		by[r.scheme]++
		if r.d.StatusFrom == "unstated" {
			unstated[r.scheme]++
		}
	}
	out := []string{fmt.Sprintf("found %s in %s (%s), %s left out", plural(len(c.records), "record"), c.dir, plural(len(by), "folder"), plural(len(c.skipped), "file"))}
	if c.why != "" {
		out = append(out, c.why)
	}
	for i, s := range c.schemes {
		if by[i] == 0 {
			continue
		}
		name := c.named[i]
		if name == "" {
			name = "pattern " + s.Pattern
		}
		ids := "ids in order"
		if s.IDs == "number" {
			ids = "ids D<number>"
			if s.Base != 0 {
				ids = fmt.Sprintf("ids D<%d + number>", s.Base)
			}
		}
		st := "status in each file"
		if s.Status == "folder" {
			st = fmt.Sprintf("status from the folder name (%q)", path.Base(s.Dir))
		}
		line := fmt.Sprintf("folder %s: %s, %s, %s, %s", s.Dir, plural(by[i], "record"), name, ids, st)
		if unstated[i] > 0 {
			verb := "state no status and are"
			if unstated[i] == 1 {
				verb = "states no status and is"
			}
			line += fmt.Sprintf("; %d %s read as %s (unstated: %s; remove it to have check report them)", unstated[i], verb, s.Unstated, s.Unstated)
		}
		out = append(out, line)
	}
	for _, r := range c.records {
		s := c.schemes[r.scheme]
		own := ownID(s, r.name)
		if own == "" || r.id == own {
			continue
		}
		out = append(out, fmt.Sprintf("id of %s is %s: its number repeats (%s is taken), so it takes an id above the numbers", r.path, r.id, own))
	}
	return out
}

// adoptedCollection is the collection a repository already adopted, from
// its snapshot's records and adopt:.
func adoptedCollection(schemes []register.Scheme, ds []*register.Decision) *collection {
	c := &collection{schemes: schemes}
	if len(schemes) > 0 {
		c.dir = commonDir(config.Adopt(schemes).Dirs())
	}
	byPath := map[string]*register.Decision{}
	var paths []string
	for _, d := range ds {
		if d.Adopted {
			byPath[d.Path] = d
			paths = append(paths, d.Path)
		}
	}
	for _, fr := range register.FindRecords(paths, schemes) {
		d := byPath[fr.Path]
		c.records = append(c.records, &record{path: fr.Path, scheme: fr.Scheme, name: fr.Name, d: d, id: d.FileID})
	}
	return c
}

// nextID is the id of the next record at p in the collection (D72): its
// folder's Base plus its number where ids are numbers and that id is free
// (a new 0000 record, numbered on merge, has no number yet), else the next
// free id above every block of numbers and above maxID. taken holds the
// ids in use.
func (c *collection) nextID(p string, maxID int, taken map[string]bool) string {
	if i, rel := register.Owner(p, c.schemes); i >= 0 {
		s := c.schemes[i]
		if n, ok := s.Match(rel); ok && n.Number > 0 {
			if id := ownID(s, n); id != "" && !taken[id] {
				return id
			}
		}
	}
	start := 1
	for _, s := range c.schemes {
		if s.IDs == "number" {
			start = max(start, s.Base+c.unit())
		}
	}
	next := max(start, maxID+1)
	for taken[decisionid.ID{N: next}.String()] {
		next++
	}
	return decisionid.ID{N: next}.String()
}

// zeroRecords reports whether folder dir holds a record numbered 0000
// besides its template tmpl: an RFC process that numbers on merge. A
// 0000-template.md beside records numbered from 0001 is an ADR
// collection's template, and new continues its numbers (D96).
func zeroRecords(files []string, dir, tmpl string) bool {
	for _, f := range files {
		if f != tmpl && path.Dir(f) == dir && zeroNameRE().MatchString(path.Base(f)) {
			return true
		}
	}
	return false
}

var zeroNameRE = register.LazyRE(`^0{2,}[a-z]?-[^/]+\.md$`)

// collectionNames are the folder names records are kept in, at any depth
// (D96): ADR folders, RFC and proposal processes, design documents.
var collectionNames = map[string]bool{"adr": true, "adrs": true, "decisions": true, "decision-records": true,
	"architecture-decisions": true, "architecture-decision-records": true, "rfcs": true, "rfc": true, "text": true,
	"proposals": true, "designs": true, "design": true, "eips": true, "keps": true, "enhancements": true}

// countRecords is how many Markdown files below dir the built-in patterns
// read as records, by their names alone: a name that says nothing but
// template (0000-template.md) is not counted, as its text would not be
// registered either (D97).
func countRecords(files []string, dir string) (int, error) {
	schemes, _, _, err := detectSchemes(files, dir)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, f := range register.FindRecords(files, schemes) {
		if !register.TemplateName(f.Path) {
			n++
		}
	}
	return n, nil
}

// discoverDir finds the folder of records when none is named and none of
// AdoptDirs holds any: among the folders named as collections are
// (collectionNames, at any depth, outside vendored trees) and the root,
// the one whose names read as the most records; ties go to the shallower
// named folder, and the root only with more records than any of them.
// reason says what was considered, for init's summary and --dry-run.
func discoverDir(files []string) (string, string) {
	cands := map[string]bool{".": true}
	for _, f := range files {
		for d := path.Dir(f); d != "." && d != "/"; d = path.Dir(d) {
			if strings.Contains("/"+d+"/", "/node_modules/") || strings.Contains("/"+d+"/", "/vendor/") || strings.HasPrefix(path.Base(d), ".") {
				continue
			}
			if collectionNames[strings.ToLower(path.Base(d))] {
				cands[d] = true
			}
		}
	}
	var names []string
	for d := range cands {
		names = append(names, d)
	}
	slices.SortFunc(names, func(a, b string) int {
		if (a == ".") != (b == ".") {
			return boolInt(a == ".") - boolInt(b == ".") // the root last
		}
		if da, db := strings.Count(a, "/"), strings.Count(b, "/"); da != db {
			return da - db
		}
		return strings.Compare(a, b)
	})
	if len(names) > 20 {
		names = append(names[:19], ".")
	}
	best, bestN := "", 0
	var seen []string
	for _, d := range names {
		n, err := countRecords(files, d)
		if err != nil {
			continue
		}
		seen = append(seen, fmt.Sprintf("%s %d", d, n))
		// The root holds the named folders' records too: it wins only
		// with more (a root of records: pytorch's RFC-0001-x.md).
		if n > bestN {
			best, bestN = d, n
		}
	}
	if best == "" {
		return "", ""
	}
	return best, fmt.Sprintf("discovered %s: none of %s holds records; of the folders named as collections are and the root, it has the most records by their names (%s)", best, strings.Join(AdoptDirs, ", "), strings.Join(seen, ", "))
}

// idFolderRE is a record folder named by a prefixed number alone:
// CIP-0001, RFC_12.
var idFolderRE = register.LazyRE(`^([A-Za-z]+[-_]?)([0-9]{1,9})$`)

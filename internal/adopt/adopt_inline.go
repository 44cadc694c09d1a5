package adopt

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/claimslint/claimslint/internal/ciworkflow"
	"github.com/claimslint/claimslint/internal/codeline"
	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/decisionid"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/glob"
	"github.com/claimslint/claimslint/internal/issueid"
	"github.com/claimslint/claimslint/internal/mention"
	"github.com/claimslint/claimslint/internal/plan"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/repo"
	"github.com/claimslint/claimslint/internal/snapshot"
	"github.com/claimslint/claimslint/internal/tracker"
	"github.com/claimslint/claimslint/internal/trackerformat"
)

// inlineRegister is a register whose rows have no decision files (D35), as
// init --adopt finds it.
type inlineRegister struct {
	path string
	reg  *register.Register
}

// findInline returns the register of the tree rp lists when it is an inline one: a
// table of D-rows none of which has a decision file. The register is the
// configured one (docs/PRD.md by default) or, when that file does not
// exist, the Markdown file of the tree with the most D-rows.
func findInline(cfg config.Config, rp *repo.Repo) (*inlineRegister, error) {
	parse := func(rel string) (*register.Register, error) {
		src, err := rp.ReadDoc(rel, snapshot.MaxMarkdown)
		if err != nil {
			return nil, err
		}
		return register.ParseRegisterWith(rel, src, register.RegisterOptions{Default: "accepted"}), nil
	}
	reg, err := parse(cfg.Register)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		reg = nil
		for _, f := range rp.Files {
			if !strings.HasSuffix(strings.ToLower(f), ".md") || !rp.Present(f) {
				continue
			}
			src, err := rp.ReadFile(f, snapshot.MaxMarkdown)
			if err != nil || !registerHeaderRE().Match(src) {
				continue
			}
			if r := register.ParseRegisterWith(f, src, register.RegisterOptions{Default: "accepted"}); r.Found && (reg == nil || len(r.Rows) > len(reg.Rows)) {
				reg = r
			}
		}
		if reg == nil {
			return nil, nil
		}
	case err != nil:
		return nil, fmt.Errorf("read register %s: %w", cfg.Register, snapshot.Describe(err))
	}
	if !reg.Found || len(reg.Rows) == 0 {
		return nil, nil
	}
	ids := map[string]bool{}
	for _, r := range reg.Rows {
		ids[r.ID] = true
	}
	dir := strings.TrimSuffix(path.Clean(cfg.Decisions), "/") + "/"
	for _, f := range rp.Files {
		base, ok := strings.CutPrefix(f, dir)
		if !ok || strings.Contains(base, "/") {
			continue
		}
		if m := register.FileNameRE.FindStringSubmatch(base); m != nil && ids[m[1]] {
			return nil, nil // a decision with a file: not an inline register
		}
	}
	for _, r := range reg.Rows {
		target := strings.SplitN(r.Link, "#", 2)[0]
		if target == "" || strings.Contains(target, "://") || !strings.HasSuffix(strings.ToLower(target), ".md") {
			continue
		}
		if t := path.Clean(path.Join(path.Dir(reg.Path), target)); t != reg.Path && rp.Has(t) {
			return nil, nil // the row links its file
		}
	}
	return &inlineRegister{path: reg.Path, reg: reg}, nil
}

var registerHeaderRE = register.LazyRE(`(?im)^\s*\|\s*ID\s*\|`)

// inference is what init --adopt reads from an inline register's tree:
// each setting, its YAML, and why.
type inference struct {
	settings []plan.Inferred
	blocks   []yamlBlock // in file order
	frozen   []config.Frozen
	notes    []string
	next     []string
	// gate is the workflow that runs the register's old gates, and the
	// scripts of them it runs: init adds claimslint's steps to its job.
	gate      string
	gateRuns  []string
	gateAfter string // what next says once the step is added
}

// yamlBlock is one top-level key of the configuration as init writes it.
type yamlBlock struct {
	key  string
	text string // the key and its value, with the comments saying why
	// value renders the value for comparison with an existing file's.
	value string
}

// adoptInline plans init --adopt for an inline register: it writes
// .claimslint.yml with the settings read from the tree, and nothing else;
// an existing .claimslint.yml is never overwritten (D65).
func adoptInline(o InitOptions, cfg config.Config, rp *repo.Repo, in *inlineRegister, cfgExists bool) (*plan.Plan, error) {
	inf, err := infer(cfg, rp, in)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("# claimslint settings, read from this repository by claimslint init --adopt (D65).\n" +
		"# The register is kept inline (D35): its rows are the decisions, their claims\n" +
		"# live in the claims folder. Edit freely; every key is optional.\n")
	for _, bl := range inf.blocks {
		b.WriteString(bl.text)
	}
	out := []byte(b.String())
	if _, err := config.Parse(out, config.Default()); err != nil {
		return nil, fmt.Errorf("init --adopt wrote a configuration it cannot read (a bug): %w", err)
	}
	gate, err := gateEdit(o, rp, inf)
	if err != nil {
		return nil, err
	}
	p := &plan.Plan{Inferred: inf.settings, Notes: inf.notes, Next: inf.next}
	if gate != nil {
		p.Next = append([]string{inf.gateAfter}, p.Next[1:]...)
	}
	if !cfgExists {
		p.Changes = []plan.Change{{Path: config.FileName, New: out}}
		if gate != nil {
			p.Changes = append(p.Changes, *gate)
		}
		return p, nil
	}
	if gate != nil {
		p.Changes = append(p.Changes, *gate)
	}
	// Never overwrite: say what the file lacks, and where it differs.
	old, err := plan.ReadIn(o.Dir, config.FileName)
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for _, m := range topKeyRE().FindAllSubmatch(old, -1) {
		have[string(m[1])] = true
	}
	var add strings.Builder
	for _, bl := range inf.blocks {
		if bl.key == "frozen_ranges" && !have[bl.key] && have["range_sites"] {
			add.WriteString(frozenBlock(inf.frozen, cfg.RangeSites)) // only at the sites the file keeps
			continue
		}
		if !have[bl.key] {
			add.WriteString(bl.text)
			continue
		}
		if got := currentValue(cfg, bl.key); bl.value != "" && got != bl.value {
			p.Notes = append(p.Notes, fmt.Sprintf("%s keeps %s: %s (read from the tree: %s)", config.FileName, bl.key, got, bl.value))
		}
	}
	p.Next = nil
	if add.Len() == 0 {
		p.Notes = append(p.Notes, config.FileName+" exists and has every key init --adopt reads; nothing to add")
		return p, nil
	}
	p.Notes = append(p.Notes, config.FileName+" exists; init never overwrites it: add these lines to it")
	p.Addition = add.String()
	return p, nil
}

var topKeyRE = register.LazyRE(`(?m)^([A-Za-z_]+):`)

const frozenWhy = "older ranges at the range sites, kept as history (D37); delete an entry to have check call that range stale"

// frozenBlock writes frozen_ranges: for the entries at sites (all when
// sites is nil); "" when none is left.
func frozenBlock(fs []config.Frozen, sites []string) string {
	var b strings.Builder
	for _, f := range fs {
		if sites == nil || slices.Contains(sites, f.Path) {
			b.WriteString(fmt.Sprintf("  - {path: %s, range: %s}\n", yamlStr(f.Path), f.Range))
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "# " + frozenWhy + "\nfrozen_ranges:\n" + b.String()
}

// currentValue renders an existing configuration's value of key as
// infer renders its own, so the two compare.
func currentValue(cfg config.Config, key string) string {
	switch key {
	case "register":
		return cfg.Register
	case "range_sites":
		return flowList(cfg.RangeSites)
	case "mentions":
		return flowList(cfg.Mentions)
	case "scripts":
		return yamlStr(cfg.Scripts)
	case "workflows":
		return yamlStr(cfg.Workflows)
	case "tracker":
		return fmt.Sprintf("%s, %s, %s", cfg.Tracker.Export, cfg.Tracker.Format, flowList(cfg.Tracker.Prefixes))
	case "inline":
		if cfg.Inline == nil {
			return ""
		}
		var gs []register.MarkerGuess
		for _, m := range cfg.Inline.Markers {
			gs = append(gs, register.MarkerGuess{Pattern: m.Pattern, Status: m.Status})
		}
		return inlineValue(cfg.ClaimsDir(), cfg.Inline.Status, gs)
	}
	return ""
}

// inlineValue renders inline: on one line, for comparison.
func inlineValue(claims, status string, ms []register.MarkerGuess) string {
	var parts []string
	for _, m := range ms {
		parts = append(parts, fmt.Sprintf("{pattern: %s, status: %s}", yamlQuote(m.Pattern), m.Status))
	}
	v := "{claims: " + yamlStr(claims)
	if status != "" {
		v += ", status: " + status
	}
	if len(parts) > 0 {
		v += ", markers: [" + strings.Join(parts, ", ") + "]"
	}
	return v + "}"
}

// statusDefault is the inline.status init writes: accepted, for a table
// with no Status column.
func statusDefault(reg *register.Register) string {
	if reg.HasStatus {
		return ""
	}
	return "accepted"
}

// infer reads every setting of an inline register's repository, one
// setting group at a time, in the order init writes them.
func infer(cfg config.Config, rp *repo.Repo, in *inlineRegister) (*inference, error) {
	inf := &inference{}
	reg := in.reg
	n := inf.register(in)
	claims := cfg.ClaimsDir()
	hasClaims := rowsWithClaims(rp, reg, claims)
	guesses := inf.inline(reg, claims, hasClaims)
	exp, err := findExport(rp)
	if err != nil {
		return nil, err
	}
	trackerCfg := inf.tracker(cfg, exp)
	sc := findScripts(rp)
	inf.scripts(sc)
	skip := func(f string) bool {
		return f == config.FileName || (exp != nil && f == exp.path) || strings.HasPrefix(f, strings.TrimSuffix(claims, "/")+"/") ||
			(sc.glob != "" && glob.Match(sc.glob, f)) || strings.HasSuffix(strings.ToLower(f), ".jsonl")
	}
	var exportIDs map[string]bool
	if exp != nil {
		exportIDs = exp.ids
	}
	ts := scanTree(rp, in.path, n, trackerCfg, exportIDs, skip)
	inf.rangeSites(ts)
	inf.mentions(ts)
	inf.requireClaims(reg, guesses, hasClaims, claims)
	inf.next = append([]string{sc.next}, inf.next...)
	return inf, nil
}

// set records one inferred setting and why.
func (inf *inference) set(key, value, why string) {
	inf.settings = append(inf.settings, plan.Inferred{Key: key, Value: value, Why: why})
}

// block records one top-level key of the configuration as init writes it.
func (inf *inference) block(key, value, text string) {
	inf.blocks = append(inf.blocks, yamlBlock{key: key, text: text, value: value})
}

// inferComment is a YAML comment line saying why, at indent.
func inferComment(indent, why string) string { return indent + "# " + why + "\n" }

// register records the register setting and returns the highest
// decision number of its rows.
func (inf *inference) register(in *inlineRegister) int {
	reg := in.reg
	n := 0
	for _, r := range reg.Rows {
		n = max(n, r.N)
	}
	style := "ids"
	if bold := len(reg.Rows) > 0 && !slices.ContainsFunc(reg.Rows, func(r register.Row) bool { return !strings.HasPrefix(r.IDCell, "**") }); bold {
		style = "bold ids"
	}
	statusWhy := "no Status column"
	if reg.HasStatus {
		statusWhy = "a Status column"
	}
	why := fmt.Sprintf("its table has %d rows up to D%d, %s, %s and no decision file: an inline register (D35)", len(reg.Rows), n, style, statusWhy)
	inf.set("register", in.path, why)
	inf.block("register", in.path, inferComment("", why)+"register: "+yamlStr(in.path)+"\n")
	return n
}

// rowsWithClaims is the set of row ids whose claims file exists.
func rowsWithClaims(rp *repo.Repo, reg *register.Register, claims string) map[string]bool {
	hasClaims := map[string]bool{}
	for _, r := range reg.Rows {
		if rp.Has(path.Join(claims, r.ID+".md")) {
			hasClaims[r.ID] = true
		}
	}
	return hasClaims
}

// inline records inline: the claims folder, the default status, the
// markers; it returns the markers guessed, each with the rows it matches.
func (inf *inference) inline(reg *register.Register, claims string, hasClaims map[string]bool) []register.MarkerGuess {
	claimsWhy := "no claims files yet: claimslint migrate and claimslint new write them there"
	if len(hasClaims) > 0 {
		claimsWhy = fmt.Sprintf("%d rows have their claims there (%s/D<n>.md)", len(hasClaims), claims)
	}
	inf.set("inline.claims", claims, claimsWhy)
	var il strings.Builder
	il.WriteString("inline:\n" + inferComment("  ", claimsWhy) + "  claims: " + yamlStr(claims) + "\n")
	var guesses []register.MarkerGuess
	if !reg.HasStatus {
		guesses = guessMarkers(reg.Rows)
		inf.markers(reg, guesses, &il)
	}
	inf.block("inline", inlineValue(claims, statusDefault(reg), guesses), il.String())
	return guesses
}

// guessMarkers infers the status markers of rows with no Status column,
// with one for proposed rows if none reads so yet, each matched.
func guessMarkers(rows []register.Row) []register.MarkerGuess {
	guesses := register.InferMarkers(rows)
	if !slices.ContainsFunc(guesses, func(g register.MarkerGuess) bool { return g.Status == "proposed" }) {
		// No row is proposed today; claimslint new writes proposed
		// rows (D26), and the register must be able to say so.
		gs := []register.MarkerGuess{{Pattern: `\| [*_]*PROPOSED\b`, Status: "proposed"}}
		if register.MatchMarkers(rows, gs); len(gs[0].Rows) == 0 {
			guesses = append(guesses, gs[0])
		}
	}
	register.MatchMarkers(rows, guesses)
	return guesses
}

// markers records inline.status and inline.markers into il, and notes
// the rows that retire a clause only.
func (inf *inference) markers(reg *register.Register, guesses []register.MarkerGuess, il *strings.Builder) {
	marked := map[string]bool{}
	for _, g := range guesses {
		for _, h := range g.Rows {
			marked[h.ID] = true
		}
	}
	var plain []string
	for _, r := range reg.Rows {
		if !marked[r.ID] {
			plain = append(plain, r.ID)
		}
	}
	why := fmt.Sprintf("the status of the %d rows no marker matches (%s)", len(plain), idList(plain))
	inf.set("inline.status", "accepted", why)
	il.WriteString(inferComment("  ", why) + "  status: accepted\n")
	if len(guesses) > 0 {
		il.WriteString("  markers:\n")
	}
	for _, g := range guesses {
		why := markerWhy(g)
		inf.set("inline.markers", fmt.Sprintf("%s -> %s", yamlQuote(g.Pattern), g.Status), why)
		il.WriteString(inferComment("    ", why) + fmt.Sprintf("    - {pattern: %s, status: %s}\n", yamlQuote(g.Pattern), g.Status))
	}
	var said []string
	for _, h := range register.ClauseOnly(reg.Rows) {
		if !marked[h.ID] {
			said = append(said, fmt.Sprintf("%s (%q)", h.ID, h.Said))
		}
	}
	if len(said) > 0 {
		inf.notes = append(inf.notes, fmt.Sprintf("%s say it of a clause only: they stay accepted (D42: a decision partly superseded is live), so no marker reads it", strings.Join(said, ", ")))
	}
}

// tracker records the tracker export, its format and prefixes, and
// returns the configuration with the tracker found.
func (inf *inference) tracker(cfg config.Config, exp *export) config.Config {
	if exp == nil {
		why := "no tracker export in the tree (a .jsonl or .json file of docket, beads or gh records): docket's default, which docket init creates"
		inf.set("tracker", fmt.Sprintf("%s, %s, %s", cfg.Tracker.Export, cfg.Tracker.Format, flowList(cfg.Tracker.Prefixes)), why)
		inf.block("tracker", "", inferComment("", why)+fmt.Sprintf("tracker:\n  export: %s\n  format: %s\n  prefixes: %s\n", yamlStr(cfg.Tracker.Export), cfg.Tracker.Format, flowList(cfg.Tracker.Prefixes)))
		inf.next = append(inf.next, "tracker: decisions cite issue ids from "+cfg.Tracker.Export+"; start it with docket init, or set tracker.format: github or beads in "+config.FileName)
		return cfg
	}
	trackerCfg := cfg
	trackerCfg.Tracker.Export, trackerCfg.Tracker.Format, trackerCfg.Tracker.Prefixes = exp.path, exp.format, exp.prefixes
	others := ""
	which := "the one tracker export in the tree"
	if len(exp.others) > 0 {
		others = fmt.Sprintf("; also found, smaller: %s", strings.Join(exp.others, ", "))
		which = "the largest tracker export in the tree"
	}
	expWhy := fmt.Sprintf("%s, %s%s", plural(len(exp.ids), "record"), which, others)
	formatWhy := trackerformat.Lookup(exp.format).Why
	inf.set("tracker.export", exp.path, expWhy)
	inf.set("tracker.format", exp.format, formatWhy)
	var t strings.Builder
	t.WriteString(fmt.Sprintf("tracker:\n  # %s\n  export: %s\n  # %s\n  format: %s\n", expWhy, yamlStr(exp.path), formatWhy, exp.format))
	if !trackerformat.IsNumbered(exp.format) {
		var counts []string
		for _, p := range exp.prefixes {
			counts = append(counts, fmt.Sprintf("%d %s-", exp.count[p], p))
		}
		why := "the prefixes of its ids (" + strings.Join(counts, ", ") + ")"
		inf.set("tracker.prefixes", flowList(exp.prefixes), why)
		t.WriteString("  # " + why + "\n  prefixes: " + flowList(exp.prefixes) + "\n")
	}
	inf.block("tracker", fmt.Sprintf("%s, %s, %s", exp.path, exp.format, flowList(exp.prefixes)), t.String())
	return trackerCfg
}

// scripts records the scripts and the workflows that run them.
func (inf *inference) scripts(sc scripts) {
	inf.set("scripts", yamlQuote(sc.glob), sc.why)
	inf.block("scripts", yamlQuote(sc.glob), inferComment("", sc.why)+"scripts: "+yamlQuote(sc.glob)+"\n")
	inf.set("workflows", yamlQuote(sc.workflows), sc.workflowsWhy)
	inf.block("workflows", yamlQuote(sc.workflows), inferComment("", sc.workflowsWhy)+"workflows: "+yamlQuote(sc.workflows)+"\n")
	inf.notes = append(inf.notes, sc.notes...)
	inf.gate, inf.gateRuns, inf.gateAfter = sc.gate, sc.gateRuns, sc.gateAfter
}

// siteInfo is a file that carries the live range: the line of its first
// one and the older ranges it also holds.
type siteInfo struct {
	line   int
	frozen []string
}

// mentionSite is the files of one mention glob, whether they are code,
// and the ids there the export lacks.
type mentionSite struct {
	files    []string
	code     bool
	dangling []string
}

// treeScan is what one pass over the text files of the tree found: range
// sites, frozen ranges and mention sites.
type treeScan struct {
	live         string
	sites        map[string]*siteInfo
	siteOrder    []string
	unbumped     []string
	mentions     map[string]*mentionSite
	mentionOrder []string
}

// scanTree reads the text files of the tree skip leaves for range sites,
// older ranges and tracker mentions; the register at reg is read for
// ranges only.
func scanTree(rp *repo.Repo, reg string, n int, trackerCfg config.Config, exportIDs map[string]bool, skip func(string) bool) *treeScan {
	ts := &treeScan{live: fmt.Sprintf("D1..D%d", n), sites: map[string]*siteInfo{}, mentions: map[string]*mentionSite{}}
	idRE := mention.Pattern(trackerCfg)
	noIDs := len(trackerCfg.Tracker.Prefixes) == 0 && !trackerformat.IsNumbered(trackerCfg.Tracker.Format)
	for _, f := range rp.Files {
		if skip(f) || !rp.Present(f) {
			continue
		}
		data, err := rp.ReadFile(f, snapshot.MaxMarkdown)
		if err != nil || bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
			continue
		}
		isSite := ts.ranges(f, data, n)
		if f == reg || isSite || noIDs {
			continue // the register and the range sites are read anyway
		}
		ts.mentionsIn(f, data, idRE, exportIDs)
	}
	return ts
}

// ranges records f as a range site if it carries the live range, or as
// unbumped if it holds only older ones; it says whether f is a site.
func (ts *treeScan) ranges(f string, data []byte, n int) bool {
	var si *siteInfo
	var older []string
	ln := register.NewLines(f, data)
	for _, m := range liveRangeRE().FindAllSubmatchIndex(data, -1) {
		got := string(data[m[0]:m[1]])
		if got == ts.live {
			if si == nil {
				si = &siteInfo{line: ln.Pos(m[0]).Line}
			}
			continue
		}
		if k := decisionid.Number("D" + string(data[m[2]:m[3]])); k < n && !frozenMarkerRE().Match(lineOf(data, m[0])) && !slices.Contains(older, got) {
			older = append(older, got)
		}
	}
	if si != nil {
		si.frozen = older
		ts.sites[f] = si
		ts.siteOrder = append(ts.siteOrder, f)
		return true
	}
	if len(older) > 0 {
		ts.unbumped = append(ts.unbumped, fmt.Sprintf("%s (%s)", f, strings.Join(older, ", ")))
	}
	return false
}

// mentionsIn records the tracker ids f mentions under f's mention glob.
func (ts *treeScan) mentionsIn(f string, data []byte, idRE *regexp.Regexp, exportIDs map[string]bool) {
	ms := mention.InFile(f, data, idRE)
	if len(ms) == 0 {
		return
	}
	g := mentionGlob(f)
	mt := ts.mentions[g]
	if mt == nil {
		mt = &mentionSite{code: !register.IsProse(f)}
		ts.mentions[g] = mt
		ts.mentionOrder = append(ts.mentionOrder, g)
	}
	mt.files = append(mt.files, f)
	for _, m := range ms {
		if m.Placeholder || (exportIDs != nil && !exportIDs[m.ID]) {
			mt.dangling = append(mt.dangling, fmt.Sprintf("%s at %s:%d", m.ID, f, m.Pos.Line))
		}
	}
}

// rangeSites records range_sites and frozen_ranges, and notes the files
// that hold an older range only.
func (inf *inference) rangeSites(ts *treeScan) {
	var where []string
	for _, s := range ts.siteOrder {
		where = append(where, fmt.Sprintf("%s:%d", s, ts.sites[s].line))
	}
	rangeWhy := fmt.Sprintf("the files that carry the live range %s (%s)", ts.live, strings.Join(where, ", "))
	if len(ts.siteOrder) == 0 {
		rangeWhy = fmt.Sprintf("no file carries the live range %s; name the files that should in range_sites", ts.live)
	}
	inf.set("range_sites", flowList(ts.siteOrder), rangeWhy)
	inf.block("range_sites", flowList(ts.siteOrder), inferComment("", rangeWhy)+"range_sites: "+flowList(ts.siteOrder)+"\n")
	if len(ts.unbumped) > 0 {
		verb := "holds"
		if len(ts.unbumped) > 1 {
			verb = "hold"
		}
		inf.notes = append(inf.notes, fmt.Sprintf("%s %s an older range but not %s: if it should follow the register, add it to range_sites and bump it", strings.Join(ts.unbumped, ", "), verb, ts.live))
	}
	var frozen []string
	for _, s := range ts.siteOrder {
		for _, r := range ts.sites[s].frozen {
			frozen = append(frozen, s+" "+r)
			inf.frozen = append(inf.frozen, config.Frozen{Path: s, Range: r})
		}
	}
	if len(frozen) > 0 {
		inf.set("frozen_ranges", strings.Join(frozen, ", "), frozenWhy)
		inf.block("frozen_ranges", "", frozenBlock(inf.frozen, nil))
	}
}

// mentions records mentions, and notes the ids check will find dangling.
func (inf *inference) mentions(ts *treeScan) {
	if len(ts.mentionOrder) == 0 {
		return
	}
	sort.Strings(ts.mentionOrder)
	var parts, dangling []string
	for _, g := range ts.mentionOrder {
		mt := ts.mentions[g]
		kind := "the text"
		if mt.code {
			kind = "the comments"
		}
		parts = append(parts, fmt.Sprintf("%s of %s", kind, fileList(mt.files)))
		dangling = append(dangling, mt.dangling...)
	}
	why := "tracker ids appear in " + strings.Join(parts, "; ")
	var qs []string
	for _, g := range ts.mentionOrder {
		qs = append(qs, yamlQuote(g))
	}
	v := "[" + strings.Join(qs, ", ") + "]"
	inf.set("mentions", v, why)
	inf.block("mentions", flowList(ts.mentionOrder), inferComment("", why)+"mentions: "+v+"\n")
	if len(dangling) > 0 {
		inf.notes = append(inf.notes, fmt.Sprintf("check will report %s: not in the tracker export (CL004)", strings.Join(firstN(dangling, 5), ", ")))
	}
}

// requireClaims records require_claims: false when accepted rows have no
// claims yet.
func (inf *inference) requireClaims(reg *register.Register, guesses []register.MarkerGuess, hasClaims map[string]bool, claims string) {
	status := map[string]string{}
	for _, g := range guesses {
		for _, h := range g.Rows {
			status[h.ID] = g.Status
		}
	}
	var bare []string
	for _, r := range reg.Rows {
		st := r.Status
		if !reg.HasStatus {
			st = "accepted"
			if s, ok := status[r.ID]; ok {
				st = s
			}
		}
		if st == "accepted" && !hasClaims[r.ID] {
			bare = append(bare, r.ID)
		}
	}
	if len(bare) > 0 {
		why := fmt.Sprintf("%d accepted rows have no claims yet (%s): migrate the gates or write %s/D<n>.md, then delete this line (D43)", len(bare), idList(bare), claims)
		inf.set("require_claims", "false", why)
		inf.block("require_claims", "", inferComment("", why)+"require_claims: false\n")
	}
}

var (
	liveRangeRE    = register.LazyRE(`\bD1\.\.D([0-9]+)\b`)
	frozenMarkerRE = register.LazyRE(`claimslint:\s*frozen`)
)

func lineOf(data []byte, off int) []byte {
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	end := bytes.IndexByte(data[off:], '\n')
	if end < 0 {
		return data[start:]
	}
	return data[start : off+end]
}

// markerWhy says which rows a marker matches and with what words.
func markerWhy(g register.MarkerGuess) string {
	if len(g.Rows) == 0 {
		return "no row says it yet; claimslint new writes it as the last cell of a proposed row"
	}
	var hits []string
	var clause []string
	for _, h := range g.Rows {
		hits = append(hits, fmt.Sprintf("%s (%q)", h.ID, h.Said))
		if h.Clause {
			clause = append(clause, h.ID)
		}
	}
	why := "matches " + strings.Join(firstN(hits, 8), ", ")
	if g.Status == "accepted" {
		return why + ": a superseded clause leaves its row live (D42); this marker comes first, so the next one does not retire the row"
	}
	if len(clause) > 0 {
		why += "; " + strings.Join(clause, ", ") + " say it of a clause only, and this marker retires them whole"
	}
	return why
}

// export is the tracker export init --adopt found.
type export struct {
	path, format string
	ids          map[string]bool
	prefixes     []string
	count        map[string]int
	others       []string
}

// findExport looks for tracker exports in the tree: .jsonl and .json files
// whose records internal/trackerformat recognises as docket's, beads' or gh's, each
// record with an id. The largest is the tracker; its ids give the prefixes.
func findExport(rp *repo.Repo) (*export, error) {
	var found []*export
	for _, f := range rp.Files {
		if ex := readExport(rp, f); ex != nil {
			found = append(found, ex)
		}
	}
	if len(found) == 0 {
		return nil, nil
	}
	sort.SliceStable(found, func(i, j int) bool { return len(found[i].ids) > len(found[j].ids) })
	best := found[0]
	for _, o := range found[1:] {
		best.others = append(best.others, fmt.Sprintf("%s (%s, %s)", o.path, o.format, plural(len(o.ids), "record")))
	}
	return best, nil
}

// readExport reads f as a tracker export: nil unless it is a .jsonl or
// .json file of a format trackerformat recognises, whose records read
// with few errors and carry ids with valid prefixes (or numbers).
func readExport(rp *repo.Repo, f string) *export {
	ext := strings.ToLower(path.Ext(f))
	if (ext != ".jsonl" && ext != ".json") || !rp.Present(f) {
		return nil
	}
	data, err := rp.ReadFile(f, tracker.MaxExport)
	if err != nil {
		return nil
	}
	format, ok := trackerformat.Detect(data)
	if !ok || len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	e, fs := tracker.Parse(f, format, data, nil)
	bad := 0
	for _, fd := range fs {
		if fd.Severity == diag.SeverityError {
			bad++
		}
	}
	if len(e.Issues) == 0 || bad > len(e.Issues)/10 {
		return nil // not a tracker's records
	}
	ex := &export{path: f, format: format, ids: map[string]bool{}, count: map[string]int{}}
	if !ex.countPrefixes(e.Issues) {
		return nil
	}
	if !trackerformat.IsNumbered(format) && len(ex.prefixes) == 0 {
		return nil
	}
	return ex
}

// countPrefixes records the ids of issues and counts their prefixes,
// most used first; it says false when an id is not one of the format's.
func (ex *export) countPrefixes(issues map[string]tracker.Issue) bool {
	numbered := trackerformat.IsNumbered(ex.format)
	valid := true
	for id := range issues {
		ex.ids[id] = true
		if numbered {
			if id == "#0" {
				valid = false
			}
			continue
		}
		p, _, ok := issueid.SplitID(id)
		if !ok {
			valid = false
			continue
		}
		ex.count[p]++
	}
	if !valid {
		return false
	}
	for p := range ex.count {
		if issueid.ValidPrefix(p) == nil {
			ex.prefixes = append(ex.prefixes, p)
		}
	}
	sort.Slice(ex.prefixes, func(i, j int) bool {
		a, b := ex.prefixes[i], ex.prefixes[j]
		if ex.count[a] != ex.count[b] {
			return ex.count[a] > ex.count[b]
		}
		return a < b
	})
	return true
}

// scripts is what init --adopt reads of the gates and their workflows.
type scripts struct {
	glob, why          string
	workflows          string
	workflowsWhy, next string
	notes              []string
	gate, gateAfter    string
	gateRuns           []string
}

// runRE finds a path a workflow step names.
var runRE = register.LazyRE(`(?:^|[\s"'=(])(?:\./)?([A-Za-z0-9_.][A-Za-z0-9_./-]*[A-Za-z0-9_])`)

// findScripts reads which files the workflows run (outside comments, as
// CL005 reads them) and makes the scripts glob of the directory that
// holds most of them, narrowed so it matches only scripts a workflow runs.
func findScripts(rp *repo.Repo) scripts {
	wfs, workflows := workflowFiles(rp)
	sc := scripts{glob: "checks/**", workflows: workflows}
	runBy := scriptsRun(rp, wfs)
	byDir := map[string][]string{}
	for s := range runBy {
		byDir[path.Dir(s)] = append(byDir[path.Dir(s)], s)
	}
	dir := ""
	for d, ss := range byDir {
		if dir == "" || len(ss) > len(byDir[dir]) || len(ss) == len(byDir[dir]) && d < dir {
			dir = d
		}
	}
	if dir == "" {
		sc.glob = ""
		sc.why = "no workflow runs a script of this tree: CL005 has nothing to check"
		sc.workflowsWhy = fmt.Sprintf("the %d workflow files", len(wfs))
		sc.next = "next: claimslint check, then add a claimslint check step to a workflow"
		return sc
	}
	run := byDir[dir]
	sort.Strings(run)
	var all []string // the files of dir
	for _, f := range rp.Files {
		if path.Dir(f) == dir && rp.Present(f) {
			all = append(all, f)
		}
	}
	sc.glob = narrowGlob(dir, run, all)
	var wset []string
	for _, s := range run {
		for _, w := range runBy[s] {
			if !slices.Contains(wset, w) {
				wset = append(wset, w)
			}
		}
	}
	sort.Strings(wset)
	sc.why = scriptsWhy(sc.glob, dir, run, all, wset)
	sc.workflowsWhy = fmt.Sprintf("%s; %s %s the scripts", plural(len(wfs), "workflow file"), strings.Join(wset, ", "), runs(len(wset)))
	for _, s := range run {
		mode := rp.IndexMode(s)
		if rp.Git && mode != "100755" {
			sc.notes = append(sc.notes, fmt.Sprintf("%s is mode %s in the git index: check will ask for git update-index --chmod=+x (CL005)", s, plan.OrNone(mode)))
		}
	}
	sc.next = fmt.Sprintf("next: claimslint check, then claimslint migrate %s (the gates become claims files), then add a claimslint check step to %s", sc.glob, wset[0])
	sc.gate = wset[0]
	for _, s := range run {
		if slices.Contains(runBy[s], sc.gate) {
			sc.gateRuns = append(sc.gateRuns, s)
		}
	}
	sc.gateAfter = fmt.Sprintf("next: claimslint check, then claimslint migrate %s (the gates become claims files); %s now builds claimslint first and runs claimslint check right after its checkout", sc.glob, wset[0])
	return sc
}

// workflowFiles is the workflow files of the tree, and the workflows
// glob that names them: .yml, .yaml or both.
func workflowFiles(rp *repo.Repo) ([]string, string) {
	var wfs []string
	yml, yaml := 0, 0
	for _, f := range rp.Files {
		if dir, base := path.Split(f); dir == ".github/workflows/" && rp.Present(f) {
			switch path.Ext(base) {
			case ".yml":
				yml++
				wfs = append(wfs, f)
			case ".yaml":
				yaml++
				wfs = append(wfs, f)
			}
		}
	}
	switch {
	case yml > 0 && yaml == 0:
		return wfs, ".github/workflows/*.yml"
	case yaml > 0 && yml == 0:
		return wfs, ".github/workflows/*.yaml"
	}
	return wfs, ".github/workflows/*.{yml,yaml}"
}

// scriptsRun maps each file of the tree a workflow names outside a
// comment to the workflows that name it.
func scriptsRun(rp *repo.Repo, wfs []string) map[string][]string {
	runBy := map[string][]string{} // script -> workflows
	for _, w := range wfs {
		data, err := rp.ReadFile(w, snapshot.MaxMarkdown)
		if err != nil {
			continue
		}
		for _, m := range runRE().FindAllSubmatch(codeline.Mask(w, data), -1) {
			p := path.Clean(string(m[1]))
			if strings.HasPrefix(p, ".github/") || !rp.Has(p) || slices.Contains(runBy[p], w) {
				continue
			}
			runBy[p] = append(runBy[p], w)
		}
	}
	return runBy
}

// scriptsWhy says which scripts of dir the glob pattern takes, which workflows
// run them, and which files of theirs it leaves out.
func scriptsWhy(pattern, dir string, run, all, wset []string) string {
	why := fmt.Sprintf("the %s of %s/ that %s %s", plural(len(run), "script"), dir, strings.Join(wset, ", "), runs(len(wset)))
	if len(run) == 1 {
		why = fmt.Sprintf("the script of %s/ that %s %s", dir, strings.Join(wset, ", "), runs(len(wset)))
	}
	var out []string
	for _, f := range all {
		if !glob.Match(pattern, f) && path.Ext(f) == path.Ext(run[0]) {
			out = append(out, f)
		}
	}
	if len(out) > 0 {
		why += "; " + fileList(out) + " left out: no workflow runs it"
	}
	return why
}

// plural is "1 script" or "3 scripts".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func runs(n int) string {
	if n == 1 {
		return "runs"
	}
	return "run"
}

// narrowGlob is the glob of dir matching exactly the scripts run: dir/*.sh
// when every .sh file there is run, else their common name ending
// (dir/*-claims.sh), else the list of them.
func narrowGlob(dir string, run, all []string) string {
	matches := func(g string) bool {
		for _, f := range all {
			if glob.Match(g, f) != slices.Contains(run, f) {
				return false
			}
		}
		return true
	}
	ext := path.Ext(run[0])
	for _, s := range run {
		if path.Ext(s) != ext {
			ext = ""
		}
	}
	if g := dir + "/*" + ext; matches(g) {
		return g
	}
	suffix := path.Base(run[0])
	for _, s := range run[1:] {
		b := path.Base(s)
		for !strings.HasSuffix(b, suffix) {
			suffix = suffix[1:]
		}
	}
	// The shortest common name ending that leaves the others out:
	// *-claims.sh before *-journal-claims.sh, so the next gate matches.
	for i := len(suffix) - len(ext) - 1; i >= 0; i-- {
		if c := suffix[i]; c != '-' && c != '_' {
			continue
		}
		if g := dir + "/*" + suffix[i:]; matches(g) {
			return g
		}
	}
	var names []string
	for _, s := range run {
		names = append(names, path.Base(s))
	}
	return dir + "/{" + strings.Join(names, ",") + "}"
}

// mentionGlob is the glob a mention site joins: every file of its kind
// under its top directory (crates/**/*.rs), or at the root (*.md).
func mentionGlob(f string) string {
	ext := path.Ext(f)
	top, _, found := strings.Cut(f, "/")
	if !found {
		if ext == "" {
			return f
		}
		return "*" + ext
	}
	if ext == "" {
		return top + "/**"
	}
	return top + "/**/*" + ext
}

func fileList(fs []string) string {
	if len(fs) <= 3 {
		return strings.Join(fs, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(fs[:3], ", "), len(fs)-3)
}

func idList(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	if len(ids) <= 6 {
		return strings.Join(ids, ", ")
	}
	return fmt.Sprintf("%s, ... %s", strings.Join(ids[:3], ", "), ids[len(ids)-1])
}

func firstN(s []string, n int) []string {
	if len(s) <= n {
		return s
	}
	return append(append([]string{}, s[:n]...), fmt.Sprintf("and %d more", len(s)-n))
}

var plainYAML = register.LazyRE(`^[A-Za-z0-9_./][A-Za-z0-9_./-]*$`)

// yamlStr writes s plain when YAML reads it back as the same string,
// else single-quoted.
func yamlStr(s string) string {
	if plainYAML().MatchString(s) && s != "true" && s != "false" && s != "null" {
		return s
	}
	return yamlQuote(s)
}

func yamlQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func flowList(ss []string) string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = yamlStr(s)
	}
	return "[" + strings.Join(out, ", ") + "]"
}

// inlineHint is what plain init says when the register it would create
// exists as an inline register.
func inlineHint(dir string, cfg config.Config) string {
	rp, err := repo.Open(dir)
	if err != nil {
		return ""
	}
	if in, err := findInline(cfg, rp); err == nil && in != nil {
		return fmt.Sprintf("; %s is an inline register (rows without decision files): claimslint init --adopt writes the configuration that reads it", in.path)
	}
	return ""
}

// gateEdit plans the edit that adds claimslint's build and check steps to
// the job that runs the register's old gates (D86, dk-iw1); nil, with a
// note saying why, when the workflow cannot be edited safely.
func gateEdit(o InitOptions, rp *repo.Repo, inf *inference) (*plan.Change, error) {
	if inf.gate == "" {
		return nil, nil
	}
	url, err := ciworkflow.SourceURL(o.Source)
	if err != nil {
		return nil, err
	}
	if msg := ciworkflow.ValidRef(o.Ref); msg != "" {
		return nil, errors.New(msg)
	}
	src, err := rp.ReadFile(inf.gate, snapshot.MaxMarkdown)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", inf.gate, snapshot.Describe(err))
	}
	out, why := ciworkflow.AddGateSteps(inf.gate, src, inf.gateRuns, url, o.Ref)
	if out == nil && why == "" {
		return nil, nil // it runs claimslint check already
	}
	if why != "" {
		inf.notes = append(inf.notes, fmt.Sprintf("%s is left as it is (%s): add claimslint's build and check steps to it by hand, as docs/guide/ci.md shows", inf.gate, why))
		return nil, nil
	}
	return &plan.Change{Path: inf.gate, Old: src, New: out}, nil
}

// Package snapshot loads, once, everything claimslint's rules read from a
// repository: the configuration, the file universe with its git index
// modes, the tracker export, and every Markdown document of the register
// (the register file, each decision file, each range site), each read once
// and parsed once together with its fence mask and its counted lists.
//
// Rules and commands share one Snapshot and never read these inputs again:
// `new`, `audit`, `report`, `list` and the MCP decision tools read the
// register from it without evaluating a claim (D45).
package snapshot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/token"
	"io/fs"
	"iter"
	"path"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/decisionid"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/glob"
	"github.com/claimslint/claimslint/internal/issueid"
	"github.com/claimslint/claimslint/internal/mention"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/repo"
	"github.com/claimslint/claimslint/internal/ruleid"
	"github.com/claimslint/claimslint/internal/tracker"
	"github.com/claimslint/claimslint/internal/trackerformat"
)

// MaxMarkdown bounds the size of a register, decision or range-site file.
const MaxMarkdown = 16 << 20

// MaxMarkdownTotal bounds the Markdown one run reads, over all its files
// (the register, decision, claims and adopted files, range sites and
// mention sites): the snapshot keeps each file and a copy with its fences
// blanked, so a hundred files at MaxMarkdown would hold gigabytes (D70).
// Past it, each further file is refused as if unreadable.
const MaxMarkdownTotal = 128 << 20

// markdownTotal is MaxMarkdownTotal, runNodes register.MaxRunNodes; tests
// lower them.
var (
	markdownTotal int64 = MaxMarkdownTotal
	runNodes      int64 = register.MaxRunNodes
)

// errMarkdownTotal is why a file past MaxMarkdownTotal is not read.
var errMarkdownTotal = fmt.Errorf("over the %d MiB of Markdown claimslint reads in one run, over all files (D70): archive old decisions, or split the register", MaxMarkdownTotal>>20)

// errRunNodes is why a file past register.MaxRunNodes is not parsed.
var errRunNodes = fmt.Errorf("over the %d estimated Markdown syntax nodes (lines, table cells, inline openers) claimslint parses in one run, over all files (D90): archive old decisions, or split the register", register.MaxRunNodes)

// Doc is one document of the register corpus, read once.
type Doc struct {
	Path string
	// Src is the file's bytes; nil when Err is set.
	Src []byte
	// Err says why the file could not be read, in words a user can act on.
	Err error
	// Lines turns byte offsets of Src into positions.
	Lines *register.Lines
	// Fenced is Src with fenced code blocks blanked (newlines kept): the
	// text tracker ids are looked up in.
	Fenced []byte
	// Counted are the counts stated right before a list (CL010), found in
	// the parse of the register or decision, or in a parse of its own for
	// a range site.
	Counted []register.CountedList
	counted bool
	// Code, for a code file the mentions globs add, holds its comment
	// regions: the only mention sites in it (D36).
	Code mention.Comments
}

// Snapshot is a repository as the rules see it.
type Snapshot struct {
	// Dir is the directory Load was given.
	Dir    string
	Config config.Config
	Repo   *repo.Repo
	// Register is the parsed register; Decisions the parsed decision files
	// and adopted records, sorted by id then path.
	Register  *register.Register
	Decisions []*register.Decision
	// Export is the tracker export, nil when it does not exist.
	Export *tracker.Export
	// Findings are the problems found while parsing the inputs (CL001,
	// CL002, CL004, CL006, CL008); each is reported by the rule of its id.
	ParseFindings []diag.Finding

	docs  map[string]*Doc
	order []string // corpus order: register, decisions, range sites

	mentionOnce sync.Once
	mentionDocs []*Doc // files the mentions globs add (D36)

	globMu sync.Mutex
	globs  map[globKey]*globMatch

	ctx context.Context // done: Load stops between decision files
	// stoppedAt is the first decision file left unread when ctx was done,
	// and unread how many were.
	stoppedAt string
	unread    int

	// markdown is the Markdown read so far, for MaxMarkdownTotal; nodes
	// its estimated syntax nodes, for register.MaxRunNodes (D90).
	markdown, nodes int64
}

// Load reads the repository at dir. An error means nothing can be checked
// (bad configuration, unreadable register or export); problems in the
// content of the files are Findings.
func Load(dir string) (*Snapshot, error) {
	return LoadContext(context.Background(), dir)
}

// LoadContext is Load, stopped between decision files when ctx is done; it
// then returns ctx's error.
func LoadContext(ctx context.Context, dir string) (*Snapshot, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cfg, err := config.Load(dir)
	if err != nil {
		return nil, err
	}
	rp, err := repo.OpenListing(dir, untrackedFirst(cfg))
	if err != nil {
		return nil, err
	}
	s := &Snapshot{Dir: dir, Config: cfg, Repo: rp, docs: map[string]*Doc{}, ctx: ctx}
	if err := s.load(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		if s.stoppedAt != "" {
			// Some decision files were skipped: name where (D70).
			files := "decision files"
			if s.unread == 1 {
				files = "decision file"
			}
			return nil, fmt.Errorf("stopped at %s, with %d %s unread: %w", s.stoppedAt, s.unread, files, err)
		}
		return nil, err
	}
	return s, nil
}

// described is an error worded for a user that still says what it is
// (errors.Is), so a caller can add the advice that fits.
type described struct {
	msg string
	err error
}

func (d described) Error() string { return d.msg }
func (d described) Unwrap() error { return d.err }

// Describe turns low-level file errors into a sentence a user can act on.
func Describe(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return described{"no such file", fs.ErrNotExist}
	case errors.Is(err, syscall.ELOOP):
		return errors.New("symbolic link loop")
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// HasDecision reports whether the register has a decision with id.
func (s *Snapshot) HasDecision(id string) bool {
	for _, d := range s.Decisions {
		if d.ID == id {
			return true
		}
	}
	return false
}

// addDoc reads rel once; read is repo.ReadDoc for documents the
// configuration names and repo.ReadFile for files found by listing.
func (s *Snapshot) addDoc(rel string, read func(string, int64) ([]byte, error)) *Doc {
	if d, ok := s.docs[rel]; ok {
		return d
	}
	return s.keepDoc(s.readCounted(rel, read))
}

// readCounted is readDoc within MaxMarkdownTotal: the files read one after
// the other are counted in the order they are read.
func (s *Snapshot) readCounted(rel string, read func(string, int64) ([]byte, error)) *Doc {
	if s.markdown >= markdownTotal {
		return &Doc{Path: rel, Err: errMarkdownTotal}
	}
	d := readDoc(rel, read)
	if s.markdown += int64(len(d.Src)); s.markdown > markdownTotal {
		return &Doc{Path: rel, Err: errMarkdownTotal}
	}
	return s.countNodes(d)
}

// countNodes charges d's estimated syntax nodes to the run (D90): a file
// past register.MaxRunNodes, and every Markdown file after it, is refused
// as if unreadable, before goldmark sees it. Files are charged in the
// order the snapshot reads them, so scheduling does not change which.
func (s *Snapshot) countNodes(d *Doc) *Doc {
	if d.Err != nil {
		return d
	}
	if s.nodes += register.Estimate(d.Src); s.nodes > runNodes {
		s.nodes = runNodes + 1 // and every file after it is refused
		return &Doc{Path: d.Path, Err: errRunNodes}
	}
	return d
}

// quota decides, in order, which of files fit in what MaxMarkdownTotal
// leaves, by their sizes in the work tree (infos, lstat's, nil where
// unknown), so that reading them on all cores refuses the same files
// whatever the scheduling. A file past MaxMarkdown counts nothing: it is
// refused before it is read.
func (s *Snapshot) quota(infos []fs.FileInfo) []bool {
	allowed := make([]bool, len(infos))
	for i, fi := range infos {
		var size int64
		if fi != nil && fi.Mode().IsRegular() && fi.Size() <= MaxMarkdown {
			size = fi.Size()
		}
		if s.markdown+size > markdownTotal {
			s.markdown = markdownTotal // and every file after it is refused
			continue
		}
		s.markdown += size
		allowed[i] = true
	}
	return allowed
}

// decisionFiles are the files of the decisions directory dir (with its
// trailing slash) that the work tree has, in the index's order, and what
// lstat says of each (nil when the load stopped first): one lstat a
// file, on all cores, for both whether it is there (Repo.Present) and
// its size (quota). A file named like a decision but not D<n>-<slug>.md
// is a finding.
func (s *Snapshot) decisionFiles(dir string) ([]string, []fs.FileInfo) {
	var named []string
	all := s.Repo.Files
	for i := sort.SearchStrings(all, dir); i < len(all) && strings.HasPrefix(all[i], dir); i++ {
		if f := all[i]; !strings.Contains(f[len(dir):], "/") && strings.HasSuffix(f, ".md") {
			named = append(named, f)
		}
	}
	infos := make([]fs.FileInfo, len(named))
	gone := make([]bool, len(named))
	s.eachFile(named, func(i int) {
		fi, err := s.Repo.Lstat(named[i])
		infos[i], gone[i] = fi, err != nil
	})
	var files []string
	var kept []fs.FileInfo
	for i, f := range named {
		if gone[i] {
			continue // deleted, still in the index: not what the code says now
		}
		base := f[len(dir):]
		if !register.FileNameRE.MatchString(base) {
			if len(base) > 1 && base[0] == 'D' && base[1] >= '0' && base[1] <= '9' {
				s.errorf(token.Position{Filename: f, Line: 1, Column: 1}, ruleid.Register,
					"decision file name %q: want D<n>-<slug>.md", base)
			}
			continue
		}
		files, kept = append(files, f), append(kept, infos[i])
	}
	return files, kept
}

// keepDoc adds d to the corpus, after the documents already in it.
func (s *Snapshot) keepDoc(d *Doc) *Doc {
	s.docs[d.Path] = d
	s.order = append(s.order, d.Path)
	return d
}

// readDoc reads rel and prepares its line index and fence mask; it touches
// no Snapshot state, so decision files are read on all cores.
func readDoc(rel string, read func(string, int64) ([]byte, error)) *Doc {
	d := &Doc{Path: rel}
	data, err := read(rel, MaxMarkdown)
	if err != nil {
		d.Err = Describe(err)
	} else {
		d.Src = data
		d.Lines = register.NewLines(rel, data)
		d.Fenced = mention.MaskFences(data)
	}
	return d
}

// dirPrefix is dir as a listing prefix: "" for the root, else "dir/".
func dirPrefix(dir string) string {
	d := strings.TrimSuffix(path.Clean(dir), "/")
	if d == "." || d == "" {
		return ""
	}
	return d + "/"
}

// untrackedFirst are the directories whose untracked files join the
// universe when the repository is opened (repo.OpenListing): the ones the
// configuration names. Untracked files join the universe only where
// something looks: these now, the claims' globs once the decisions are
// parsed (D56).
func untrackedFirst(cfg config.Config) []string {
	prefixes := []string{dirPrefix(cfg.Decisions)}
	for _, d := range cfg.Adopt.Dirs() {
		prefixes = append(prefixes, dirPrefix(d))
	}
	if cfg.Inline != nil {
		prefixes = append(prefixes, dirPrefix(cfg.ClaimsDir()))
	}
	return prefixes
}

func (s *Snapshot) load() error {
	cfg := s.Config
	reg := s.addDoc(cfg.Register, s.Repo.ReadDoc)
	if reg.Err != nil {
		hint := fmt.Sprintf("set register: in %s", config.FileName)
		if errors.Is(reg.Err, fs.ErrNotExist) {
			hint += ", or run claimslint init to start a register"
		}
		return fmt.Errorf("register: read %s: %w (%s)", cfg.Register, reg.Err, hint)
	}
	// The register's table is parsed on one core while the decision files
	// are read and parsed on the others: neither needs the other. Its
	// findings still come first.
	parsed := make(chan *register.Register, 1)
	go func() { parsed <- register.ParseRegisterWith(cfg.Register, reg.Src, RegisterOptions(cfg)) }()
	before := len(s.ParseFindings)
	s.addDecisions(s.decisionFiles(strings.TrimSuffix(path.Clean(cfg.Decisions), "/") + "/"))
	s.Register = <-parsed
	if s.Register.HasCounted {
		reg.Counted, reg.counted = s.Register.Counted, true
	}
	s.ParseFindings = slices.Insert(s.ParseFindings, before, s.Register.Findings...)
	s.loadAdopted()
	sort.Slice(s.Decisions, func(i, j int) bool {
		if c := decisionid.Compare(s.Decisions[i].FileID, s.Decisions[j].FileID); c != 0 {
			return c < 0
		}
		return s.Decisions[i].Path < s.Decisions[j].Path
	})
	if len(cfg.Adopt) > 0 { // a repository that adopts nothing does no adoption work (D92)
		s.resolveAdopted()
	}
	if cfg.Inline != nil {
		s.addInline()
	}
	globs := []string{glob.Prefix(cfg.Scripts), glob.Prefix(cfg.Workflows)}
	for _, g := range cfg.Mentions {
		globs = append(globs, glob.Prefix(g))
	}
	for _, d := range s.Decisions {
		for _, c := range d.Claims {
			// A Path that leaves the repository (../**/*.go) is CL006 on
			// its row; git is never asked to list it (issue 22).
			if c.Path != "" && glob.Valid(c.Path) == "" {
				globs = append(globs, glob.Prefix(c.Path))
			}
		}
	}
	if err := s.Repo.ListUntracked(globs); err != nil {
		return err
	}
	for _, site := range cfg.RangeSites {
		s.addDoc(site, s.Repo.ReadDoc)
	}
	for _, doc := range s.docs {
		if doc.Err == nil && !doc.counted {
			doc.Counted, doc.counted = register.CountedLists(doc.Path, doc.Src), true
		}
	}

	if exp := cfg.Tracker.Export; exp != "" {
		data, err := s.Repo.ReadFile(exp, tracker.MaxExport)
		switch {
		case err == nil:
			var fs []diag.Finding
			s.Export, fs = tracker.Parse(exp, cfg.Tracker.Format, data, cfg.Tracker.Classes)
			s.ParseFindings = append(s.ParseFindings, fs...)
		case errors.Is(err, fs.ErrNotExist):
			// Reported by the tracker rule only if an id needs resolving.
		case errors.Is(err, repo.ErrTooLarge):
			return fmt.Errorf("tracker export: %s: %w; claimslint reads exports up to %d MiB (split or archive closed issues)", exp, err, tracker.MaxExport>>20)
		default:
			return fmt.Errorf("tracker export: read %s: %w", exp, Describe(err))
		}
	}
	return nil
}

// RegisterOptions turns the inline configuration into the register
// parser's status rules (D35); claimslint new reads its new row back
// through them (D65).
func RegisterOptions(cfg config.Config) register.RegisterOptions {
	var o register.RegisterOptions
	if cfg.Inline == nil {
		return o
	}
	o.Default = cfg.Inline.Status
	for _, m := range cfg.Inline.Markers {
		// Validated when the configuration was loaded.
		o.Markers = append(o.Markers, register.StatusMarker{Pattern: regexp.MustCompile(m.Pattern), Status: m.Status})
	}
	return o
}

// addInline makes a decision of every register row that has no decision
// file (D35): its claims come from the claims file <claims>/D<n>.md when
// there is one; its id, title and status come from the row.
func (s *Snapshot) addInline() {
	has := map[string]bool{}
	for _, d := range s.Decisions {
		has[d.FileID] = true
	}
	dir := s.Config.ClaimsDir()
	seen := map[string]bool{}
	var added []*register.Decision
	for _, row := range s.Register.Rows {
		if has[row.ID] || seen[row.ID] {
			continue
		}
		seen[row.ID] = true
		f := path.Join(dir, row.ID+".md")
		var d *register.Decision
		if s.Repo.Has(f) {
			d = s.addDecision(f, "claims file", func(p string, src []byte) *register.Decision {
				return register.ParseClaims(p, row.ID, src)
			})
			if d == nil {
				continue
			}
		} else {
			d = &register.Decision{Path: s.Register.Path, FileID: row.ID, ID: row.ID, Inline: true, Parsed: true, Keys: map[string]token.Position{}}
			s.Decisions = append(s.Decisions, d)
		}
		d.Status = row.Status
		if _, ok := d.Keys["status"]; !ok {
			d.Keys["status"] = row.StatusPos
		}
		if d.Title == "" {
			d.Title = row.Title
		}
		added = append(added, d)
	}
	if len(added) > 0 {
		sort.SliceStable(s.Decisions, func(i, j int) bool {
			return decisionid.Compare(s.Decisions[i].FileID, s.Decisions[j].FileID) < 0
		})
	}
	// A claims file whose id has no row, or whose decision has a file, is
	// reported, not ignored.
	prefix := strings.TrimSuffix(path.Clean(dir), "/") + "/"
	for _, f := range s.Repo.Files {
		if !strings.HasPrefix(f, prefix) || strings.Contains(f[len(prefix):], "/") || !strings.HasSuffix(f, ".md") || !s.Repo.Present(f) {
			continue
		}
		id := strings.TrimSuffix(f[len(prefix):], ".md")
		if !decisionid.Valid(id) || seen[id] {
			continue
		}
		pos := token.Position{Filename: f, Line: 1, Column: 1}
		if has[id] {
			s.errorf(pos, ruleid.Register, "%s has claims in %s but also a decision file: move them into its Confirmation section", id, f)
			continue
		}
		s.errorf(pos, ruleid.Register, "%s has claims in %s but no register row: add a %s row to %s", id, f, id, s.Register.Path)
	}
}

func (s *Snapshot) errorf(pos token.Position, rule, format string, args ...any) {
	s.ParseFindings = append(s.ParseFindings, diag.Finding{Pos: pos, Check: rule, Severity: diag.SeverityError, Message: fmt.Sprintf(format, args...)})
}

// addDecision reads one decision file once and parses it with parse; an
// unreadable file is a finding at its first line.
func (s *Snapshot) addDecision(f, what string, parse func(path string, src []byte) *register.Decision) *register.Decision {
	if doc, ok := s.docs[f]; ok {
		return s.keepDecision(doc, what, nil, false, parse)
	}
	doc := s.readCounted(f, s.Repo.ReadFile)
	return s.keepDecision(doc, what, nil, true, parse)
}

// addDecisions reads and parses the decision files files (infos: what
// lstat says of each), each once, on all cores (a register of a thousand
// decisions is mostly Markdown parsing), then adds them in the order
// given, as addDecision does.
func (s *Snapshot) addDecisions(files []string, infos []fs.FileInfo) {
	docs := make([]*Doc, len(files))
	parsed := make([]*register.Decision, len(files))
	allowed := s.quota(infos)
	for i, f := range files {
		if !allowed[i] {
			docs[i] = &Doc{Path: f, Err: errMarkdownTotal}
		}
	}
	// Read on all cores, charged for their syntax nodes in file order
	// (D90), then parsed on all cores.
	s.eachFile(files, func(i int) {
		if _, ok := s.docs[files[i]]; ok || !allowed[i] {
			return // already read (not for a decision file today), or over the total; added below
		}
		docs[i] = readDoc(files[i], s.Repo.ReadFile)
	})
	for i := range files {
		if docs[i] != nil {
			docs[i] = s.countNodes(docs[i])
		}
	}
	s.eachFile(files, func(i int) {
		if docs[i] != nil && docs[i].Err == nil {
			parsed[i] = register.ParseDecision(files[i], docs[i].Src)
		}
	})
	if s.ctx.Err() != nil {
		for i, f := range files {
			if allowed[i] && (docs[i] == nil || docs[i].Err == nil && parsed[i] == nil) {
				if s.stoppedAt == "" {
					s.stoppedAt = f
				}
				s.unread++
			}
		}
		return
	}
	for i, f := range files {
		if docs[i] == nil {
			s.addDecision(f, "decision file", register.ParseDecision)
			continue
		}
		s.keepDecision(docs[i], "decision file", parsed[i], true, register.ParseDecision)
	}
}

// eachFile calls do with the index of each of files, on all cores, until
// the load's context is done.
func (s *Snapshot) eachFile(files []string, do func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := min(runtime.GOMAXPROCS(0), len(files)); w > 0; w-- {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(files); i = int(next.Add(1) - 1) {
				if s.ctx.Err() != nil {
					return // LoadContext returns the context's error
				}
				do(i)
			}
		}()
	}
	wg.Wait()
}

// keepDecision adds doc (to the corpus when add) and its decision, parsing
// it with parse unless d is already parsed; an unreadable file is a finding
// at its first line.
func (s *Snapshot) keepDecision(doc *Doc, what string, d *register.Decision, add bool, parse func(path string, src []byte) *register.Decision) *register.Decision {
	if add {
		s.keepDoc(doc)
	}
	if doc.Err != nil {
		s.errorf(token.Position{Filename: doc.Path, Line: 1, Column: 1}, ruleid.Markdown, "cannot read %s: %v", what, doc.Err)
		return nil
	}
	if d == nil {
		d = parse(doc.Path, doc.Src)
	}
	if d.HasCounted {
		doc.Counted, doc.counted = d.Counted, true // one parse: no second one for the counts
	}
	s.Decisions = append(s.Decisions, d)
	s.ParseFindings = append(s.ParseFindings, d.Findings...)
	return d
}

// Doc returns the corpus document rel (the register, a decision file or a
// range site), or nil when rel is not one.
func (s *Snapshot) Doc(rel string) *Doc { return s.docs[rel] }

// Corpus returns the register, decision and range-site documents, each
// once, in that order.
func (s *Snapshot) Corpus() []*Doc {
	out := make([]*Doc, 0, len(s.order))
	for _, p := range s.order {
		out = append(out, s.docs[p])
	}
	return out
}

// ByID indexes decisions by their file id; duplicates keep the first.
func (s *Snapshot) ByID() map[string]*register.Decision {
	m := map[string]*register.Decision{}
	for _, d := range s.Decisions {
		if d.FileID != "" {
			if _, ok := m[d.FileID]; !ok {
				m[d.FileID] = d
			}
		}
	}
	return m
}

// Decision returns the decision with file id id, or nil.
func (s *Snapshot) Decision(id string) *register.Decision {
	for _, d := range s.Decisions {
		if d.FileID == id {
			return d
		}
	}
	return nil
}

// MaxN is the highest decision id in the register, the n of the live
// range D1..Dn: a plain id's number. A letter-suffixed id (D4a) is never n,
// and D0 is never n (D72).
func (s *Snapshot) MaxN() int {
	n := 0
	for _, row := range s.Register.Rows {
		if row.Plain && row.N > n {
			n = row.N
		}
	}
	return n
}

// Match returns the universe files glob matches, sorted. Results are
// cached: claims share globs. Files are sorted, so only those under the
// glob's literal prefix are tested.
func (s *Snapshot) Match(glob string) []string {
	fs, _ := s.MatchWithin(glob, nil)
	return fs
}

// MatchWithin is Match, asking stop (when not nil) between files whether
// to give up: it then returns ok false and caches nothing (D70). Matching
// one file costs time linear in its path (Glob), so stop is asked often
// enough.
//
// A glob is matched once, outside the lock: claims prepared on all cores
// match their globs (and stat their files) at once, and a claim whose
// glob another is matching waits for that match alone (D56: under one
// lock, the prepare of rust-src's 1,000 claims ran on one core).
func (s *Snapshot) MatchWithin(glob string, stop func() bool) (files []string, ok bool) {
	return s.match(globKey{glob: glob}, stop)
}

// MatchIndexed is MatchWithin without asking the work tree: the files of
// the listing that glob matches, a file deleted but still in the index
// among them, with no lstat a file. check's line kinds take their files
// so: their scan opens each file anyway and finds a deleted one there
// (D92), where an lstat of each of a thousand claimed files cost a tenth
// of a run's CPU time.
func (s *Snapshot) MatchIndexed(glob string, stop func() bool) (files []string, ok bool) {
	return s.match(globKey{glob: glob, indexed: true}, stop)
}

// globKey is a cached match: a glob, and whether its files were asked of
// the work tree.
type globKey struct {
	glob    string
	indexed bool
}

func (s *Snapshot) match(key globKey, stop func() bool) (files []string, ok bool) {
	for {
		s.globMu.Lock()
		if s.globs == nil {
			s.globs = map[globKey]*globMatch{}
		}
		m, found := s.globs[key]
		if !found {
			m = &globMatch{done: make(chan struct{})}
			s.globs[key] = m
			s.globMu.Unlock()
			m.files, m.ok = s.matchUncached(key, stop)
			if !m.ok { // stopped: cache nothing
				s.globMu.Lock()
				delete(s.globs, key)
				s.globMu.Unlock()
			}
			close(m.done)
			return m.files, m.ok
		}
		s.globMu.Unlock()
		<-m.done
		if m.ok {
			return m.files, true
		}
		if stop != nil && stop() {
			return nil, false // the match this claim waited for was stopped, and so is this one
		}
	}
}

// globMatch is one glob's files, matched once; done is closed when they
// are known (ok), or when the match was stopped and nothing is cached.
type globMatch struct {
	done  chan struct{}
	files []string
	ok    bool
}

// stopEvery is how many paths are matched between two calls of a stop
// function.
const stopEvery = 256

func (s *Snapshot) matchUncached(key globKey, stop func() bool) ([]string, bool) {
	pattern := key.glob
	there := func(f string) bool { return key.indexed || s.Repo.Present(f) }
	g, err := glob.Compile(pattern)
	if err != nil {
		return nil, true // glob.Valid says why; callers ask it first
	}
	files := s.Repo.Files
	if g.Literal() {
		// One path: found by a binary search, not a scan of the files
		// under it.
		if i := sort.SearchStrings(files, pattern); i < len(files) && files[i] == pattern && there(pattern) {
			return []string{pattern}, true
		}
		return nil, true
	}
	prefix := glob.Prefix(pattern)
	lo := sort.SearchStrings(files, prefix)
	var out []string
	for i := lo; i < len(files) && strings.HasPrefix(files[i], prefix); i++ {
		if stop != nil && (i-lo)%stopEvery == stopEvery-1 && stop() {
			return nil, false
		}
		if g.Match(files[i]) && there(files[i]) {
			out = append(out, files[i])
		}
	}
	return out, true
}

// Prefixes returns the tracker id prefixes check knows (D74):
// tracker.prefixes, then each prefix the export's ids use that
// tracker.prefixes does not list (tracker.MaxPrefixes of them at most).
// docket writes its own prefix into every id it exports, so a tracker
// started with docket init --prefix cli is known here from its first
// issue on. The github format has no prefixes.
func (s *Snapshot) Prefixes() []string {
	if trackerformat.IsNumbered(s.Config.Tracker.Format) {
		return nil
	}
	out := slices.Clone(s.Config.Tracker.Prefixes)
	if s.Export != nil {
		for _, p := range s.Export.Prefixes {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// ListedID is an id of a front matter tracker: or residuals: list whose
// prefix tracker.prefixes does not list (D74); ids of the listed prefixes
// are found in the text, as everywhere (Mentions).
type ListedID struct {
	// Key is the front-matter key of the list: tracker or residuals.
	Key, ID, Prefix string
	Pos             token.Position
	// Learnt is set when the export's ids use Prefix: the id is checked
	// like any other; otherwise no tracker of the repository uses it.
	Learnt bool
	// Placeholder is set for an id such as cli-TBD.
	Placeholder bool
}

// ListedIDs returns the entries of every decision's front matter tracker:
// and residuals: lists that are ids (<prefix>-<rest>, issueid.SplitID) of a
// prefix tracker.prefixes does not list. Those lists hold nothing but
// tracker ids, so an entry there is an id whatever its prefix. In prose a
// hyphenated word (re-run, cli-tools, test-driven) is shaped like an id of
// an unknown prefix, or of a prefix learnt from the export, and only the
// prefixes of tracker.prefixes are looked for there (Mentions). The github
// format, whose ids are #123, has none.
func (s *Snapshot) ListedIDs() []ListedID {
	if trackerformat.IsNumbered(s.Config.Tracker.Format) {
		return nil
	}
	var out []ListedID
	for _, d := range s.Decisions {
		for _, key := range []string{"tracker", "residuals"} {
			list := d.Tracker
			if key == "residuals" {
				list = d.Residuals
			}
			from := 0
			for _, id := range list {
				p, rest, ok := issueid.SplitID(id)
				if !ok || slices.Contains(s.Config.Tracker.Prefixes, p) {
					continue
				}
				out = append(out, ListedID{Key: key, ID: id, Prefix: p, Pos: s.entryPos(d, key, id, &from),
					Learnt: s.Export.HasPrefix(p), Placeholder: mention.IsPlaceholder(rest)})
			}
		}
	}
	return out
}

// entryPos is the position of the list entry id under the front-matter
// key of d: its next occurrence as a whole word after *from (an offset in
// d's file, 0 at first: the key's line), before the front matter ends; or
// the key's own position. Entries are found in the order the list holds
// them, each search starting where the last one ended, so a list of many
// entries is read once; an entry not found (written with YAML escapes)
// sets *from to -1 and the rest take the key's position.
func (s *Snapshot) entryPos(d *register.Decision, key, id string, from *int) token.Position {
	pos := d.KeyPos(key)
	doc := s.docs[d.Path]
	if _, ok := d.Keys[key]; !ok || doc == nil || doc.Src == nil || pos.Offset >= len(doc.Src) || *from < 0 {
		return pos
	}
	start := max(*from, pos.Offset)
	src := doc.Src
	if end := bytes.Index(src[start:], []byte("\n---")); end >= 0 {
		src = src[:start+end]
	}
	word := func(c byte) bool {
		return c == '-' || c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for at := start; ; {
		i := bytes.Index(src[at:], []byte(id))
		if i < 0 {
			*from = -1
			return pos
		}
		i += at
		j := i + len(id)
		if (i == 0 || !word(src[i-1])) && (j == len(src) || !word(src[j])) {
			*from = j
			return doc.Lines.Pos(i)
		}
		at = i + 1
	}
}

// PrefixAdvice says why an id of prefix p is not checked and how to fix
// it: the prefixes tracker.prefixes lists, those the export uses, and the
// edit (D74).
func (s *Snapshot) PrefixAdvice(p string) string {
	listed := "none"
	if len(s.Config.Tracker.Prefixes) > 0 {
		listed = strings.Join(s.Config.Tracker.Prefixes, ", ")
	}
	exp := s.Config.Tracker.Export
	used := "does not exist"
	switch {
	case s.Export != nil && len(s.Export.Prefixes) == 0:
		used = "holds no ids"
	case s.Export != nil:
		used = "uses " + strings.Join(s.Export.Prefixes, ", ")
	}
	return fmt.Sprintf("the prefix %s is neither in tracker.prefixes (%s) nor used by the export %s (it %s): add %s to tracker.prefixes in %s if it is your tracker's, or correct the id",
		p, listed, exp, used, p, config.FileName)
}

// Mentions yields every tracker id in the register corpus and at the
// configured mention sites (D36): in the text of Markdown files, in the
// comments of code files. Fenced examples and the Path, Anchor and Require
// cells of claim tables are not mention sites. The ids are found one at a
// time (mention.Scanner.Scan) and each is yielded as found, so a file of
// millions of ids is never held as a list of them and the run's budget is
// asked between any two (D90). stop (when not nil) is asked too, with the
// file and line reached, between two windows of the search, so a text of
// many megabytes without an id is not one step the budget cannot
// interrupt; the ids end when it says so.
func (s *Snapshot) Mentions(stop func(file string, line int) bool) iter.Seq[mention.Mention] {
	return func(yield func(mention.Mention) bool) {
		if len(s.Config.Tracker.Prefixes) == 0 && !trackerformat.IsNumbered(s.Config.Tracker.Format) {
			return
		}
		longest := 0
		for _, p := range s.Config.Tracker.Prefixes {
			longest = max(longest, len(p))
		}
		cells := s.ClaimCells()
		sc := mention.NewScanner(mention.Pattern(s.Config), longest)
		docs := append(s.Corpus(), s.MentionDocs()...)
		for _, doc := range docs {
			if doc.Err != nil {
				continue // reported by the rule that owns the file
			}
			var halt func(int) bool
			if stop != nil {
				halt = func(at int) bool { return stop(doc.Path, doc.Lines.Pos(at).Line) }
			}
			covered := func(from, to int) bool { return cells.Covers(doc.Path, from, to) }
			if !sc.Scan(doc.Fenced, doc.Lines, doc.Code, covered, halt, yield) {
				return
			}
		}
	}
}

// Spans are byte ranges per file that are not text: the Path, Anchor and
// Require cells of claim tables (D36, D38).
type Spans map[string][][2]int

// Covers reports whether [from, to) of file overlaps a span.
func (sp Spans) Covers(file string, from, to int) bool {
	for _, r := range sp[file] {
		if from < r[1] && to > r[0] {
			return true
		}
	}
	return false
}

// ClaimCells returns the pattern cells of every claim table.
func (s *Snapshot) ClaimCells() Spans {
	out := Spans{}
	for _, d := range s.Decisions {
		for _, c := range d.Claims {
			for sp := range c.Spans.All() {
				out[d.Path] = append(out[d.Path], sp)
			}
		}
	}
	return out
}

// MentionDocs returns the files the mentions globs name that are not in
// the register corpus, each read once (D36). A Markdown or HTML file is
// all text; in a code file only comments are, and Doc.Code holds them.
func (s *Snapshot) MentionDocs() []*Doc {
	s.mentionOnce.Do(func() {
		seen := map[string]bool{}
		for _, p := range s.order {
			seen[p] = true
		}
		for _, g := range s.Config.Mentions {
			if glob.Valid(g) != "" {
				continue
			}
			for _, f := range s.Match(g) {
				if seen[f] {
					continue
				}
				seen[f] = true
				if s.markdown >= markdownTotal {
					continue // over the run's Markdown: no mention site (D70)
				}
				data, err := s.Repo.ReadFile(f, MaxMarkdown)
				if err != nil {
					continue // not text we can read: no mention site
				}
				s.markdown += int64(len(data))
				if d := mentionDoc(f, data); d != nil {
					s.mentionDocs = append(s.mentionDocs, d)
				}
			}
		}
	})
	return s.mentionDocs
}

// mentionDoc prepares a mention site (mention.Site): a Markdown or HTML
// file is all text but its fences, a code file only its comments
// (Doc.Code). A file that is not UTF-8 text is no mention site: nil.
func mentionDoc(f string, data []byte) *Doc {
	text, code, ok := mention.Site(f, data)
	if !ok {
		return nil
	}
	d := &Doc{Path: f, Src: data, Lines: register.NewLines(f, data), Fenced: text, Code: code}
	if code == nil && strings.HasSuffix(strings.ToLower(f), ".md") {
		d.Counted = register.CountedLists(f, data)
	}
	return d
}

// Package impact computes what a change touches in a decision register
// (D84): the decisions whose pinned lines, claim rows or text differ
// between a base revision and the working tree, whether or not every
// claim still holds. `claimslint impact --base REV` prints it as text,
// Markdown (a pull-request comment) or JSON; the HTML report shows it.
//
// What counts as touched:
//
//   - pinned-line: a line a claim rests on now (the lines check reports
//     in `claimslint list`: an anchored line, the lines a present claim
//     found, an exec claim's file, a tracker claim's export line) that
//     the change added or edited; a line at the base that a claim's
//     Anchor matches in a file the claim reads, which the change deleted
//     or replaced; a line an absent claim's Anchor matches that the
//     change added; and the file of a pinned line renamed. For a claim
//     of code lines, a line matches once its comments are masked as
//     check masks them; the base's claims are not evaluated, so a line
//     there that matched but that the claim did not rest on (a second
//     hit of a present claim) is listed too. A line inserted next to a pinned
//     line, which leaves it as it was, touches nothing.
//   - claim-row: a row of a Confirmation table added, edited (what it
//     checks, its Why, or only its spacing) or deleted.
//   - decision-text: any other line of the decision's file, the file
//     added, renamed or deleted, and its row in the register.
//
// The head is the working tree (in CI, the checked-out commit): the
// lines claims rest on are where check finds them now, and the diff is
// `git diff BASE` (tracked files; an untracked file is not in it).
package impact

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/codeline"
	"github.com/claimslint/claimslint/internal/decisionid"
	"github.com/claimslint/claimslint/internal/format"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/repo"
	"github.com/claimslint/claimslint/internal/snapshot"
)

// Kinds of touch.
const (
	PinnedLine   = "pinned-line"
	ClaimRow     = "claim-row"
	DecisionText = "decision-text"
)

// Sides of a touch: where its Path and Line are.
const (
	SideHead = "head" // the working tree
	SideBase = "base" // the base revision: a line the change deleted
)

// Options say what to compare.
type Options struct {
	// Dir is the repository root (as check's).
	Dir string
	// Base is the revision the change starts from, as the user wrote it
	// (origin/main, a tag, a commit). It may not begin with '-'.
	Base string
	// Head is empty for the working tree. Otherwise it must name the
	// commit checked out (HEAD), with no tracked file changed since: the
	// lines claims rest on are read from the working tree.
	Head string
	// Links, when set, is where the Markdown output links decisions,
	// claims and lines: a URL in which {commit} stands for the commit a
	// file is read at (the checked-out commit, or the base's for a line
	// the change deleted), followed by the file's path and #L<line>, such
	// as https://github.com/OWNER/REPO/blob/{commit}/ (D88).
	Links string
}

// Result is what the change touches.
type Result struct {
	// Base is Options.Base; BaseCommit the commit it named.
	Base       string `json:"base"`
	BaseCommit string `json:"base_commit"`
	// Head is "working tree", or Options.Head; HeadCommit the commit
	// checked out, when there is one.
	Head       string `json:"head"`
	HeadCommit string `json:"head_commit,omitempty"`
	// Decisions are those touched, in the register's id order; empty when
	// the change touches none.
	Decisions []Decision `json:"decisions"`

	links string // Options.Links
}

// Touched counts the touches of every decision.
func (r Result) Touched() int {
	n := 0
	for _, d := range r.Decisions {
		n += len(d.Touches)
	}
	return n
}

// Decision is one decision the change touches.
type Decision struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Status string `json:"status"`
	// Path is its file now (at the base, for a decision the change deleted).
	Path    string  `json:"path"`
	Touches []Touch `json:"touches"`
	// Claims are the claims its touches name, each once, in id order,
	// with whether each still holds (D88).
	Claims []Claim `json:"claims"`
}

// Claim is one touched claim and its state now.
type Claim struct {
	ID string `json:"id"`
	// State is check's (ok, failed, pending, retired), or "deleted" for a
	// row the change deleted.
	State string `json:"state"`
	// Line is its row in the decision's file now (0 when deleted).
	Line int `json:"line,omitempty"`
	// Message says why it fails.
	Message string `json:"message,omitempty"`
}

// Claim states beyond check's.
const StateDeleted = "deleted"

// Touch is one thing the change touched.
type Touch struct {
	// Kind is PinnedLine, ClaimRow or DecisionText.
	Kind string `json:"kind"`
	// Path and Line are where, on Side (0: the whole file).
	Path string `json:"path"`
	Line int    `json:"line"`
	Side string `json:"side"`
	// Claim is the claim's id, for a pinned line or a claim row.
	Claim string `json:"claim,omitempty"`
	// Detail says what changed, in words.
	Detail string `json:"detail"`
	// Old and New are the line as it was at the base and as it is now,
	// for a pinned line or a claim row the change edited, added or
	// deleted (empty on the side where there is none); cut at maxShown
	// bytes.
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
}

// Compute compares the working tree with o.Base. An error means the
// comparison could not be made: no git work tree, a Base that names no
// commit or looks like an option, an unreadable register, git failing.
func Compute(ctx context.Context, o Options) (Result, error) {
	if o.Base == "" {
		return Result{}, errors.New("--base is required: name the revision the change starts from, such as origin/main")
	}
	sha, err := repo.Commit(o.Dir, o.Base)
	if err != nil {
		if errors.Is(err, repo.ErrNotGit) {
			return Result{}, fmt.Errorf("%s is %w: impact compares git revisions", o.Dir, err)
		}
		return Result{}, fmt.Errorf("--base %w", err)
	}
	res := Result{Base: o.Base, BaseCommit: sha, Head: "working tree", Decisions: []Decision{}, links: o.Links}
	if head, err := repo.Commit(o.Dir, "HEAD"); err == nil {
		res.HeadCommit = head
	}
	if o.Head != "" {
		if err := checkHead(o.Dir, o.Head); err != nil {
			return Result{}, err
		}
		res.Head = o.Head
	}
	snap, err := snapshot.LoadContext(ctx, o.Dir)
	if err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	states := check.Claims(snap, "").Claims
	c := &computation{o: o, sha: sha, snap: snap, touched: map[string]*Decision{}, ids: map[string]int{}, compiled: map[string]*regexp.Regexp{}, text: map[lineKey]string{}}
	if err := c.readDiff(); err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	c.pair()
	if err := c.scan(); err != nil {
		return Result{}, err
	}
	c.pinned(states)
	c.modes()
	c.baseLines()
	c.texts()
	c.registerRows()
	c.lines()
	for _, d := range c.touched {
		slices.SortFunc(d.Touches, touchCmp)
		d.Touches = slices.Compact(d.Touches)
		d.Claims = c.claims(d, states)
		res.Decisions = append(res.Decisions, *d)
	}
	slices.SortFunc(res.Decisions, func(a, b Decision) int {
		return cmp.Or(decisionid.Compare(a.ID, b.ID), strings.Compare(a.Path, b.Path))
	})
	return res, nil
}

// checkHead accepts a Head that names the checked-out commit of a work
// tree whose tracked files are unchanged.
func checkHead(dir, head string) error {
	want, err := repo.Commit(dir, head)
	if err != nil {
		return fmt.Errorf("--head %w", err)
	}
	have, err := repo.Commit(dir, "HEAD")
	if err != nil {
		return fmt.Errorf("--head %s: the checked-out commit: %w", head, err)
	}
	if want != have {
		return fmt.Errorf("--head %s is not the checked-out commit: impact reads the lines claims rest on from the working tree; check out %s, or leave --head out", head, head)
	}
	clean, err := repo.Clean(dir)
	if err != nil {
		return err
	}
	if !clean {
		return fmt.Errorf("--head %s: tracked files changed since that commit: commit or stash them, or leave --head out to compare the working tree", head)
	}
	return nil
}

var kindOrder = map[string]int{DecisionText: 0, ClaimRow: 1, PinnedLine: 2}

func touchCmp(a, b Touch) int {
	return cmp.Or(cmp.Compare(kindOrder[a.Kind], kindOrder[b.Kind]), strings.Compare(a.Path, b.Path),
		cmp.Compare(a.Line, b.Line), strings.Compare(a.Claim, b.Claim), strings.Compare(a.Side, b.Side), strings.Compare(a.Detail, b.Detail))
}

// computation is one Compute's state.
type computation struct {
	o    Options
	sha  string
	snap *snapshot.Snapshot

	files      []*fileDiff
	byOld      map[string]*fileDiff
	byNew      map[string]*fileDiff
	decs       []pairing // every decision now, and those deleted
	baseMaxN   int
	baseRegRow map[string]register.Row // the register's rows at the base, by id
	baseReg    *register.Register

	matchers  map[string][]matcher // base path -> claims that read it (deleted lines)
	absent    map[string][]matcher // new path -> absent claims that read it (added lines)
	baseHits  []lineHit
	headHits  []lineHit
	headHunks map[string]bool // claim key + hunk that a pinned line of now lies in

	touched  map[string]*Decision
	ids      map[string]int // decision id -> index in decs
	compiled map[string]*regexp.Regexp

	text      map[lineKey]string // the lines of the patch, cut at maxShown
	textBytes int
}

// lineKey names a line of the patch: its path and number on its side.
type lineKey struct {
	path    string
	deleted bool
	n       int
}

// pairing is one decision now and as it was at the base.
type pairing struct {
	now  *register.Decision // nil: deleted by the change
	then *register.Decision // nil: new since the base
	fd   *fileDiff          // its file's change, nil when unchanged
}

// matcher is one claim's Anchor, for lines of a file it reads.
type matcher struct {
	dec    string
	claim  string
	absent bool
	code   bool // the claim reads code lines only (its scope is :code)
	re     *regexp.Regexp
}

// lineHit is a line of the diff a claim's Anchor matches.
type lineHit struct {
	m    matcher
	path string
	line int
	fd   *fileDiff
}

// readDiff lists the changed files, then reads their hunks.
func (c *computation) readDiff() error {
	var raw []byte
	err := repo.Diff(c.o.Dir, c.sha, []string{"--raw", "-z", "--abbrev=40"}, func(r io.Reader) error {
		var err error
		raw, err = io.ReadAll(io.LimitReader(r, maxRaw+1))
		if err == nil && len(raw) > maxRaw {
			return fmt.Errorf("the change since %s lists more than %d MiB of changed files: compare with a nearer revision", c.o.Base, maxRaw>>20)
		}
		return err
	})
	if err != nil {
		return err
	}
	if c.files, err = parseRaw(raw); err != nil {
		return err
	}
	c.byOld, c.byNew = map[string]*fileDiff{}, map[string]*fileDiff{}
	for _, f := range c.files {
		if f.Old != "" {
			c.byOld[f.Old] = f
		}
		if f.New != "" {
			c.byNew[f.New] = f
		}
	}
	return nil
}

// show reads rel at the base; nil when it did not exist there.
func (c *computation) show(rel string) ([]byte, error) {
	src, ok := repo.ShowAt(c.o.Dir, c.sha, rel)
	if !ok {
		return nil, nil
	}
	return src, nil
}

// pair reads, at the base, each decision whose file the change touched,
// the register, and the decision files the change deleted.
func (c *computation) pair() {
	c.baseMaxN = c.snap.MaxN()
	c.baseRegRow = map[string]register.Row{}
	if c.snap.Register != nil {
		c.baseRegister()
	}
	seen := map[string]bool{}
	for _, d := range c.snap.Decisions {
		p := pairing{now: d, then: d, fd: c.byNew[d.Path]}
		if p.fd != nil {
			p.then = nil
			if p.fd.Old != "" {
				seen[p.fd.Old] = true
				if src, err := c.show(p.fd.Old); err == nil && src != nil {
					p.then = c.parseAt(d, p.fd.Old, src)
				}
			}
		}
		c.decs = append(c.decs, p)
	}
	c.deletedDecisions(seen)
	for i, p := range c.decs {
		d := p.now
		if d == nil {
			d = p.then
		}
		if _, dup := c.ids[d.FileID]; !dup {
			c.ids[d.FileID] = i
		}
	}
}

// baseRegister reads the register at the base, its rows by id and its
// live range's n.
func (c *computation) baseRegister() {
	reg := c.snap.Register
	c.baseReg = reg
	if fd := c.byNew[reg.Path]; fd != nil && fd.Old != "" {
		if src, err := c.show(fd.Old); err == nil && src != nil {
			c.baseReg = register.ParseRegisterWith(fd.Old, src, snapshot.RegisterOptions(c.snap.Config))
		}
	}
	maxN := 0
	for _, row := range c.baseReg.Rows {
		c.baseRegRow[row.ID] = row
		maxN = max(maxN, row.N)
	}
	if maxN > 0 {
		c.baseMaxN = maxN
	}
}

// deletedDecisions pairs each decision file the change deleted (and no
// decision's file was renamed from: seen) with nothing now. A deleted
// file is a deleted decision when the base's register row linked it (an
// adopted record's name is its collection's) or its name is
// D<n>-<slug>.md.
func (c *computation) deletedDecisions(seen map[string]bool) {
	linked := map[string]register.Row{}
	if c.baseReg != nil {
		for _, row := range c.baseReg.Rows {
			if row.Link != "" {
				dest, _, _ := strings.Cut(row.Link, "#")
				linked[path.Join(path.Dir(c.baseReg.Path), dest)] = row
			}
		}
	}
	for _, f := range c.files {
		if f.Status != 'D' || seen[f.Old] || !strings.HasSuffix(f.Old, ".md") {
			continue
		}
		row, isRow := linked[f.Old]
		if !isRow && register.FileNameRE.FindStringSubmatch(path.Base(f.Old)) == nil {
			continue
		}
		src, err := c.show(f.Old)
		if err != nil || src == nil {
			continue
		}
		d := register.ParseDecision(f.Old, src)
		if isRow {
			d.FileID = row.ID
			if d.Title == "" {
				d.Title = row.Title
			}
			if row.Status != "" {
				d.Status = row.Status
			}
		}
		if (d.Parsed || isRow) && d.FileID != "" {
			c.decs = append(c.decs, pairing{then: d, fd: f})
		}
	}
}

// parseAt parses a decision's file as it was at the base, as the
// snapshot parsed it now: a claims file of an inline row as claims.
func (c *computation) parseAt(now *register.Decision, rel string, src []byte) *register.Decision {
	if now.Inline {
		if c.snap.Register != nil && now.Path == c.snap.Register.Path {
			return nil // the register itself: its row is the decision's text
		}
		return register.ParseClaims(rel, now.FileID, src)
	}
	return register.ParseDecision(rel, src)
}

// scan reads the hunks of the change, matching the lines it deletes
// against the Anchors of the claims that read their file at the base, and
// the lines it adds against the absent claims that read theirs now.
func (c *computation) scan() error {
	c.matchers, c.absent = map[string][]matcher{}, map[string][]matcher{}
	c.prepareMatchers()
	hunks := map[[2]string][]hunk{}
	err := repo.Diff(c.o.Dir, c.sha, []string{"--text", "--unified=0", "--inter-hunk-context=0"}, func(r io.Reader) error {
		return parsePatch(r, patchVisitor{
			hunk: func(old, new string, h hunk) {
				k := [2]string{old, new}
				hunks[k] = append(hunks[k], h)
			},
			line: c.diffLine,
		})
	})
	if err != nil {
		return err
	}
	for _, f := range c.files {
		f.Hunks = hunks[[2]string{f.Old, f.New}]
		if f.Status == 'T' { // git writes a type change as a deletion and an addition
			f.Hunks = append(append(f.Hunks, hunks[[2]string{f.Old, ""}]...), hunks[[2]string{"", f.New}]...)
		}
	}
	for i := range c.baseHits {
		c.baseHits[i].fd = c.byOld[c.baseHits[i].path]
	}
	for i := range c.headHits {
		c.headHits[i].fd = c.byNew[c.headHits[i].path]
	}
	c.baseHits = c.codeOnly(c.baseHits, c.show)
	c.headHits = c.codeOnly(c.headHits, func(rel string) ([]byte, error) {
		return c.snap.Repo.ReadFile(rel, check.MaxFileSize)
	})
	return nil
}

// prepareMatchers gives each changed file the matchers of the claims that
// read it: at the base, every live claim's for the lines it deletes; now,
// the absent claims' for the lines it adds.
func (c *computation) prepareMatchers() {
	base := map[string][]claimAt{} // claims at the base, read by a changed file
	var headAbsent []claimAt
	for _, p := range c.decs {
		if d := p.then; d != nil && live(d.Status) {
			for _, row := range d.Claims {
				base[row.Kind+"\x00"+row.Path] = append(base[row.Kind+"\x00"+row.Path], claimAt{d.FileID, row, c.baseMaxN})
			}
		}
	}
	for _, p := range c.decs {
		if d := p.now; d != nil && live(d.Status) {
			for _, row := range d.Claims {
				if check.Forbids(row.Kind) {
					headAbsent = append(headAbsent, claimAt{d.FileID, row, c.snap.MaxN()})
				}
			}
		}
	}
	for _, f := range c.files {
		if f.Old != "" {
			c.baseMatchers(base, f.Old)
		}
		if f.New != "" {
			for _, ca := range headAbsent {
				if m, ok := c.matcher(ca, f.New); ok {
					c.absent[f.New] = append(c.absent[f.New], m)
				}
			}
		}
	}
}

// baseMatchers gives the file old the matchers of the base's claims that
// read it.
func (c *computation) baseMatchers(base map[string][]claimAt, old string) {
	for _, cs := range base {
		for _, ca := range cs {
			if m, ok := c.matcher(ca, old); ok {
				c.matchers[old] = append(c.matchers[old], m)
			}
		}
	}
}

// diffLine matches a line the change deletes against the base's claims
// that read its file, and one it adds against the absent claims.
func (c *computation) diffLine(old, new string, deleted bool, n int, text []byte) {
	c.keep(old, new, deleted, n, text)
	if deleted {
		for _, m := range c.matchers[old] {
			if m.re.Match(text) {
				c.baseHits = append(c.baseHits, lineHit{m: m, path: old, line: n})
			}
		}
		return
	}
	for _, m := range c.absent[new] {
		if m.re.Match(text) {
			c.headHits = append(c.headHits, lineHit{m: m, path: new, line: n})
		}
	}
}

// codeOnly keeps, of the hits of claims that read code lines only, those
// whose line matches the Anchor once its comments are masked as check
// masks them (codeline.Mask): a comment that mentions a pinned name is
// not a pinned line. A file that cannot be read, or is over
// check.MaxFileSize, keeps its hits.
func (c *computation) codeOnly(hits []lineHit, read func(string) ([]byte, error)) []lineHit {
	masked := map[string][][]byte{}
	out := hits[:0]
	for _, h := range hits {
		if !h.m.code {
			out = append(out, h)
			continue
		}
		lines, ok := masked[h.path]
		if !ok {
			if src, err := read(h.path); err == nil && src != nil && len(src) <= check.MaxFileSize {
				lines = bytes.Split(codeline.Mask(h.path, src), []byte{'\n'})
			}
			masked[h.path] = lines
		}
		if lines == nil || h.line > len(lines) || h.m.re.Match(lines[h.line-1]) {
			out = append(out, h)
		}
	}
	return out
}

// live reports whether a decision's claims are evaluated (accepted or
// proposed); a retired decision's claims rest on nothing.
func live(status string) bool { return status == "accepted" || status == "proposed" }

// claimAt is a claim row as it read at one side.
type claimAt struct {
	dec  string
	row  register.Claim
	maxN int
}

// matcher returns the claim's Anchor for a file it reads.
func (c *computation) matcher(ca claimAt, rel string) (matcher, bool) {
	row := ca.row
	if !check.ReadsLines(row.Kind) || row.Anchor == "" || len(row.Anchor) > check.MaxPattern || !check.Reads(row.Kind, row.Path, rel) {
		return matcher{}, false
	}
	pat, err := check.ExpandPlaceholders(row.Anchor, ca.maxN)
	if err != nil {
		return matcher{}, false
	}
	re, err := c.compile(pat)
	if err != nil || re == nil {
		return matcher{}, false
	}
	_, scope := check.SplitKind(row.Kind)
	return matcher{dec: ca.dec, claim: row.ID, absent: check.Forbids(row.Kind), code: scope == "" || scope == check.ScopeCode, re: re}, true
}

// compile compiles each pattern once per Compute.
func (c *computation) compile(pat string) (*regexp.Regexp, error) {
	if re, ok := c.compiled[pat]; ok {
		return re, nil
	}
	re, err := regexp.Compile(pat)
	c.compiled[pat] = re
	return re, err
}

// add records a touch of the decision d (now, else at the base).
func (c *computation) add(p pairing, t Touch) {
	d := p.now
	if d == nil {
		d = p.then
	}
	key := d.FileID + "\x00" + d.Path
	td := c.touched[key]
	if td == nil {
		title := strings.TrimPrefix(strings.TrimSpace(d.Title), d.FileID+": ") // as claimslint decisions lists it
		td = &Decision{ID: d.FileID, Title: title, Status: d.Status, Path: d.Path, Touches: []Touch{}}
		if td.Title == "" {
			if row, ok := c.baseRegRow[d.FileID]; ok {
				td.Title = row.Title
			}
		}
		c.touched[key] = td
	}
	td.Touches = append(td.Touches, t)
}

// byID finds the pairing of a decision id, now or at the base.
func (c *computation) byID(id string) (pairing, bool) {
	i, ok := c.ids[id]
	if !ok {
		return pairing{}, false
	}
	return c.decs[i], true
}

// at says where a base-side touch is, for its Detail.
func (c *computation) at(line int) string {
	if line == 0 {
		return "at " + c.o.Base
	}
	return fmt.Sprintf("line %d at %s", line, c.o.Base)
}

// pinned reports the lines the claims rest on now that the change added
// or edited, and the files of pinned lines it renamed or re-moded.
func (c *computation) pinned(states []check.ClaimState) {
	c.headHunks = map[string]bool{}
	for _, st := range states {
		if st.State == check.StateRetired {
			continue
		}
		p, ok := c.byID(st.Decision)
		if !ok {
			continue
		}
		renamed := map[string]bool{}
		for _, w := range st.Where {
			file, line := splitWhere(w)
			fd := c.byNew[file]
			if fd == nil {
				continue
			}
			t := Touch{Kind: PinnedLine, Path: file, Line: line, Side: SideHead, Claim: st.Claim}
			if line == 0 {
				switch {
				case fd.Status == 'A':
					t.Detail = "the file it rests on is new"
				case fd.OldMode != fd.NewMode:
					continue // modes reports it, whether or not the claim holds
				case fd.Status == 'R':
					t.Detail = "the file it rests on was renamed from " + fd.Old
				default:
					t.Detail = "the file it rests on changed"
				}
				c.add(p, t)
				continue
			}
			i := slices.IndexFunc(fd.Hunks, func(h hunk) bool { return h.NewHas(line) })
			switch {
			case i >= 0 && fd.Status == 'A':
				t.Detail = "the line it rests on is new (its file is new)"
			case i >= 0 && fd.Hunks[i].OldLines == 0:
				t.Detail = "the line it rests on is new"
			case i >= 0:
				t.Detail = "the line it rests on changed"
			case fd.Status == 'R' || fd.Status == 'C':
				if renamed[file] {
					continue
				}
				renamed[file] = true
				t.Detail = "the file it rests on was renamed from " + fd.Old
			case fd.Status == 'T':
				t.Detail = "the file it rests on changed type"
			default:
				continue // a line next to it changed; it did not
			}
			if i >= 0 {
				c.headHunks[hunkKey(st.Decision, st.Claim, fd, i)] = true
			}
			c.add(p, t)
		}
	}
	for _, h := range c.headHits {
		p, ok := c.byID(h.m.dec)
		if !ok {
			continue
		}
		c.add(p, Touch{Kind: PinnedLine, Path: h.path, Line: h.line, Side: SideHead, Claim: h.m.claim,
			Detail: "a line its Anchor matches was added"})
	}
}

// modes reports the files an exec claim reads, now or at the base, whose
// mode the change changed: whether or not the claim still holds.
func (c *computation) modes() {
	for _, fd := range c.files {
		if fd.OldMode == fd.NewMode || fd.Old == "" || fd.New == "" {
			continue
		}
		for _, p := range c.decs {
			for _, d := range []*register.Decision{p.now, p.then} {
				if d == nil || !live(d.Status) {
					continue
				}
				for _, row := range d.Claims {
					if !check.ReadsModes(row.Kind) || !(check.Reads(row.Kind, row.Path, fd.New) || check.Reads(row.Kind, row.Path, fd.Old)) {
						continue
					}
					c.add(p, Touch{Kind: PinnedLine, Path: fd.New, Side: SideHead, Claim: row.ID,
						Detail: fmt.Sprintf("the mode of a file it reads changed from %s to %s", fd.OldMode, fd.NewMode)})
				}
			}
		}
	}
}

func hunkKey(dec, claim string, fd *fileDiff, i int) string {
	return fmt.Sprintf("%s\x00%s\x00%p\x00%d", dec, claim, fd, i)
}

// baseLines reports the lines at the base a claim's Anchor matched that
// the change deleted or replaced, but for a line whose replacement the
// claim rests on now (that edit is reported at the new line).
func (c *computation) baseLines() {
	for _, h := range c.baseHits {
		p, ok := c.byID(h.m.dec)
		if !ok || h.fd == nil {
			continue
		}
		i := slices.IndexFunc(h.fd.Hunks, func(x hunk) bool { return x.OldHas(h.line) })
		if i >= 0 && c.headHunks[hunkKey(h.m.dec, h.m.claim, h.fd, i)] {
			continue
		}
		t := Touch{Kind: PinnedLine, Path: h.path, Line: h.line, Side: SideBase, Claim: h.m.claim}
		switch {
		case h.fd.Status == 'D':
			t.Detail = fmt.Sprintf("a line its Anchor matches was deleted with its file (%s)", c.at(h.line))
		case i >= 0 && h.fd.Hunks[i].NewLines == 0:
			t.Detail = fmt.Sprintf("a line its Anchor matches was deleted (%s)", c.at(h.line))
		default:
			t.Detail = fmt.Sprintf("a line its Anchor matches was replaced (%s)", c.at(h.line))
		}
		c.add(p, t)
	}
}

// texts reports, for each decision whose file changed, its claim rows
// added, edited or deleted, and the other lines of its text.
func (c *computation) texts() {
	for _, p := range c.decs {
		fd := p.fd
		if fd == nil {
			continue
		}
		switch {
		case p.now == nil:
			c.add(p, Touch{Kind: DecisionText, Path: p.then.Path, Side: SideBase, Detail: "its file was deleted"})
			continue
		case p.then == nil:
			if p.now.Inline && c.snap.Register != nil && p.now.Path == c.snap.Register.Path {
				continue // an inline row: registerRows reports it
			}
			c.add(p, Touch{Kind: DecisionText, Path: p.now.Path, Line: 0, Side: SideHead,
				Detail: fmt.Sprintf("the decision is new since %s (%s)", c.o.Base, format.Count(len(p.now.Claims), "claim"))})
			continue
		}
		if fd.Status == 'R' {
			c.add(p, Touch{Kind: DecisionText, Path: p.now.Path, Side: SideHead, Detail: "its file was renamed from " + fd.Old})
		}
		c.textChanges(p, fd)
	}
}

// textChanges reports, for a decision whose file changed and that is in
// both trees, its claim rows added, edited or deleted, and the other
// lines of its text.
func (c *computation) textChanges(p pairing, fd *fileDiff) {
	nowRows, thenRows := map[int]bool{}, map[int]bool{}
	then := map[string]register.Claim{}
	for _, r := range p.then.Claims {
		then[r.ID] = r
		thenRows[r.Pos.Line] = true
	}
	ids := map[string]bool{}
	for _, r := range p.now.Claims {
		ids[r.ID] = true
		nowRows[r.Pos.Line] = true
		if !slices.ContainsFunc(fd.Hunks, func(h hunk) bool { return h.NewHas(r.Pos.Line) }) {
			continue
		}
		c.add(p, Touch{Kind: ClaimRow, Path: p.now.Path, Line: r.Pos.Line, Side: SideHead, Claim: r.ID, Detail: rowChange(then, r)})
	}
	for _, r := range p.then.Claims {
		if !ids[r.ID] {
			c.add(p, Touch{Kind: ClaimRow, Path: p.then.Path, Line: r.Pos.Line, Side: SideBase, Claim: r.ID,
				Detail: fmt.Sprintf("the row was deleted (%s)", c.at(r.Pos.Line))})
		}
	}
	for _, h := range fd.Hunks {
		var added, deleted []int
		for n := h.NewStart; n < h.NewStart+h.NewLines; n++ {
			if !nowRows[n] {
				added = append(added, n)
			}
		}
		for n := h.OldStart; n < h.OldStart+h.OldLines; n++ {
			if !thenRows[n] {
				deleted = append(deleted, n)
			}
		}
		switch {
		case len(added) > 0 && len(deleted) > 0:
			c.add(p, Touch{Kind: DecisionText, Path: p.now.Path, Line: added[0], Side: SideHead, Detail: "its text changed" + span(added)})
		case len(added) > 0:
			c.add(p, Touch{Kind: DecisionText, Path: p.now.Path, Line: added[0], Side: SideHead, Detail: "text was added" + span(added)})
		case len(deleted) > 0:
			c.add(p, Touch{Kind: DecisionText, Path: p.then.Path, Line: deleted[0], Side: SideBase,
				Detail: fmt.Sprintf("%s of its text %s deleted (%s)", format.Count(len(deleted), "line"), map[bool]string{true: "was", false: "were"}[len(deleted) == 1], c.at(deleted[0]))})
		}
	}
}

// span says which lines, when more than one.
func span(lines []int) string {
	if len(lines) < 2 {
		return ""
	}
	return fmt.Sprintf(" (lines %d-%d)", lines[0], lines[len(lines)-1])
}

// rowChange says how a claim row differs from the row of its id at the
// base.
func rowChange(then map[string]register.Claim, r register.Claim) string {
	was, ok := then[r.ID]
	if !ok {
		return "the row is new"
	}
	var cells []string
	for _, x := range []struct{ name, a, b string }{
		{"Kind", was.Kind, r.Kind}, {"Path", was.Path, r.Path}, {"Anchor", was.Anchor, r.Anchor}, {"Require", was.Require, r.Require},
	} {
		if x.a != x.b {
			cells = append(cells, x.name)
		}
	}
	switch {
	case len(cells) > 0:
		return "what it checks changed: " + strings.Join(cells, ", ")
	case was.Why != r.Why:
		return "its Why changed"
	default:
		return "the row was moved or respaced"
	}
}

// registerRows reports each decision whose row in the register the
// change added, edited or deleted.
func (c *computation) registerRows() {
	reg := c.snap.Register
	if reg == nil {
		return
	}
	fd := c.byNew[reg.Path]
	if fd == nil {
		return
	}
	now := map[string]bool{}
	for _, row := range reg.Rows {
		now[row.ID] = true
		if !slices.ContainsFunc(fd.Hunks, func(h hunk) bool { return h.NewHas(row.Pos.Line) }) {
			continue
		}
		p, ok := c.byID(row.ID)
		if !ok {
			p = pairing{now: &register.Decision{FileID: row.ID, Title: row.Title, Status: row.Status, Path: reg.Path}}
		}
		detail := "its register row changed"
		if _, was := c.baseRegRow[row.ID]; !was {
			detail = "its register row is new"
		}
		c.add(p, Touch{Kind: DecisionText, Path: reg.Path, Line: row.Pos.Line, Side: SideHead, Detail: detail})
	}
	for _, row := range c.baseReg.Rows {
		if now[row.ID] {
			continue
		}
		p, ok := c.byID(row.ID)
		if !ok {
			p = pairing{then: &register.Decision{FileID: row.ID, Title: row.Title, Status: row.Status, Path: c.baseReg.Path}}
		}
		c.add(p, Touch{Kind: DecisionText, Path: c.baseReg.Path, Line: row.Pos.Line, Side: SideBase,
			Detail: fmt.Sprintf("its register row was deleted (%s)", c.at(row.Pos.Line))})
	}
}

// splitWhere splits a claim state's "path:line" (or "path").
func splitWhere(w string) (string, int) {
	i := strings.LastIndexByte(w, ':')
	if i < 0 {
		return w, 0
	}
	n, err := strconv.Atoi(w[i+1:])
	if err != nil || n < 1 {
		return w, 0
	}
	return w[:i], n
}

// maxShown bounds a line Old and New show; maxText the lines of the patch
// kept for them.
const (
	maxShown = 200
	maxText  = 8 << 20
)

// keep records a line of the patch for Old and New, up to maxText bytes.
func (c *computation) keep(old, new string, deleted bool, n int, text []byte) {
	if c.textBytes > maxText {
		return
	}
	k := lineKey{path: new, n: n}
	if deleted {
		k = lineKey{path: old, deleted: true, n: n}
	}
	s := shown(text)
	c.text[k] = s
	c.textBytes += len(s) + len(k.path)
}

// shown cuts a line at maxShown bytes, on a rune boundary, and trims the
// space around it (its indentation is not what changed).
func shown(b []byte) string {
	b = bytes.TrimLeft(b, " \t")
	if len(b) > maxShown {
		cut := maxShown
		for cut > 0 && b[cut]&0xC0 == 0x80 {
			cut--
		}
		return strings.TrimRight(string(b[:cut]), " \t\r") + "…"
	}
	return strings.TrimRight(string(b), " \t\r")
}

// lines fills Old and New of each pinned-line and claim-row touch at a
// line inside a hunk: the line on its own side, and the line of the other
// side at the same offset in the hunk (its last line past it).
func (c *computation) lines() {
	for _, d := range c.touched {
		for i := range d.Touches {
			t := &d.Touches[i]
			if t.Line == 0 || (t.Kind != PinnedLine && t.Kind != ClaimRow) {
				continue
			}
			if t.Side == SideBase {
				t.Old = c.text[lineKey{path: t.Path, deleted: true, n: t.Line}]
				if fd := c.byOld[t.Path]; fd != nil && fd.New != "" {
					if j := slices.IndexFunc(fd.Hunks, func(h hunk) bool { return h.OldHas(t.Line) }); j >= 0 && fd.Hunks[j].NewLines > 0 {
						h := fd.Hunks[j]
						t.New = c.text[lineKey{path: fd.New, n: h.NewStart + min(t.Line-h.OldStart, h.NewLines-1)}]
					}
				}
				continue
			}
			t.New = c.text[lineKey{path: t.Path, n: t.Line}]
			if fd := c.byNew[t.Path]; fd != nil && fd.Old != "" {
				if j := slices.IndexFunc(fd.Hunks, func(h hunk) bool { return h.NewHas(t.Line) }); j >= 0 && fd.Hunks[j].OldLines > 0 {
					h := fd.Hunks[j]
					t.Old = c.text[lineKey{path: fd.Old, deleted: true, n: h.OldStart + min(t.Line-h.NewStart, h.OldLines-1)}]
				}
			}
		}
	}
}

// claims lists the claims d's touches name, each with its state now: a
// claim the change deleted is StateDeleted.
func (c *computation) claims(d *Decision, states []check.ClaimState) []Claim {
	byID := map[string]check.ClaimState{}
	for _, st := range states {
		if st.Decision == d.ID {
			byID[st.Claim] = st
		}
	}
	rows := map[string]int{}
	if p, ok := c.byID(d.ID); ok && p.now != nil && p.now.Path == d.Path {
		for _, r := range p.now.Claims {
			rows[r.ID] = r.Pos.Line
		}
	}
	out := []Claim{}
	seen := map[string]bool{}
	for _, t := range d.Touches {
		if t.Claim == "" || seen[t.Claim] {
			continue
		}
		seen[t.Claim] = true
		cl := Claim{ID: t.Claim, State: StateDeleted, Line: rows[t.Claim]}
		if st, ok := byID[t.Claim]; ok {
			cl.State = st.State
			if st.State == check.StateFailed {
				cl.Message = st.Message
			}
		}
		out = append(out, cl)
	}
	slices.SortFunc(out, func(a, b Claim) int {
		return cmp.Or(cmp.Compare(claimNumber(a.ID), claimNumber(b.ID)), strings.Compare(a.ID, b.ID))
	})
	return out
}

// claimNumber is n of C<n>, for ordering C2 before C10.
func claimNumber(id string) int {
	n, err := strconv.Atoi(strings.TrimLeft(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"))
	if err != nil {
		return 0
	}
	return n
}

// Package report renders the register, its claims and the tracker ids they
// name as a static site for reviewers who would rather look than read:
// `claimslint report`. The site is a directory of pages (an index, one
// page per decision, the supersession graph, the code view) or one
// self-contained file; either way it has no external assets and fetches
// nothing when built or viewed (D32, D44, D83).
package report

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/claimslint/claimslint/internal/audit"
	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/format"
	"github.com/claimslint/claimslint/internal/glob"
	"github.com/claimslint/claimslint/internal/impact"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/ruleid"
	"github.com/claimslint/claimslint/internal/snapshot"
)

// Options configure Write and WriteDir.
type Options struct {
	Dir     string
	RepoURL string // e.g. https://github.com/org/repo; links code lines when set
	Now     time.Time
	// Base, when set, is the revision a change starts from: the site shows
	// what the change touches (internal/impact, D84), on the index and on
	// each touched decision's page.
	Base string
	// Notes, when set, takes report's notes: a site directory inside the
	// work tree that git does not ignore.
	Notes io.Writer
}

// Limits of what one page shows, so a hostile register cannot make a page
// unbounded (D83): excerpts per claim, lines around an anchor, the runes of
// one code line, and the bytes of one decision's text in the search index.
const (
	maxExcerpts    = 3
	excerptContext = 2
	maxLineRunes   = 240
	maxIndexBytes  = 8 << 10 // of one decision's text in the search index
	maxPinnedRows  = 1000    // pinned lines on one file's page
)

type link struct {
	Text, Href string
}

type xline struct {
	N    int
	Text string
	Hit  bool
}

type excerpt struct {
	Where, Href string
	// CodeHref is the line in the site's code view, which links back
	// (D99).
	CodeHref string
	Lines    []xline
	file     string
	line     int
}

type claimView struct {
	ID, Kind, State, Message string
	Path, Anchor, Require    string
	Why                      string
	Excerpts                 []excerpt
	More                     int
	Vacuous                  string
	Failed                   bool
	HTMLID                   string // the claim's fragment
}

type trackerView struct {
	ID, Status, Title, Role string
}

type dview struct {
	// Key names the decision's page (Key.html) or section (#Key): its id,
	// made unique when two files claim one id.
	Key, Href               string
	ID, Title, Status, File string
	Date                    string
	DateFromGit             bool // the record states no date: git's, when it was added
	Supersedes, SupersededB []link
	Relations               []link
	Tracker                 []trackerView
	Residuals               []string
	Body                    template.HTML
	Claims                  []*claimView
	Failed                  int
	Adopted                 bool
	// States counts its claims by state, for the summary at the top of
	// its page (D99).
	States  []statusCount
	text    string // what the search finds it by: its text as written
	Touches []impact.Touch
}

type pinRef struct {
	Text, Href string
	Failed     bool // the claim fails: its pin is marked in the code view (D99)
}

type pinnedLine struct {
	Failed bool // a claim that pins it fails
	N      int
	Text   string
	Href   string
	Claims []pinRef
	Anchor string // the line's fragment on its file's page: code-<n>-L<line>
}

type fileView struct {
	Path, Key, Href string
	ReadBy          []pinRef
	Lines           []pinnedLine
	More            int // pinned lines past maxPinnedRows
}

// relation is one line of the relation list: two decisions and a verb.
type relation struct {
	From, To link
	Verb     string
}

type relEdge struct {
	From, To *dview
	Verb     string
}

type attention struct {
	Decision, Href, Claim, What, Message string
}

// finding is one of check's findings as check prints it, with the fields
// of check --format json beside it.
type finding struct {
	Severity, Text, Check, File string
	Line, Column                int
	decision, claim             string
	// Links to what the finding is about: the claim on its decision's page
	// (or the decision, when the finding names no claim of it), and the
	// line in the code view, when the code view shows it.
	Claim, ClaimHref, Where, WhereHref string
}

// touchedView is one decision the change touches, for the index.
type touchedView struct {
	ID, Title, Href string
	Touches         []impact.Touch
}

type statusCount struct {
	Status string
	N      int
}

type dateGroup struct {
	Date      string
	Decisions []*dview
}

type model struct {
	Title, Commit, Generated string
	// NoCommit says why lines are not linked to a commit.
	NoCommit string
	// Findings are check's findings, each exactly as check prints it.
	Findings  []finding
	Attention []attention
	// Needs attention shows errors first, then warnings, then notes
	// (D99): check's findings by severity, each group in check's order;
	// prove's vacuous claims and the audit's problems are errors.
	Errors, Warnings, Notes []finding
	NErrors                 int
	Decisions               []*dview
	Statuses                []statusCount
	Timeline                []dateGroup
	Undated                 []*dview
	Edges                   []relation
	Graph                   graphView
	Tracker                 []audit.Row
	Problems                []audit.Problem
	Counts                  map[string]int
	Files                   []*fileView
	Single                  bool
	// Impact is what the change since Options.Base touches, when asked.
	Impact  *impact.Result
	Touched []touchedView
	// Links of the navigation: the index, the graph, the code view.
	IndexHref, GraphHref, CodeHref string
}

// CheckRepoURL says why u is not a repository URL the site may link code
// lines to: only an http or https URL with a host is, so a link never runs
// script or leaves the web (D83).
func CheckRepoURL(u string) error {
	pu, err := url.Parse(u)
	if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
		return fmt.Errorf("--repo-url %s is not an http or https URL: give the repository's web address, such as https://github.com/you/repo", strconv.Quote(u))
	}
	return nil
}

// builder gathers what the pages show, one page kind at a time: the
// decision pages (their keys, texts, dates, relations and claims), the
// graph, the code view and the index (D104).
type builder struct {
	o      Options
	single bool
	res    *check.Result
	rep    *audit.Report
	commit string
	p      *model
	src    *sources
	// byID and byFile are each decision's page, by id and by file: the
	// first file that claims an id has the id's page.
	byID, byFile map[string]*dview
	// pins are the lines claims rest on, per file and line; readBy the
	// claims whose Path reads a file; both make the code view.
	pins     map[string]map[int][]pinRef
	readBy   map[string][]pinRef
	relEdges []relEdge
}

// build runs check, prove and audit on the repository and gathers what the
// pages show; single says the pages are sections of one file, so every link
// is a fragment.
func build(o Options, single bool) (*model, error) {
	if o.RepoURL != "" {
		if err := CheckRepoURL(o.RepoURL); err != nil {
			return nil, err
		}
	}
	res, proofs, err := check.Prove(check.Options{Dir: o.Dir})
	if err != nil {
		return nil, err
	}
	b := newBuilder(o, single, res)
	if err := b.findings(); err != nil {
		return nil, err
	}
	// The decision pages.
	b.pageKeys()
	if err := b.texts(); err != nil {
		return nil, err
	}
	b.gitDated()
	b.statuses()
	b.relations()
	b.claims(proofs)
	b.problems()
	if err := b.impact(); err != nil {
		return nil, err
	}
	// The graph, the timeline and the code view, then what links them.
	p := b.p
	p.Graph = layout(b.relEdges)
	p.Timeline, p.Undated = timeline(p.Decisions)
	p.Files = codeFiles(b.pins, b.readBy, b.src, o.RepoURL, b.commit, b.href)
	linkFindings(p, b.byID, single)
	linkExcerpts(p, single)
	claimStates(p.Decisions)
	p.bySeverity()
	return p, nil
}

func newBuilder(o Options, single bool, res *check.Result) *builder {
	rep := audit.Build(res.Snapshot)
	commit, why := cleanHead(o.Dir)
	b := &builder{o: o, single: single, res: res, rep: rep, commit: commit, src: newSources(res.Snapshot),
		byID: map[string]*dview{}, byFile: map[string]*dview{},
		pins: map[string]map[int][]pinRef{}, readBy: map[string][]pinRef{}}
	b.p = &model{Title: "Decision register", Commit: commit, NoCommit: why, Generated: o.Now.UTC().Format(time.RFC3339),
		Tracker: rep.Rows, Problems: rep.Problems, Counts: map[string]int{}, Single: single}
	b.p.IndexHref, b.p.GraphHref, b.p.CodeHref = b.href("index"), b.href("graph"), b.href("code")
	if single {
		b.p.IndexHref = "#top"
	}
	return b
}

// href is the link to the page named key: its file, or in one file its
// section.
func (b *builder) href(key string) string {
	if b.single {
		return "#" + key
	}
	return key + ".html"
}

// findings is Needs attention: check's own list, the same findings printed
// by the same formatter (D44). prove's vacuous claims and the audit's
// problems follow it.
func (b *builder) findings() error {
	text, err := format.New("text", nil, "")
	if err != nil {
		return err
	}
	var checkFindings []diag.Finding
	for _, f := range b.res.Findings {
		if f.Check != ruleid.Vacuous {
			checkFindings = append(checkFindings, f)
		}
	}
	p := b.p
	for _, f := range checkFindings {
		// One finding at a time: each is one list item, even when a file
		// name carries a line break.
		var sb strings.Builder
		if err := text.Format(&sb, []diag.Finding{f}); err != nil {
			return err
		}
		p.Findings = append(p.Findings, finding{Severity: string(f.Severity), Text: strings.TrimSuffix(sb.String(), "\n"),
			Check: f.Check, File: f.Pos.Filename, Line: f.Pos.Line, Column: f.Pos.Column, decision: f.Decision, claim: f.Claim})
	}
	return nil
}

// pageKeys gives each decision its page. Pages are named by id; a second
// file claiming an id (a finding of its own) gets a numbered page.
func (b *builder) pageKeys() {
	used := map[string]bool{"index": true, "graph": true, "code": true, "top": true, "main": true}
	for _, d := range b.res.Decisions {
		key := pageKey(d.FileID)
		for i := 2; used[key]; i++ {
			key = pageKey(d.FileID) + "-" + strconv.Itoa(i)
		}
		used[key] = true
		dv := &dview{Key: key, Href: b.href(key), ID: d.FileID, Title: strings.TrimPrefix(d.Title, d.FileID+": "), Status: d.Status,
			File: d.Path, Residuals: d.Residuals, Adopted: d.Adopted, Date: d.Date}
		if dv.Status == "" {
			dv.Status = "unknown"
		}
		if dv.Title == "" {
			dv.Title = d.Path
		}
		if _, ok := b.byID[d.FileID]; !ok {
			b.byID[d.FileID] = dv
		}
		if _, ok := b.byFile[d.Path]; !ok {
			b.byFile[d.Path] = dv
		}
		b.p.Decisions = append(b.p.Decisions, dv)
	}
}

// refHref is the link to decision id's page, or "" when it has none.
func (b *builder) refHref(id string) string {
	if t := b.byID[id]; t != nil {
		return t.Href
	}
	return ""
}

// texts renders each decision's text, once every decision has its page,
// so a link to another decision's file becomes a link to its page.
func (b *builder) texts() error {
	for i, d := range b.res.Decisions {
		// Only a file check parsed is rendered: one it refused (CL008,
		// past the limits of D40, D70 and D90) is not given to goldmark
		// here either (D90).
		if doc := b.res.Doc(d.Path); doc != nil && doc.Src != nil && !d.Inline && d.Parsed {
			if err := b.text(b.p.Decisions[i], d, doc.Src); err != nil {
				return err
			}
		}
	}
	return nil
}

// text renders one decision's Markdown src into its page.
func (b *builder) text(dv *dview, d *register.Decision, src []byte) error {
	shift, prefix := 0, ""
	if b.single {
		shift = 2               // under the section's h3
		prefix = dv.Key + "-h-" // one page for all: each decision's heading ids its own
	}
	body, err := register.RenderHTMLLinks(src, shift, textLinks(b.o.Dir, d.Path, b.o.RepoURL, b.commit, prefix, b.byFile, b.single))
	if err != nil {
		return fmt.Errorf("render %s: %w", d.Path, err)
	}
	// D<n> is a link, and every heading has GitHub's id (D99).
	refHref := b.refHref
	body = headingIDs(linkDecisionRefs(body, d.FileID, refHref), prefix)
	dv.Body = template.HTML(body) // goldmark's escaping, without WithUnsafe (D83)
	dv.text = plainText(src)
	if dv.Date == "" {
		dv.Date = dateIn(src)
	}
	return nil
}

// gitDated dates a record that states no date by git: the commit that
// added it (D99).
func (b *builder) gitDated() {
	var undated []string
	for _, dv := range b.p.Decisions {
		if dv.Date == "" {
			undated = append(undated, dv.File)
		}
	}
	dates := gitDates(b.o.Dir, undated)
	if len(dates) == 0 {
		return
	}
	for _, dv := range b.p.Decisions {
		if dv.Date == "" && dates[dv.File] != "" {
			dv.Date, dv.DateFromGit = dates[dv.File], true
		}
	}
}

// statuses counts the decisions by status, the register's statuses in
// their order first, then any other by name.
func (b *builder) statuses() {
	n := map[string]int{}
	for _, dv := range b.p.Decisions {
		n[dv.Status]++
	}
	for _, st := range register.Statuses {
		if n[st] > 0 {
			b.p.Statuses = append(b.p.Statuses, statusCount{st, n[st]})
			delete(n, st)
		}
	}
	for _, st := range sortedKeys(n) {
		b.p.Statuses = append(b.p.Statuses, statusCount{st, n[st]})
	}
}

func (b *builder) refLink(r register.Ref) link {
	return link{Text: refString(r), Href: b.refHref(r.ID)}
}

// relations lists each decision's supersessions and relations on its
// page, and each relation once, its decisions linked, for the graph and
// its list (D99).
func (b *builder) relations() {
	edges := map[string]bool{}
	edge := func(s string, from, to string, verb string) {
		if edges[s] {
			return
		}
		edges[s] = true
		fromText, rest, _ := strings.Cut(s, " "+verb+" ")
		rl := relation{From: link{Text: fromText, Href: b.refHref(from)}, Verb: verb, To: link{Text: rest, Href: b.refHref(to)}}
		b.p.Edges = append(b.p.Edges, rl)
		if f, t := b.byID[from], b.byID[to]; f != nil && t != nil {
			b.relEdges = append(b.relEdges, relEdge{f, t, verb})
		}
	}
	for i, d := range b.res.Decisions {
		dv := b.p.Decisions[i]
		for _, r := range d.Supersedes {
			dv.Supersedes = append(dv.Supersedes, b.refLink(r))
			edge(fmt.Sprintf("%s supersedes %s", d.FileID, refString(r)), d.FileID, r.ID, "supersedes")
		}
		for _, r := range d.SupersededBy {
			dv.SupersededB = append(dv.SupersededB, b.refLink(r))
			edge(fmt.Sprintf("%s supersedes %s", r.ID, d.FileID), r.ID, d.FileID, "supersedes")
		}
		for _, rel := range d.Relations {
			verb := strings.ReplaceAll(rel.Verb, "-", " ")
			l := b.refLink(rel.Ref)
			l.Text = verb + " " + l.Text
			dv.Relations = append(dv.Relations, l)
			// The graph says each relation once, in the active voice.
			if inv := register.Inverse(rel.Verb); strings.HasSuffix(rel.Verb, "-by") && inv != "" {
				edge(fmt.Sprintf("%s %s %s", rel.Ref.ID, strings.ReplaceAll(inv, "-", " "), d.FileID), rel.Ref.ID, d.FileID, strings.ReplaceAll(inv, "-", " "))
			} else {
				edge(fmt.Sprintf("%s %s %s", d.FileID, verb, refString(rel.Ref)), d.FileID, rel.Ref.ID, verb)
			}
		}
	}
}

// trackerRows is the tracker ids each decision names: one line per issue
// and decision, with every role it is named in.
func (b *builder) trackerRows() map[string][]trackerView {
	rows := map[string][]trackerView{}
	for _, r := range b.rep.Rows {
		for _, nb := range r.NamedBy {
			tv := rows[nb.Decision]
			if n := len(tv); n > 0 && tv[n-1].ID == r.ID {
				tv[n-1].Role += ", " + nb.Role
				continue
			}
			rows[nb.Decision] = append(tv, trackerView{ID: r.ID, Status: r.Status, Title: r.Title, Role: nb.Role})
		}
	}
	return rows
}

// claims fills each decision's tracker ids and claims: each claim's state,
// the excerpts it rests on, and prove's word when it is vacuous; the lines
// and files claims rest on are gathered for the code view.
func (b *builder) claims(proofs []check.Proof) {
	vac := map[string]check.Proof{}
	for _, pr := range proofs {
		if pr.State == check.ProofVacuous {
			vac[pr.Decision+"/"+pr.Claim] = pr
		}
	}
	states := map[string][]check.ClaimState{}
	for _, st := range b.res.Claims {
		states[st.Decision] = append(states[st.Decision], st)
		b.p.Counts[st.State]++
	}
	tracker := b.trackerRows()
	for i, d := range b.res.Decisions {
		dv := b.p.Decisions[i]
		dv.Tracker = tracker[d.FileID]
		rows := b.claimRows(d, dv)
		for _, st := range states[d.FileID] {
			cv := b.claim(dv, st, rows)
			if pr, ok := vac[st.Decision+"/"+st.Claim]; ok {
				cv.Vacuous = fmt.Sprintf("stays green when %s (%s still satisfies it)", pr.Survivor, pr.Witness)
				b.p.Attention = append(b.p.Attention, attention{st.Decision, b.claimHref(dv, cv), st.Claim, "vacuous", cv.Vacuous})
				b.p.Counts["vacuous"]++
			}
			if st.State == check.StateFailed {
				dv.Failed++
			}
			dv.Claims = append(dv.Claims, cv)
		}
	}
}

// claimRows is decision d's claim rows by id, in the order written; the
// files a line-reading claim's Path matches are read by it in the code
// view.
func (b *builder) claimRows(d *register.Decision, dv *dview) map[string][]register.Claim {
	rows := map[string][]register.Claim{}
	for _, cl := range d.Claims {
		rows[cl.ID] = append(rows[cl.ID], cl)
		if cl.Path != "" && check.ReadsLines(cl.Kind) && glob.Valid(cl.Path) == "" {
			for _, f := range b.res.Match(cl.Path) {
				b.readBy[f] = append(b.readBy[f], pinRef{Text: d.FileID + "/" + cl.ID, Href: dv.Href})
			}
		}
	}
	return rows
}

func (b *builder) claimHref(dv *dview, cv *claimView) string {
	if b.single {
		return "#" + cv.HTMLID
	}
	return dv.Href + "#" + cv.HTMLID
}

// claim is the view of claim state st of decision dv: its row (the first
// of rows with its id, taken) and the lines it rests on, each pinned in
// the code view and the first maxExcerpts shown.
func (b *builder) claim(dv *dview, st check.ClaimState, rows map[string][]register.Claim) *claimView {
	cv := &claimView{ID: st.Claim, Kind: st.Kind, State: st.State, Message: st.Message, Failed: st.State == check.StateFailed,
		HTMLID: claimAnchor(dv, st.Claim)}
	claimHref := b.claimHref(dv, cv)
	if rs := rows[st.Claim]; len(rs) > 0 {
		cl := rs[0]
		rows[st.Claim] = rs[1:]
		cv.Path, cv.Anchor, cv.Require, cv.Why = cl.Path, cl.Anchor, cl.Require, cl.Why
	}
	for k, wh := range st.Where {
		h := codeLink(b.o.RepoURL, b.commit, wh)
		file, line, ok := splitWhere(wh)
		if !ok {
			continue
		}
		if b.pins[file] == nil {
			b.pins[file] = map[int][]pinRef{}
		}
		b.pins[file][line] = append(b.pins[file][line], pinRef{Text: dv.ID + "/" + st.Claim, Href: claimHref, Failed: st.State == check.StateFailed})
		if k < maxExcerpts {
			cv.Excerpts = append(cv.Excerpts, excerpt{Where: wh, Href: h, Lines: b.src.around(file, line), file: file, line: line})
		} else {
			cv.More++
		}
	}
	return cv
}

// problems adds the audit's problems to Needs attention.
func (b *builder) problems() {
	for _, pr := range b.rep.Problems {
		b.p.Attention = append(b.p.Attention, attention{Decision: pr.Decision, Href: b.refHref(pr.Decision), Claim: pr.ID, What: pr.Kind, Message: pr.Message})
	}
}

// impact is what the change since Options.Base touches, when asked: on
// the index and on each touched decision's page (D84).
func (b *builder) impact() error {
	o := b.o
	if o.Base == "" {
		return nil
	}
	r, err := impact.Compute(context.Background(), impact.Options{Dir: o.Dir, Base: o.Base})
	if err != nil {
		return err
	}
	b.p.Impact = &r
	for _, td := range r.Decisions {
		tv := touchedView{ID: td.ID, Title: td.Title, Touches: td.Touches}
		if dv := b.byID[td.ID]; dv != nil {
			dv.Touches, tv.Href = td.Touches, dv.Href
		}
		b.p.Touched = append(b.p.Touched, tv)
	}
	return nil
}

// claimStates counts each decision's claims by state, for the summary at
// the top of its page: failed, pending, ok and retired first, then any
// other by name (D99).
func claimStates(ds []*dview) {
	for _, d := range ds {
		n := map[string]int{}
		for _, cv := range d.Claims {
			n[cv.State]++
		}
		for _, st := range []string{check.StateFailed, check.StatePending, check.StateOK, check.StateRetired} {
			if n[st] > 0 {
				d.States = append(d.States, statusCount{st, n[st]})
				delete(n, st)
			}
		}
		for _, st := range sortedKeys(n) {
			d.States = append(d.States, statusCount{st, n[st]})
		}
	}
}

// bySeverity groups Needs attention: errors first, then warnings, then
// notes (D99); prove's vacuous claims and the audit's problems count as
// errors.
func (p *model) bySeverity() {
	for _, f := range p.Findings {
		switch diag.Severity(f.Severity) {
		case diag.SeverityError:
			p.Errors = append(p.Errors, f)
		case diag.SeverityWarning:
			p.Warnings = append(p.Warnings, f)
		default:
			p.Notes = append(p.Notes, f)
		}
	}
	p.NErrors = len(p.Errors) + len(p.Attention)
}

// textLinks is what a relative link in the text of the decision in file
// from points to on the site (D83). A link to another decision's file is a
// link to its page. A link to another file of the repository is a link to
// that file at the commit, with --repo-url on a clean tree; otherwise, and
// for a link that leaves the repository or names no file, the link's text
// is written alone. Absolute URLs and fragments are kept.
func textLinks(dir, from, repoURL, commit, prefix string, byFile map[string]*dview, single bool) register.Links {
	return func(dest string) (string, bool) {
		if dest == "" {
			return dest, true
		}
		if frag, ok := strings.CutPrefix(dest, "#"); ok {
			return "#" + prefix + frag, true // the heading's id on this page (D99)
		}
		u, err := url.Parse(dest)
		if err != nil {
			return "", false
		}
		if u.Scheme != "" || u.Host != "" || u.Opaque != "" {
			return dest, true
		}
		rel := u.Path
		if rel == "" { // ?query alone: nothing on the site answers it
			return "", false
		}
		if strings.HasPrefix(rel, "/") {
			rel = path.Clean(strings.TrimLeft(rel, "/")) // from the repository's root, as GitHub reads it
		} else {
			rel = path.Join(path.Dir(from), rel)
		}
		if rel == ".." || strings.HasPrefix(rel, "../") || strings.ContainsRune(rel, 0) {
			return "", false
		}
		if dv := byFile[rel]; dv != nil {
			switch {
			case u.Fragment == "":
				return dv.Href, true
			case single:
				return "#" + dv.Key + "-" + u.EscapedFragment(), true
			}
			return dv.Href + "#" + u.EscapedFragment(), true
		}
		if repoURL == "" || commit == "" {
			return "", false
		}
		fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			return "", false
		}
		kind := "blob"
		if rel == "." || fi.IsDir() {
			kind = "tree"
		}
		out := strings.TrimSuffix(repoURL, "/") + "/" + kind + "/" + commit
		if rel != "." {
			out += "/" + rel
		}
		if u.Fragment != "" {
			out += "#" + u.EscapedFragment()
		}
		return out, true
	}
}

// linkExcerpts links each line an excerpt of a claim rests on to that
// line in the code view, whose row links back to the claim (D99).
func linkExcerpts(p *model, single bool) {
	rows := map[string]string{}
	for _, fv := range p.Files {
		for _, pl := range fv.Lines {
			h := fv.Href + "#" + pl.Anchor
			if single {
				h = "#" + pl.Anchor
			}
			rows[fv.Path+":"+strconv.Itoa(pl.N)] = h
		}
	}
	for _, d := range p.Decisions {
		for _, cv := range d.Claims {
			for i := range cv.Excerpts {
				x := &cv.Excerpts[i]
				x.CodeHref = rows[x.file+":"+strconv.Itoa(x.line)]
			}
		}
	}
}

// linkFindings links each of check's findings to the claim it is about, on
// its decision's page, and to its line in the code view when the code view
// shows that line.
func linkFindings(p *model, byID map[string]*dview, single bool) {
	lines := map[string]string{}
	for _, fv := range p.Files {
		for _, pl := range fv.Lines {
			lines[fv.Path+":"+strconv.Itoa(pl.N)] = pl.Anchor
		}
	}
	frag := func(page, id string) string {
		if single {
			return "#" + id
		}
		return page + ".html#" + id
	}
	for i := range p.Findings {
		f := &p.Findings[i]
		if dv := byID[f.decision]; dv != nil {
			f.Claim, f.ClaimHref = dv.ID, dv.Href
			for _, cv := range dv.Claims {
				if f.claim != "" && cv.ID == f.claim {
					f.Claim, f.ClaimHref = dv.ID+"/"+cv.ID, frag(dv.Key, cv.HTMLID)
					break
				}
			}
		}
		if f.File != "" && f.Line > 0 {
			where := f.File + ":" + strconv.Itoa(f.Line)
			if a := lines[where]; a != "" {
				f.Where, f.WhereHref = where, frag(strings.SplitN(a, "-L", 2)[0], a)
			}
		}
	}
}

// pageKey is an id as a file name: letters, digits, '-' and '_' only, so
// no id of a hostile register names a path outside the site.
func pageKey(id string) string {
	var b strings.Builder
	for _, r := range id {
		if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
		if b.Len() >= 64 {
			break
		}
	}
	if b.Len() == 0 {
		return "decision"
	}
	return b.String()
}

func claimAnchor(d *dview, claim string) string { return d.Key + "-" + pageKey(claim) }

func splitWhere(wh string) (string, int, bool) {
	i := strings.LastIndexByte(wh, ':')
	if i < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(wh[i+1:])
	if err != nil || n < 1 {
		return "", 0, false
	}
	return wh[:i], n, true
}

var dateRE = register.LazyRE(`(?im)^[\s*|#>-]*date[\s*:|]+(\d{4}-\d{2}-\d{2})\b`)

// dateIn finds a record's date where MADR, adr-tools and log4brains write
// it (front matter, "Date: …", "* Date: …", a metadata table), in its
// first 4 KiB.
func dateIn(src []byte) string {
	if m := dateRE().FindSubmatch(src[:min(len(src), 4096)]); m != nil {
		return string(m[1])
	}
	return ""
}

func timeline(ds []*dview) ([]dateGroup, []*dview) {
	by := map[string][]*dview{}
	var undated []*dview
	for _, d := range ds {
		if d.Date == "" {
			undated = append(undated, d)
			continue
		}
		by[d.Date] = append(by[d.Date], d)
	}
	var out []dateGroup
	for _, day := range sortedKeys(by) {
		out = append(out, dateGroup{day, by[day]})
	}
	return out, undated
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// sources reads the code files claims rest on, once each, through the
// snapshot's reader (no symlinks, within the repository, at most
// check.MaxFileSize).
type sources struct {
	snap  *snapshot.Snapshot
	lines map[string][]string
}

func newSources(s *snapshot.Snapshot) *sources {
	return &sources{snap: s, lines: map[string][]string{}}
}

func (s *sources) file(rel string) []string {
	if l, ok := s.lines[rel]; ok {
		return l
	}
	b, err := s.snap.Repo.ReadFile(rel, check.MaxFileSize)
	var l []string
	if err == nil {
		l = strings.Split(string(bytes.ToValidUTF8(b, []byte("\uFFFD"))), "\n")
	}
	s.lines[rel] = l
	return l
}

func clip(s string) string {
	s = strings.TrimRight(s, "\r")
	if r := []rune(s); len(r) > maxLineRunes {
		return string(r[:maxLineRunes]) + "…"
	}
	return s
}

// around is the anchored line n of rel with excerptContext lines either side.
func (s *sources) around(rel string, n int) []xline {
	l := s.file(rel)
	var out []xline
	for i := max(1, n-excerptContext); i <= min(len(l), n+excerptContext); i++ {
		out = append(out, xline{N: i, Text: clip(l[i-1]), Hit: i == n})
	}
	return out
}

func codeFiles(pins map[string]map[int][]pinRef, readBy map[string][]pinRef, src *sources, repoURL, commit string, href func(string) string) []*fileView {
	all := map[string]bool{}
	for f := range pins {
		all[f] = true
	}
	for f := range readBy {
		all[f] = true
	}
	var out []*fileView
	for i, f := range sortedKeys(all) {
		fv := &fileView{Path: f, Key: "code-" + strconv.Itoa(i+1), ReadBy: readBy[f]}
		fv.Href = href(fv.Key)
		var lines []string
		if len(pins[f]) > 0 { // a file only read by a Path is not read again
			lines = src.file(f)
		}
		ns := make([]int, 0, len(pins[f]))
		for n := range pins[f] {
			ns = append(ns, n)
		}
		slices.Sort(ns)
		if len(ns) > maxPinnedRows {
			fv.More, ns = len(ns)-maxPinnedRows, ns[:maxPinnedRows]
		}
		for _, n := range ns {
			pl := pinnedLine{N: n, Claims: pins[f][n], Href: codeLink(repoURL, commit, f+":"+strconv.Itoa(n)), Anchor: fv.Key + "-L" + strconv.Itoa(n)}
			for _, c := range pl.Claims {
				pl.Failed = pl.Failed || c.Failed
			}
			if n <= len(lines) {
				pl.Text = clip(lines[n-1])
			}
			fv.Lines = append(fv.Lines, pl)
		}
		out = append(out, fv)
	}
	return out
}

func refString(r register.Ref) string {
	if r.Clause != "" {
		return r.ID + "(" + r.Clause + ")"
	}
	return r.ID
}

// codeLink turns path:line into a link to the line at the commit, when a
// repository URL is given.
func codeLink(repoURL, commit, where string) string {
	if repoURL == "" || commit == "" {
		return ""
	}
	i := strings.LastIndexByte(where, ':')
	if i < 0 {
		return strings.TrimSuffix(repoURL, "/") + "/blob/" + commit + "/" + path.Clean(where)
	}
	return fmt.Sprintf("%s/blob/%s/%s#L%s", strings.TrimSuffix(repoURL, "/"), commit, where[:i], where[i+1:])
}

// cleanHead returns HEAD when the work tree is clean, so a line link at
// that commit shows the line the report describes; with uncommitted
// changes (or no commit) it returns "" and why, and lines are not linked
// (D44).
func cleanHead(dir string) (string, string) {
	cmd := exec.Command("git", "rev-parse", "HEAD")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", "(no commit: lines are not linked)"
	}
	st := exec.Command("git", "status", "--porcelain", "--untracked-files=no")
	st.Dir = dir
	dirty, err := st.Output()
	if err != nil || len(bytes.TrimSpace(dirty)) > 0 {
		return "", "(uncommitted changes: lines are not linked)"
	}
	return strings.TrimSpace(string(out)), ""
}

// searchIndex is the index the search boxes read (D99): per decision, its
// page key, its link, id, title and status, what it refers to as written
// (its file, the paths, anchors and requires of its claims, the tracker ids
// it names) and its text as written, whitespace collapsed, at most
// maxIndexBytes. The script matches a query's words whole and split, so
// `dk-1vo`, `internal/impact`, `--base` and `16 << 20` find what names them.
func searchIndex(res []*dview) []byte {
	idx := make([][7]string, 0, len(res))
	for _, d := range res {
		refs := []string{d.File}
		for _, c := range d.Claims {
			refs = append(refs, c.Path, c.Anchor, c.Require)
		}
		for _, t := range d.Tracker {
			refs = append(refs, t.ID)
		}
		refs = append(refs, d.Residuals...)
		idx = append(idx, [7]string{d.Key, d.Href, d.ID, d.Title, d.Status, strings.Join(slices.DeleteFunc(refs, func(s string) bool { return s == "" }), " "), d.text})
	}
	b, _ := json.Marshal(idx) // strings only: cannot fail; <, > and & are escaped for a script
	return b
}

// plainText is a decision's Markdown as the search reads it: the front
// matter dropped, whitespace collapsed, at most maxIndexBytes, cut at a
// rune.
func plainText(src []byte) string {
	s := string(bytes.ToValidUTF8(src, []byte("\uFFFD")))
	if rest, ok := strings.CutPrefix(s, "---\n"); ok {
		if i := strings.Index(rest, "\n---\n"); i >= 0 {
			s = rest[i+5:]
		}
	}
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > maxIndexBytes {
		cut := maxIndexBytes
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	return s
}

// File is one file of the site: its name in the output directory and its
// bytes.
type File struct {
	Name string
	Data []byte
}

// Site builds the report as a directory's files: index.html, one page per
// decision, graph.html, code.html and one page per code file, and
// search.js, the index the search box reads (D83).
func Site(o Options) ([]File, error) {
	p, err := build(o, false)
	if err != nil {
		return nil, err
	}
	idx := searchIndex(p.Decisions)
	js := append(append([]byte("window.CLAIMSLINT_INDEX="), idx...), ";\n"+searchJS...)
	// The pages, in order; each is rendered on its own (templates and the
	// model are only read), on every core.
	type job struct {
		name, title, body string
		data              any
		script            bool
	}
	jobs := []job{
		{"index.html", p.Title, "index", p, true},
		{"graph.html", "Supersession graph · " + p.Title, "graph", pageData{M: p, H: 1}, true},
		{"code.html", "Code view · " + p.Title, "code", pageData{M: p, H: 1}, true},
	}
	// Every page carries the search (D99).
	for _, d := range p.Decisions {
		jobs = append(jobs, job{d.Key + ".html", d.ID + ": " + d.Title, "decision", pageData{M: p, D: d, H: 1}, true})
	}
	for _, f := range p.Files {
		jobs = append(jobs, job{f.Key + ".html", f.Path + " · Code view", "file", pageData{M: p, F: f, H: 1}, true})
	}
	files := make([]File, len(jobs), len(jobs)+1)
	errs := make([]error, len(jobs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(jobs)) {
		wg.Go(func() {
			for k := int(next.Add(1) - 1); k < len(jobs); k = int(next.Add(1) - 1) {
				j := jobs[k]
				var b, out bytes.Buffer
				if errs[k] = tmpl().ExecuteTemplate(&b, j.body, j.data); errs[k] != nil {
					continue
				}
				errs[k] = tmpl().ExecuteTemplate(&out, "layout", layoutData{M: p, Title: j.title, Content: template.HTML(b.String()),
					CSP: csp("'self'"), Script: j.script})
				files[k] = File{Name: j.name, Data: out.Bytes()}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	files = append(files, File{Name: "search.js", Data: js})
	return files, nil
}

// siteGitignore is the .gitignore report writes into a site directory it
// makes inside a git work tree: everything in it, itself included.
const siteGitignore = "# Written by claimslint report: the site is built, not committed.\n*\n"

// inWorkTree reports whether git sees dir inside a work tree.
func inWorkTree(dir string) bool {
	cmd := exec.Command("git", "rev-parse", "--is-inside-work-tree")
	cmd.Dir = dir
	out, err := cmd.Output()
	return err == nil && strings.TrimSpace(string(out)) == "true"
}

// gitIgnores reports whether git ignores name in dir.
func gitIgnores(dir, name string) bool {
	cmd := exec.Command("git", "check-ignore", "-q", "--", name)
	cmd.Dir = dir
	return cmd.Run() == nil
}

// Manifest is the file in a site's directory that lists, one a line, the
// files the report wrote there. The next report into the directory removes
// the files it lists that it does not write again, and nothing else (D83).
const Manifest = ".claimslint-report"

// maxManifest bounds the manifest read back: it is hostile input.
const maxManifest = 1 << 20

const manifestHead = "# claimslint report: the files it wrote in this directory, one a line.\n" +
	"# The next report here removes those it does not write again; nothing else.\n"

// manifestName reports whether a manifest line is a name the report may
// remove or write: one plain file name in the directory, never a path, a
// dot name or the manifest itself.
func manifestName(s string) bool {
	return s != "" && len(s) <= 255 && !strings.ContainsAny(s, "/\\\x00") && !strings.HasPrefix(s, ".") && s != Manifest
}

// readManifest returns the names the manifest in the site's directory
// (root; shown to the user as dir) lists, and whether it has one. A
// manifest that is not a regular file (a symlink, a directory) or is too
// large is refused; lines that are not plain file names are ignored.
func readManifest(root *os.Root, dir string) (map[string]bool, bool, error) {
	p := filepath.Join(dir, Manifest)
	fi, err := root.Lstat(Manifest)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", format.Escape(p), err)
	}
	if !fi.Mode().IsRegular() {
		return nil, false, fmt.Errorf("%s is not a regular file (a link or a directory): remove it, or give a new or empty directory", format.Escape(p))
	}
	if fi.Size() > maxManifest {
		return nil, false, fmt.Errorf("%s is %d bytes, more than a report writes (at most %d): remove it, or give a new or empty directory", format.Escape(p), fi.Size(), maxManifest)
	}
	f, err := root.Open(Manifest)
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", format.Escape(p), err)
	}
	defer f.Close()
	// The file opened is the one looked at, not a link put there since.
	if got, err := f.Stat(); err != nil || !os.SameFile(fi, got) {
		return nil, false, fmt.Errorf("%s changed while report read it: run report again", format.Escape(p))
	}
	b, err := io.ReadAll(io.LimitReader(f, maxManifest))
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", format.Escape(p), err)
	}
	return parseManifest(b), true, nil
}

// parseManifest returns the names a manifest lists: one a line, '#' lines
// and lines that are not plain file names ignored.
func parseManifest(b []byte) map[string]bool {
	names := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSuffix(l, "\r"); strings.HasPrefix(l, "#") || !manifestName(l) {
			continue
		}
		names[l] = true
	}
	return names
}

func manifest(names []string) []byte {
	return []byte(manifestHead + strings.Join(names, "\n") + "\n")
}

// WriteDir writes the site into dir, exactly (D83). dir is created when it
// does not exist. A directory that holds files but no manifest is refused,
// as is one where a page this run writes is a file no earlier report
// wrote: nothing of the user's is overwritten. Otherwise the pages and the
// manifest are written, and the regular files the old manifest lists that
// this run does not write are removed; links, directories and files the
// manifest never listed are kept.
func WriteDir(dir string, o Options) ([]File, error) {
	files, err := Site(o)
	if err != nil {
		return nil, err
	}
	root, created, closeDir, err := openSiteDir(dir)
	if err != nil {
		return nil, err
	}
	defer closeDir()
	old, here, err := siteOwned(root, dir)
	if err != nil {
		return nil, err
	}
	if err := replaceSite(root, dir, files, old, here); err != nil {
		return nil, err
	}
	// A site inside a git work tree is built, not committed: a directory
	// report made gets a .gitignore of its own that ignores it all; one it
	// did not make, and git does not ignore, gets a note (D99).
	if inWorkTree(dir) {
		switch {
		case created:
			if err := createIn(root, ".gitignore", []byte(siteGitignore), 0o644); err != nil {
				return nil, fmt.Errorf("write the site: %w", err)
			}
		case o.Notes != nil && !gitIgnores(dir, "index.html"):
			fmt.Fprintf(o.Notes, "claimslint: note: %s is inside the git work tree and git does not ignore it: add it to .gitignore, or write the site outside the repository\n", format.Escape(dir))
		}
	}
	return files, nil
}

// openSiteDir opens the site's directory dir, made when it does not
// exist, and says whether it made it; closeDir closes what it opened.
// The directory and every file in it are opened beneath the directory
// that holds it, through no link (D98); "." and ".." are the user's own
// directories, opened as given.
func openSiteDir(dir string) (root *os.Root, created bool, closeDir func(), err error) {
	if b := filepath.Base(filepath.Clean(dir)); b == "." || b == ".." {
		if root, err = os.OpenRoot(dir); err != nil {
			return nil, false, nil, fmt.Errorf("open the site's directory: %w", err)
		}
		return root, false, func() { root.Close() }, nil
	}
	parent, name, err := openOut(dir, true)
	if err != nil {
		return nil, false, nil, err
	}
	if _, err := parent.Lstat(name); errors.Is(err, os.ErrNotExist) {
		if err := parent.Mkdir(name, 0o755); err != nil {
			parent.Close()
			return nil, false, nil, fmt.Errorf("create the site's directory: %w", err)
		}
		created = true
	}
	if root, err = openSame(parent, name); err != nil {
		parent.Close()
		return nil, false, nil, fmt.Errorf("open the site's directory: %w", err)
	}
	return root, created, func() { root.Close(); parent.Close() }, nil
}

// siteOwned is the files the manifest in the site's directory lists (old:
// those an earlier report wrote) and the names the directory holds (here).
// A directory that holds files but no manifest is refused.
func siteOwned(root *os.Root, dir string) (old, here map[string]bool, err error) {
	old, has, err := readManifest(root, dir)
	if err != nil {
		return nil, nil, err
	}
	ents, err := readSiteDir(root)
	if err != nil {
		return nil, nil, err
	}
	if !has && len(ents) > 0 {
		return nil, nil, fmt.Errorf("%s is not empty and holds no %s (the list of files an earlier report wrote there), so report would overwrite files it did not write: give a new or empty directory, or remove its files", format.Escape(dir), Manifest)
	}
	here = map[string]bool{}
	for _, e := range ents {
		here[e.Name()] = true
	}
	return old, here, nil
}

func readSiteDir(root *os.Root) ([]os.DirEntry, error) {
	d, err := root.Open(".")
	if err != nil {
		return nil, fmt.Errorf("read the site's directory: %w", err)
	}
	ents, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		return nil, fmt.Errorf("read the site's directory: %w", err)
	}
	return ents, nil
}

// replaceSite writes files into the site's directory (holding here) and removes the
// regular files the old manifest lists that this run does not write. A
// page this run writes that is a file no earlier report wrote is refused,
// before anything is written.
func replaceSite(root *os.Root, dir string, files []File, old, here map[string]bool) error {
	names := make([]string, 0, len(files))
	writes := map[string]bool{}
	for _, f := range files {
		if here[f.Name] && !old[f.Name] {
			return fmt.Errorf("%s holds %s, which %s does not list (no report wrote it): remove or move it, or give a new or empty directory", format.Escape(dir), f.Name, Manifest)
		}
		names = append(names, f.Name)
		writes[f.Name] = true
	}
	// The manifest first lists the old names and the new, so a run cut
	// short leaves nothing it wrote unlisted; the last write lists only
	// the new.
	all := slices.Clone(names)
	for _, n := range sortedKeys(old) {
		if !writes[n] {
			all = append(all, n)
		}
	}
	if err := createIn(root, Manifest, manifest(all), 0o644); err != nil {
		return fmt.Errorf("write the site: %w", err)
	}
	for _, f := range files {
		if err := createIn(root, f.Name, f.Data, 0o644); err != nil {
			return fmt.Errorf("write the site: %w", err)
		}
	}
	if err := removeStale(root, dir, old, writes); err != nil {
		return err
	}
	if err := createIn(root, Manifest, manifest(names), 0o644); err != nil {
		return fmt.Errorf("write the site: %w", err)
	}
	return nil
}

// removeStale removes the pages of the earlier report (old) this run does
// not write: regular files only; links and directories are kept.
func removeStale(root *os.Root, dir string, old, writes map[string]bool) error {
	for _, n := range sortedKeys(old) {
		if writes[n] {
			continue
		}
		p := filepath.Join(dir, n)
		if fi, err := root.Lstat(n); err == nil && fi.Mode().IsRegular() {
			if err := root.Remove(n); err != nil {
				return fmt.Errorf("remove %s, a page of the earlier report: %w", format.Escape(p), err)
			}
		}
	}
	return nil
}

// Write writes the whole site as one self-contained HTML file: every page
// a section of it, every link a fragment, the search index inline (D83).
func Write(w io.Writer, o Options) error {
	p, err := build(o, true)
	if err != nil {
		return err
	}
	idx := searchIndex(p.Decisions)
	script := "window.CLAIMSLINT_INDEX=" + string(idx) + ";\n" + searchJS
	var b bytes.Buffer
	if err := tmpl().ExecuteTemplate(&b, "single", p); err != nil {
		return err
	}
	return tmpl().ExecuteTemplate(w, "layout", layoutData{M: p, Title: p.Title, Content: template.HTML(b.String()),
		CSP: csp(scriptHash(script)), Inline: template.JS(script), Script: true})
}

type layoutData struct {
	M       *model
	Title   string
	Content template.HTML
	CSP     string
	Inline  template.JS
	Script  bool
}

type pageData struct {
	M *model
	D *dview
	F *fileView
	H int // the level of the page's heading: 1 on its own page, 2 as a section
}

// csp is the pages' Content-Security-Policy: nothing is fetched but the
// site's own script, so a page cannot reach the network when viewed, even
// through a link a hostile decision wrote (D83).
func csp(script string) string {
	return "default-src 'none'; script-src " + script + "; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
}

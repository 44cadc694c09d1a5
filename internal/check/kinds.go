package check

import (
	"errors"
	"fmt"
	"go/token"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/glob"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/ruleid"
	"github.com/claimslint/claimslint/internal/snapshot"
)

// Kind is one claim kind (D47). A kind is one value in the registry: it
// documents itself, validates and readies a row (Prepare), concludes the
// claim once the files it asked for have been scanned (Evaluate), and
// lists the in-memory mutants `prove` tries (Mutants). The engine, prove,
// --base, audit and list call these methods; none of them switches on a
// kind's name. Adding a kind is one file (listgen writes Kinds), one txtar
// script and its paragraph of documentation (D103).
type Kind interface {
	// Name is the word written in the Kind column.
	Name() string
	// Doc is the kind's paragraph in `claimslint explain CL007`: lines of
	// at most 68 columns, without indentation.
	Doc() string
	// Prepare validates c's row, reporting problems with c.malformed
	// (CL006), and readies it: a kind that reads code lines sets c.lines,
	// one that reads files sets c.files. It returns false when the claim
	// cannot be evaluated.
	Prepare(c *claim) bool
	// Evaluate concludes c after the scan: c.fail for each way it does not
	// hold, c.hold for each place it rests on.
	Evaluate(c *claim)
	// Mutants lists the edits prove applies, one at a time, to show the
	// claim can fail; ok is false for kinds prove does not mutate.
	Mutants(c *claim) (ms []mutant, ok bool)
	// ProveDoc says, in lines of at most 68 columns, what the edits of
	// Mutants are, for CL009's documentation; "" for a kind prove does
	// not mutate.
	ProveDoc() string
}

// issueNamer is implemented by kinds whose row names tracker issues; the
// tracker rule leaves those rows to the claim, and audit lists them.
type issueNamer interface {
	Issues(c register.Claim) []string
}

// kindOf returns the kind named name, or nil.
func kindOf(name string) Kind {
	for _, k := range Kinds {
		if k.Name() == name {
			return k
		}
	}
	return nil
}

// KindNames lists the kinds, in the order of Kinds.
func KindNames() []string {
	out := make([]string, len(Kinds))
	for i, k := range Kinds {
		out[i] = k.Name()
	}
	return out
}

// kindList is "present, anchored, anchored-every, absent, allow, exec, tracker, count, before, first or agree".
func kindList() string { return orList(KindNames(), "or") }

// modeKind is implemented by kinds that read files' modes in the git
// index rather than their lines (exec): impact lists a mode change under
// them.
type modeKind interface {
	readsModes()
}

// ReadsModes reports whether the kind a Kind cell names reads the modes of
// the files of Path, so a change of mode touches its claims. An unknown
// kind reads none. Callers ask the kind, never compare its name (D47).
func ReadsModes(cell string) bool {
	name, _ := SplitKind(cell)
	_, ok := kindOf(name).(modeKind)
	return ok
}

// forbiddingKind is implemented by kinds whose Anchor is forbidden rather
// than required (absent): a line added that matches it is what breaks the
// claim.
type forbiddingKind interface {
	forbids()
}

// Forbids reports whether the kind a Kind cell names forbids its Anchor, so
// impact looks for added lines that match it. An unknown kind forbids
// nothing.
func Forbids(cell string) bool {
	name, _ := SplitKind(cell)
	_, ok := kindOf(name).(forbiddingKind)
	return ok
}

// ReadsLines reports whether the kind a Kind cell names reads the lines of
// the files of Path (it takes a scope): `list --lexers` lists the files of
// those claims. An unknown kind reads nothing.
func ReadsLines(cell string) bool {
	name, _ := SplitKind(cell)
	_, ok := kindOf(name).(scopedKind)
	return ok
}

// ClaimIssues returns the tracker ids a claim row names through its kind,
// or nil.
func ClaimIssues(c register.Claim) []string {
	if k, ok := kindOf(c.Kind).(issueNamer); ok {
		return k.Issues(c)
	}
	return nil
}

// claimsDoc is CL007's documentation: one paragraph per kind of Kinds.
func claimsDoc() string {
	var b strings.Builder
	b.WriteString("The claims of accepted decisions hold.\n\n")
	for _, k := range Kinds {
		for i, l := range strings.Split(strings.TrimRight(k.Doc(), "\n"), "\n") {
			name := ""
			if i == 0 {
				name = k.Name()
				if len(name) >= 10 {
					// A long name (anchored-every) gets a line of its own,
					// so it never runs into its paragraph.
					fmt.Fprintf(&b, "%s\n", name)
					name = ""
				}
			}
			fmt.Fprintf(&b, "%-10s%s\n", name, l)
		}
	}
	b.WriteString(`
Code lines: a lexer per language family, chosen by file name, extension or
shebang (claimslint list --lexers names it), finds comments, strings and
tests; Go's comments are exactly go/scanner's. A comment byte is never code,
nor is a line wholly inside a string literal, except in Go (D51). Test files
(*_test.go, anything under testdata/ or tests/) and test regions (Rust's
#[cfg(test)] items) count only when Path names tests. The kinds that read
lines take a scope suffix, kind:scope: code (the default), any, comment or
prose (D38), or test: code lines with test regions and test files counted
(D64).

Status gates claims: claims of accepted decisions fail the run; claims of
proposed decisions that do not hold yet are reported as pending and never fail
it; claims of rejected, deprecated and superseded decisions are not evaluated.

An accepted decision with no claims is a finding, unless its front matter
says why: claims: none, <reason>. Adopted records without an id: are exempt.`)
	return b.String()
}

// Scopes of the text a line kind matches, written after the kind:
// present:comment (D38).
const (
	ScopeCode    = "code"    // code lines: comments masked (the default)
	ScopeAny     = "any"     // every line as written
	ScopeComment = "comment" // the comment text of each line
	ScopeProse   = "prose"   // Markdown/HTML paragraphs, list items, headings, table cells
	// ScopeTest reads code lines as ScopeCode does, and counts the lines
	// of test regions and test files too (D64): the scope of a claim that
	// pins a test cell inside #[cfg(test)] mod tests.
	ScopeTest = "test"
	// ScopeAll reads each line as written, test regions and test files
	// too: what `git grep` reads, the scope of a sweep of the whole tree
	// (D66).
	ScopeAll = "all"
)

// Scopes lists the scopes a Kind cell may name, in the order messages and
// documentation give them.
var Scopes = []string{ScopeCode, ScopeTest, ScopeAny, ScopeAll, ScopeComment, ScopeProse}

// SplitKind splits a Kind cell into the kind's name and its scope ("" when
// the cell names none).
func SplitKind(cell string) (kind, scope string) {
	kind, scope, _ = strings.Cut(strings.ToLower(strings.TrimSpace(cell)), ":")
	return kind, scope
}

// scopedKind is implemented by the kinds that read lines and so take a
// scope suffix.
type scopedKind interface {
	scoped()
}

// unit names what the claim's scope reads, for messages.
func (c *claim) unit() string {
	switch c.scope {
	case ScopeAny, ScopeAll:
		return "line"
	case ScopeComment:
		return "comment line"
	case ScopeProse:
		return "prose unit"
	case ScopeTest:
		return "code or test line"
	}
	return "code line"
}

// outside says where the anchor matched outside the claim's scope, and
// which of those matches to list: inside strings only (a here-document, a
// multi-line string: scope any reads them), else the comments or code
// lines, and also, in also, the strings among them.
func (c *claim) outside() (where string, hits []hit, also string) {
	var str, other, two []hit
	for _, h := range c.comment {
		switch {
		case h.twoWays:
			two = append(two, h)
		case h.inString:
			str = append(str, h)
		default:
			other = append(other, h)
		}
	}
	switch {
	case c.scope == ScopeProse:
		return "only outside prose", c.comment, ""
	case len(other) == 0 && len(str) == 0:
		return twoWaysWhere, two, ""
	case len(two) > 0:
		also = fmt.Sprintf(" and %s (%s)", twoWaysWhere, listHits(two, 3))
	}
	if len(other) == 0 {
		return stringWhere, str, also
	}
	if len(str) > 0 {
		also += fmt.Sprintf(" and inside a string (%s)", listHits(str, 3))
	}
	if c.scope == ScopeComment {
		return "only on code lines, outside comments", other, also
	}
	return "only in comments", other, also
}

// twoWaysWhere is where an anchor is that only one of a file's two
// readings carries (D89).
const twoWaysWhere = "only on a line the lexer reads two ways, and in scope in one reading only"

// stringWhere is where an anchor is that only a string carries, a string
// that code lines do not read; anyAdvice is the scope that reads it (D76).
const (
	stringWhere = "only inside a string (a here-document or multi-line string)"
	anyAdvice   = "scope any reads lines as written"
)

// claim is one claim row being evaluated: its row, its kind, what the kind
// prepared, what the scan found, and the outcome.
type claim struct {
	c    *register.Claim // the row, shared with the decision: never written through
	d    *register.Decision
	kind Kind
	snap *snapshot.Snapshot
	// scope is the Kind cell's suffix, ScopeCode when it has none.
	scope string
	// oversize: a pattern of the row compiles past its limit or the
	// run's (D90); the row is refused and nothing of it is compiled.
	oversize bool
	// anchorTree is the Anchor as sizePatterns parsed it (nil for a
	// plain literal, which is not parsed): prepareLines reads it (D92).
	anchorTree *parsedPattern

	// files are the universe files the claim reads (its Path glob).
	files []string
	// lines, when set, asks the scan for the code lines of files that
	// match an anchor.
	lines *lineSpec

	mu      sync.Mutex
	costly  []hit    // lines the anchor was not run on: over maxMatchCost
	code    []hit    // anchor on a code line, Require satisfied (when checked at scan)
	reqFail []hit    // anchor on a code line, Require not satisfied
	comment []hit    // anchor only in a comment
	test    []hit    // anchor on a code line of an excluded test file
	nCode   int      // all anchor hits on code lines (for ambiguity)
	unread  []unread // files of Path the scan could not read (D68)
	gone    []string // files of Path the scan found deleted from the work tree (dropGone)

	// read reads a file of the universe; prove replaces it with an
	// overlay that holds the mutant.
	read func(rel string, max int64) ([]byte, error)

	// except is an allow row's exception, once prepared (D66).
	except *exception
	// budget is the run's (nil outside a run); cut is set when it ran out
	// before the claim was prepared, and done counts the files of the
	// claim the scan finished (D70).
	budget *budget
	cut    bool
	cutAt  overrun
	done   atomic.Int64

	// rg is what the scan found of the claim's regions (D94); t is what
	// the kinds of D95 tally as lines are recorded.
	rg regionState
	t  tally

	bad   []diag.Finding // CL006
	fails []diag.Finding // CL007
	where []string
}

// lineSpec is what a line-reading kind asks of the scan.
type lineSpec struct {
	// anchor is matched per line; nil when the anchor is a literal (exact),
	// until re compiles it.
	anchor  *regexp.Regexp
	exact   *exactAnchor // the anchor when it is a literal: matched as bytes
	reOnce  sync.Once
	pattern string // the anchor's source, for filterRE
	filter  *regexp.Regexp
	once    sync.Once
	literal []byte // every anchor match contains it; may be empty
	require *regexp.Regexp
	negate  bool
	// tests: Path names test files explicitly, so test files count.
	tests bool
	// skipTests: test files are not scanned at all unless tests.
	skipTests bool
	// cost is the states of the Anchor's and the Require's compiled
	// programs (anchorCost and the Require's): reading a line of n bytes
	// costs up to n*cost steps (D70). A literal anchor costs none.
	cost, anchorCost int
	// requireAtScan: Require is checked on each hit line during the scan
	// (present); otherwise the kind checks it when it evaluates (anchored).
	requireAtScan bool
	// scope is the text the anchor is matched against (D38); skip holds
	// the claim tables' pattern cells, which are never prose.
	scope string
	skip  snapshot.Spans
	// allows are the allow rows that excuse lines of an absent claim
	// (D66), applied as each line is recorded.
	allows []exception
	// within are the claim's regions, outer first (D94): it reads the
	// lines of the innermost blocks only.
	within []*regionPat
	// first: the kind reads the first code line of each block (D95).
	first bool
	// ownRequire: the kind reads the Require cell itself (D95); it is no
	// pattern of the line.
	ownRequire bool
	// value: the Require compares the Anchor's capture as a value,
	// written (?= value) (require_value.go).
	value *valueSpec
	// skipCells: a match inside a claim table's pattern cell (skip) is
	// not a hit (absent).
	skipCells bool
	// onHit is called, holding the claim's lock, for each line in scope
	// the anchor matched (D95's tallies).
	onHit func(c *claim, h hit)
}

func newClaim(s *snapshot.Snapshot, d *register.Decision, row register.Claim) *claim {
	c := &claim{}
	c.init(s, d, &row)
	return c
}

// init makes c the claim of row, of decision d, in snapshot s. row is
// shared, not copied: what changes it for this claim alone (expand, a
// before claim's pattern) changes a copy.
func (c *claim) init(s *snapshot.Snapshot, d *register.Decision, row *register.Claim) {
	name, scope := SplitKind(row.Kind)
	c.c, c.d, c.snap, c.kind, c.scope, c.read = row, d, s, kindOf(name), scope, s.Repo.ReadFile
}

func (c *claim) name() string { return c.c.Decision + " " + c.c.ID }

// malformed reports a CL006 finding about the claim's row.
func (c *claim) malformed(pos token.Position, format string, args ...any) {
	c.bad = append(c.bad, diag.Finding{Pos: pos, Check: ruleid.Claims, Severity: diag.SeverityError, Message: fmt.Sprintf(format, args...)})
}

// fail records one way the claim does not hold (CL007), gated by its
// decision's status, and returns the finding so the caller can add
// related positions.
func (c *claim) fail(pos token.Position, format string, args ...any) *diag.Finding {
	sev := severityFor(c.d.Status)
	msg := fmt.Sprintf(format, args...)
	if sev != diag.SeverityError {
		msg = "pending: " + msg
	}
	c.fails = append(c.fails, diag.Finding{Pos: pos, Check: ruleid.Claim, Decision: c.d.FileID, Claim: c.c.ID, Severity: sev, Message: msg})
	return &c.fails[len(c.fails)-1]
}

// severityFor gates a claim finding by its decision's status.
func severityFor(status string) diag.Severity {
	if status == "accepted" {
		return diag.SeverityError
	}
	return diag.SeverityNote
}

// hold records a place the claim rests on: path:line, or a path.
func (c *claim) hold(where string) { c.where = append(c.where, where) }

// compileRE compiles a claim pattern, reporting a CL006 finding at its cell.
func (c *claim) compileRE(col, pat string) (*regexp.Regexp, bool) {
	re, err := regexp.Compile(pat)
	if err != nil {
		c.malformed(c.c.CellPos(col), "%s %s: %s `%s` does not compile: %v (patterns are Go RE2; escape literal ( ) [ ] . with \\)",
			c.c.Decision, c.c.ID, strings.ToUpper(col[:1])+col[1:], pat, unwrapRE(err))
		return nil, false
	}
	return re, true
}

func unwrapRE(err error) string {
	if e, ok := errors.AsType[*syntax.Error](err); ok {
		return string(e.Code) + ": `" + e.Expr + "`"
	}
	return err.Error()
}

// prepareFiles validates the Path glob and lists the files it matches.
func (c *claim) prepareFiles() bool {
	return c.matchFiles(c.snap.MatchWithin)
}

// matchFiles is prepareFiles with match finding the files: a kind whose
// scan reads its files takes them from the index alone (MatchIndexed), and
// the scan drops those deleted from the work tree (dropGone, D92).
func (c *claim) matchFiles(match func(glob string, stop func() bool) ([]string, bool)) bool {
	if msg := glob.Valid(c.c.Path); msg != "" {
		c.malformed(c.c.CellPos("path"), "%s: Path %s", c.name(), msg)
		return false
	}
	at := overrun{claim: c, doing: "matching Path " + quoteRE(c.c.Path), pos: c.c.CellPos("path")}
	files, ok := match(c.c.Path, func() bool { return c.budget.stop(at) })
	if !ok {
		c.cut, c.cutAt = true, at // not evaluated: the budget's finding says so
		return false
	}
	c.files = files
	return true
}

// prepareLines readies a kind that matches Anchor (and Require) on the
// code lines of the files of Path.
func (c *claim) prepareLines(spec *lineSpec) bool {
	row := c.c
	if row.Path == "" || row.Anchor == "" {
		c.malformed(row.Pos, "%s: a %s claim needs Path and Anchor", c.name(), row.Kind)
		return false
	}
	var ok bool
	spec.pattern = row.Anchor
	if exact, isLit := c.literalAnchor(row.Anchor); isLit {
		// A literal anchor (between ^ and $ or not) is searched for as
		// bytes: no regular expression is compiled unless prove asks for
		// one, so ten thousand literal claims cost no compile (D56).
		spec.exact = &exact
		spec.literal = exact.text
	} else {
		if spec.anchor, ok = c.compileRE("anchor", row.Anchor); !ok {
			return false
		}
		if spec.anchor.MatchString("") {
			// An empty match satisfies every line: the claim could never
			// fail. The usual cause is an unescaped | in a table cell.
			c.malformed(row.CellPos("anchor"), "%s: Anchor `%s` matches the empty string, so every line matches it (to match a literal |, write \\\\| in the cell)", c.name(), row.Anchor)
			return false
		}
		lit, insts := c.analyseAnchor(row.Anchor)
		spec.literal = []byte(lit)
		// The matcher tracks up to insts states at every byte of a line,
		// with a literal prefix or without one: `a[a-y]{500}[A-P]` costs
		// as much on a line of a's as `[a-y]{500}[A-P]` does (D70).
		spec.anchorCost = max(insts, 1)
	}
	if !c.prepareValueRequire(spec) {
		return false
	}
	if req := row.Require; req != "" && !spec.ownRequire {
		if strings.HasPrefix(req, "!") {
			spec.negate = true
			req = req[1:]
		}
		if spec.require, ok = c.compileRE("require", req); !ok {
			return false
		}
		_, insts := analyse(req)
		spec.cost = max(insts, 1)
	}
	spec.cost += spec.anchorCost
	if row.Within != "" && !c.prepareWithin(spec) {
		return false
	}
	if !c.matchFiles(c.snap.MatchIndexed) {
		return false
	}
	// :test counts test regions and test files (D64); before it, a Path
	// naming tests was the only way, and it still counts them.
	spec.tests = namesTests(row.Path) || c.scope == ScopeTest || c.scope == ScopeAll
	spec.scope = c.scope
	if spec.scope == ScopeProse {
		spec.skip = c.snap.ClaimCells()
	}
	c.lines = spec
	return true
}

// undone reports whether the run's budget ran out before the claim was
// evaluated: before it was prepared, or before the scan finished its files.
func (c *claim) undone() bool {
	if c.cut {
		return true
	}
	return c.lines != nil && c.budget.spent() && int(c.done.Load()) < len(c.files)
}

// judged runs the steps every line kind takes before it judges its hits:
// no files or no region is already a finding; files it could not read are
// reported (D68); an anchor the budget did not run fails the claim (D70).
// It reports whether the claim is judged already, so Evaluate stops.
func (c *claim) judged() bool {
	if c.noFiles() || c.regionFailed() {
		return true
	}
	c.notRead()
	return c.notRun()
}

// notRun fails the claim when the anchor was not run on some line or file
// (D70) and nothing else satisfied it; it reports whether it did.
func (c *claim) notRun() bool {
	if len(c.costly) == 0 {
		return false
	}
	h := c.costly[0]
	where := h.String()
	if h.all {
		where = h.file
	}
	c.fail(h.pos(), "Anchor %s was not run on %s: %s; anchor on a literal, or narrow Path", quoteRE(c.c.Anchor), where, h.why)
	return true
}

// notRead fails the claim for the files of its Path the scan could not
// read (D68): an absent, anchored or anchored-every claim holds only over
// every line of Path, and a file it could not read may hold the line that
// breaks it. One finding, at the Path cell, names the files (the first
// few in the message, each as a related position).
func (c *claim) notRead() {
	if len(c.unread) == 0 {
		return
	}
	var parts []string
	for i, u := range c.unread {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(c.unread)-3))
			break
		}
		parts = append(parts, u.file+" ("+u.why+")")
	}
	what, it := "a file", "it"
	if len(c.unread) > 1 {
		what, it = fmt.Sprintf("%d files", len(c.unread)), "them"
	}
	f := c.fail(c.c.CellPos("path"), "Path %s names %s claimslint could not read: %s; an %s claim cannot hold over lines it never read: narrow Path to leave %s out, or make %s readable", quoteRE(c.c.Path), what, strings.Join(parts, ", "), c.kind.Name(), it, it)
	for _, u := range c.unread {
		f.Related = append(f.Related, diag.Related{Pos: token.Position{Filename: u.file}, Message: "not read: " + u.why})
	}
}

// states names what a line costs per byte, for messages.
func (s *lineSpec) states() string {
	if s.cost == s.anchorCost {
		return fmt.Sprintf("the anchor's %d states", s.cost)
	}
	return fmt.Sprintf("the %d states of its Anchor and Require", s.cost)
}

// noFiles fails the claim when its Path matches no file.
func (c *claim) noFiles() bool {
	if len(c.files) > 0 {
		return false
	}
	c.fail(c.c.CellPos("path"), "Path %s matches no file", quoteRE(c.c.Path))
	return true
}

// find returns the first match of the anchor in line as [start, end), or
// nil.
func (s *lineSpec) find(line []byte) []int {
	if s.exact != nil {
		return s.exact.find(line)
	}
	return s.anchor.FindIndex(line)
}

// match reports whether the anchor matches somewhere in line.
func (s *lineSpec) match(line []byte) bool {
	if s.exact != nil {
		return s.exact.find(line) != nil
	}
	return s.anchor.Match(line)
}

// findString is find on a string (a prose unit).
func (s *lineSpec) findString(text string) []int {
	if s.exact != nil {
		return s.exact.find([]byte(text))
	}
	return s.anchor.FindStringIndex(text)
}

// re returns the anchor as a compiled regular expression (prove's samples
// need one), compiling a literal anchor on first use.
func (s *lineSpec) re() *regexp.Regexp {
	s.reOnce.Do(func() {
		if s.anchor == nil {
			s.anchor = regexp.MustCompile(s.pattern) // it parsed in exactLiteral
		}
	})
	return s.anchor
}

// filterRE is the anchor as a whole-file prefilter, (?m), compiled only for
// the claims that have no required literal.
func (s *lineSpec) filterRE() *regexp.Regexp {
	s.once.Do(func() { s.filter = regexp.MustCompile("(?m)" + s.pattern) })
	return s.filter
}

func (c *claim) requireOK(line string) bool {
	if c.lines.value != nil {
		return c.lines.value.holds(c.lines, line) != c.lines.negate
	}
	if c.lines.require == nil {
		return true
	}
	return c.lines.require.MatchString(line) != c.lines.negate
}

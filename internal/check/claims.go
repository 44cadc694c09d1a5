package check

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"go/token"
	"path"

	"runtime"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/claimslint/claimslint/internal/codeline"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/repo"
	"github.com/claimslint/claimslint/internal/snapshot"
)

// MaxFileSize is the largest file read as code; larger files are skipped
// with a note.
const MaxFileSize = 4 << 20

// maxHits bounds the hits kept per claim, so an anchor that matches every
// line of a large tree cannot exhaust memory.
const maxHits = 64

// hit is one line on which a claim's anchor matched.
type hit struct {
	file string
	line int
	col  int
	// text is the line (or prose unit) as the claim's scope reads it.
	text string
	// last is the last line of a prose unit that spans lines, else 0.
	last int
}

func (h hit) pos() token.Position {
	return token.Position{Filename: h.file, Line: h.line, Column: h.col}
}

func (h hit) String() string { return fmt.Sprintf("%s:%d", h.file, h.line) }

func (c *claim) record(list *[]hit, h hit) {
	if len(*list) < maxHits {
		*list = append(*list, h)
	}
}

// isTestFile reports whether rel is test code, which claims ignore unless
// their Path names test files.
func isTestFile(rel string) bool {
	if strings.HasSuffix(rel, "_test.go") {
		return true
	}
	for _, seg := range strings.Split(path.Dir(rel), "/") {
		if seg == "testdata" || seg == "tests" {
			return true
		}
	}
	return false
}

func namesTests(glob string) bool {
	return strings.Contains(glob, "_test") || strings.Contains(glob, "testdata") || strings.Contains(glob, "tests/")
}

// prepared is the claims of one run, each row validated once (CL006) and
// readied by its kind.
type prepared struct {
	all []*claim // every row of every parsed decision, in order
	bad []diag.Finding
}

// prepare validates every claim row once per run.
func (r *Result) prepare() *prepared {
	if r.prepared != nil {
		return r.prepared
	}
	p := &prepared{}
	for _, d := range r.Decisions {
		if !d.Parsed {
			continue
		}
		for _, row := range d.Claims {
			c := newClaim(r.Snapshot, d, row)
			if !c.prepareRow() {
				c.kind = nil // cannot be evaluated
			}
			p.bad = append(p.bad, c.bad...)
			p.all = append(p.all, c)
		}
	}
	r.prepared = p
	return p
}

// prepareRow checks the Kind cell and lets the kind validate the rest.
func (c *claim) prepareRow() bool {
	switch {
	case c.c.Kind == "":
		c.malformed(c.c.CellPos("kind"), "%s has no Kind: write %s", c.name(), kindList())
		return false
	case c.kind == nil:
		c.malformed(c.c.CellPos("kind"), "%s: unknown kind %q: write %s", c.name(), c.c.Kind, kindList())
		return false
	}
	if _, ok := c.kind.(scopedKind); !ok && c.scope != "" {
		c.malformed(c.c.CellPos("kind"), "%s: kind %s takes no scope (%q): only the kinds that read lines do", c.name(), c.kind.Name(), c.c.Kind)
		return false
	}
	switch c.scope {
	case "":
		c.scope = ScopeCode
	case ScopeCode, ScopeAny, ScopeComment, ScopeProse:
	default:
		c.malformed(c.c.CellPos("kind"), "%s: unknown scope %q in %q: write code, any, comment or prose", c.name(), c.scope, c.c.Kind)
		return false
	}
	return c.kind.Prepare(c)
}

// claimTableRun (CL006) reports the rows that cannot be evaluated.
func claimTableRun(p *Pass) error {
	for _, f := range p.res.prepare().bad {
		p.Report(f)
	}
	return nil
}

// claimRun (CL007) evaluates every claim of every decision whose status is
// evaluated. Files are read once each, in parallel, and every claim that
// touches a file is matched in that one pass.
func claimRun(p *Pass) error {
	noClaimsRule(p)
	r := p.res
	only := p.Opts.Decision
	var live []*claim
	for _, c := range r.prepare().all {
		d := c.d
		if only != "" && d.FileID != only {
			continue
		}
		retired := d.Status != "accepted" && d.Status != "proposed"
		state := ClaimState{Decision: d.FileID, Status: d.Status, Claim: c.c.ID, Kind: c.c.Kind, Row: fmt.Sprintf("%s:%d", c.c.Pos.Filename, c.c.Pos.Line), Where: []string{}}
		switch {
		case retired:
			state.State = StateRetired
			r.Claims = append(r.Claims, state)
			continue
		case c.kind == nil:
			state.State = StateFailed
			if d.Status == "proposed" {
				state.State = StatePending
			}
			state.Message = "claim row is malformed (CL006)"
			r.Claims = append(r.Claims, state)
			continue
		}
		live = append(live, c)
	}
	r.scan(live)
	for _, c := range live {
		st := c.conclude()
		r.Claims = append(r.Claims, st)
		for _, f := range c.fails {
			p.Report(f)
		}
	}
	return nil
}

// conclude lets the claim's kind evaluate it and returns its state.
func (c *claim) conclude() ClaimState {
	c.fails, c.where = nil, nil
	c.kind.Evaluate(c)
	st := ClaimState{Decision: c.d.FileID, Status: c.d.Status, Claim: c.c.ID, Kind: c.c.Kind,
		Row: fmt.Sprintf("%s:%d", c.c.Pos.Filename, c.c.Pos.Line), Where: append([]string{}, c.where...), lines: c.lines != nil}
	switch {
	case len(c.fails) == 0:
		st.State = StateOK
	case c.fails[0].Severity == diag.SeverityError:
		st.State = StateFailed
		st.Message = c.fails[0].Message
	default:
		st.State = StatePending
		st.Message = c.fails[0].Message
	}
	return st
}

// scan reads every file some present or anchored claim touches, once, on
// all cores.
func (r *Result) scan(all []*claim) {
	// Claims are grouped by their Path glob first, so indexing costs
	// globs x files, not claims x files: a thousand claims on one glob
	// touch each file's entry once.
	byGlob := map[string][]*claim{}
	var globs []string
	for _, cc := range all {
		if cc.lines == nil {
			continue
		}
		if _, ok := byGlob[cc.c.Path]; !ok {
			globs = append(globs, cc.c.Path)
		}
		byGlob[cc.c.Path] = append(byGlob[cc.c.Path], cc)
	}
	fileGlobs := map[string][]byte{} // the file's glob indexes, 4 bytes each
	var order []string
	for gi, g := range globs {
		for _, f := range byGlob[g][0].files {
			if _, ok := fileGlobs[f]; !ok {
				order = append(order, f)
			}
			fileGlobs[f] = binary.LittleEndian.AppendUint32(fileGlobs[f], uint32(gi))
		}
	}
	// Files touched by the same globs share one claim list and, when it is
	// long enough, one multi-literal matcher.
	type group struct {
		ccs  []*claim
		once sync.Once
		mm   *multiMatcher
		idx  []int // per claim of the set: its literal's index, or -1
	}
	groups := map[string]*group{}
	groupOf := make(map[string]*group, len(order))
	for _, f := range order {
		k := string(fileGlobs[f])
		g := groups[k]
		if g == nil {
			g = &group{}
			for i := 0; i < len(k); i += 4 {
				g.ccs = append(g.ccs, byGlob[globs[binary.LittleEndian.Uint32([]byte(k[i:i+4]))]]...)
			}
			groups[k] = g
		}
		groupOf[f] = g
	}
	work := make(chan string)
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range work {
				g := groupOf[f]
				var mm *multiMatcher
				var idx []int
				if len(g.ccs) >= multiMin {
					g.once.Do(func() {
						var lits [][]byte
						for _, cc := range g.ccs {
							if len(cc.lines.literal) > 0 {
								g.idx = append(g.idx, len(lits))
								lits = append(lits, cc.lines.literal)
							} else {
								g.idx = append(g.idx, -1)
							}
						}
						g.mm = newMultiMatcher(lits)
					})
					mm, idx = g.mm, g.idx
				}
				if note := scanFile(r.Repo.ReadFile, f, g.ccs, mm, idx); note != "" {
					r.note(note)
				}
			}
		}()
	}
	for _, f := range order {
		work <- f
	}
	close(work)
	wg.Wait()
}

// multiMin is the number of claims on one file from which one
// multi-literal pass beats a bytes.Contains per claim.
const multiMin = 4

// scanFile matches every claim in ccs against one file. It returns a note
// when the file is skipped.
func scanFile(read func(rel string, max int64) ([]byte, error), rel string, ccs []*claim, mm *multiMatcher, litIdx []int) string {
	src, err := read(rel, MaxFileSize)
	if err != nil {
		for _, cc := range ccs {
			cc.mu.Lock()
			cc.skipped = append(cc.skipped, rel)
			cc.mu.Unlock()
		}
		return fmt.Sprintf("skipped %s: %v", rel, describeSkip(err))
	}
	if bytes.IndexByte(src[:min(len(src), 8000)], 0) >= 0 {
		return fmt.Sprintf("skipped %s: binary file", rel)
	}
	if !utf8.Valid(src) {
		return fmt.Sprintf("skipped %s: not valid UTF-8", rel)
	}
	var regions codeline.Regions
	codeline.Scan(rel, src, &regions)
	masked := regions.Masked(src)
	test := isTestFile(rel)
	// Lines are split once per file and shared by every claim that needs
	// them, not once per claim.
	var codeLines, rawLines, commentLines []string
	var starts []int
	split := func() {
		if codeLines == nil {
			codeLines, rawLines = splitLines(masked), splitLines(src)
			starts = lineStarts(src)
		}
	}
	var units []register.Unit
	unitsRead := false
	var found []bool
	if mm != nil {
		found = mm.match(src)
	}
	for k, cc := range ccs {
		spec := cc.lines
		if test && !spec.tests && spec.skipTests {
			continue
		}
		if spec.scope == ScopeProse {
			if !unitsRead {
				units, unitsRead = register.ProseUnits(rel, src), true
				split()
			}
			cc.mu.Lock()
			for _, u := range units {
				if spec.skip.Covers(rel, u.Start, u.End) {
					continue // a claim table's pattern cell is not prose
				}
				loc := spec.anchor.FindStringIndex(u.Text)
				if loc == nil {
					continue
				}
				ln := sort.SearchInts(starts, u.Start+1) - 1
				h := hit{rel, ln + 1, u.Start - starts[ln] + 1, u.Text, sort.SearchInts(starts, u.End)}
				if (test || regions.InTest(u.Start)) && !spec.tests {
					cc.record(&cc.test, h)
					continue
				}
				cc.inScope(h)
			}
			cc.mu.Unlock()
			continue
		}
		var lines []int // the lines to try, nil for all
		if len(spec.literal) > 0 {
			// Every match contains the literal, so only the lines that
			// contain it can match: the regexp runs on those lines alone,
			// never on the whole file.
			if found != nil {
				if !found[litIdx[k]] {
					continue
				}
			} else if !bytes.Contains(src, spec.literal) {
				continue
			}
			split()
			lines = candidateLines(src, spec.literal, starts)
		} else {
			if !spec.filter.Match(masked) && !spec.filter.Match(src) {
				continue
			}
			split()
		}
		if spec.scope == ScopeComment && commentLines == nil {
			commentLines = splitLines(commentText(src, &regions))
		}
		cc.mu.Lock()
		try := func(ln int) {
			var scoped string
			switch spec.scope {
			case ScopeAny:
				scoped = rawLines[ln]
			case ScopeComment:
				scoped = commentLines[ln]
			default:
				scoped = codeLines[ln]
			}
			loc := spec.anchor.FindStringIndex(scoped)
			if loc == nil {
				// A match outside the scope (in a comment for a code
				// claim, in code for a comment claim) is kept for the
				// message.
				if raw := rawLines[ln]; len(cc.comment) < maxHits && spec.anchor.MatchString(raw) {
					cc.record(&cc.comment, hit{file: rel, line: ln + 1, col: 1, text: raw})
				}
				return
			}
			h := hit{file: rel, line: ln + 1, col: loc[0] + 1, text: scoped}
			if (test || regions.InTest(starts[ln]+loc[0])) && !spec.tests {
				cc.record(&cc.test, h)
				return
			}
			cc.inScope(h)
		}
		if lines != nil {
			for _, ln := range lines {
				try(ln)
			}
		} else {
			for ln := range codeLines {
				try(ln)
			}
		}
		cc.mu.Unlock()
	}
	return ""
}

// inScope records a line (or prose unit) of the claim's scope on which
// its anchor matched. The caller holds cc.mu.
func (cc *claim) inScope(h hit) {
	cc.nCode++
	if !cc.lines.requireAtScan || cc.requireOK(h.text) {
		cc.record(&cc.code, h)
	} else {
		cc.record(&cc.reqFail, h)
	}
}

// commentText returns src with every byte outside a comment blanked
// (newlines kept): the text a comment-scoped claim reads (D38).
func commentText(src []byte, r *codeline.Regions) []byte {
	out := make([]byte, len(src))
	for i, c := range src {
		if c == '\n' || c == '\r' {
			out[i] = c
		} else {
			out[i] = ' '
		}
	}
	for _, sp := range r.Spans {
		if sp.Kind == codeline.Comment {
			copy(out[sp.Start:sp.End], src[sp.Start:sp.End])
		}
	}
	return out
}

// lineStarts returns the byte offset of the start of each line of src.
func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// candidateLines returns, in order and once each, the 0-based lines of src
// that contain lit.
func candidateLines(src, lit []byte, starts []int) []int {
	var out []int
	for off := 0; ; {
		i := bytes.Index(src[off:], lit)
		if i < 0 {
			return out
		}
		pos := off + i
		ln := sort.SearchInts(starts, pos+1) - 1
		if len(out) == 0 || out[len(out)-1] != ln {
			out = append(out, ln)
		}
		// Continue after this line: one visit per line is enough.
		if ln+1 < len(starts) {
			off = starts[ln+1]
		} else {
			return out
		}
	}
}

// splitLines splits src at '\n' and drops a trailing '\r' from each line;
// index i is line i+1.
func splitLines(src []byte) []string {
	lines := strings.Split(string(src), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

func describeSkip(err error) string {
	switch {
	case errors.Is(err, repo.ErrTooLarge):
		return fmt.Sprintf("larger than %d MiB", MaxFileSize>>20)
	case errors.Is(err, repo.ErrNotRegular):
		return strings.TrimPrefix(err.Error(), repo.ErrNotRegular.Error()+": ") + ", not followed"
	}
	return snapshot.Describe(err).Error()
}

func quoteRE(s string) string { return "`" + s + "`" }

func listHits(hs []hit, max int) string {
	var parts []string
	for i, h := range hs {
		if i == max {
			parts = append(parts, fmt.Sprintf("and %d more", len(hs)-max))
			break
		}
		parts = append(parts, h.String())
	}
	return strings.Join(parts, ", ")
}

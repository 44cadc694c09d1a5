package migrate

import (
	"fmt"
	"io"
	"path"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/codeline"
	"github.com/claimslint/claimslint/internal/register"
)

// Options say where a migration reads and writes.
type Options struct {
	// Dir is the repository root; scripts and row paths are relative to it.
	Dir string
	// ClaimsDir is where claims files are written: ClaimsDir/D47.md.
	ClaimsDir string
	// TrackerExport and Prefixes let a row that greps the export for an
	// id become a tracker claim.
	TrackerExport string
	Prefixes      []string
	// gates are all the gates of one migration: a pattern a claim writes is
	// kept out of reach of every one's sweeps.
	gates []*Gate
}

// Claim is one translated row, ready to be written.
type Claim struct {
	ID      string
	Kind    string // with its scope suffix, e.g. present:comment
	Path    string
	Anchor  string
	Require string
	Why     string
	// Within is the region pattern of a claim confined to a block (D94).
	Within string
	// pathspec: Path is a git pathspec (a file or a directory), made a
	// glob on the tree when translated.
	pathspec bool
	// Note explains a choice the row did not spell out (a scope, a kind).
	Note string
}

// Translation is a gate and the claims it becomes.
type Translation struct {
	Gate   *Gate
	Claims []Claim
	// File is the claims file, repository-relative.
	File string
}

// Translate turns a gate's rows into claims. Each row's kind and scope are
// chosen on the tree under opts.Dir by check's own evaluation (D64): the
// candidate claims are evaluated there as check evaluates them, with the
// same lexers, regions and scopes, and the narrowest that holds is kept.
// So a translated claim holds on the tree it was translated from whenever
// some claim can; when none can, the note says so.
func Translate(g *Gate, opts Options) *Translation {
	t := &Translation{Gate: g}
	if g.Decision == "" {
		return t
	}
	t.File = path.Join(opts.ClaimsDir, g.Decision+".md")
	var globs []string
	for _, r := range g.Rows {
		globs = append(globs, r.Path)
		if r.Layout == LayoutFamily {
			globs = append(globs, "**")
		}
	}
	tr, err := check.NewTrial(opts.Dir, globs)
	pr := &translator{g: g, opts: opts, tr: tr, trialErr: err}
	for _, r := range g.Rows {
		if r.Layout == LayoutFamily {
			cs, reason := pr.translateSweep(r)
			if reason != "" {
				g.Skipped = append(g.Skipped, Skipped{Code: r.Code, Line: r.Line, Rule: r.Rule, Reason: reason})
				continue
			}
			t.Claims = append(t.Claims, cs...)
			continue
		}
		if r.Layout == LayoutStructural {
			t.Claims = append(t.Claims, pr.translateStructural(r)...)
			continue
		}
		c, reason := translateRow(r, opts, tr, err)
		if reason != "" {
			g.Skipped = append(g.Skipped, Skipped{Code: r.Code, Line: r.Line, Reason: reason})
			continue
		}
		t.Claims = append(t.Claims, dropOverlap(c))
	}
	t.Claims = append(t.Claims, ownKnobs(g, tr)...)
	t.Claims = append(t.Claims, Claim{ID: "X1", Kind: "exec", Path: g.Script,
		Why:  "the gate runs as a bare path in CI, so it must be 100755 in the git index",
		Note: "added: the script's own executable bit"})
	return t
}

func translateRow(r Row, opts Options, tr *check.Trial, trialErr error) (Claim, string) {
	if c, reason, ok := translateRule(r, opts); ok { // D63: the rows beyond D34's
		return allowSeveral(tr, r, c, reason), reason
	}
	c := Claim{ID: r.Code, Path: r.Path, Why: r.Why}
	anchor, err := EREToRE2(r.Anchor)
	if err != nil {
		return c, fmt.Sprintf("pattern `%s`: %v", r.Anchor, err)
	}
	c.Anchor = anchor
	var notes []string
	if !r.Presence() {
		req := r.Regex
		neg := strings.HasPrefix(req, "!")
		req = strings.TrimPrefix(req, "!")
		conv, err := EREToRE2(req)
		if err != nil {
			return c, fmt.Sprintf("requirement `%s`: %v", r.Regex, err)
		}
		if line, ok := linePattern(conv); ok {
			notes = append(notes, fmt.Sprintf("Require %s was written for git grep -n output (path:lineno:text); as a line pattern it is %s", quote(conv), quote(line)))
			conv = line
		}
		if neg {
			conv = "!" + conv
		}
		c.Require = conv
	}
	if regexp.MustCompile(anchor).MatchString("") {
		return c, fmt.Sprintf("pattern %q matches the empty string, so it matches every line", r.Anchor)
	}
	if r.Presence() && opts.TrackerExport != "" && path.Clean(r.Path) == path.Clean(opts.TrackerExport) {
		if id := trackerID(r.Anchor, opts.Prefixes); id != "" {
			c.Kind, c.Anchor, c.Path = "tracker", id, ""
			c.Note = "the row greps the tracker export for " + id
			return c, ""
		}
	}
	kind := "present"
	if !r.Presence() {
		kind = "anchored-every"
		if commentOnly(c.Require, r.Path) {
			// A negative pair: every line spelling the anchor is a comment,
			// which is no code line spelling it (D64).
			notes = append(notes, fmt.Sprintf("Require %s accepts only comment lines: no code line may match the anchor", quote(c.Require)))
			kind, c.Require = "absent", ""
		}
	}
	if tr != nil {
		if n := tr.MaxN(); n > 0 {
			for _, pat := range []*string{&c.Anchor, &c.Require} {
				if live, what := liveRange(*pat, n); what != "" {
					notes = append(notes, fmt.Sprintf("%s: written %s (check fills it from the register, claimslint new moves it)", what, quote(live)))
					*pat = live
				}
			}
		}
	}
	c.Kind = kind
	switch {
	case tr == nil:
		notes = append(notes, fmt.Sprintf("the scope is the default, code lines: the tree cannot be read (%v)", trialErr))
	default:
		scope, note := chooseScope(tr, c)
		if scope != "" {
			c.Kind += ":" + scope
		}
		if note != "" {
			notes = append(notes, note)
		}
		if kind == "present" && c.Require == "" {
			// A presence the tree satisfies on several lines says "some line
			// does", and fails only when every such line is gone: the
			// every-line kind with no Require says exactly that, and prove
			// deletes those lines at once, where present would call the
			// claim vacuous for a line the row never singled out (D66).
			row := register.Claim{ID: c.ID, Kind: c.Kind, Path: c.Path, Anchor: c.Anchor}
			if got := tr.Eval(row); got.State == check.StateOK && len(got.Held) > 1 {
				c.Kind = strings.Replace(c.Kind, "present", "anchored-every", 1)
				notes = append(notes, fmt.Sprintf("matches %s today: some line must, so anchored-every with no Require, which prove disproves by deleting them all", listAt(got.Held)))
			}
		}
	}
	c.Note = strings.Join(notes, "; ")
	return c, ""
}

func quote(s string) string { return "`" + s + "`" }

// ownKnobs are the claims that the gate's own knobs carry the live range
// (D66). A sibling's rows pin its knobs, so claimslint new moves them; the
// newest gate's knobs no sibling pins, and the team's cascade bumps them
// by hand. A claim on each makes new move it and check fail a cascade that
// leaves one behind.
func ownKnobs(g *Gate, tr *check.Trial) []Claim {
	if tr == nil || tr.MaxN() == 0 {
		return nil
	}
	var out []Claim
	for _, k := range g.knobs {
		// The value without its quotes: an alternation grows at new
		// (D\(55\|54\| becomes D\(56\|55\|54\|), so what follows it is
		// not part of the requirement.
		v := k.value
		if len(v) >= 2 && (v[0] == '\'' || v[0] == '"') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		}
		req, what := liveRange(regexp.QuoteMeta(v), tr.MaxN())
		if what == "" {
			continue
		}
		c := Claim{ID: k.name, Kind: "anchored-every", Path: g.Script, Anchor: "^" + regexp.QuoteMeta(k.name) + "=", Require: req,
			Why:  "the gate's own knob carries " + liveWords(what) + " (claimslint new moves it)",
			Note: fmt.Sprintf("added: line %d carries %s, which the next decision moves", k.line, what)}
		row := register.Claim{ID: c.ID, Kind: c.Kind, Path: c.Path, Anchor: c.Anchor, Require: c.Require}
		if tr.Eval(row).State != check.StateOK {
			continue // the knob is not where the anchor finds it once: no claim is safer than a false one
		}
		out = append(out, c)
	}
	return out
}

// liveWords names what liveRange found without the spelling, which the
// next decision changes: "the live range", "the newest two ids", or both.
func liveWords(what string) string {
	var out []string
	for _, w := range []string{"the live range", "the newest two ids"} {
		if strings.Contains(what, w) {
			out = append(out, w)
		}
	}
	return strings.Join(out, " and ")
}

// listAt writes "a.md:3 and a.md:9", or the first three and how many more.
func listAt(hs []string) string {
	switch {
	case len(hs) <= 2:
		return strings.Join(hs, " and ")
	case len(hs) == 3:
		return hs[0] + ", " + hs[1] + " and " + hs[2]
	}
	return fmt.Sprintf("%s, %s, %s and %d more lines", hs[0], hs[1], hs[2], len(hs)-3)
}

// trackerID returns the id a pattern names when the pattern is nothing but
// that id (as "id":"ub-788", or bare), else "".
func trackerID(pattern string, prefixes []string) string {
	lit := strings.NewReplacer(`\.`, ".", `\-`, "-", `\"`, `"`, `\b`, "").Replace(pattern)
	for _, p := range prefixes {
		re := regexp.MustCompile(`^(?:"id"\s*:\s*")?(` + regexp.QuoteMeta(p) + `-[A-Za-z0-9]+(?:\.[0-9]+)*)"?$`)
		if m := re.FindStringSubmatch(lit); m != nil {
			return m[1]
		}
	}
	return ""
}

// The scopes migrate tries, narrowest first: code lines; code lines with
// tests counted; comment text; lines as written (D38, D64).
var scopeOrder = []string{"", check.ScopeTest, check.ScopeComment, check.ScopeAny}

// chooseScope evaluates c in each scope, as check will, and returns the
// narrowest in which it holds, with a note when that is not the default.
// A presence needs one line, so the first scope that holds wins. An
// every-line claim must also read every line the script reads, so a scope
// that leaves some of the anchor's lines outside it (a comment line for
// the code scope) gives way to a wider one that holds; tests are the
// exception, as in the scripts that read only the lines before mod tests:
// a claim about production code is not widened to tests it does not need.
func chooseScope(tr *check.Trial, c Claim) (string, string) {
	scopes := scopeOrder
	if c.Kind == "absent" {
		scopes = []string{""}
	}
	results := make([]check.TrialResult, len(scopes))
	chosen, first := -1, -1
	for i, sc := range scopes {
		row := register.Claim{ID: c.ID, Kind: c.Kind, Path: c.Path, Anchor: c.Anchor, Require: c.Require}
		if sc != "" {
			row.Kind += ":" + sc
		}
		results[i] = tr.Eval(row)
		if results[i].State != check.StateOK {
			continue
		}
		if first < 0 {
			first = i
		}
		if c.Kind != "anchored-every" || results[i].Outside == 0 {
			chosen = i
			break
		}
	}
	if chosen < 0 {
		chosen = first
	}
	code := results[0]
	hits := func(r check.TrialResult) int { return len(r.Held) + len(r.Broken) }
	if chosen < 0 {
		if hits(code) == 0 && code.Outside == 0 && code.Tests == 0 {
			if c.Kind == "absent" {
				return "", ""
			}
			return "", "no line matches today: the script fails this row too"
		}
		return "", "it holds in no scope today, so the script fails this row too or reads a line no claim reads: " + code.Message
	}
	got := results[chosen]
	at := func(r check.TrialResult) string {
		if len(r.Held) > 0 {
			return r.Held[0]
		}
		return ""
	}
	switch scopes[chosen] {
	case "":
		return "", ""
	case check.ScopeTest:
		return check.ScopeTest, fmt.Sprintf("matches only in tests today (%s): scope test counts test regions and test files", at(got))
	case check.ScopeComment:
		if hits(code) == 0 {
			return check.ScopeComment, fmt.Sprintf("matches only comment lines today (%s)", at(got))
		}
		return check.ScopeComment, fmt.Sprintf("holds on comment lines (%s), not on code lines, today", at(got))
	}
	comment := results[2]
	switch {
	case len(code.Broken) > 0:
		return check.ScopeAny, fmt.Sprintf("the requirement reads differently with comments masked (%s), and the script reads every line", code.Broken[0])
	case len(code.Held) > 0 && len(comment.Held) > 0:
		return check.ScopeAny, fmt.Sprintf("matches code (%s) and comment (%s) lines, and the script reads every line", at(code), at(comment))
	case hits(code) == 0 && hits(comment) == 0:
		return check.ScopeAny, fmt.Sprintf("matches no code line and no comment line today (%s is string content): scope any reads lines as written", at(got))
	}
	return check.ScopeAny, fmt.Sprintf("no narrower scope holds and reads every line the anchor matches (%s), and the script reads every line", at(got))
}

// gitGrepPrefixRE is the path:lineno: prefix a requirement written for
// `git grep -n` output spells: anchored at the path (^[^:]+:[0-9]+:) or
// starting at the colon before the line number (:[0-9]+:).
var gitGrepPrefixRE = register.LazyRE(`^(?:\^\[\^:\][+*])?:(?:\[0-9\]|\[\[:digit:\]\]|\\d)(?:[+*]|\{1,\})?:`)

// linePattern rewrites a requirement written for `git grep -n` output,
// which the scripts match against path:lineno:text, as a pattern of the
// line itself: the prefix and the ^ that anchored it at the path become a
// ^ at the start of the line. It reports false when req spells no prefix.
func linePattern(req string) (string, bool) {
	m := gitGrepPrefixRE().FindString(req)
	if m == "" {
		return req, false
	}
	return "^" + req[len(m):], true
}

// commentOnly reports whether a requirement accepts only lines that are
// comments from their first non-blank byte in the file's language: it is
// anchored at the line start, allows only blanks, then spells a comment
// opener that the file's lexer reads as a comment running to the end of
// the line.
func commentOnly(req, file string) bool {
	if req == "" || strings.HasPrefix(req, "!") {
		return false
	}
	re, err := syntax.Parse(req, syntax.Perl)
	if err != nil {
		return false
	}
	re = re.Simplify()
	if re.Op != syntax.OpConcat || len(re.Sub) < 2 {
		return false
	}
	subs := re.Sub
	if subs[0].Op != syntax.OpBeginLine && subs[0].Op != syntax.OpBeginText {
		return false
	}
	subs = subs[1:]
	if (subs[0].Op == syntax.OpStar || subs[0].Op == syntax.OpQuest) && blankClass(subs[0].Sub[0]) {
		subs = subs[1:]
	}
	if len(subs) == 0 || subs[0].Op != syntax.OpLiteral || subs[0].Flags&syntax.FoldCase != 0 {
		return false
	}
	opener := string(subs[0].Rune)
	// The comment must end with its line: a block comment may close
	// before code on the same line.
	src := []byte(opener + " x\ny\n")
	eol := len(opener) + 2
	var r codeline.Regions
	codeline.Scan(file, src, &r)
	return len(r.Spans) > 0 && r.Spans[0].Kind == codeline.Comment && r.Spans[0].Start == 0 && (r.Spans[0].End == eol || r.Spans[0].End == eol+1)
}

// blankClass reports whether re matches blanks only (a space or a tab).
func blankClass(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		return strings.Trim(string(re.Rune), " \t") == ""
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for c := re.Rune[i]; c <= re.Rune[i+1]; c++ {
				if !strings.ContainsRune(" \t\n\v\f\r", c) {
					return false
				}
			}
		}
		return len(re.Rune) > 0
	}
	return false
}

// liveRangeRE finds the live range D1..Dn as a pattern spells it: the
// dots escaped once (D1\.\.D55), or again for a pattern that matches a
// script's own knob line (D1\\\.\\\.D55, D1\\?\.\\?\.D55).
var liveRangeRE = register.LazyRE(`D1((?:\\\\\?|\\\\)?\\\.(?:\\\\\?|\\\\)?\\\.)D([0-9]+)\b`)

// liveAltRE finds a tokenizer's alternation of the newest ids as a
// pattern spells it: D\(55\|54\| (literal parentheses and bars), with the
// escapes doubled for a knob line.
var liveAltRE = register.LazyRE(`(D(?:\\\\\\|\\)\()([0-9]+)((?:\\\\\\|\\)\|)([0-9]+)`)

// liveRange rewrites the spellings of the live range D1..Dn (and of the
// alternation D(n|n-1|) in pat as placeholders check fills from the
// register's highest id (D64), and says what it rewrote ("" for nothing).
func liveRange(pat string, n int) (string, string) {
	var what []string
	out := liveRangeRE().ReplaceAllStringFunc(pat, func(m string) string {
		sub := liveRangeRE().FindStringSubmatch(m)
		if sub[2] != strconv.Itoa(n) {
			return m // an older range, frozen on purpose or stale: kept
		}
		what = append(what, "the live range "+quote(m))
		if sub[1] == `\.\.` {
			return "{{range}}"
		}
		return "D1" + sub[1] + "D{{n}}"
	})
	out = liveAltRE().ReplaceAllStringFunc(out, func(m string) string {
		sub := liveAltRE().FindStringSubmatch(m)
		if sub[2] != strconv.Itoa(n) || sub[4] != strconv.Itoa(n-1) {
			return m
		}
		what = append(what, "the newest two ids "+quote(m+sub[3]))
		return sub[1] + "{{n}}" + sub[3] + "{{n-1}}"
	})
	return out, strings.Join(what, " and ")
}

// cell writes s as a table cell: a code span for patterns and paths, with
// the table escape for |.
func cell(s string, code bool) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	if s == "" {
		return ""
	}
	if !code {
		return s
	}
	ticks := "`"
	for strings.Contains(s, ticks) {
		ticks += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return ticks + " " + s + " " + ticks
	}
	return ticks + s + ticks
}

// Render writes the claims file of a translation.
func (t *Translation) Render(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: claims\n\n", t.Gate.Decision)
	fmt.Fprintf(&b, "Migrated by `claimslint migrate` from\n`%s`;\n", t.Gate.Script)
	b.WriteString("the row codes are the claim ids. The script is kept:\n`claimslint migrate --compare` runs both and prints their verdicts.\n\n")
	b.WriteString("## Confirmation\n\n")
	if !t.within() {
		b.WriteString("| Claim | Kind | Path | Anchor | Require | Why |\n|---|---|---|---|---|---|\n")
	} else {
		b.WriteString("| Claim | Kind | Path | Within | Anchor | Require | Why |\n|---|---|---|---|---|---|---|\n")
	}
	for _, c := range t.Claims {
		within := ""
		if t.within() {
			within = " " + quoteWithin(c.Within) + " |"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |%s %s | %s | %s |\n", c.ID, c.Kind, cell(c.Path, true), within, cell(c.Anchor, true), cell(c.Require, true), cell(c.Why, false))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

package migrate

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/claimslint/claimslint/internal/register"
)

// Layout is how the rows of a table read: which field is which, and what
// the script does with them (D63). A table's layout comes from its
// variable's name (tableLayouts), never from its rows' code letters; a
// table with another name is read as D34 read every table, by its rows'
// codes (P presence, Q anchored).
type Layout int

const (
	// LayoutByCode is D34's reading: a P<n> row is a presence row, a Q<n>
	// row an anchored row; any other code is not read.
	LayoutByCode Layout = iota
	// LayoutPresence: code@path@regex@why; some line of path matches regex.
	LayoutPresence
	// LayoutEvery: code@path@anchor@regex@why; some line matches anchor,
	// and every such line matches regex.
	LayoutEvery
	// LayoutContract: code@path@selector@why over the knobs CONTRACT_RE
	// and CONTRACT_FAMILY_RE; an empty selector is presence of the knob,
	// EXCLUSIVE is presence and no other id of the family, a regex is an
	// anchored row that requires the knob.
	LayoutContract
	// LayoutSweep: code@mode@regex@escape, mode plain or escape; no tracked
	// file but the script has a line matching regex (case-insensitive),
	// unless it also matches escape (case-sensitive).
	LayoutSweep
	// LayoutSubject: code@regex@subject@escape; a sweep whose hit counts
	// only on a line that also matches subject (case-insensitive).
	LayoutSubject
	// LayoutAllow: family|prefix|substring|reason; a sweep hit under the
	// path prefix whose line holds substring is allowed, and the entry
	// must still match a line (the scripts' allow-rot self-test).
	LayoutAllow
	// LayoutAbsent is a claim migrate derives: no line of path matches
	// anchor (the stale half of an EXCLUSIVE contract row).
	LayoutAbsent
	// LayoutFamily is a sweep family, from a FAMILIES or SUBJECT_FAMILIES
	// row or from NAME_RE variables: it becomes an absent:all claim over
	// every file, with allow rows for its exceptions (D66).
	LayoutFamily
)

// tableLayout is one known table: the variable names it is held in and
// how its rows read.
type tableLayout struct {
	names  []string
	layout Layout
	sep    string
	// fields are the script's names for the fields, as its `read` names
	// them; the last takes the rest of the line.
	fields []string
	// need is how many fields a row must have.
	need int
}

// tableLayouts are the tables migrate knows, by the variable that holds
// them, as the seed team's twelve gates write them.
var tableLayouts = []tableLayout{
	{names: []string{"REQUIRE", "REQUIRE_CODE"}, layout: LayoutPresence, sep: "@", fields: []string{"code", "path", "regex", "why"}, need: 3},
	{names: []string{"REQUIRE_ROW"}, layout: LayoutEvery, sep: "@", fields: []string{"code", "path", "anchor", "regex", "why"}, need: 4},
	{names: []string{"REQUIRE_CONTRACT"}, layout: LayoutContract, sep: "@", fields: []string{"code", "path", "selector", "why"}, need: 2},
	{names: []string{"FAMILIES"}, layout: LayoutSweep, sep: "@", fields: []string{"code", "mode", "regex", "escape"}, need: 3},
	{names: []string{"SUBJECT_FAMILIES"}, layout: LayoutSubject, sep: "@", fields: []string{"code", "regex", "subject", "escape"}, need: 3},
	{names: []string{"ALLOW"}, layout: LayoutAllow, sep: "|", fields: []string{"family", "prefix", "substring", "reason"}, need: 2},
}

// byCode is the layout of a table migrate does not know by name: D34's.
var byCode = map[byte]tableLayout{
	'P': {layout: LayoutPresence, sep: "@", fields: []string{"code", "path", "regex", "why"}, need: 3},
	'Q': {layout: LayoutEvery, sep: "@", fields: []string{"code", "path", "anchor", "regex", "why"}, need: 4},
}

// layoutOf returns the layout of the table held in the variable name.
func layoutOf(name string) (tableLayout, bool) {
	for _, t := range tableLayouts {
		for _, n := range t.names {
			if n == name {
				return t, true
			}
		}
	}
	return tableLayout{}, false
}

func knownTables() string {
	var names []string
	for _, t := range tableLayouts {
		names = append(names, t.names...)
	}
	return strings.Join(names, ", ")
}

// Rules that are not CODE@ rows, counted apart in migrate's summary.
const (
	RuleSweep = "sweep family"     // a sweep written as NAME_RE variables (CLM1_RE)
	RuleAllow = "allow-list entry" // FAM|prefix|substring|reason
	RuleCheck = "structural check" // shell code that prints its own [CODE]
)

// ruleRE names the variables of a sweep family written as variables:
// CLM1_RE, with CLM1_QUALIFIER, CLM1_SUBJECT or CLM1_ESCAPE beside it.
var ruleRE = register.LazyRE(`^([A-Z]+[0-9]+)_RE$`)

// family is a sweep: its code, pattern and how a hit is counted.
type family struct {
	code, regex string
	mode        string // plain, escape, subject or qualifier
	escape      string // escape: case-sensitive; qualifier: case-insensitive
	subject     string
	line        int
	rule        string // "" for a CODE@ row, RuleSweep for variables
}

// fields splits a row at sep; the last field takes the rest of the line,
// as sh's read does.
func (t tableLayout) split(row string) []string {
	return strings.SplitN(row, t.sep, len(t.fields))
}

// derive turns one row of a known table into rows to translate, sweep
// families or skipped entries.
func (pr *gateParser) derive(rr rawRow) {
	g := pr.g
	t, known := layoutOf(rr.table)
	if !known {
		t, known = byCode[rr.code[0]]
		if !known || !regexp.MustCompile(`^[PQ][0-9]+$`).MatchString(rr.code) {
			g.skip(Skipped{Code: rr.code, Line: rr.line, Reason: fmt.Sprintf("the table %s is not one migrate knows (%s), and a row there is read by its code only when it is P<n> (presence) or Q<n> (anchored), as D34 reads them", rr.table, knownTables())})
			return
		}
	}
	f := t.split(rr.text)
	if len(f) < t.need {
		g.skip(Skipped{Code: rr.code, Line: rr.line, Reason: fmt.Sprintf("a row of %s (%s) has at least %d %s-separated fields, this one has %d", rr.table, strings.Join(t.fields, t.sep), t.need, t.sep, len(f))})
		return
	}
	for len(f) < len(t.fields) {
		f = append(f, "")
	}
	row := func(r Row) Row {
		r.Code, r.Line, r.Table = rr.code, rr.line, rr.table
		return r
	}
	switch t.layout {
	case LayoutPresence:
		g.addRow(row(Row{Layout: LayoutPresence, Path: f[1], Anchor: f[2], Why: f[3]}))
	case LayoutEvery:
		req := f[3]
		if strings.HasPrefix(req, "!") && rr.table != "" {
			if _, named := layoutOf(rr.table); named {
				// These scripts run grep -v -E "$re": a leading ! is the
				// character, where a claim's Require reads it as "must not".
				req = `\` + req
			}
		}
		g.addRow(row(Row{Layout: LayoutEvery, Path: f[1], Anchor: f[2], Regex: req, Why: f[4]}))
	case LayoutContract:
		pr.contract(rr, f[1], f[2], f[3])
	case LayoutSweep:
		fam := family{code: rr.code, mode: f[1], regex: f[2], escape: f[3], line: rr.line}
		if fam.mode != "plain" && fam.mode != "escape" {
			g.skip(Skipped{Code: rr.code, Line: rr.line, Reason: fmt.Sprintf("the mode %q is neither plain nor escape: the script reports the row as an error", fam.mode)})
			return
		}
		if fam.mode == "plain" {
			fam.escape = ""
		}
		pr.families = append(pr.families, fam)
	case LayoutSubject:
		pr.families = append(pr.families, family{code: rr.code, mode: "subject", regex: f[1], subject: f[2], escape: f[3], line: rr.line})
	}
}

// contract derives the rows of a REQUIRE_CONTRACT row.
func (pr *gateParser) contract(rr rawRow, path, selector, why string) {
	g := pr.g
	cur := pr.knob("CONTRACT_RE")
	if cur.bad != "" {
		g.skip(Skipped{Code: rr.code, Line: rr.line, Reason: cur.bad})
		return
	}
	base := Row{Code: rr.code, Line: rr.line, Table: rr.table, Path: path, Why: why}
	switch selector {
	case "":
		r := base
		r.Layout, r.Anchor = LayoutPresence, cur.text
		g.addRow(r)
	case "EXCLUSIVE":
		fam := pr.knob("CONTRACT_FAMILY_RE")
		if fam.bad != "" {
			g.skip(Skipped{Code: rr.code, Line: rr.line, Reason: fam.bad})
			return
		}
		stale, err := staleIDs(cur.text, fam.text)
		if err != nil {
			g.skip(Skipped{Code: rr.code, Line: rr.line, Reason: err.Error()})
			return
		}
		r := base
		r.Layout, r.Anchor = LayoutPresence, cur.text
		if !g.addRow(r) {
			return
		}
		s := base
		s.Code, s.Of, s.Layout, s.Anchor = rr.code+"-stale", rr.code, LayoutAbsent, stale
		g.Rows = append(g.Rows, s)
	default:
		r := base
		r.Layout, r.Anchor, r.Regex = LayoutEvery, selector, cur.text
		g.addRow(r)
	}
}

// staleIDs writes "an id of the family that is not the current one" as
// one ERE, for a family that is the current id with its last number
// widened to [0-9]+: unblock\.mcp\.v1\.[0-9]+ against unblock\.mcp\.v1\.9.
// The script extracts each family match (grep -o, leftmost-longest, so
// the whole digit run) and fails on any that is not the current id; this
// pattern matches exactly such a run: shorter, longer, or differing in a
// digit, followed by the end of the line or a non-digit (the end first, so
// prove's sample of it is a printable line).
func staleIDs(cur, fam string) (string, error) {
	n := 0
	for n < len(cur) && n < len(fam) && cur[n] == fam[n] {
		n++
	}
	prefix, tail, digits := cur[:n], fam[n:], cur[n:]
	ok := tail == "[0-9]+" && allDigits(digits) && len(prefix) >= 2
	if ok {
		// The digit run must not extend to the left: the prefix ends with
		// a letter or an escaped character that is not a digit.
		last := prefix[len(prefix)-1]
		k := 0
		for k < len(prefix)-1 && prefix[len(prefix)-2-k] == '\\' {
			k++
		}
		escaped := k%2 == 1
		letter := last >= 'a' && last <= 'z' || last >= 'A' && last <= 'Z'
		ok = escaped && !(last >= '0' && last <= '9') || letter && !escaped
	}
	if !ok {
		return "", fmt.Errorf("EXCLUSIVE: migrate writes \"no other id of `%s` than `%s`\" as an absent claim only when the family is the current id with its last number widened to [0-9]+, which RE2 can say; write it by hand", fam, cur)
	}
	var alts []string
	if len(digits) > 1 {
		alts = append(alts, fmt.Sprintf("[0-9]{1,%d}", len(digits)-1))
	}
	alts = append(alts, fmt.Sprintf("[0-9]{%d,}", len(digits)+1))
	for i := 0; i < len(digits); i++ {
		a := digits[:i] + notDigit(digits[i])
		if k := len(digits) - 1 - i; k > 0 {
			a += fmt.Sprintf("[0-9]{%d}", k)
		}
		alts = append(alts, a)
	}
	return prefix + "(" + strings.Join(alts, "|") + ")($|[^0-9])", nil
}

// notDigit is a bracket expression of the digits other than d.
func notDigit(d byte) string {
	var b strings.Builder
	b.WriteByte('[')
	for c := byte('0'); c <= '9'; c++ {
		if c != d {
			b.WriteByte(c)
		}
	}
	b.WriteByte(']')
	return b.String()
}

// knob is a variable's value when the script's tables are read: its last
// top-level value.
func (pr *gateParser) knob(name string) value {
	f := &frame{s: pr.s, globals: pr.s.knobs, funcs: pr.s.funcs}
	return f.lookup(name)
}

// variableFamilies finds the sweeps written as variables: CLM1_RE and the
// CLM1_QUALIFIER, CLM1_SUBJECT or CLM1_ESCAPE beside it.
func (pr *gateParser) variableFamilies() {
	seen := map[string]bool{}
	for _, a := range pr.s.assigns {
		m := ruleRE().FindStringSubmatch(a.name)
		if m == nil || seen[m[1]] || !a.runs {
			continue
		}
		seen[m[1]] = true
		code := m[1]
		fam := family{code: code, mode: "plain", line: a.line, rule: RuleSweep}
		v := pr.knob(a.name)
		if v.bad != "" {
			pr.g.skip(Skipped{Code: code, Line: a.line, Rule: RuleSweep, Reason: v.bad})
			continue
		}
		fam.regex = v.text
		for _, mod := range []string{"QUALIFIER", "SUBJECT", "ESCAPE"} {
			if _, ok := pr.s.knobs[code+"_"+mod]; !ok {
				continue
			}
			w := pr.knob(code + "_" + mod)
			if w.bad != "" {
				fam.mode = "bad"
				pr.g.skip(Skipped{Code: code, Line: a.line, Rule: RuleSweep, Reason: w.bad})
				break
			}
			switch mod {
			case "QUALIFIER":
				fam.mode, fam.escape = "qualifier", w.text
			case "SUBJECT":
				fam.mode, fam.subject = "subject", w.text
			case "ESCAPE":
				fam.mode, fam.escape = "escape", w.text
			}
		}
		if fam.mode != "bad" {
			pr.families = append(pr.families, fam)
		}
	}
}

// allowEntry is one line of an ALLOW table.
type allowEntry struct {
	family, prefix, substr, reason string
	line                           int
}

// allows turns each allow-list entry into a presence row (the scripts'
// self-test: an entry that matches nothing has rotted), and lists the
// sweeps, which no claim kind can say (D63).
func (pr *gateParser) allows() {
	g := pr.g
	byCode := map[string]family{}
	for _, f := range pr.families {
		byCode[f.code] = f
	}
	for i, e := range pr.allowEntries {
		id := fmt.Sprintf("ALLOW%d", i+1)
		skip := func(reason string) {
			g.skip(Skipped{Code: id, Line: e.line, Rule: RuleAllow, Reason: reason})
		}
		var fams []family
		if e.family == "*" {
			fams = pr.families
		} else if f, ok := byCode[e.family]; ok {
			fams = []family{f}
		}
		switch {
		case len(fams) == 0 && e.family == "*":
			skip("the entry is for every family, and the script defines none")
			continue
		case len(fams) == 0:
			skip(fmt.Sprintf("the entry names the family %s, which the script does not define", e.family))
			continue
		case e.prefix == "":
			skip("the entry has no path prefix")
			continue
		}
		var alts []string
		bad := ""
		for _, f := range fams {
			re, err := EREToRE2(f.regex)
			if err != nil {
				bad = fmt.Sprintf("the pattern of %s, `%s`: %v", f.code, f.regex, err)
				break
			}
			alts = append(alts, pr.unquoted(re))
		}
		if bad != "" {
			skip(bad)
			continue
		}
		anchor := "(?i)" + alts[0]
		if len(alts) > 1 {
			anchor = "(?i)(?:" + strings.Join(alts, ")|(?:") + ")"
		}
		anchor = pr.unquoted(anchor)
		req := ""
		if e.substr != "" {
			req = pr.unquoted(regexp.QuoteMeta(e.substr))
		}
		g.Rows = append(g.Rows, Row{Code: id, Line: e.line, Table: "ALLOW", Rule: RuleAllow, Layout: LayoutAllow, Path: e.prefix, Anchor: anchor, Regex: req, Why: e.reason})
	}
	for _, f := range pr.families {
		g.Rows = append(g.Rows, Row{Code: f.code, Line: f.line, Rule: f.rule, Layout: LayoutFamily, fam: &f})
	}
	g.sweeps, g.allowList = pr.families, pr.allowEntries
}

// unquoted writes a pattern of an allow-list claim so that no sweep of
// the script reports the pattern's own text: spaces as [ ], then, if a
// sweep still matches it, the first letter of each word in brackets.
func (pr *gateParser) unquoted(re string) string {
	out := unquotable(re)
	for _, f := range pr.families {
		if f.flags("", out, nil) {
			return bracketWords(out)
		}
	}
	return out
}

// bracketWords writes the first letter of each literal word of an RE2
// pattern as a bracket expression: [u]nblock-[e]ngine.
func bracketWords(re string) string {
	var b strings.Builder
	in := false
	word := false
	for i := 0; i < len(re); i++ {
		c := re[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		switch {
		case c == '\\' && i+1 < len(re):
			b.WriteByte(c)
			b.WriteByte(re[i+1])
			i++
			word = false
			continue
		case c == '(' && !in && i+1 < len(re) && re[i+1] == '?':
			// A flag group, (?i) or (?:, is copied as written.
			end := strings.IndexAny(re[i:], ":)")
			if end > 0 {
				b.WriteString(re[i : i+end+1])
				i += end
				word = false
				continue
			}
		case c == '[':
			in = true
		case c == ']':
			in = false
		case letter && !in && !word:
			b.WriteString("[" + string(c) + "]")
			word = true
			continue
		}
		word = letter || (word && c >= '0' && c <= '9')
		b.WriteByte(c)
	}
	return b.String()
}

// unquotable writes each literal space of an RE2 pattern outside a
// bracket expression as [ ]: the pattern means the same, and its text no
// longer holds the phrase it matches. A claims file that carries a sweep's
// phrase in an Anchor cell would otherwise be reported by that sweep,
// which the script keeps running.
func unquotable(re string) string {
	var b strings.Builder
	in := false
	for i := 0; i < len(re); i++ {
		c := re[i]
		switch {
		case c == '\\' && i+1 < len(re):
			b.WriteByte(c)
			b.WriteByte(re[i+1])
			i++
			continue
		case c == '[' && !in:
			in = true
			b.WriteByte(c)
			if i+1 < len(re) && re[i+1] == '^' {
				b.WriteByte('^')
				i++
			}
			if i+1 < len(re) && re[i+1] == ']' {
				b.WriteByte(']')
				i++
			}
			continue
		case c == '[' && in && i+1 < len(re) && re[i+1] == ':':
			end := strings.Index(re[i+2:], ":]")
			if end >= 0 {
				b.WriteString(re[i : i+2+end+2])
				i += 2 + end + 1
				continue
			}
		case c == ']' && in:
			in = false
		case c == ' ' && !in:
			b.WriteString("[ ]")
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// flags reports whether the sweep reports the line of the file rel, as
// the script decides it.
func (f family) flags(rel, line string, allows []allowEntry) bool {
	match := func(ci bool, ere string) bool {
		re, err := EREToRE2(ere)
		if err != nil {
			return false
		}
		if ci {
			re = "(?i)" + re
		}
		m, err := regexp.MatchString(re, line)
		return err == nil && m
	}
	if !match(true, f.regex) {
		return false
	}
	if f.subject != "" && !match(true, f.subject) {
		return false
	}
	if f.escape != "" && match(f.mode == "qualifier", f.escape) {
		return false
	}
	for _, a := range allows {
		if (a.family == f.code || a.family == "*") && strings.HasPrefix(rel, a.prefix) && (a.substr == "" || strings.Contains(line, a.substr)) {
			return false
		}
	}
	return true
}

// SweepHits lists the lines of a claims file, about to be written at rel,
// that a sweep of one of the gates reports: the scripts keep running their
// sweeps, so each is a finding the next run of that script prints.
func SweepHits(rel, text string, gates []*Gate) []string {
	var out []string
	for i, l := range strings.Split(text, "\n") {
		for _, g := range gates {
			for _, f := range g.sweeps {
				if f.flags(rel, l, g.allowList) {
					out = append(out, fmt.Sprintf("%s:%d: the sweep %s of %s matches this line, and the script keeps running it: allow-list %s there, or reword the line", rel, i+1, f.code, g.Script, rel))
				}
			}
		}
	}
	return out
}

// markerRE finds the [CODE] a check prints about itself.
var markerRE = register.LazyRE(`\[([A-Z]+[0-9]+)\]`)

// checks finds the structural checks: shell code outside any table that
// prints a [CODE] no row has. migrate translates rows, not shell logic.
func (pr *gateParser) checks(inside []bool) {
	g := pr.g
	codes := map[string]bool{}
	for _, r := range g.Rows {
		codes[r.Code] = true
	}
	for _, s := range g.Skipped {
		codes[s.Code] = true
	}
	off := 0
	for k, l := range strings.Split(pr.text, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "#") {
			for _, m := range markerRE().FindAllStringSubmatchIndex(l, -1) {
				code := l[m[2]:m[3]]
				if inside[off+m[0]] || codes[code] {
					continue
				}
				codes[code] = true
				if cs := pr.structuralClaims(code, k); cs != nil {
					g.Rows = append(g.Rows, Row{Code: code, Line: k + 1, Rule: RuleCheck, Layout: LayoutStructural, st: cs})
					continue
				}
				g.skip(Skipped{Code: code, Line: k + 1, Rule: RuleCheck, Reason: fmt.Sprintf("a structural check written as shell code (it prints [%s]): migrate translates table rows, not shell logic; write its claim by hand, or keep the script for it", code)})
			}
		}
		off += len(l) + 1
	}
}

// translateRule translates the rows migrate derives beyond D34's: the
// stale half of an EXCLUSIVE contract row and an allow-list entry. ok is
// false for the other rows.
func translateRule(r Row, opts Options) (c Claim, reason string, ok bool) {
	switch r.Layout {
	case LayoutAbsent:
		anchor, err := EREToRE2(r.Anchor)
		if err != nil {
			return c, fmt.Sprintf("pattern `%s`: %v", r.Anchor, err), true
		}
		return Claim{ID: r.Code, Kind: "absent:any", Path: r.Path, Anchor: anchor, Why: r.Why,
			Note: fmt.Sprintf("%s is EXCLUSIVE: no id of the family but the current one, on any line", r.Of)}, "", true
	case LayoutAllow:
		c = Claim{ID: r.Code, Kind: "present:all", Path: allowGlob(opts.Dir, r.Path), Anchor: r.Anchor, Why: r.Why,
			Note: "the allow-list entry must still match a line (the script's self-test)"}
		c.Require = r.Regex
		return c, "", true
	}
	return c, "", false
}

// allowGlob is the Path of an allow-list prefix, read as git reads a
// pathspec: a file, or a directory and everything under it.
func allowGlob(dir, prefix string) string {
	p := strings.TrimSuffix(prefix, "/")
	glob := strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`, "{", `\{`).Replace(p)
	if strings.HasSuffix(prefix, "/") {
		return glob + "/**"
	}
	if dir != "" {
		if root, err := os.OpenRoot(dir); err == nil {
			st, err := root.Stat(filepath.FromSlash(p))
			root.Close()
			if err == nil && st.IsDir() {
				return glob + "/**"
			}
		}
	}
	return glob
}

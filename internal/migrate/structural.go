package migrate

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/register"
)

// A structural check is shell code outside any table that prints its own
// [CODE]. migrate translates the shapes the seed team's gates write them
// in (issue 34, D95), each into count, absent and Within claims; any
// other shape is listed, as before, for a claim written by hand:
//
//   - a count: a function that runs `git grep -E 're' -- path`, perhaps
//     less the lines of `grep -v -E 'prefix re'`, whose matches are
//     counted (grep -c, wc -l) and compared with `!=` or `-ne` to n (d48
//     S1, "exactly one caller of into_exit");
//   - an exhaustive match: awk reads the variants of an enum (the lines
//     of its block matching a variant pattern) and the body of a function,
//     and each variant must appear there as `Self::Variant` (d48 S2); the
//     claim is that the function's body holds no wildcard arm, which makes
//     rustc ask for every variant, and that the enum declares one;
//   - a line filter: `git grep -n -E 're' -- path | cut -d: -f2` assigned
//     to a variable that the script exits 2 on unless it is one line
//     number (d54, d55: the rows read the lines before `mod tests {`):
//     exactly one line of path matches re.

// LayoutStructural is a structural check migrate recognised: its claims
// are in Row.st, evaluated on the tree when translated.
const LayoutStructural = LayoutFamily + 1

var (
	sepRE       = register.LazyRE(`^#\s*-{5,}\s*$`)
	countGrepRE = register.LazyRE(`git grep [^'\n|]*-E '([^'\n]+)' -- ([^\s|;)'"]+)`)
	grepVRE     = register.LazyRE(`\|\s*grep -v -E '([^'\n]+)'`)
	countCmpRE  = register.LazyRE(`\[ "\$\w+" (?:!=|-ne) "?([0-9]+)"? \]`)
	countedRE   = register.LazyRE(`grep -c\b|wc -l`)
	enumAwkRE   = register.LazyRE(`awk '/([^/\n]+)/ \{inside=1; next\}(?s:.*?)inside && /([^/\n]+)/ \{sub\(`)
	bodyAwkRE   = register.LazyRE(`awk '/([^/\n]+)/ \{inside=1\}\s*inside \{print\}`)
	awkFileRE   = register.LazyRE(`' "\$(\w+)"`)
	selfGrepRE  = register.LazyRE(`grep -q -E "([A-Za-z_:]+)\$(\w+)\\b"`)
	headRE      = register.LazyRE(`^#\s*([A-Z]+[0-9]+)(?:\s+[—-]+\s+|:\s+)(.*)$`)
	filterRE    = register.LazyRE(`(?m)^(\w+)="\$\(git grep -n [^'\n]*-E '([^'\n]+)' -- ([^\s|)'"]+)[^\n]*\| cut -d: -f2\)"`)
	filterFnRE  = register.LazyRE(`(?m)^(\w+)\(\) \{ git grep -n [^'\n]*-E '([^'\n]+)' -- "?\$1"?[^\n]*\| cut -d: -f2; \}`)
	failClosed  = `case "$%s" in` + "\n" + `  ''|*[!0-9]*)`
)

// section returns the lines of the script's part that holds line k: from
// the separator comment (# -----) or the check's own header comment (# S1
// — …, # S1: …) before it, whichever is nearer, to the next separator or
// the next comment that follows a blank line, or the script's end.
func section(lines []string, k int, code string) string {
	start, end := 0, len(lines)
	for i := k; i >= 0; i-- {
		m := headRE().FindStringSubmatch(lines[i])
		if sepRE().MatchString(lines[i]) || m != nil && m[1] == code {
			start = i
			break
		}
	}
	for i := k + 1; i < len(lines); i++ {
		if sepRE().MatchString(lines[i]) || strings.HasPrefix(lines[i], "#") && strings.TrimSpace(lines[i-1]) == "" {
			end = i
			break
		}
	}
	return strings.Join(lines[start:end], "\n")
}

// structuralWhy is what the check's header says it is ("# S1 — THE
// SINGLE-CALLER INVARIANT, which …"), up to its first comma.
func structuralWhy(lines []string, code string) string {
	for _, l := range lines {
		if m := headRE().FindStringSubmatch(l); m != nil && m[1] == code {
			why, _, _ := strings.Cut(m[2], ",")
			return strings.TrimRight(strings.TrimSpace(why), ".:")
		}
	}
	return "the script's structural check [" + code + "]"
}

// structuralClaims returns the claims of the structural check that prints
// [code] at line k (0-based), or nil when its shape is not one migrate
// reads.
func (pr *gateParser) structuralClaims(code string, k int) []Claim {
	lines := strings.Split(pr.text, "\n")
	sec := section(lines, k, code)
	why := structuralWhy(lines, code)
	if cs := countCheck(code, sec, why); cs != nil {
		return cs
	}
	return matchCheck(code, sec, pr.text, why)
}

// countCheck reads the count shape (d48 S1).
func countCheck(code, sec, why string) []Claim {
	g, cmp := countGrepRE().FindStringSubmatch(sec), countCmpRE().FindStringSubmatch(sec)
	if g == nil || cmp == nil || !countedRE().MatchString(sec) {
		return nil
	}
	re, err := EREToRE2(g[1])
	if err != nil {
		return nil
	}
	anchor, what := re, ""
	if v := grepVRE().FindStringSubmatch(sec); v != nil {
		excl, err := EREToRE2(v[1])
		if err != nil {
			return nil
		}
		prefix, ok := literalPrefix(excl, re)
		if !ok {
			return nil // a line filter that is not "re preceded by a literal"
		}
		anchor = notPreceded(prefix) + re
		what = fmt.Sprintf(", less the lines matching %s (the anchor leaves out %s preceded by %q)", quote(excl), quote(re), prefix)
	}
	note := fmt.Sprintf("added from the structural check [%s]: the script counts %s in %s%s and wants %s; git grep reads every line, so scope all", code, quote(re), quote(g[2]), what, cmp[1])
	cs := []Claim{{ID: code, Kind: "count:all", Path: g[2], pathspec: true, Anchor: anchor, Require: "= " + cmp[1], Why: why, Note: note}}
	if strings.Contains(sec, "grep -o") {
		// The script counts occurrences: a second on the line of the first
		// is a second. A count claim counts lines, so a claim of its own
		// keeps two off one line.
		cs[0].Note += fmt.Sprintf("; the script counts occurrences and a claim counts lines, so %s-line says no line holds two", code)
		cs = append(cs, Claim{ID: code + "-line", Kind: "absent:all", Path: g[2], pathspec: true, Anchor: re + ".*" + re, Why: why + ": never two on one line",
			Note: fmt.Sprintf("added from the structural check [%s]: two matches on one line count as two there", code)})
	}
	return cs
}

// literalPrefix returns p when excl is the literal p followed by re.
func literalPrefix(excl, re string) (string, bool) {
	rest, ok := strings.CutSuffix(excl, re)
	if !ok || rest == "" {
		return "", false
	}
	p, err := syntax.Parse(rest, syntax.Perl)
	if err != nil || p.Op != syntax.OpLiteral || p.Flags&syntax.FoldCase != 0 {
		return "", false
	}
	s := string(p.Rune)
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] == '\n' {
			return "", false
		}
	}
	return s, true
}

// notPreceded is an RE2 prefix that matches where what follows is not
// preceded by the literal p on its line: RE2 has no look-behind, so each
// proper suffix of p is spelled out, at the line's start or after a byte
// that does not continue p.
func notPreceded(p string) string {
	alts := []string{}
	for i := 0; i < len(p); i++ {
		s := regexp.QuoteMeta(p[len(p)-i:])
		alts = append(alts, "^"+s, "[^"+classByte(p[len(p)-i-1])+"]"+s)
	}
	return "(?:" + strings.Join(alts, "|") + ")"
}

func classByte(b byte) string {
	if strings.IndexByte(`\]^-[`, b) >= 0 {
		return `\` + string(b)
	}
	return string(b)
}

// wildcardArm is a Rust match arm that matches anything: `_ =>`, with or
// without a guard.
const wildcardArm = `^\s*_\s*(?:if\b.*)?=>`

// matchCheck reads the exhaustive-match shape (d48 S2).
func matchCheck(code, sec, text, why string) []Claim {
	enum, body, self := enumAwkRE().FindStringSubmatch(sec), bodyAwkRE().FindStringSubmatch(sec), selfGrepRE().FindStringSubmatch(sec)
	file := awkFileRE().FindStringSubmatch(sec)
	if enum == nil || body == nil || self == nil || file == nil {
		return nil
	}
	path := knobValue(text, file[1])
	if !strings.HasSuffix(path, ".rs") {
		return nil // the wildcard arm is Rust's
	}
	start, e1 := EREToRE2(enum[1])
	variant, e2 := EREToRE2(enum[2])
	fn, e3 := EREToRE2(body[1])
	if e1 != nil || e2 != nil || e3 != nil {
		return nil
	}
	return []Claim{
		{ID: code, Kind: "absent", Path: path, Within: fn, Anchor: wildcardArm, Why: why,
			Note: fmt.Sprintf("added from the structural check [%s]: the script wants each variant of the enum at %s as %s<variant> in the body at %s; with no wildcard arm there, rustc asks for every variant, so no `_ =>` arm inside it", code, quote(start), self[1], quote(fn))},
		{ID: code + "-variants", Kind: "count", Path: path, Within: start, Anchor: variant, Require: ">= 1", Why: why + ": the enum declares its variants",
			Note: fmt.Sprintf("added from the structural check [%s]: the script fails when the enum declares no variant (%s)", code, quote(variant))},
	}
}

// knobValue is the single-quoted value of NAME='…' at the top level.
func knobValue(text, name string) string {
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + `='([^'\n]*)'$`).FindStringSubmatch(text)
	if m == nil {
		return ""
	}
	return m[1]
}

// lineFilters reads the line filters of the script (d54, d55): a
// variable set to the line number of the one line of a file matching a
// pattern, which the script exits 2 on unless it is a number. Each
// becomes a count claim: exactly one such line.
func (pr *gateParser) lineFilters() {
	type filter struct{ name, re, path string }
	var fs []filter
	for _, m := range filterRE().FindAllStringSubmatch(pr.text, -1) {
		fs = append(fs, filter{m[1], m[2], m[3]})
	}
	for _, fn := range filterFnRE().FindAllStringSubmatch(pr.text, -1) {
		call := regexp.MustCompile(`(?m)^(\w+)="\$\(` + regexp.QuoteMeta(fn[1]) + ` ([^\s)'"]+)\)"`)
		for _, m := range call.FindAllStringSubmatch(pr.text, -1) {
			fs = append(fs, filter{m[1], fn[2], m[2]})
		}
	}
	for _, f := range fs {
		at := strings.Index(pr.text, fmt.Sprintf(failClosed, f.name))
		re, err := EREToRE2(f.re)
		if at < 0 || err != nil {
			continue
		}
		line := strings.Count(pr.text[:at], "\n") + 1
		note := fmt.Sprintf("added: %s is the script's line filter, and it exits 2 unless exactly one line of %s matches %s", f.name, f.path, quote(re))
		if strings.Contains(f.re, "mod tests") {
			note += "; the rows it filters read the lines before it, the production code, which the code scope reads (the test region left out)"
		}
		c := Claim{ID: f.name, Kind: "count:all", Path: f.path, Anchor: re, Require: "= 1",
			Why: "the script finds exactly one " + quote(re) + " line in " + f.path + ", or cannot evaluate", Note: note}
		pr.g.Rows = append(pr.g.Rows, Row{Code: f.name, Line: line, Rule: RuleCheck, Layout: LayoutStructural, st: []Claim{c}})
	}
}

// translateStructural evaluates the claims of a recognised structural
// check on the tree, as check will read them; a claim that does not hold
// there says so in its note (the script fails on the tree too).
func (pr *translator) translateStructural(r Row) []Claim {
	out := make([]Claim, 0, len(r.st))
	for _, c := range r.st {
		if c.pathspec {
			c.Path = allowGlob(pr.opts.Dir, c.Path)
		}
		if pr.tr != nil {
			row := register.Claim{ID: c.ID, Kind: c.Kind, Path: c.Path, Within: quoteWithin(c.Within), Anchor: c.Anchor, Require: c.Require}
			if got := pr.tr.Eval(row); got.State != check.StateOK {
				c.Note += "; it does not hold today: " + got.Message
			}
		}
		out = append(out, c)
	}
	return out
}

// quoteWithin writes one region pattern as a Within cell holds it.
func quoteWithin(p string) string {
	if p == "" {
		return ""
	}
	return cell(p, true)
}

// within reports whether a claim of the translation has a Within cell:
// the table then has the column (D94); without one it keeps D34's.
func (t *Translation) within() bool {
	for _, c := range t.Claims {
		if c.Within != "" {
			return true
		}
	}
	return false
}

package migrate

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/register"
)

// translator holds what translating one gate's rows needs.
type translator struct {
	g        *Gate
	opts     Options
	tr       *check.Trial
	trialErr error
}

// unquoted writes a pattern so that no sweep of the gates being migrated
// (this one's when it is migrated alone) reports the claims file line that
// holds it: the scripts keep running their sweeps, and so do the claims.
func (pr *translator) unquoted(re string) string {
	fams := pr.g.sweeps
	for _, g := range pr.opts.gates {
		if g != pr.g {
			fams = append(fams[:len(fams):len(fams)], g.sweeps...)
		}
	}
	return (&gateParser{families: fams}).unquoted(re)
}

// translateSweep turns a sweep family into the claims that say what the
// script's scan loop does (D66):
//
//   - an absent:all claim over every file: the script runs `git grep -n -I
//     -i -E` over every tracked file, tests and comments included;
//   - its Require: the subject a hit must also match (case-insensitive),
//     or, without a subject, the escape or qualifier that clears it, `!re`;
//   - allow rows: the script itself (its scan skips its own file), each
//     allow-list entry that names the family or every family (`*`), and an
//     escape beside a subject, which one Require cannot also say.
//
// The claims are evaluated together on the tree before they are kept, as
// check will read them: a sweep the tree does not satisfy is not written.
func (pr *translator) translateSweep(r Row) ([]Claim, string) {
	f := r.fam
	re, err := EREToRE2(f.regex)
	if err != nil {
		return nil, fmt.Sprintf("pattern `%s`: %v", f.regex, err)
	}
	conv := func(what, ere string, ci bool) (string, string) {
		out, err := EREToRE2(ere)
		if err != nil {
			return "", fmt.Sprintf("%s `%s`: %v", what, ere, err)
		}
		if ci {
			out = "(?i)" + out
		}
		return pr.unquoted(out), ""
	}
	main := Claim{ID: f.code, Kind: "absent:all", Path: "**", Anchor: pr.unquoted("(?i)" + re),
		Why: "no tracked file but the script says it (the script's sweep)"}
	var extra []Claim
	if f.subject != "" {
		sub, bad := conv("subject", f.subject, true)
		if bad != "" {
			return nil, bad
		}
		main.Require = sub
	}
	if f.escape != "" {
		esc, bad := conv("escape", f.escape, f.mode == "qualifier")
		if bad != "" {
			return nil, bad
		}
		if main.Require == "" {
			main.Require = "!" + esc
		} else {
			extra = append(extra, Claim{ID: f.code + "-escape", Kind: "allow", Path: "**", Anchor: esc, Require: f.code,
				Why: "a line that also matches the escape is cleared (the script's escape)"})
		}
	}
	excuses := []Claim{{ID: f.code + "-self", Kind: "allow", Path: pr.g.Script, Require: f.code,
		Why: "the script's own patterns are not claims about the product (its scan skips it)"}}
	for i, e := range pr.g.allowList {
		if e.family != f.code && e.family != "*" || e.prefix == "" {
			continue
		}
		a := Claim{ID: fmt.Sprintf("ALLOW%d-%s", i+1, f.code), Kind: "allow", Path: allowGlob(pr.opts.Dir, e.prefix), Require: f.code, Why: e.reason}
		if e.substr != "" {
			a.Anchor = pr.unquoted(regexp.QuoteMeta(e.substr))
		}
		excuses = append(excuses, a)
	}
	claims := append(append([]Claim{main}, extra...), excuses...)
	if pr.tr == nil {
		return nil, fmt.Sprintf("the tree cannot be read, so the sweep cannot be tried on it (%v)", pr.trialErr)
	}
	rows := make([]register.Claim, len(claims))
	for i, c := range claims {
		rows[i] = register.Claim{ID: c.ID, Kind: c.Kind, Path: c.Path, Anchor: c.Anchor, Require: c.Require}
	}
	res := pr.tr.EvalAll(rows)
	if res[0].State != check.StateOK {
		return nil, "on this tree the sweep reports " + strings.Join(res[0].Held, ", ") + " where the script reports nothing: " + res[0].Message
	}
	for i, c := range claims[1:] {
		if res[i+1].State != check.StateOK {
			return nil, fmt.Sprintf("its exception %s does not hold on this tree: %s", c.ID, res[i+1].Message)
		}
	}
	notes := []string{"the script's sweep: every tracked file, tests and comments too"}
	if n := len(excuses) - 1; n > 0 {
		notes = append(notes, fmt.Sprintf("%d allow-list %s", n, map[bool]string{true: "entry", false: "entries"}[n == 1]))
	}
	claims[0].Note = strings.Join(notes, "; ")
	return claims, ""
}

package migrate

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/claimslint/claimslint/internal/register"
)

// A marker is how a script's output names a row: [P6] (d44 to d55), (F1)
// at a sweep line's end, or the bare code.
type marker struct {
	name string
	re   func(code string) *regexp.Regexp
}

var markers = []marker{
	{"[CODE]", func(code string) *regexp.Regexp { return regexp.MustCompile(`\[` + regexp.QuoteMeta(code) + `\]`) }},
	{"(CODE)", func(code string) *regexp.Regexp { return regexp.MustCompile(`\(` + regexp.QuoteMeta(code) + `\)`) }},
}

// bareMarker names a row by its code alone, between non-word bytes: the
// reading when the output uses neither brackets nor parentheses.
var bareMarker = marker{"CODE", func(code string) *regexp.Regexp {
	return regexp.MustCompile(`(^|[^A-Za-z0-9])` + regexp.QuoteMeta(code) + `([^A-Za-z0-9]|$)`)
}}

// A status word that opens the line, before the marker, says the line
// reports a row's verdict as a column: "ok   P1 …" passes P1, "FAIL P2 …"
// and "path: [Q1] …" fail theirs.
var passWordRE = register.LazyRE(`(?i)^\s*(?:ok|pass|passed|✓)(?:[^A-Za-z]|$)`)

// verdicts are one script's row verdicts as its own output gives them
// (D64): which marker names rows is inferred from the output, a line that
// names a row with no pass word before the marker fails it, and a row the
// output never names passed when the script exited 0, or when the script
// failed and printed only failing rows; otherwise its verdict cannot be
// told.
type verdicts struct {
	named  map[string]string
	exit   int
	marker string
	// onlyFailures: the script failed, named some row failing and none
	// passing, so it prints its failing rows only.
	onlyFailures bool
}

// readVerdicts reads the output out of a script that exited exit, whose
// rows are codes.
func readVerdicts(out string, exit int, codes []string) *verdicts {
	v := &verdicts{named: map[string]string{}, exit: exit}
	lines := strings.Split(out, "\n")
	use := []marker{}
	for _, m := range markers {
		for _, c := range codes {
			if m.re(c).MatchString(out) {
				use = append(use, m)
				break
			}
		}
	}
	if len(use) == 0 {
		use = []marker{bareMarker}
	}
	var names []string
	for _, m := range use {
		names = append(names, m.name)
	}
	v.marker = strings.Join(names, " and ")
	passed, failed := 0, 0
	for _, c := range codes {
		for _, m := range use {
			re := m.re(c)
			for _, l := range lines {
				loc := re.FindStringIndex(l)
				if loc == nil {
					continue
				}
				before := l[:loc[0]]
				verdict := VerdictFail
				if passWordRE().MatchString(before) {
					verdict = VerdictOK
				}
				if v.named[c] != VerdictFail {
					v.named[c] = verdict
				}
			}
		}
		switch v.named[c] {
		case VerdictOK:
			passed++
		case VerdictFail:
			failed++
		}
	}
	v.onlyFailures = exit != 0 && failed > 0 && passed == 0
	return v
}

// verdict is one row's verdict: ok, FAIL, or ? when the output cannot
// tell.
func (v *verdicts) verdict(code string) string {
	if s, ok := v.named[code]; ok {
		return s
	}
	if v.exit == 0 || v.onlyFailures {
		return VerdictOK
	}
	return VerdictUnknown
}

// how says how the verdicts were read, for the comparison's header; ""
// when the script passed and there is nothing to say.
func (v *verdicts) how() string {
	switch {
	case v.exit == 0:
		return "" // every row passed
	case v.onlyFailures:
		return fmt.Sprintf("rows named by %s; the script prints only its failing rows, so a row it does not name passed", v.marker)
	case v.exit != 0 && len(v.named) == 0:
		return "no row is named in the script's output, so which rows failed cannot be told (?)"
	}
	return fmt.Sprintf("rows named by %s; a row the output does not name cannot be told (?)", v.marker)
}

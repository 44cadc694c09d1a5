package check

import (
	"fmt"
	"strings"

	"github.com/claimslint/claimslint/internal/ruleid"
)

// claimTableRule is CL006; its documentation names the claim kinds of the
// registry (claimTablesDoc).
//
//registry:rules
var claimTableRule = &Rule{ID: ruleid.Claims, Name: "claim-tables", Run: claimTableRun, Doc: claimTablesDoc()}

// claimTableRun (CL006) reports the rows that cannot be evaluated.
func claimTableRun(p *Pass) error {
	for _, f := range p.res.prepare().bad {
		p.Report(f)
	}
	return nil
}

// claimTablesDoc is CL006's documentation, naming the registered kinds and
// those that take a scope.
func claimTablesDoc() string {
	var names, scoped []string
	for _, k := range Kinds {
		names = append(names, k.Name())
		if _, ok := k.(scopedKind); ok {
			scoped = append(scoped, k.Name())
		}
	}
	scopes := ":" + strings.Join(Scopes, ", :")
	body := fmt.Sprintf(`The claims of a decision are the first table after its "Confirmation" heading,
with columns Claim, Kind, Path, Anchor, Require (Why and Within are optional;
Within holds region patterns in backticks, outer first, separated by >, D94). Claim ids
are unique within a decision; Kind is %s, and the kinds that read lines
(%s) take a scope suffix (%s);
Anchor and Require are Go RE2 regular expressions (a Require starting with !
must not match, \! is a literal !; count, agree and before read Require as
their doc says; a | inside a table cell is written \|); Path is a doublestar
glob relative to the repository root that must not escape it and must match at
least one file. Each finding points at the row or cell in the Markdown. A glob
that matches nothing is pending, not an error, in a proposed decision.`, orList(names, "or"), orList(scoped, "and"), scopes)
	return "Claim tables are well-formed.\n\n" + wrap(body, 78) + "\n\nFix: correct the cell the finding points at."
}

// orList joins words as "a, b or c" (with "and" for and).
func orList(words []string, and string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + and + " " + words[len(words)-1]
}

// wrap fills text's words into lines of at most width columns.
func wrap(text string, width int) string {
	var b strings.Builder
	col := 0
	for _, w := range strings.Fields(text) {
		switch {
		case col == 0:
		case col+1+len(w) > width:
			b.WriteByte('\n')
			col = 0
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += len(w)
	}
	return b.String()
}

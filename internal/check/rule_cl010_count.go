package check

import "github.com/claimslint/claimslint/internal/ruleid"

// countRule is CL010.
//
//registry:rules
var countRule = &Rule{ID: ruleid.Count, Name: "count-before-list", Run: countRun, Doc: `A count stated right before a list equals the list's length.

In the register and the decision files (not adopted records, whose prose is
history), a paragraph that ends in a colon and
states a count in its last sentence ("Three residuals stay OPEN:", "the 4
scripts below:") and is followed by a list must state the number of items
the list has. A count is two or more, in digits or a word up to twenty, and
is followed by a plural noun; "one verdict per frame:" or "exits 1 when:" is
not a count of the list.

Fix: correct the number, or the list.`}

// countRun (CL010): a count stated right before a list equals the list's
// length.
func countRun(p *Pass) error {
	history := map[string]bool{}
	for _, d := range p.Snap.Decisions {
		if d.Adopted && d.ID == "" {
			history[d.Path] = true // an adopted record's prose is history (D41)
		}
	}
	// The Markdown the mentions globs add is read too (D36).
	for _, doc := range append(p.Snap.Corpus(), p.Snap.MentionDocs()...) {
		if history[doc.Path] {
			continue
		}
		for _, cl := range doc.Counted {
			if cl.Stated != cl.Items {
				p.Reportf(cl.Pos, "%q states %d but the list below has %d item(s): correct the count or the list", cl.Word, cl.Stated, cl.Items)
			}
		}
	}
	return nil
}

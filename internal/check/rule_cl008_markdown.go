package check

import "github.com/claimslint/claimslint/internal/ruleid"

// markdownRule is CL008.
//
//registry:rules
var markdownRule = &Rule{ID: ruleid.Markdown, Name: "markdown", Run: markdownRun, Doc: `Register and decision files are readable.

Each file must be valid UTF-8; a decision file starts with a YAML front
matter block ('---' ... '---') that parses and holds at least id: and status:
(an adopted record may have no front matter, or one without id:);
list keys (supersedes, superseded-by, tracker, residuals) are YAML lists.
A byte order mark before the front matter is ignored.

Markdown that would take the parser quadratic time is refused before it is
parsed (D40): more than 32 block quotes or list items opened on one line, a
table row of more than 64 cells, or too many unclosed inline openers
(* _ [ ( < backtick ~ !) in one paragraph (the sum over paragraphs of their
square above 50,000,000, about 7,000 in one paragraph).

Fix: re-save the file as UTF-8 or correct the front matter at the reported
key; split the paragraph or table, flatten the nesting, or put the text in
a fenced code block.`}

// markdownRun (CL008) has nothing to look at: every finding of the rule
// comes from parsing the snapshot, and the driver hands the pass those.
func markdownRun(*Pass) error { return nil }

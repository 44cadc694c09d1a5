package check

import (
	"fmt"
	"sort"
	"strings"

	"github.com/claimslint/claimslint/internal/ruleid"
)

// Rules lists every rule `claimslint check` runs, in id order. Prove's rule
// (CL009) acts only with Options.Prove, the --base rules (CL011, CL012)
// only with Options.Base.
var Rules = []*Rule{registerRule, statusRule, rangeRuleV, trackerRuleV, scriptRuleV, claimTableRule, claimRule, markdownRule, vacuousRule, countRuleV, baseRule, deletedRule}

// registerRule is CL001.
var registerRule = &Rule{ID: ruleid.Register, Name: "register-files", Run: registerRules, Doc: `Every register row has exactly one decision file and every decision file a row.

The register is the first GFM table in the register file (register: in
.claimslint.yml, default docs/PRD.md) whose first header cell is ID. Each row's
first cell is a decision id D<n>. Each decision lives in
<decisions>/D<n>-<slug>.md. Ids are unique; the id in the file name, the
front matter (id:) and the row agree; a row's link, when it has one, points at
the decision's file; the row's Status cell and the file's status: agree.

Adopted records (adopt: in .claimslint.yml) keep their names: the register
row that links a record gives its id, and a record with no row is a finding
until claimslint init --adopt registers it.

Fix: add the missing row or file, rename the file, or correct the id or status
so the two sides say the same thing.`}

// statusRule is CL002.
var statusRule = &Rule{ID: ruleid.Status, Name: "status-supersession", Run: registerRules, Doc: `Statuses come from a fixed set and supersession is reciprocal.

status: is one of proposed, accepted, rejected, deprecated, superseded. A
superseded decision names its successor in superseded-by:. supersedes: and
superseded-by: are reciprocal: D47 supersedes D43 (or one clause of it,
written D43(6)) if and only if D43 lists D47 in superseded-by:. A decision
superseded whole (no clause) must have status superseded or deprecated.

Adopted records are history: their status words are mapped through the
statuses: vocabulary (a word it does not know is a finding that names the
entry to add), one-way links are completed from the other side, and a link
to no registered record is a warning. They are never asked to change.

Fix: write the reference on both sides, or correct the status; for an
adopted record, add a statuses: entry or write the successor's supersedes:.`}

// rangeRuleV is CL003.
var rangeRuleV = &Rule{ID: ruleid.Range, Name: "live-range", Run: rangeRule, Doc: `Every range site carries the live range D1..Dn.

n is the highest decision id in the register. Each file listed in
range_sites: must contain the text D1..Dn at least once. Every other range
there is stale, and reported with the text to write, unless it is frozen on
purpose: listed in frozen_ranges: ({path, range}) or marked by
"claimslint: frozen" on its own line. check notes each frozen range on stderr;
a frozen_ranges entry that no longer matches is a finding too.

Fix: replace the stale range with the one the message gives.`}

// trackerRuleV is CL004.
var trackerRuleV = &Rule{ID: ruleid.Tracker, Name: "tracker-ids", Run: trackerRule, Doc: `Every tracker id the register mentions resolves in the tracker's export.

Ids are <prefix>-<base36> for each prefix in tracker.prefixes, with an
optional hierarchical suffix (ub-lp9.25, ub-lp9.7.1), or #<n> for the github
format. They are looked up in the register file, every decision and claims
file, every range site, and the files the mentions: globs name (Markdown
text, and only the comments of code files), outside fenced code blocks and
never in the Path, Anchor and Require cells of claim tables. An id missing from the
export (tracker.export) is a finding; so is a placeholder such as dk-TBD,
dk-XXX or dk-???, which stands for an issue nobody filed. A record of the
export that cannot be read is reported at its line.

Fix: file the issue and write its real id, or correct the id.`}

// scriptRuleV is CL005.
var scriptRuleV = &Rule{ID: ruleid.Scripts, Name: "scripts", Run: scriptRule, Doc: `Check scripts are executable in the git index and run by a workflow.

Every file matched by scripts: (default checks/**) must be mode 100755 in the
git index and executable on disk (a script that passes "sh script" locally but
is 100644 in the index dies in CI as a bare path), and at least one workflow
file matched by workflows: must name it outside a comment. Every script path
under the scripts directory that a workflow names must exist.

Fix: git update-index --chmod=+x PATH (and chmod +x PATH); add a workflow step
that runs the script, or remove the stale step.`}

// claimTableRule is CL006.
var claimTableRule = &Rule{ID: ruleid.Claims, Name: "claim-tables", Run: claimTableRun, Doc: `Claim tables are well-formed.

The claims of a decision are the first table after its "Confirmation" heading,
with columns Claim, Kind, Path, Anchor, Require (Why is optional). Claim ids
are unique within a decision; Kind is present, anchored, anchored-every,
absent, exec or tracker, and the first four take a scope suffix (:code,
:any, :comment, :prose);
Anchor and Require are Go RE2 regular expressions (a Require starting with !
must not match; a | inside a table cell is written \|); Path is a doublestar
glob relative to the repository root that must not escape it and must match at
least one file. Each finding points at the row or cell in the Markdown. A glob
that matches nothing is pending, not an error, in a proposed decision.

Fix: correct the cell the finding points at.`}

// claimRule is CL007; its documentation lists the claim kinds of the registry.
var claimRule = &Rule{ID: ruleid.Claim, Name: "claims", Run: claimRun, Doc: ""}

// markdownRule is CL008.
var markdownRule = &Rule{ID: ruleid.Markdown, Name: "markdown", Run: reportParse, Doc: `Register and decision files are readable.

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

// vacuousRule is CL009.
var vacuousRule = &Rule{ID: ruleid.Vacuous, Name: "vacuous-claim", Run: proveRun, Doc: `A claim must be able to fail (claimslint prove).

prove edits, in memory, the lines each claim of an accepted decision rests
on, one mutant at a time, and evaluates the claim alone again: for present
and anchored, each code line that satisfies the claim is deleted, and each
match of a Require (one that must match) is removed from it; for
anchored-every, every line the Anchor matches is deleted at once, and each
line's Require is broken; for absent, a sample of the Anchor is added to the
first file of Path. exec and tracker claims rest on no line and are not
mutated. A claim that stays green under one of its own mutants is vacuous:
the code could lose the line the decision is about and CI would not notice.
The usual cause is a token that appears on more than one code line.

Fix: anchor on the one line that does the work (an anchored claim, or a more
specific pattern), or narrow Path.`}

// countRuleV is CL010.
var countRuleV = &Rule{ID: ruleid.Count, Name: "count-before-list", Run: countRule, Doc: `A count stated right before a list equals the list's length.

In the register and the decision files (not adopted records, whose prose is
history), a paragraph that ends in a colon and
states a count in its last sentence ("Three residuals stay OPEN:", "the 4
scripts below:") and is followed by a list must state the number of items
the list has. A count is two or more, in digits or a word up to twenty, and
is followed by a plural noun; "one verdict per frame:" or "exits 1 when:" is
not a count of the list.

Fix: correct the number, or the list.`}

// baseRule is CL011.
var baseRule = &Rule{ID: ruleid.Base, Name: "spec-changed-code-not", Run: baseChangedRun, Doc: `A claim whose row changed since --base changes code too.

With check --base REV, a claim of an accepted decision whose table row differs
from the row at REV, while none of the lines the claim anchors on changed
since REV, is a finding: the spec moved and the code did not. New rows are not
findings (they document code that exists).

Fix: land the code change the new row describes in the same change, or
revert the row.`}

// deletedRule is CL012.
var deletedRule = &Rule{ID: ruleid.Deleted, Name: "claim-row-deleted", Run: baseDeletedRun, Doc: `Claims of accepted decisions are retired by supersession, not deletion.

With check --base REV, a claim row present at REV and gone now from a decision
that is still accepted is a finding.

Fix: restore the row, or write a new decision that supersedes this one (or the
clause) and mark it superseded.`}

// reportParse is the run function of rules whose findings all come from
// parsing the snapshot (the driver reports those): there is nothing more
// to look at.
func reportParse(*Pass) error { return nil }

// Explain returns the documentation of rule id (case-insensitive) among
// rules.
func Explain(id string, rules []*Rule) (string, error) {
	id = strings.ToUpper(strings.TrimSpace(id))
	for _, r := range rules {
		if r.ID == id {
			return fmt.Sprintf("%s %s\n\n%s\n", r.ID, r.Name, r.Doc), nil
		}
	}
	ids := make([]string, len(rules))
	for i, r := range rules {
		ids[i] = r.ID
	}
	sort.Strings(ids)
	return "", fmt.Errorf("unknown rule %q: known rules are %s", id, strings.Join(ids, ", "))
}

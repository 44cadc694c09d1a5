package author

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/claimslint/claimslint/internal/plan"
	"github.com/claimslint/claimslint/internal/register"
)

// reviewMark starts the Why cell of a claim `new --supersedes` copied from
// the decision it supersedes (issue 34 item 6, D105): the new decision
// says what the old one did until its author reads each row again.
const reviewMark = "REVIEW (copied from %s): "

// carryClaims puts the claim rows of old into the new decision p writes
// first, each marked for review, when it supersedes old whole in
// claimslint's own format: not a clause (Dn(2)), not an adopted
// collection's record (D105).
func carryClaims(o NewOptions, p *plan.Plan, old *register.Decision, adopted bool) {
	if old == nil || adopted || strings.Contains(o.Supersedes, "(") {
		return
	}
	var notes []string
	p.Changes[0].New, notes = withOldClaims(o.Dir, p.Changes[0].New, old)
	p.Notes = append(p.Notes, notes...)
}

// withOldClaims returns the new decision's text with the claim rows of
// old, the decision it supersedes whole, in place of its empty table: the
// old table's header (a Within column kept) and each row as written,
// its Why cell marked for review. The new decision is proposed, so its
// claims are pending while old stays accepted; accepting it retires old
// (D78). notes say what was copied, or why nothing was.
func withOldClaims(dir string, text []byte, old *register.Decision) ([]byte, []string) {
	if old == nil || len(old.Claims) == 0 {
		return text, nil
	}
	file := old.Claims[0].Pos.Filename
	src, err := plan.ReadIn(dir, file)
	if err != nil {
		return text, []string{fmt.Sprintf("%s: its claims were not copied: %v", old.FileID, err)}
	}
	lines := strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n")
	first := old.Claims[0].Pos.Line
	if first < 3 || first > len(lines) || !strings.HasPrefix(strings.TrimSpace(lines[first-2]), "|") {
		return text, []string{fmt.Sprintf("%s: its claims were not copied: the table header above %s:%d was not found", old.FileID, file, first)}
	}
	header, sep := lines[first-3], lines[first-2]
	why := -1
	for i, c := range cells(header) {
		if strings.EqualFold(strings.TrimSpace(c), "why") {
			why = i
		}
	}
	var b strings.Builder
	b.WriteString(header + "\n" + sep + "\n")
	for _, c := range old.Claims {
		if c.Pos.Filename != file || c.Pos.Line < 1 || c.Pos.Line > len(lines) {
			continue
		}
		b.WriteString(markRow(lines[c.Pos.Line-1], why, old.FileID) + "\n")
	}
	empty := []byte("| Claim | Kind | Path | Anchor | Require | Why |\n|---|---|---|---|---|---|\n")
	if !bytes.HasSuffix(text, empty) {
		return text, []string{fmt.Sprintf("%s: its claims were not copied: the new decision has no empty table to hold them", old.FileID)}
	}
	out := append(bytes.TrimSuffix(text, empty), b.String()...)
	return out, []string{fmt.Sprintf("copied the %d claims of %s, each marked %q in its Why: read each against the new decision before accepting it", len(old.Claims), old.FileID, strings.TrimSpace(fmt.Sprintf(reviewMark, old.FileID)))}
}

// cells splits a table row at its unescaped pipes, the outer ones
// dropped.
func cells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	var out []string
	start := 0
	for i := 0; i < len(row); i++ {
		switch row[i] {
		case '\\':
			i++
		case '|':
			out = append(out, row[start:i])
			start = i + 1
		}
	}
	if rest := row[start:]; strings.TrimSpace(rest) != "" {
		out = append(out, rest)
	}
	return out
}

// markRow writes the review mark at the start of the row's Why cell (the
// last cell when the header names none).
func markRow(row string, why int, from string) string {
	cs := cells(row)
	if why < 0 || why >= len(cs) {
		why = len(cs) - 1
	}
	if why < 0 {
		return row
	}
	cs[why] = " " + fmt.Sprintf(reviewMark, from) + strings.TrimSpace(cs[why]) + " "
	return "|" + strings.Join(cs, "|") + "|"
}

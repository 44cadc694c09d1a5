package author

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/decisionid"
	"github.com/claimslint/claimslint/internal/plan"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/snapshot"
)

// inlineNext reports whether claimslint new writes the next decision as a
// row of an inline register (D35, D65): inline: is set and the register's
// last row stands without a decision file, so the next one does too.
func inlineNext(res *snapshot.Snapshot) bool {
	cfg := res.Config
	if cfg.Inline == nil || len(cfg.Adopt) > 0 || len(res.Register.Rows) == 0 {
		return false
	}
	last := res.Register.Rows[len(res.Register.Rows)-1]
	d := res.Decision(last.ID)
	return d != nil && d.Inline
}

// claimsTemplate is the claims file of a new inline decision: its row is
// the decision, this file its Confirmation table.
func claimsTemplate(id, title, register string) []byte {
	return []byte(`---
tracker: []
---
# ` + id + `: claims

The claims of ` + id + `, "` + title + `". The decision itself is its row in
` + "`" + register + "`" + `. Each claim anchors on the production line that
does the work; a proposed decision's claims are reported as pending until
the code lands.

## Confirmation

| Claim | Kind | Path | Anchor | Require | Why |
|---|---|---|---|---|---|
`)
}

// inlineRow inserts the next row of an inline register after its last
// row, in the register's own shape: the id written as the last row writes
// its own (**D56**), the title in the Decision column, one cell per header
// column, and the status as the register says it: in the Status column,
// else in the words a marker reads, else nothing when it is the default.
// It reads the row back through the markers and fails, changing nothing,
// when they would give another status.
func inlineRow(src []byte, reg *register.Register, cfg config.Config, id, title, status string) ([]byte, error) {
	lines := strings.SplitAfter(string(src), "\n")
	last := reg.Rows[len(reg.Rows)-1]
	h := reg.HeaderPos.Line
	if h < 1 || h > len(lines) || last.Pos.Line > len(lines) {
		return nil, fmt.Errorf("cannot find the register table's header")
	}
	header := strings.Split(strings.Trim(strings.TrimSpace(lines[h-1]), "|"), "|")
	titleCol, statusCol := -1, -1
	for i, c := range header {
		switch c = strings.ToLower(strings.TrimSpace(c)); {
		case c == "status" && statusCol < 0:
			statusCol = i
		case (strings.Contains(c, "decision") || strings.Contains(c, "title")) && titleCol < 0 && i > 0:
			titleCol = i
		}
	}
	if titleCol < 0 {
		titleCol = min(1, len(header)-1)
	}
	cells := make([]string, len(header))
	cells[0] = id
	if !strings.HasPrefix(last.IDCell, "[") { // a link's target names the old id
		cells[0] = strings.Replace(last.IDCell, last.ID, id, 1)
	}
	cells[titleCol] = title
	switch {
	case statusCol > 0:
		cells[statusCol] = status
	case cfg.Inline.Status != status:
		words, err := markerWords(cfg, status, id)
		if err != nil {
			return nil, err
		}
		if c := len(cells) - 1; c > 0 && c != titleCol {
			cells[c] = words
		} else {
			cells[titleCol] += " " + words
		}
	}
	row := "| " + strings.Join(cells, " | ") + " |\n"
	row = strings.ReplaceAll(row, "|  |", "| |")
	if !strings.HasSuffix(lines[last.Pos.Line-1], "\n") {
		lines[last.Pos.Line-1] += "\n"
	}
	out := []byte(strings.Join(append(append(append([]string{}, lines[:last.Pos.Line]...), row), lines[last.Pos.Line:]...), ""))
	if got := statusOfRow(out, cfg, id); got != status {
		return nil, fmt.Errorf("%s: the row %q reads as %s through inline.markers, not %s: choose another title or --status", cfg.Register, strings.TrimSpace(row), plan.OrNone(got), status)
	}
	return out, nil
}

// markRetired adds to the row old the words a superseded marker reads,
// naming the decision that supersedes it: "SUPERSEDED by D56".
func markRetired(src []byte, reg *register.Register, cfg config.Config, old, by string) ([]byte, error) {
	words, err := markerWords(cfg, "superseded", by)
	if err != nil {
		return nil, err
	}
	lines := strings.SplitAfter(string(src), "\n")
	for _, r := range reg.Rows {
		if r.ID != old || r.Pos.Line > len(lines) {
			continue
		}
		l := lines[r.Pos.Line-1]
		body := strings.TrimRight(l, "\r\n")
		end := l[len(body):]
		t := strings.TrimRight(body, " \t")
		if !strings.HasSuffix(t, "|") {
			t += " |"
		}
		t = strings.TrimRight(strings.TrimSuffix(t, "|"), " \t")
		lines[r.Pos.Line-1] = t + " " + words + " |" + end
		out := []byte(strings.Join(lines, ""))
		if got := statusOfRow(out, cfg, old); got != "superseded" {
			return nil, fmt.Errorf("%s: %s marked %q reads as %s, not superseded: edit its row by hand", cfg.Register, old, words, plan.OrNone(got))
		}
		return out, nil
	}
	return nil, fmt.Errorf("no register row for %s to mark superseded", old)
}

// statusOfRow is the status the register gives row id, read as check reads it.
func statusOfRow(src []byte, cfg config.Config, id string) string {
	for _, r := range register.ParseRegisterWith(cfg.Register, src, snapshot.RegisterOptions(cfg)).Rows {
		if r.ID == id {
			return r.Status
		}
	}
	return ""
}

// markerWords returns words that the first inline.markers pattern
// matching them reads as status: the status word as the register shouts
// it (PROPOSED), or the pattern's own text (SUPERSEDED by D56).
func markerWords(cfg config.Config, status, ref string) (string, error) {
	ms := cfg.Inline.Markers
	res := make([]*regexp.Regexp, len(ms))
	for i, m := range ms {
		res[i] = regexp.MustCompile(m.Pattern) // validated when loaded
	}
	lit := strings.NewReplacer(decisionid.Pattern, ref, `\b`, "", `D[0-9]+`, ref, `D[1-9][0-9]*`, ref, `\s+`, " ", `(?:\*\*|__)?`, "", `\`, "")
	for i, m := range ms {
		if m.Status != status {
			continue
		}
		up := strings.ToUpper(status)
		for _, w := range []string{up, up + " by " + ref, strings.TrimPrefix(lit.Replace(m.Pattern), `| [*_]*`), status, strings.ToUpper(status[:1]) + status[1:]} {
			// The words open the row's last cell, as a marker sees them.
			first := -1
			for j, re := range res {
				if re.MatchString("x | " + w) {
					first = j
					break
				}
			}
			if first == i {
				return w, nil
			}
		}
	}
	pattern, other := `\| `+strings.ToUpper(status)+`\b`, ""
	switch {
	case status == "superseded":
		pattern = `SUPERSEDED by D[0-9]+`
	case cfg.Inline.Status != "":
		other = fmt.Sprintf("run claimslint new --status %s, or ", cfg.Inline.Status)
	}
	return "", fmt.Errorf("%s has no Status column and no inline.markers pattern that gives %s: %sadd {pattern: '%s', status: %s} to inline.markers in %s",
		cfg.Register, status, other, pattern, status, config.FileName)
}

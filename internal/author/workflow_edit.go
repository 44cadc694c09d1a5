package author

import (
	"bytes"
	"maps"
	"regexp"
	"strings"

	"github.com/claimslint/claimslint/internal/codeline"
	"github.com/claimslint/claimslint/internal/config"
)

var (
	stepsKeyRE   = regexp.MustCompile(`^( *)steps:\s*$`)
	stepItemRE   = regexp.MustCompile(`^( *)- `)
	runsCheckRE  = regexp.MustCompile(`claimslint\S*"?\s+check\b`)
	addedBuildRE = regexp.MustCompile(`(?m)^ *- `)
)

// addGateSteps appends claimslint's build and check steps (D85, D86) to the
// job of the workflow src (file name) whose step runs one of scripts, the
// register's old gates, at that job's indentation, for init --adopt on an
// inline register (dk-iw1). Both are nil when the workflow already runs
// claimslint check. why says why the file is left as it is otherwise: no
// step names a script outside a comment, the steps are not a block list,
// or the edited file would not read as the same jobs with the steps added.
func addGateSteps(name string, src []byte, scripts []string, url, ref string) (out []byte, why string) {
	masked := codeline.Mask(name, src)
	if runsCheckRE.Match(masked) {
		return nil, "" // nothing to add
	}
	lines := strings.SplitAfter(string(src), "\n")
	mlines := strings.SplitAfter(string(masked), "\n")
	at := -1
	for i, l := range mlines {
		for _, s := range scripts {
			if regexp.MustCompile(`(?:^|[\s"'=(])(?:\./)?` + regexp.QuoteMeta(s) + `(?:$|[\s"';|&)])`).MatchString(strings.TrimRight(l, "\r\n")) {
				at = i
				break
			}
		}
		if at >= 0 {
			break
		}
	}
	if at < 0 {
		return nil, "no step of it names a gate outside a comment"
	}
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
	blank := func(i int) bool { return strings.TrimSpace(mlines[i]) == "" }
	steps := -1
	for i := at; i >= 0; i-- {
		if m := stepsKeyRE.FindStringSubmatch(strings.TrimRight(mlines[i], "\r\n")); m != nil && len(m[1]) < indent(mlines[at]) {
			steps = i
			break
		}
	}
	if steps < 0 {
		return nil, "the step that runs the gate is not in a steps: block list"
	}
	item := -1
	end := len(lines)
	for i := steps + 1; i < len(lines); i++ {
		if blank(i) {
			continue
		}
		l := mlines[i]
		if item < 0 {
			m := stepItemRE.FindStringSubmatch(l)
			if m == nil || len(m[1]) < indent(mlines[steps]) {
				return nil, "its steps: is not a block list"
			}
			item = len(m[1])
			continue
		}
		if indent(l) < item || indent(l) == item && !stepItemRE.MatchString(l) {
			end = i
			break
		}
	}
	// Blank and comment lines before what follows belong to it.
	for end > steps+1 && blank(end-1) {
		end--
	}
	block := buildSteps(url, ref, false) + gateStep(Gates[0], WorkflowOptions{}, false)
	var b strings.Builder
	for _, l := range strings.SplitAfter(block, "\n") {
		if l != "" {
			b.WriteString(strings.Repeat(" ", item) + strings.TrimPrefix(l, "      "))
		}
	}
	add := b.String()
	if bytes.Contains(src, []byte("\r\n")) {
		add = strings.ReplaceAll(add, "\n", "\r\n")
	}
	head := strings.Join(lines[:end], "")
	if head != "" && !strings.HasSuffix(head, "\n") {
		head += "\n"
	}
	out = []byte(head + add + strings.Join(lines[end:], ""))
	// The edit must read as the same jobs, one of them with the added
	// steps: otherwise the file is left for the team to edit.
	before, err1 := config.WorkflowSteps(src)
	after, err2 := config.WorkflowSteps(out)
	if err1 != nil || err2 != nil || len(before) != len(after) {
		return nil, "its YAML does not read as the same jobs after the edit"
	}
	n := len(addedBuildRE.FindAllString(block, -1))
	changed := 0
	for id := range maps.Keys(before) {
		switch after[id] - before[id] {
		case 0:
		case n:
			changed++
		default:
			changed += 2
		}
	}
	if changed != 1 {
		return nil, "its YAML does not read as one job with the steps added"
	}
	return out, ""
}

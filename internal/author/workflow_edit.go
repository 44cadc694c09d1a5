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
	checkoutRE   = regexp.MustCompile(`(?m)^[ -]*uses:\s*["']?actions/checkout@`)
)

// addGateSteps adds claimslint's build and check steps (D85, D86) to the
// job of the workflow src (file name) whose step runs one of scripts, the
// register's old gates, at that job's indentation, for init --adopt on an
// inline register (dk-iw1): the build as the job's first steps, before any
// step runs what a pull request commits, and the check step right after
// the job's checkout. Both are nil when the workflow already runs
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
	var starts []int // the first line of each step
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
			starts = append(starts, i)
			continue
		}
		if indent(l) < item || indent(l) == item && !stepItemRE.MatchString(l) {
			end = i
			break
		}
		if indent(l) == item {
			starts = append(starts, i)
		}
	}
	// Blank and comment lines before a step (or what follows the job)
	// belong to it.
	back := func(i int) int {
		for i > steps+1 && blank(i-1) {
			i--
		}
		return i
	}
	// The check step goes right after the job's checkout, before any step
	// of the job runs what the pull request commits.
	checkoutEnd := -1
	for k, st := range starts {
		next := end
		if k+1 < len(starts) {
			next = starts[k+1]
		}
		if checkoutRE.MatchString(strings.Join(mlines[st:next], "")) {
			checkoutEnd = back(next)
			break
		}
	}
	if checkoutEnd < 0 {
		return nil, "the job that runs the gate has no actions/checkout step"
	}
	reindent := func(block string) string {
		var b strings.Builder
		for _, l := range strings.SplitAfter(block, "\n") {
			if l != "" {
				b.WriteString(strings.Repeat(" ", item) + strings.TrimPrefix(l, "      "))
			}
		}
		if bytes.Contains(src, []byte("\r\n")) {
			return strings.ReplaceAll(b.String(), "\n", "\r\n")
		}
		return b.String()
	}
	build := buildSteps(url, ref, false)
	check := gateStep(Gates[0], WorkflowOptions{}, false)
	tail := strings.Join(lines[checkoutEnd:], "")
	mid := strings.Join(lines[steps+1:checkoutEnd], "")
	if mid != "" && !strings.HasSuffix(mid, "\n") {
		mid += "\n"
	}
	// The build comes first of all: a step before it that ran the pull
	// request's code could change the runner it builds on (D85).
	out = []byte(strings.Join(lines[:steps+1], "") + reindent(build) + mid + reindent(check) + tail)
	block := build + check
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

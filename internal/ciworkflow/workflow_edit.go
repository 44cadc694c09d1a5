package ciworkflow

import (
	"bytes"
	"maps"
	"regexp"
	"strings"

	"github.com/claimslint/claimslint/internal/codeline"
	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/register"
)

var (
	stepsKeyRE   = register.LazyRE(`^( *)steps:\s*$`)
	stepItemRE   = register.LazyRE(`^( *)- `)
	runsCheckRE  = register.LazyRE(`claimslint\S*"?\s+check\b`)
	addedBuildRE = register.LazyRE(`(?m)^ *- `)
	checkoutRE   = register.LazyRE(`(?m)^[ -]*uses:\s*["']?actions/checkout@`)
)

// AddGateSteps adds claimslint's build and check steps (D85, D86) to the
// job of the workflow src (file name) whose step runs one of scripts, the
// register's old gates, at that job's indentation, for init --adopt on an
// inline register (dk-iw1): the build as the job's first steps, before any
// step runs what a pull request commits, and the check step right after
// the job's checkout. Both are nil when the workflow already runs
// claimslint check. why says why the file is left as it is otherwise: no
// step names a script outside a comment, the steps are not a block list,
// or the edited file would not read as the same jobs with the steps added.
func AddGateSteps(name string, src []byte, scripts []string, url, ref string) (out []byte, why string) {
	masked := codeline.Mask(name, src)
	if runsCheckRE().Match(masked) {
		return nil, "" // nothing to add
	}
	lines := strings.SplitAfter(string(src), "\n")
	mlines := strings.SplitAfter(string(masked), "\n")
	at := gateLine(mlines, scripts)
	if at < 0 {
		return nil, "no step of it names a gate outside a comment"
	}
	steps := -1
	for i := at; i >= 0; i-- {
		if m := stepsKeyRE().FindStringSubmatch(strings.TrimRight(mlines[i], "\r\n")); m != nil && len(m[1]) < lineIndent(mlines[at]) {
			steps = i
			break
		}
	}
	if steps < 0 {
		return nil, "the step that runs the gate is not in a steps: block list"
	}
	item, starts, end, ok := stepItems(mlines, steps)
	if !ok {
		return nil, "its steps: is not a block list"
	}
	// The check step goes right after the job's checkout, before any step
	// of the job runs what the pull request commits.
	checkoutEnd := afterCheckout(mlines, steps, starts, end)
	if checkoutEnd < 0 {
		return nil, "the job that runs the gate has no actions/checkout step"
	}
	crlf := bytes.Contains(src, []byte("\r\n"))
	build := buildSteps(url, ref, false)
	check := gateStep(Gates[0], WorkflowOptions{}, false)
	tail := strings.Join(lines[checkoutEnd:], "")
	mid := strings.Join(lines[steps+1:checkoutEnd], "")
	if mid != "" && !strings.HasSuffix(mid, "\n") {
		mid += "\n"
	}
	// The build comes first of all: a step before it that ran the pull
	// request's code could change the runner it builds on (D85).
	out = []byte(strings.Join(lines[:steps+1], "") + reindent(build, item, crlf) + mid + reindent(check, item, crlf) + tail)
	if why := sameJobsPlus(src, out, build+check); why != "" {
		return nil, why
	}
	return out, ""
}

// lineIndent is the number of spaces l begins with.
func lineIndent(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

// gateLine is the first line (of the masked lines) that runs one of
// scripts, or -1.
func gateLine(mlines, scripts []string) int {
	for i, l := range mlines {
		for _, s := range scripts {
			if regexp.MustCompile(`(?:^|[\s"'=(])(?:\./)?` + regexp.QuoteMeta(s) + `(?:$|[\s"';|&)])`).MatchString(strings.TrimRight(l, "\r\n")) {
				return i
			}
		}
	}
	return -1
}

// stepItems reads the block list below the steps: key on line steps:
// the indentation of its items, the first line of each step, the line
// past the list, and false when it is not a block list.
func stepItems(mlines []string, steps int) (item int, starts []int, end int, ok bool) {
	item, end = -1, len(mlines)
	for i := steps + 1; i < len(mlines); i++ {
		l := mlines[i]
		if strings.TrimSpace(l) == "" {
			continue
		}
		if item < 0 {
			m := stepItemRE().FindStringSubmatch(l)
			if m == nil || len(m[1]) < lineIndent(mlines[steps]) {
				return -1, nil, end, false
			}
			item = len(m[1])
			starts = append(starts, i)
			continue
		}
		if lineIndent(l) < item || lineIndent(l) == item && !stepItemRE().MatchString(l) {
			return item, starts, i, true
		}
		if lineIndent(l) == item {
			starts = append(starts, i)
		}
	}
	return item, starts, end, true
}

// afterCheckout is the line after the job's checkout step, before the
// blank and comment lines that belong to the next step, or -1 when the
// job has none.
func afterCheckout(mlines []string, steps int, starts []int, end int) int {
	for k, st := range starts {
		next := end
		if k+1 < len(starts) {
			next = starts[k+1]
		}
		if checkoutRE().MatchString(strings.Join(mlines[st:next], "")) {
			// Blank and comment lines before a step (or what follows the
			// job) belong to it.
			for next > steps+1 && strings.TrimSpace(mlines[next-1]) == "" {
				next--
			}
			return next
		}
	}
	return -1
}

// reindent moves a block of steps written at six spaces to the job's
// item indentation, with the file's line ends.
func reindent(block string, item int, crlf bool) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(block, "\n") {
		if l != "" {
			b.WriteString(strings.Repeat(" ", item) + strings.TrimPrefix(l, "      "))
		}
	}
	if crlf {
		return strings.ReplaceAll(b.String(), "\n", "\r\n")
	}
	return b.String()
}

// sameJobsPlus says why out is not src with block's steps added to one
// job, or "" when it is: the edit must read as the same jobs, one of them
// with the added steps; otherwise the file is left for the team to edit.
func sameJobsPlus(src, out []byte, block string) string {
	before, err1 := config.WorkflowSteps(src)
	after, err2 := config.WorkflowSteps(out)
	if err1 != nil || err2 != nil || len(before) != len(after) {
		return "its YAML does not read as the same jobs after the edit"
	}
	n := len(addedBuildRE().FindAllString(block, -1))
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
		return "its YAML does not read as one job with the steps added"
	}
	return ""
}

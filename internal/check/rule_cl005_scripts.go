package check

import (
	"bytes"
	"fmt"
	"go/token"
	"regexp"
	"slices"
	"strings"

	"github.com/claimslint/claimslint/internal/codeline"
	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/glob"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/ruleid"
	"github.com/claimslint/claimslint/internal/snapshot"
)

// scriptRule is CL005.
//
//registry:rules
var scriptRule = &Rule{ID: ruleid.Scripts, Name: "scripts", Run: scriptRun, Doc: `Check scripts are executable in the git index and run by a workflow.

Every script among the files scripts: matches (default checks/**) must be
mode 100755 in the git index and executable on disk (a script that passes
"sh script" locally but is 100644 in the index dies in CI as a bare path), and
at least one workflow file matched by workflows: must name it outside a
comment. A script is a file that begins with #! or is 100755 in the index
(executable on disk outside git): a Go package, a README or data beside the
scripts is not one, and neither is a file under a testdata/ folder (a
fixture a test reads, as the go tool treats testdata/). Every script path under the scripts directory that a
workflow names must exist. Narrow it (scripts: 'checks/*.sh') or turn the rule
off (scripts: '').

Fix: git update-index --chmod=+x PATH (and chmod +x PATH); add a workflow step
that runs the script, or remove the stale step.`}

// execProblem says why rel is not an executable script, or "".
func execProblem(s *snapshot.Snapshot, rel string) string {
	if s.Repo.Git {
		switch mode := s.Repo.IndexMode(rel); mode {
		case "100755":
		case "":
			return fmt.Sprintf("%s is not in the git index: git add --chmod=+x %s", rel, rel)
		default:
			return fmt.Sprintf("%s is mode %s in the git index, not 100755: git update-index --chmod=+x %s", rel, mode, rel)
		}
	}
	if !s.Repo.Executable(rel) {
		return fmt.Sprintf("%s is not executable on disk: chmod +x %s", rel, rel)
	}
	return ""
}

// isScript says whether rel, a file scripts: matches, is a script (D86): it
// begins with #!, or it is executable (100755 in the git index; on disk
// outside git). A file that cannot be read is claimed, so CL005 says what
// is wrong with it.
func isScript(s *snapshot.Snapshot, rel string) bool {
	if slices.Contains(strings.Split(rel, "/"), "testdata") {
		return false
	}
	if s.Repo.Git && s.Repo.IndexMode(rel) == "100755" || !s.Repo.Git && s.Repo.Executable(rel) {
		return true
	}
	data, err := s.Repo.ReadFile(rel, snapshot.MaxMarkdown)
	return err != nil || bytes.HasPrefix(data, []byte("#!"))
}

// scriptRun (CL005): check scripts are executable and run by a workflow.
func scriptRun(p *Pass) error {
	r := p.Snap
	if r.Config.Scripts == "" {
		return nil
	}
	if msg := glob.Valid(r.Config.Scripts); msg != "" {
		p.Reportf(token.Position{Filename: config.FileName, Line: 1, Column: 1}, "scripts: %s", msg)
		return nil
	}
	var scripts []string
	for _, f := range r.Match(r.Config.Scripts) {
		if isScript(r, f) {
			scripts = append(scripts, f)
		}
	}
	var workflows []string
	if r.Config.Workflows != "" && glob.Valid(r.Config.Workflows) == "" {
		workflows = r.Match(r.Config.Workflows)
	}
	type wf struct {
		path string
		raw  []byte
		code []byte
	}
	var wfs []wf
	for _, w := range workflows {
		data, err := r.Repo.ReadFile(w, snapshot.MaxMarkdown)
		if err != nil {
			p.Reportf(token.Position{Filename: w, Line: 1, Column: 1}, "cannot read workflow: %v", snapshot.Describe(err))
			continue
		}
		wfs = append(wfs, wf{w, data, codeline.Mask(w, data)})
	}
	for _, s := range scripts {
		pos := token.Position{Filename: s, Line: 1, Column: 1}
		if msg := execProblem(r, s); msg != "" {
			p.Reportf(pos, "%s", msg)
		}
		re := regexp.MustCompile(`(?:^|[\s"'=(])(?:\./)?` + regexp.QuoteMeta(s) + `(?:$|[\s"';|&)])`)
		run := false
		for _, w := range wfs {
			if re.Match(w.code) {
				run = true
				break
			}
		}
		if !run {
			p.Reportf(pos, "no workflow step runs %s: add one to a file matching %s", s, r.Config.Workflows)
		}
	}
	// Every script path a workflow names must exist.
	prefix := glob.Prefix(r.Config.Scripts)
	if prefix == "" {
		return nil
	}
	ref := regexp.MustCompile(`(?:^|[\s"'=(])(?:\./)?(` + regexp.QuoteMeta(prefix) + `[^\s"';|&)]+)`)
	for _, w := range wfs {
		var ln *register.Lines
		for _, m := range ref.FindAllSubmatchIndex(w.code, -1) {
			path := string(w.code[m[2]:m[3]])
			if !glob.Match(r.Config.Scripts, path) || (r.Repo.Has(path) && r.Repo.Present(path)) || strings.ContainsAny(path, "$*{") {
				continue
			}
			if ln == nil {
				ln = register.NewLines(w.path, w.raw)
			}
			p.Reportf(ln.Pos(m[2]), "workflow runs %s, which does not exist", path)
		}
	}
	return nil
}

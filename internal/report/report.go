// Package report renders the register, its claims and the tracker ids they
// name as one self-contained HTML page (no network, no external assets),
// for reviewers who would rather look than read: `claimslint report`.
package report

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"os/exec"
	"path"
	"strings"
	"time"

	"github.com/claimslint/claimslint/internal/audit"
	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/format"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/ruleid"
)

// Options configure Write.
type Options struct {
	Dir     string
	RepoURL string // e.g. https://github.com/org/repo; links code lines when set
	Now     time.Time
}

type claimView struct {
	ID, Kind, State, Message string
	Where                    []link
	Vacuous                  string
}

type link struct {
	Text, Href string
}

type decisionView struct {
	ID, Title, Status, File string
	Supersedes, SupersededB []string
	Relations               []string
	Tracker, Residuals      []string
	Claims                  []claimView
	Failed                  int
}

type page struct {
	Title, Commit, Generated string
	// NoCommit says why lines are not linked to a commit.
	NoCommit string
	// Findings are check's findings, each exactly as check prints it.
	Findings  []finding
	Attention []attention
	Decisions []decisionView
	Edges     []string
	Tracker   []audit.Row
	Problems  []audit.Problem
	Counts    map[string]int
}

type attention struct {
	Decision, Claim, What, Message string
}

type finding struct {
	Severity, Text string
}

// Write runs check, prove and audit on the repository and writes the page.
func Write(w io.Writer, o Options) error {
	res, proofs, err := check.Prove(check.Options{Dir: o.Dir})
	if err != nil {
		return err
	}
	rep := audit.Build(res.Snapshot)
	commit, why := cleanHead(o.Dir)
	p := page{Title: "Decision register", Commit: commit, NoCommit: why, Generated: o.Now.UTC().Format(time.RFC3339),
		Tracker: rep.Rows, Problems: rep.Problems, Counts: map[string]int{}}
	vac := map[string]check.Proof{}
	for _, pr := range proofs {
		if pr.State == check.ProofVacuous {
			vac[pr.Decision+"/"+pr.Claim] = pr
		}
	}
	states := map[string][]check.ClaimState{}
	for _, st := range res.Claims {
		states[st.Decision] = append(states[st.Decision], st)
		p.Counts[st.State]++
	}
	// Needs attention is check's own list: the same findings, printed by
	// the same formatter (D44). prove's vacuous claims and the audit's
	// problems follow it.
	var checkFindings []diag.Finding
	for _, f := range res.Findings {
		if f.Check != ruleid.Vacuous {
			checkFindings = append(checkFindings, f)
		}
	}
	text, err := format.New("text", nil, "")
	if err != nil {
		return err
	}
	for _, f := range checkFindings {
		// One finding at a time: each is one list item, even when a file
		// name carries a line break.
		var b strings.Builder
		if err := text.Format(&b, []diag.Finding{f}); err != nil {
			return err
		}
		p.Findings = append(p.Findings, finding{Severity: string(f.Severity), Text: strings.TrimSuffix(b.String(), "\n")})
	}
	edges := map[string]bool{}
	edge := func(s string) {
		if !edges[s] {
			edges[s] = true
			p.Edges = append(p.Edges, s)
		}
	}
	for _, d := range res.Decisions {
		dv := decisionView{ID: d.FileID, Title: strings.TrimPrefix(d.Title, d.FileID+": "), Status: d.Status, File: d.Path,
			Tracker: d.Tracker, Residuals: d.Residuals}
		for _, r := range d.Supersedes {
			dv.Supersedes = append(dv.Supersedes, refString(r))
			edge(fmt.Sprintf("%s supersedes %s", d.FileID, refString(r)))
		}
		for _, r := range d.SupersededBy {
			dv.SupersededB = append(dv.SupersededB, refString(r))
			edge(fmt.Sprintf("%s supersedes %s", r.ID, d.FileID))
		}
		for _, rel := range d.Relations {
			verb := strings.ReplaceAll(rel.Verb, "-", " ")
			dv.Relations = append(dv.Relations, verb+" "+refString(rel.Ref))
			// The graph says each relation once, in the active voice.
			if inv := register.Inverse(rel.Verb); strings.HasSuffix(rel.Verb, "-by") && inv != "" {
				edge(fmt.Sprintf("%s %s %s", rel.Ref.ID, strings.ReplaceAll(inv, "-", " "), d.FileID))
			} else {
				edge(fmt.Sprintf("%s %s %s", d.FileID, verb, refString(rel.Ref)))
			}
		}
		for _, st := range states[d.FileID] {
			cv := claimView{ID: st.Claim, Kind: st.Kind, State: st.State, Message: st.Message}
			for _, wh := range st.Where {
				cv.Where = append(cv.Where, link{Text: wh, Href: codeLink(o.RepoURL, commit, wh)})
			}
			if pr, ok := vac[st.Decision+"/"+st.Claim]; ok {
				cv.Vacuous = fmt.Sprintf("stays green when %s (%s still satisfies it)", pr.Survivor, pr.Witness)
				p.Attention = append(p.Attention, attention{st.Decision, st.Claim, "vacuous", cv.Vacuous})
				p.Counts["vacuous"]++
			}
			if st.State == check.StateFailed {
				dv.Failed++
			}
			dv.Claims = append(dv.Claims, cv)
		}
		p.Decisions = append(p.Decisions, dv)
	}
	for _, pr := range rep.Problems {
		p.Attention = append(p.Attention, attention{pr.Decision, pr.ID, pr.Kind, pr.Message})
	}
	return tmpl.Execute(w, p)
}

func refString(r register.Ref) string {
	if r.Clause != "" {
		return r.ID + "(" + r.Clause + ")"
	}
	return r.ID
}

// codeLink turns path:line into a link to the line at the commit, when a
// repository URL is given.
func codeLink(repoURL, commit, where string) string {
	if repoURL == "" || commit == "" {
		return ""
	}
	i := strings.LastIndexByte(where, ':')
	if i < 0 {
		return strings.TrimSuffix(repoURL, "/") + "/blob/" + commit + "/" + path.Clean(where)
	}
	return fmt.Sprintf("%s/blob/%s/%s#L%s", strings.TrimSuffix(repoURL, "/"), commit, where[:i], where[i+1:])
}

// cleanHead returns HEAD when the work tree is clean, so a line link at
// that commit shows the line the report describes; with uncommitted
// changes (or no commit) it returns "" and why, and lines are not linked
// (D44).
func cleanHead(dir string) (string, string) {
	cmd := exec.Command("git", "rev-parse", "HEAD")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", "(no commit: lines are not linked)"
	}
	st := exec.Command("git", "status", "--porcelain", "--untracked-files=no")
	st.Dir = dir
	dirty, err := st.Output()
	if err != nil || len(bytes.TrimSpace(dirty)) > 0 {
		return "", "(uncommitted changes: lines are not linked)"
	}
	return strings.TrimSpace(string(out)), ""
}

var tmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"join": strings.Join,
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1f2328}
h1{font-size:1.6rem;margin-bottom:.2rem} h2{margin-top:2rem;border-bottom:1px solid #d0d7de;padding-bottom:.3rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0} th,td{border:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa} code{font:12px ui-monospace,monospace}
.badge{display:inline-block;border-radius:1em;padding:0 .6em;font-size:12px;font-weight:600;color:#fff;background:#57606a}
.badge.accepted,.badge.ok{background:#1a7f37}.badge.proposed,.badge.pending,.badge.warning{background:#9a6700}
.badge.failed,.badge.vacuous,.badge.error,.badge.missing,.badge.dangling,.badge.placeholder,.badge.no-backlink,.badge.closed-residual{background:#cf222e}
.badge.superseded,.badge.deprecated,.badge.rejected,.badge.retired,.badge.closed,.badge.tombstone,.badge.note{background:#57606a}
.badge.open,.badge.in_progress{background:#0969da}.meta{color:#59636e}.attention{border:2px solid #cf222e;border-radius:6px;padding:.5rem 1rem}
.decision{margin-top:1.2rem}
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p class="meta">commit <code>{{if .Commit}}{{.Commit}}{{else}}{{.NoCommit}}{{end}}</code>, generated {{.Generated}} ·
claims: {{index .Counts "ok"}} ok, {{index .Counts "failed"}} failed, {{index .Counts "pending"}} pending, {{index .Counts "retired"}} retired, {{index .Counts "vacuous"}} vacuous</p>

<h2 id="attention">Needs attention</h2>
{{if or .Findings .Attention}}<div class="attention">
{{if .Findings}}<p>What <code>claimslint check</code> prints ({{len .Findings}}):</p>
<ul id="findings">{{range .Findings}}<li class="finding"><span class="badge {{.Severity}}">{{.Severity}}</span> <code>{{.Text}}</code></li>
{{end}}</ul>{{end}}
{{if .Attention}}<p>Vacuous claims (<code>claimslint prove</code>) and tracker problems (<code>claimslint audit</code>):</p>
<table id="attention-table"><tr><th>Decision</th><th>Claim or id</th><th>What</th><th>Detail</th></tr>
{{range .Attention}}<tr><td><a href="#{{.Decision}}">{{.Decision}}</a></td><td>{{.Claim}}</td><td><span class="badge {{.What}}">{{.What}}</span></td><td>{{.Message}}</td></tr>
{{end}}</table>{{end}}</div>{{else}}<p id="all-clear">Nothing: check prints nothing, every claim of every accepted decision can fail, and register and tracker agree.</p>{{end}}

<h2 id="register">Register</h2>
<table id="register-table"><tr><th>ID</th><th>Decision</th><th>Status</th><th>Supersedes</th><th>Superseded by</th><th>Other relations</th><th>Claims</th></tr>
{{range .Decisions}}<tr><td><a href="#{{.ID}}">{{.ID}}</a></td><td>{{.Title}}</td><td><span class="badge {{.Status}}">{{.Status}}</span></td><td>{{join .Supersedes ", "}}</td><td>{{join .SupersededB ", "}}</td><td>{{join .Relations ", "}}</td><td>{{len .Claims}}{{if .Failed}} ({{.Failed}} failed){{end}}</td></tr>
{{end}}</table>
<h3>Supersession and other relations</h3>
{{if .Edges}}<ul id="supersession">{{range .Edges}}<li>{{.}}</li>{{end}}</ul>{{else}}<p class="meta">No decision supersedes, amends or clarifies another.</p>{{end}}

<h2 id="decisions">Decisions and their claims</h2>
{{range .Decisions}}<section class="decision" id="{{.ID}}">
<h3>{{.ID}}: {{.Title}} <span class="badge {{.Status}}">{{.Status}}</span></h3>
<p class="meta"><code>{{.File}}</code>{{if .Tracker}} · tracker: {{join .Tracker ", "}}{{end}}{{if .Residuals}} · residuals: {{join .Residuals ", "}}{{end}}</p>
{{if .Claims}}<table><tr><th>Claim</th><th>Kind</th><th>State</th><th>Anchors on</th><th>Message</th></tr>
{{range .Claims}}<tr class="claim"><td>{{.ID}}</td><td>{{.Kind}}</td><td><span class="badge {{.State}}">{{.State}}</span>{{if .Vacuous}} <span class="badge vacuous">vacuous</span>{{end}}</td><td>{{range .Where}}{{if .Href}}<a href="{{.Href}}"><code>{{.Text}}</code></a>{{else}}<code>{{.Text}}</code>{{end}} {{end}}</td><td>{{.Message}}{{.Vacuous}}</td></tr>
{{end}}</table>{{else}}<p class="meta">No claims.</p>{{end}}
</section>
{{end}}

<h2 id="tracker">Tracker ids</h2>
<table id="tracker-table"><tr><th>Id</th><th>Status</th><th>Named by</th><th>Title</th></tr>
{{range .Tracker}}<tr><td><code>{{.ID}}</code></td><td><span class="badge {{if .Status}}{{.Status}}{{else}}missing{{end}}">{{if .Status}}{{.Status}}{{else}}missing{{end}}</span></td><td>{{range .NamedBy}}{{.Decision}} {{.Role}}; {{end}}</td><td>{{.Title}}</td></tr>
{{end}}</table>
</body>
</html>
`))

package report

import (
	"crypto/sha256"
	"encoding/base64"
	"html/template"
	"strconv"
	"strings"
)

func itoa(n int) string { return strconv.Itoa(n) }

// scriptHash is the CSP source that lets exactly this inline script run.
func scriptHash(script string) string {
	h := sha256.Sum256([]byte(script))
	return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
}

// heading writes <hN id="id">text</hN>, escaped, N at most 6.
func heading(level int, id, text string) template.HTML {
	n := itoa(min(max(level, 1), 6))
	attr := ""
	if id != "" {
		attr = ` id="` + template.HTMLEscapeString(id) + `"`
	}
	return template.HTML("<h" + n + attr + ">" + template.HTMLEscapeString(text) + "</h" + n + ">")
}

// searchJS filters the register table by status and by the words of the
// search box, over window.CLAIMSLINT_INDEX; without it every row shows.
const searchJS = `(function(){
var I=window.CLAIMSLINT_INDEX||[],by={};I.forEach(function(e){by[e[0]]=e[1]});
var f=document.getElementById('filters');if(!f)return;f.hidden=false;
var q=document.getElementById('q'),out=document.getElementById('shown');
var boxes=[].slice.call(document.querySelectorAll('input[name=status]'));
var rows=[].slice.call(document.querySelectorAll('#register-table tbody tr'));
function upd(){var t=q.value.toLowerCase().split(/\s+/).filter(Boolean),on={},n=0;
boxes.forEach(function(b){on[b.value]=b.checked});
rows.forEach(function(r){var h=by[r.getAttribute('data-key')]||'';
var ok=on[r.getAttribute('data-status')]!==false&&t.every(function(w){return h.indexOf(w)>=0});
r.hidden=!ok;if(ok)n++});
out.textContent=n+' of '+rows.length+' decisions shown';}
if(location.hash.indexOf('#q=')===0)q.value=decodeURIComponent(location.hash.slice(3));
q.addEventListener('input',upd);boxes.forEach(function(b){b.addEventListener('change',upd)});upd();})();
`

// css is every page's stylesheet, inline. Colours: text and badges reach
// WCAG AA contrast (TestBadgeContrast, the axe check); the layout holds at
// phone width.
const css = `
*{box-sizing:border-box}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1f2328;background:#fff}
a{color:#0550ae} a:focus-visible,button:focus-visible,input:focus-visible,main:focus-visible{outline:3px solid #0550ae;outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem} .skip:focus{left:.5rem}
header{border-bottom:1px solid #d0d7de;padding:.5rem 1rem} header nav a{margin-right:1rem;font-weight:600}
main{margin:0 auto;max-width:72rem;padding:0 1rem 2rem} footer{color:#59636e;padding:1rem;text-align:center;font-size:13px}
h1{font-size:1.6rem;margin:.8rem 0 .2rem;overflow-wrap:anywhere} h2{margin-top:2rem;border-bottom:1px solid #d0d7de;padding-bottom:.3rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0} th,td{border:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top;overflow-wrap:break-word}
th{background:#f6f8fa} code,pre{font:13px ui-monospace,SFMono-Regular,Menlo,monospace} pre{overflow-x:auto}
.wide{overflow-x:auto}
.badge{display:inline-block;border-radius:1em;padding:0 .6em;font-size:12px;font-weight:600;color:#fff;background:#57606a}
.badge.accepted,.badge.ok{background:#1a7f37}.badge.proposed,.badge.pending,.badge.warning{background:#9a6700}
.badge.failed,.badge.vacuous,.badge.error,.badge.missing,.badge.dangling,.badge.placeholder,.badge.no-backlink,.badge.closed-residual{background:#cf222e}
.badge.superseded,.badge.deprecated,.badge.rejected,.badge.retired,.badge.closed,.badge.tombstone,.badge.note{background:#57606a}
.badge.open,.badge.in_progress{background:#0969da}.meta{color:#59636e}.attention{border:2px solid #cf222e;border-radius:6px;padding:.5rem 1rem}
.text{border-left:3px solid #d0d7de;padding-left:1rem;overflow-wrap:break-word} .text table{display:block;overflow-x:auto}
.claim{border:1px solid #d0d7de;border-radius:6px;padding:.2rem 1rem .6rem;margin:1rem 0} .claim.failed{border-color:#cf222e}
.claim dl{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .8rem;margin:.4rem 0} .claim dt{font-weight:600} .claim dd{margin:0;overflow-wrap:anywhere}
.excerpt{margin:.4rem 0;border:1px solid #d0d7de;border-radius:4px;overflow-x:auto} .excerpt p{margin:0;padding:.2rem .5rem;background:#f6f8fa;border-bottom:1px solid #d0d7de}
.excerpt ol{list-style:none;margin:0;padding:0} .excerpt li{white-space:pre;padding:0 .5rem;font:13px ui-monospace,monospace}
.excerpt li .n{display:inline-block;min-width:3.5em;color:#59636e;user-select:none} .excerpt li.hit{background:#fff8c5;font-weight:600}
#filters{margin:.5rem 0 1rem} #filters fieldset{display:inline-block;border:1px solid #d0d7de;margin:0 1rem .5rem 0}
#filters label{margin-right:.8rem;white-space:nowrap} #q{font:inherit;padding:.2rem .4rem;width:min(24rem,100%)}
.timeline{list-style:none;padding:0} .timeline li{margin:.2rem 0} .timeline time{font-weight:600;margin-right:.5rem} .timeline ul{list-style:none;margin:0 0 .4rem;padding-left:1.5rem}
svg .n rect{fill:#57606a} svg .n.accepted rect{fill:#1a7f37} svg .n.proposed rect{fill:#9a6700} svg .n.failed rect{fill:#cf222e}
svg .n text{fill:#fff;font:600 13px system-ui,sans-serif;text-anchor:middle;dominant-baseline:central}
svg a:focus rect,svg a:hover rect{stroke:#0550ae;stroke-width:3}
svg .e{fill:none;stroke:#1f2328;stroke-width:1.5} svg .e.other{stroke:#0550ae;stroke-dasharray:5 4}
@media (max-width:40rem){body{font-size:14px} th,td{padding:.2rem .3rem} h1{font-size:1.3rem}}
`

var tmpl = template.Must(template.New("site").Funcs(template.FuncMap{
	"heading": heading,
	"inc":     func(n int) int { return n + 1 },
	"join":    strings.Join,
	"css":     func() template.CSS { return template.CSS(css) },
	"pd":      func(m *model, d *dview, f *fileView, h int) pageData { return pageData{M: m, D: d, F: f, H: h} },
}).Parse(`{{define "layout"}}<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{{.CSP}}">
<title>{{.Title}}</title>
<style>{{css}}</style>
</head>
<body id="top">
<a class="skip" href="#main">Skip to content</a>
<header><nav aria-label="Site"><a href="{{.M.IndexHref}}">Register</a><a href="{{.M.GraphHref}}">Graph</a><a href="{{.M.CodeHref}}">Code view</a></nav></header>
<main id="main" tabindex="-1">
{{.Content}}
</main>
<footer>claimslint report · commit <code>{{if .M.Commit}}{{.M.Commit}}{{else}}{{.M.NoCommit}}{{end}}</code> · generated {{.M.Generated}}</footer>
{{if .Script}}{{if .Inline}}<script>{{.Inline}}</script>{{else}}<script src="search.js"></script>{{end}}{{end}}
</body>
</html>
{{end}}

{{define "single"}}{{template "index" .}}
<section id="graph" aria-labelledby="graph-h">{{template "graph" (pd . nil nil 2)}}</section>
<section id="code" aria-labelledby="code-h">{{template "code" (pd . nil nil 2)}}</section>
<h2 id="decisions">Decisions and their claims</h2>
{{range .Decisions}}<section class="decision" id="{{.Key}}">{{template "decision" (pd $ . nil 3)}}</section>
{{end}}{{range .Files}}<section class="file" id="{{.Key}}">{{template "file" (pd $ nil . 3)}}</section>
{{end}}{{end}}

{{define "index"}}<h1>{{.Title}}</h1>
<p class="meta">commit <code>{{if .Commit}}{{.Commit}}{{else}}{{.NoCommit}}{{end}}</code>, generated {{.Generated}} ·
claims: {{index .Counts "ok"}} ok, {{index .Counts "failed"}} failed, {{index .Counts "pending"}} pending, {{index .Counts "retired"}} retired, {{index .Counts "vacuous"}} vacuous</p>

<h2 id="attention">Needs attention</h2>
{{if or .Findings .Attention}}<div class="attention">
{{if .Findings}}<p>What <code>claimslint check</code> prints ({{len .Findings}}):</p>
<ul id="findings">{{range .Findings}}<li class="finding" data-check="{{.Check}}" data-file="{{.File}}" data-line="{{.Line}}" data-column="{{.Column}}"><span class="badge {{.Severity}}">{{.Severity}}</span> <code>{{.Text}}</code>{{if .ClaimHref}} · <a class="to-claim" href="{{.ClaimHref}}">{{.Claim}}</a>{{end}}{{if .WhereHref}} · <a class="to-line" href="{{.WhereHref}}"><code>{{.Where}}</code></a>{{end}}</li>
{{end}}</ul>{{end}}
{{if .Attention}}<p>Vacuous claims (<code>claimslint prove</code>) and tracker problems (<code>claimslint audit</code>):</p>
<div class="wide" tabindex="0"><table id="attention-table"><thead><tr><th scope="col">Decision</th><th scope="col">Claim or id</th><th scope="col">What</th><th scope="col">Detail</th></tr></thead><tbody>
{{range .Attention}}<tr><td>{{if .Href}}<a href="{{.Href}}">{{.Decision}}</a>{{else}}{{.Decision}}{{end}}</td><td>{{.Claim}}</td><td><span class="badge {{.What}}">{{.What}}</span></td><td>{{.Message}}</td></tr>
{{end}}</tbody></table></div>{{end}}</div>{{else}}<p id="all-clear">Nothing: check prints nothing, every claim of every accepted decision can fail, and register and tracker agree.</p>{{end}}

{{with .Impact}}<h2 id="impact">This change touches</h2>
<p class="meta">From <code>{{.Base}}</code> (<code>{{.BaseCommit}}</code>) to the {{.Head}}: the decisions whose pinned lines, claim rows or text the change touches, even where every claim still holds (<code>claimslint impact --base</code>).</p>
{{if $.Touched}}<div class="wide" tabindex="0"><table id="impact-table"><thead><tr><th scope="col">Decision</th><th scope="col">What</th><th scope="col">Where</th><th scope="col">Detail</th></tr></thead><tbody>
{{range $.Touched}}{{$d := .}}{{range .Touches}}<tr><td>{{if $d.Href}}<a href="{{$d.Href}}">{{$d.ID}}</a>{{else}}{{$d.ID}}{{end}}{{if .Claim}} {{.Claim}}{{end}}</td><td>{{.Kind}}</td><td><code>{{.Path}}{{if .Line}}:{{.Line}}{{end}}</code>{{if eq .Side "base"}} (at the base){{end}}</td><td>{{.Detail}}</td></tr>
{{end}}{{end}}</tbody></table></div>{{else}}<p id="impact-none">Nothing: the change touches no pinned line, claim row or decision text.</p>{{end}}{{end}}

<h2 id="register">Register</h2>
<form id="filters" role="search" hidden>
<fieldset><legend>Status</legend>{{range .Statuses}}<label><input type="checkbox" name="status" value="{{.Status}}" checked> {{.Status}} ({{.N}})</label> {{end}}</fieldset>
<label for="q">Search the decisions' text</label> <input id="q" type="search" autocomplete="off">
<p id="shown" role="status" aria-live="polite"></p>
</form>
<div class="wide" tabindex="0"><table id="register-table"><thead><tr><th scope="col">ID</th><th scope="col">Decision</th><th scope="col">Status</th><th scope="col">Date</th><th scope="col">Claims</th></tr></thead><tbody>
{{range .Decisions}}<tr data-key="{{.Key}}" data-status="{{.Status}}"><td><a href="{{.Href}}">{{.ID}}</a></td><td>{{.Title}}</td><td><span class="badge {{.Status}}">{{.Status}}</span></td><td>{{.Date}}</td><td>{{len .Claims}}{{if .Failed}} ({{.Failed}} failed){{end}}</td></tr>
{{end}}</tbody></table></div>

<h2 id="timeline">Timeline</h2>
{{if .Timeline}}<ol class="timeline">{{range .Timeline}}<li><time datetime="{{.Date}}">{{.Date}}</time><ul>{{range .Decisions}}<li><a href="{{.Href}}">{{.ID}}</a> {{.Title}}</li>{{end}}</ul></li>
{{end}}</ol>{{end}}{{if .Undated}}<p class="meta">Undated:</p><ul class="timeline undated">{{range .Undated}}<li><a href="{{.Href}}">{{.ID}}</a> {{.Title}}</li>{{end}}</ul>{{end}}

<h2 id="tracker">Tracker ids</h2>
<div class="wide" tabindex="0"><table id="tracker-table"><thead><tr><th scope="col">Id</th><th scope="col">Status</th><th scope="col">Named by</th><th scope="col">Title</th></tr></thead><tbody>
{{range .Tracker}}<tr><td><code>{{.ID}}</code></td><td><span class="badge {{if .Status}}{{.Status}}{{else}}missing{{end}}">{{if .Status}}{{.Status}}{{else}}missing{{end}}</span></td><td>{{range .NamedBy}}{{.Decision}} {{.Role}}; {{end}}</td><td>{{.Title}}</td></tr>
{{end}}</tbody></table></div>
{{end}}

{{define "graph"}}{{heading .H "graph-h" "Supersession graph"}}
{{with .M.Graph}}{{if .Nodes}}<p class="meta">Older decisions above the ones that supersede, amend or clarify them; solid: supersedes, dashed: another relation. Each box links to its decision.</p>
<div class="wide" tabindex="0"><svg id="graph-svg" role="group" aria-label="Supersession graph" width="{{.Width}}" height="{{.Height}}" viewBox="0 0 {{.Width}} {{.Height}}">
<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="#1f2328"/></marker></defs>
{{range .Edges}}<path class="e{{if ne .Verb "supersedes"}} other{{end}}" d="{{.Path}}" marker-end="url(#arrow)"><title>{{.From.D.ID}} {{.Verb}} {{.To.D.ID}}</title></path>
{{end}}{{range .Nodes}}<a class="n {{.D.Status}}" href="{{.D.Href}}" aria-label="{{.D.ID}}: {{.D.Title}} ({{.D.Status}})"><title>{{.D.ID}}: {{.D.Title}} ({{.D.Status}})</title><rect x="{{.X}}" y="{{.Y}}" width="76" height="28" rx="5"/><text x="{{.X}}" y="{{.Y}}" dx="38" dy="14">{{.D.ID}}</text></a>
{{end}}</svg></div>{{end}}{{end}}
{{heading (inc .H) "relations" "Relations"}}
{{if .M.Edges}}<ul id="supersession">{{range .M.Edges}}<li>{{.}}</li>{{end}}</ul>{{else}}<p class="meta">No decision supersedes, amends or clarifies another.</p>{{end}}
{{end}}

{{define "code"}}{{heading .H "code-h" "Code view"}}
<p class="meta">Every file a claim reads, and the lines claims rest on now.</p>
{{if .M.Files}}<div class="wide" tabindex="0"><table id="code-table"><thead><tr><th scope="col">File</th><th scope="col">Pinned lines</th><th scope="col">Read by</th></tr></thead><tbody>
{{range .M.Files}}<tr><td><a href="{{.Href}}"><code>{{.Path}}</code></a></td><td>{{len .Lines}}{{if .More}} (and {{.More}} more){{end}}</td><td>{{len .ReadBy}} claim(s)</td></tr>
{{end}}</tbody></table></div>{{else}}<p class="meta">No claim reads a code file.</p>{{end}}
{{end}}

{{define "file"}}{{with .F}}{{heading $.H "" .Path}}
<p class="meta">Read by: {{range .ReadBy}}<a href="{{.Href}}">{{.Text}}</a> {{else}}no claim's path; lines below are where claims anchor{{end}}</p>
{{if .Lines}}<div class="wide" tabindex="0"><table class="pins"><thead><tr><th scope="col">Line</th><th scope="col">Code</th><th scope="col">Pinned by</th></tr></thead><tbody>
{{range .Lines}}<tr id="{{.Anchor}}"><td>{{if .Href}}<a href="{{.Href}}">{{.N}}</a>{{else}}{{.N}}{{end}}</td><td><code>{{.Text}}</code></td><td>{{range .Claims}}<a href="{{.Href}}">{{.Text}}</a> {{end}}</td></tr>
{{end}}</tbody></table></div>{{if .More}}<p class="meta">and {{.More}} more pinned line(s), not listed: a page shows at most 1,000.</p>{{end}}{{else}}<p class="meta">No line of this file is pinned: the claims that read it find no line here, or forbid one.</p>{{end}}
{{end}}{{end}}

{{define "decision"}}{{with .D}}{{heading $.H .Key (print .ID ": " .Title)}}
<p class="meta"><span class="badge {{.Status}}">{{.Status}}</span>{{if .Date}} · <time datetime="{{.Date}}">{{.Date}}</time>{{end}} · <code>{{.File}}</code>{{if .Adopted}} · adopted record{{end}}</p>
{{if or .Supersedes .SupersededB .Relations}}<ul class="relations">
{{range .Supersedes}}<li>supersedes {{if .Href}}<a href="{{.Href}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}</li>{{end}}
{{range .SupersededB}}<li>superseded by {{if .Href}}<a href="{{.Href}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}</li>{{end}}
{{range .Relations}}<li>{{if .Href}}<a href="{{.Href}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}</li>{{end}}
</ul>{{end}}
{{if .Touches}}{{heading (inc $.H) (print .Key "-impact") "This change touches"}}
<ul class="impact">{{range .Touches}}<li>{{.Kind}}{{if .Claim}} of {{.Claim}}{{end}}: <code>{{.Path}}{{if .Line}}:{{.Line}}{{end}}</code>{{if eq .Side "base"}} (at the base){{end}}: {{.Detail}}</li>{{end}}</ul>{{end}}
{{if .Tracker}}{{heading (inc $.H) (print .Key "-tracker") "Tracker issues"}}
<ul class="tracker">{{range .Tracker}}<li><code>{{.ID}}</code> <span class="badge {{if .Status}}{{.Status}}{{else}}missing{{end}}">{{if .Status}}{{.Status}}{{else}}missing{{end}}</span> {{.Role}}{{if .Title}}: {{.Title}}{{end}}</li>{{end}}</ul>{{end}}
{{if .Body}}<div class="text">{{.Body}}</div>{{end}}
{{heading (inc $.H) (print .Key "-claims") (print "Claims (" (len .Claims) ")")}}
{{range .Claims}}<article class="claim{{if .Failed}} failed{{end}}" id="{{.HTMLID}}">
{{heading (inc (inc $.H)) "" (print .ID " · " .Kind)}}
<dl><dt>State</dt><dd><span class="badge {{.State}}">{{.State}}</span>{{if .Vacuous}} <span class="badge vacuous">vacuous</span> {{.Vacuous}}{{end}}{{if .Message}} {{.Message}}{{end}}</dd>
{{if .Why}}<dt>Why</dt><dd class="why">{{.Why}}</dd>{{end}}
{{if .Path}}<dt>Path</dt><dd><code>{{.Path}}</code></dd>{{end}}
{{if .Anchor}}<dt>Anchor</dt><dd><code>{{.Anchor}}</code></dd>{{end}}
{{if .Require}}<dt>Require</dt><dd><code>{{.Require}}</code></dd>{{end}}</dl>
{{range .Excerpts}}<figure class="excerpt" tabindex="0"><p>{{if .Href}}<a href="{{.Href}}"><code>{{.Where}}</code></a>{{else}}<code>{{.Where}}</code>{{end}}</p><ol>{{range .Lines}}<li{{if .Hit}} class="hit"{{end}}><span class="n">{{.N}}</span>{{.Text}}</li>{{end}}</ol></figure>
{{end}}{{if .More}}<p class="meta">and {{.More}} more line(s): see the <a href="{{$.M.CodeHref}}">code view</a>.</p>{{end}}
</article>
{{else}}<p class="meta">No claims.</p>{{end}}
{{end}}{{end}}`))

package report

import (
	"crypto/sha256"
	"encoding/base64"
	"html/template"
	"strconv"
	"strings"
	"sync"
)

func itoa(n int) string { return strconv.Itoa(n) }

// plural is "1 error", "2 errors".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return itoa(n) + " " + word + "s"
}

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

// searchJS is the site's search (D99), over window.CLAIMSLINT_INDEX: the
// box in every page's header lists the decisions a query finds, ranked (an
// id first, then the title, the paths, anchors and tracker ids a decision
// names, then its text; whole words above parts of words; a query's words
// in a row above them apart), each with a snippet of its text, the words
// marked. A word is matched whole (dk-1vo, internal/impact, --base, <<)
// and, when that finds nothing, split at its punctuation. Common words
// alone (the, of) find nothing, with a note saying so. The same matching
// filters the index's register table, with its status boxes. Without the
// script both forms stay hidden and every row shows.
const searchJS = `(function(){
var I=window.CLAIMSLINT_INDEX||[],by={},low=[];
var STOP={'a':1,'an':1,'and':1,'are':1,'as':1,'at':1,'be':1,'by':1,'for':1,'from':1,'in':1,'is':1,'it':1,'of':1,'on':1,'or':1,'that':1,'the':1,'this':1,'to':1,'was':1,'with':1};
I.forEach(function(e,n){by[e[0]]=n;low[n]=null});
function L(n){if(!low[n]){var e=I[n];low[n]=[e[2].toLowerCase(),e[3].toLowerCase(),e[5].toLowerCase(),e[6].toLowerCase()]}return low[n]}
function wordAt(h,i,len){var b=i>0?h.charAt(i-1):' ',a=h.charAt(i+len)||' ';return !/[a-z0-9_]/.test(b)&&!/[a-z0-9_]/.test(a)}
function count(h,w,max){var n=0,whole=0,i=h.indexOf(w);while(i>=0&&n<max){n++;if(wordAt(h,i,w.length))whole++;i=h.indexOf(w,i+w.length)}return [n,whole]}
function terms(q){var t=q.toLowerCase().split(/\s+/).filter(Boolean),c=t.filter(function(w){return !STOP[w]});return {all:t,content:c,stop:t.length>0&&c.length===0}}
function scoreTerm(h,w){var s=0,c;
if(h[0]===w)s+=100;else if(h[0].indexOf(w)>=0)s+=40;
c=count(h[1],w,5);if(c[0])s+=20+10*c[1];
c=count(h[2],w,5);if(c[0])s+=15+5*c[1];
c=count(h[3],w,5);if(c[0])s+=2*c[0]+3*c[1];
return s}
function score(n,q){var h=L(n),total=0,t=q.content;
for(var k=0;k<t.length;k++){var w=t[k],s=scoreTerm(h,w);
if(!s){var parts=w.split(/[^a-z0-9_]+/).filter(Boolean);if(parts.length>1||(parts.length===1&&parts[0]!==w)){s=0;for(var j=0;j<parts.length;j++){var p=scoreTerm(h,parts[j]);if(!p){s=0;break}s+=p/2}}}
if(!s)return 0;total+=s}
var ph=q.all.join(' ');if(q.all.length>1&&(h[3].indexOf(ph)>=0||h[2].indexOf(ph)>=0||h[1].indexOf(ph)>=0))total+=50;
return total}
function search(qs){var q=terms(qs),out=[];if(!q.content.length)return {q:q,hits:out};
for(var n=0;n<I.length;n++){var s=score(n,q);if(s)out.push([s,n])}
out.sort(function(a,b){return b[0]-a[0]||a[1]-b[1]});return {q:q,hits:out}}
function snippet(n,q,li){var e=I[n],h=L(n),t=e[6],src=3,ph=q.all.join(' '),at=h[3].indexOf(ph);
if(at<0){var best=-1;q.content.forEach(function(w){var i=h[3].indexOf(w);if(i>=0&&(best<0||w.length>q.content[best].length)){best=q.content.indexOf(w);at=i}})}
if(at<0){t=e[5];src=2;at=0;q.content.forEach(function(w){var i=h[2].indexOf(w);if(i>=0&&at===0)at=i})}
if(!t)return;var a=Math.max(0,at-70),z=Math.min(t.length,at+130),s=t.slice(a,z),sl=s.toLowerCase();
var p=document.createElement('p');p.className='snippet';if(a>0)p.appendChild(document.createTextNode('…'));
var marks=[];q.content.forEach(function(w){var i=sl.indexOf(w);while(i>=0){marks.push([i,i+w.length]);i=sl.indexOf(w,i+w.length)}});
marks.sort(function(x,y){return x[0]-y[0]});var pos=0;
marks.forEach(function(m){if(m[0]<pos)return;p.appendChild(document.createTextNode(s.slice(pos,m[0])));var k=document.createElement('mark');k.textContent=s.slice(m[0],m[1]);p.appendChild(k);pos=m[1]});
p.appendChild(document.createTextNode(s.slice(pos)+(z<t.length?'…':'')));li.appendChild(p)}
var sf=document.getElementById('site-search');
if(sf){sf.hidden=false;var sq=document.getElementById('sq'),box=document.getElementById('search-results'),cnt=document.getElementById('results-count'),ol=document.getElementById('results');
function show(){var v=sq.value.trim();while(ol.firstChild)ol.removeChild(ol.firstChild);
if(!v){box.hidden=true;return}box.hidden=false;var r=search(v);
if(r.q.stop){cnt.textContent='“'+v+'” is too common a word to search for: add a more specific one';return}
cnt.textContent=r.hits.length===1?'1 decision found':r.hits.length+' decisions found';
r.hits.slice(0,50).forEach(function(x){var e=I[x[1]],li=document.createElement('li'),a=document.createElement('a');li.className='hit';li.setAttribute('data-key',e[0]);
a.href=e[1];a.textContent=e[2]+': '+e[3];li.appendChild(a);var b=document.createElement('span');b.className='badge '+e[4];b.textContent=e[4];li.appendChild(document.createTextNode(' '));li.appendChild(b);snippet(x[1],r.q,li);ol.appendChild(li)});
if(r.hits.length>50){var m=document.createElement('li');m.textContent='and '+(r.hits.length-50)+' more: add a word';ol.appendChild(m)}}
sf.addEventListener('submit',function(ev){ev.preventDefault();show()});sq.addEventListener('input',show);
if(location.hash.indexOf('#search=')===0){sq.value=decodeURIComponent(location.hash.slice(8));show()}}
var f=document.getElementById('filters');if(!f)return;f.hidden=false;
var q=document.getElementById('q'),out=document.getElementById('shown');
var boxes=[].slice.call(document.querySelectorAll('input[name=status]'));
var rows=[].slice.call(document.querySelectorAll('#register-table tbody tr'));
function upd(){var t=terms(q.value),on={},n=0;
boxes.forEach(function(b){on[b.value]=b.checked});
rows.forEach(function(r){var k=by[r.getAttribute('data-key')];
var ok=on[r.getAttribute('data-status')]!==false&&(!t.content.length||(k!==undefined&&score(k,t)>0));
r.hidden=!ok;if(ok)n++});
out.textContent=n+' of '+rows.length+' decisions shown'+(t.stop?' (“'+q.value.trim()+'” is too common a word to filter by)':'');}
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
#site-search{display:inline-block;margin:.3rem 0} #sq{font:inherit;padding:.2rem .4rem;width:min(22rem,70vw)}
#search-results{max-width:72rem;margin:.5rem auto 0} #results{padding-left:1.5rem} #results li{margin:.4rem 0} #results .snippet{margin:.1rem 0;color:#1f2328;overflow-wrap:anywhere}
mark{background:#fff8c5;color:inherit;font-weight:600}
.counts .badge{font-size:14px;margin-right:.3rem}
.banner{border:2px solid #9a6700;background:#fff8c5;border-radius:6px;padding:.5rem 1rem}
.summary{border:1px solid #d0d7de;border-radius:6px;padding:.2rem 1rem;margin:.8rem 0} .claim-list{padding-left:1.2rem;margin:.3rem 0} .claim-list li{overflow-wrap:anywhere}
table.pins tr.failed{background:#ffebe9}
.timeline{list-style:none;padding:0} .timeline li{margin:.2rem 0} .timeline time{font-weight:600;margin-right:.5rem} .timeline ul{list-style:none;margin:0 0 .4rem;padding-left:1.5rem}
svg .n rect{fill:#57606a} svg .n.accepted rect{fill:#1a7f37} svg .n.proposed rect{fill:#9a6700} svg .n.failed rect{fill:#cf222e}
svg .n text{fill:#fff;font:12px system-ui,sans-serif;text-anchor:middle;dominant-baseline:central} svg .n text.id{font-weight:700;font-size:13px}
.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.3rem 1.2rem;margin:.4rem 0} .legend .sw{display:inline-block;width:1.1em;height:.9em;border-radius:3px;vertical-align:middle;background:#57606a}
.legend .sw.accepted{background:#1a7f37} .legend .sw.proposed{background:#9a6700} .legend .sw.failed{background:#cf222e}
.legend .ln{display:inline-block;width:2.2em;border-top:2px solid #1f2328;vertical-align:middle} .legend .ln.dashed{border-top:2px dashed #0550ae}
svg a:focus rect,svg a:hover rect{stroke:#0550ae;stroke-width:3}
svg .e{fill:none;stroke:#1f2328;stroke-width:1.5} svg .e.other{stroke:#0550ae;stroke-dasharray:5 4}
@media (max-width:40rem){body{font-size:14px} th,td{padding:.2rem .3rem} h1{font-size:1.3rem}}
`

// tmpl is the site's templates, parsed when a report is first written:
// every other command of the binary was paying a millisecond to parse them
// at start-up (D92).
var tmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("site").Funcs(template.FuncMap{
		"heading": heading,
		"inc":     func(n int) int { return n + 1 },
		"plural":  plural,
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
<header><nav aria-label="Site"><a href="{{.M.IndexHref}}">Register</a><a href="{{.M.GraphHref}}">Graph</a><a href="{{.M.CodeHref}}">Code view</a></nav>
<form id="site-search" role="search" hidden><label for="sq">Search</label> <input id="sq" type="search" autocomplete="off" placeholder="an id, a path, a flag, code"></form>
<section id="search-results" aria-label="Search results" hidden><p id="results-count" role="status" aria-live="polite"></p><ol id="results"></ol></section></header>
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

{{define "finding"}}<li class="finding" data-check="{{.Check}}" data-file="{{.File}}" data-line="{{.Line}}" data-column="{{.Column}}"><span class="badge {{.Severity}}">{{.Severity}}</span> <code>{{.Text}}</code>{{if .ClaimHref}} · <a class="to-claim" href="{{.ClaimHref}}">{{.Claim}}</a>{{end}}{{if .WhereHref}} · <a class="to-line" href="{{.WhereHref}}"><code>{{.Where}}</code></a>{{end}}</li>
{{end}}

{{define "index"}}<h1>{{.Title}}</h1>
<p class="meta">commit <code>{{if .Commit}}{{.Commit}}{{else}}{{.NoCommit}}{{end}}</code>, generated {{.Generated}} ·
claims: {{index .Counts "ok"}} ok, {{index .Counts "failed"}} failed, {{index .Counts "pending"}} pending, {{index .Counts "retired"}} retired, {{index .Counts "vacuous"}} vacuous</p>

<h2 id="attention">Needs attention</h2>
{{if or .Findings .Attention}}<p id="attention-counts" class="counts"><span class="badge error">{{plural .NErrors "error"}}</span> <span class="badge warning">{{plural (len .Warnings) "warning"}}</span> <span class="badge note">{{plural (len .Notes) "note"}}</span></p>
<div class="attention">
{{if .NErrors}}<h3 id="attention-errors">Errors ({{.NErrors}})</h3>
{{if .Errors}}<p>What <code>claimslint check</code> prints:</p>
<ul class="findings" id="findings">{{range .Errors}}{{template "finding" .}}{{end}}</ul>{{end}}
{{if .Attention}}<p>Vacuous claims (<code>claimslint prove</code>) and tracker problems (<code>claimslint audit</code>):</p>
<div class="wide" tabindex="0"><table id="attention-table"><thead><tr><th scope="col">Decision</th><th scope="col">Claim or id</th><th scope="col">What</th><th scope="col">Detail</th></tr></thead><tbody>
{{range .Attention}}<tr class="attention-row"><td>{{if .Href}}<a href="{{.Href}}">{{.Decision}}</a>{{else}}{{.Decision}}{{end}}</td><td>{{.Claim}}</td><td><span class="badge {{.What}}">{{.What}}</span></td><td>{{.Message}}</td></tr>
{{end}}</tbody></table></div>{{end}}{{end}}
{{if .Warnings}}<h3 id="attention-warnings">Warnings ({{len .Warnings}})</h3>
<ul class="findings" id="findings-warning">{{range .Warnings}}{{template "finding" .}}{{end}}</ul>{{end}}
{{if .Notes}}<h3 id="attention-notes">Notes ({{len .Notes}})</h3>
<ul class="findings" id="findings-note">{{range .Notes}}{{template "finding" .}}{{end}}</ul>{{end}}
</div>{{else}}<p id="all-clear">Nothing: check prints nothing, every claim of every accepted decision can fail, and register and tracker agree.</p>{{end}}

{{with .Impact}}<h2 id="impact">This change touches</h2>
<p class="meta">From <code>{{.Base}}</code> (<code>{{.BaseCommit}}</code>) to the {{.Head}}: the decisions whose pinned lines, claim rows or text the change touches, even where every claim still holds (<code>claimslint impact --base</code>).</p>
{{if $.Touched}}<div class="wide" tabindex="0"><table id="impact-table"><thead><tr><th scope="col">Decision</th><th scope="col">What</th><th scope="col">Where</th><th scope="col">Detail</th></tr></thead><tbody>
{{range $.Touched}}{{$d := .}}{{range .Touches}}<tr><td>{{if $d.Href}}<a href="{{$d.Href}}">{{$d.ID}}</a>{{else}}{{$d.ID}}{{end}}{{if .Claim}} {{.Claim}}{{end}}</td><td>{{.Kind}}</td><td><code>{{.Path}}{{if .Line}}:{{.Line}}{{end}}</code>{{if eq .Side "base"}} (at the base){{end}}</td><td>{{.Detail}}</td></tr>
{{end}}{{end}}</tbody></table></div>{{else}}<p id="impact-none">Nothing: the change touches no pinned line, claim row or decision text.</p>{{end}}{{end}}

<h2 id="register">Register</h2>
<form id="filters" role="search" hidden>
<fieldset><legend>Status</legend>{{range .Statuses}}<label><input type="checkbox" name="status" value="{{.Status}}" checked> {{.Status}} ({{.N}})</label> {{end}}</fieldset>
<label for="q">Filter the register</label> <input id="q" type="search" autocomplete="off">
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
{{with .M.Graph}}{{if .Nodes}}<p class="meta">Older decisions above the ones that supersede, amend or clarify them; decisions that relate to one another are drawn together, each group on its own. Each box links to its decision.</p>
<ul class="legend" aria-label="Legend"><li><span class="sw accepted"></span> accepted</li><li><span class="sw proposed"></span> proposed</li><li><span class="sw failed"></span> a claim fails</li><li><span class="sw other"></span> superseded, deprecated, other</li><li><span class="ln"></span> supersedes</li><li><span class="ln dashed"></span> amends, clarifies or another relation</li></ul>
<div class="wide" tabindex="0"><svg id="graph-svg" role="group" aria-label="Supersession graph" width="{{.Width}}" height="{{.Height}}" viewBox="0 0 {{.Width}} {{.Height}}">
<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="#1f2328"/></marker></defs>
{{range .Edges}}<path class="e{{if ne .Verb "supersedes"}} other{{end}}" d="{{.Path}}" marker-end="url(#arrow)"><title>{{.From.D.ID}} {{.Verb}} {{.To.D.ID}}</title></path>
{{end}}{{range .Nodes}}<a class="n {{if .D.Failed}}failed{{else}}{{.D.Status}}{{end}}" href="{{.D.Href}}" aria-label="{{.D.ID}}: {{.D.Title}} ({{.D.Status}})"><title>{{.D.ID}}: {{.D.Title}} ({{.D.Status}})</title><rect x="{{.X}}" y="{{.Y}}" width="168" height="40" rx="5"/><text class="id" x="{{.X}}" y="{{.Y}}" dx="84" dy="13">{{.D.ID}}</text><text x="{{.X}}" y="{{.Y}}" dx="84" dy="29">{{.Short}}</text></a>
{{end}}</svg></div>{{end}}{{end}}
{{heading (inc .H) "relations" "Relations"}}
{{if .M.Edges}}<ul id="supersession">{{range .M.Edges}}<li>{{if .From.Href}}<a href="{{.From.Href}}">{{.From.Text}}</a>{{else}}{{.From.Text}}{{end}} {{.Verb}} {{if .To.Href}}<a href="{{.To.Href}}">{{.To.Text}}</a>{{else}}{{.To.Text}}{{end}}</li>{{end}}</ul>{{else}}<p class="meta">No decision supersedes, amends or clarifies another.</p>{{end}}
{{end}}

{{define "code"}}{{heading .H "code-h" "Code view"}}
<p class="meta">Every file a claim reads, and the lines claims rest on now.</p>
{{if .M.Files}}<div class="wide" tabindex="0"><table id="code-table"><thead><tr><th scope="col">File</th><th scope="col">Pinned lines</th><th scope="col">Read by</th></tr></thead><tbody>
{{range .M.Files}}<tr><td><a href="{{.Href}}"><code>{{.Path}}</code></a></td><td>{{len .Lines}}{{if .More}} (and {{.More}} more){{end}}</td><td>{{plural (len .ReadBy) "claim"}}</td></tr>
{{end}}</tbody></table></div>{{else}}<p class="meta">No claim reads a code file.</p>{{end}}
{{end}}

{{define "file"}}{{with .F}}{{heading $.H "" .Path}}
<p class="meta">Read by: {{range .ReadBy}}<a href="{{.Href}}">{{.Text}}</a> {{else}}no claim's path; lines below are where claims anchor{{end}}</p>
{{if .Lines}}<div class="wide" tabindex="0"><table class="pins"><thead><tr><th scope="col">Line</th><th scope="col">Code</th><th scope="col">Pinned by</th></tr></thead><tbody>
{{range .Lines}}<tr id="{{.Anchor}}"{{if .Failed}} class="failed"{{end}}><td>{{if .Href}}<a href="{{.Href}}">{{.N}}</a>{{else}}{{.N}}{{end}}</td><td><code>{{.Text}}</code></td><td>{{range .Claims}}<a href="{{.Href}}">{{.Text}}</a>{{if .Failed}} <span class="badge failed">failed</span>{{end}} {{end}}</td></tr>
{{end}}</tbody></table></div>{{if .More}}<p class="meta">and {{plural .More "more pinned line"}}, not listed: a page shows at most 1,000.</p>{{end}}{{else}}<p class="meta">No line of this file is pinned: the claims that read it find no line here, or forbid one.</p>{{end}}
{{end}}{{end}}

{{define "decision"}}{{with .D}}{{heading $.H .Key (print .ID ": " .Title)}}
{{if or .SupersededB (eq .Status "superseded") (eq .Status "deprecated")}}<p class="banner" role="note"><strong>This decision is {{.Status}}{{if .SupersededB}} by {{range $i, $l := .SupersededB}}{{if $i}}, {{end}}{{if $l.Href}}<a href="{{$l.Href}}">{{$l.Text}}</a>{{else}}{{$l.Text}}{{end}}{{end}}{{end}}.</strong>{{if .SupersededB}} Read {{with index .SupersededB 0}}{{if .Href}}<a href="{{.Href}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}{{end}} for what holds now.{{end}}</p>{{end}}
<p class="meta"><span class="badge {{.Status}}">{{.Status}}</span>{{if .Date}} · <time datetime="{{.Date}}">{{.Date}}</time>{{if .DateFromGit}} (from git: the commit that added the record){{end}}{{end}} · <code>{{.File}}</code>{{if .Adopted}} · adopted record{{end}}</p>
{{if or .Supersedes .SupersededB .Relations}}<ul class="relations">
{{range .Supersedes}}<li>supersedes {{if .Href}}<a href="{{.Href}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}</li>{{end}}
{{range .SupersededB}}<li>superseded by {{if .Href}}<a href="{{.Href}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}</li>{{end}}
{{range .Relations}}<li>{{if .Href}}<a href="{{.Href}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}</li>{{end}}
</ul>{{end}}
{{if .Touches}}{{heading (inc $.H) (print .Key "-impact") "This change touches"}}
<ul class="impact">{{range .Touches}}<li>{{.Kind}}{{if .Claim}} of {{.Claim}}{{end}}: <code>{{.Path}}{{if .Line}}:{{.Line}}{{end}}</code>{{if eq .Side "base"}} (at the base){{end}}: {{.Detail}}</li>{{end}}</ul>{{end}}
{{if .Tracker}}{{heading (inc $.H) (print .Key "-tracker") "Tracker issues"}}
<ul class="tracker">{{range .Tracker}}<li><code>{{.ID}}</code> <span class="badge {{if .Status}}{{.Status}}{{else}}missing{{end}}">{{if .Status}}{{.Status}}{{else}}missing{{end}}</span> {{.Role}}{{if .Title}}: {{.Title}}{{end}}</li>{{end}}</ul>{{end}}
{{if .Claims}}<div class="summary" id="{{.Key}}-summary"><p><strong>{{plural (len .Claims) "claim"}}:</strong> {{range .States}}<span class="badge {{.Status}}">{{.N}} {{.Status}}</span> {{end}}</p>
<ul class="claim-list">{{range .Claims}}<li><a href="#{{.HTMLID}}">{{.ID}}</a> <span class="badge {{.State}}">{{.State}}</span>{{if .Vacuous}} <span class="badge vacuous">vacuous</span>{{end}} {{.Kind}}{{if .Why}}: {{.Why}}{{end}}</li>{{end}}</ul></div>{{end}}
{{if .Body}}<div class="text">{{.Body}}</div>{{end}}
{{heading (inc $.H) (print .Key "-claims") (print "Claims (" (len .Claims) ")")}}
{{range .Claims}}<article class="claim{{if .Failed}} failed{{end}}" id="{{.HTMLID}}">
{{heading (inc (inc $.H)) "" (print .ID " · " .Kind)}}
<dl><dt>State</dt><dd><span class="badge {{.State}}">{{.State}}</span>{{if .Vacuous}} <span class="badge vacuous">vacuous</span> {{.Vacuous}}{{end}}{{if .Message}} {{.Message}}{{end}}</dd>
{{if .Why}}<dt>Why</dt><dd class="why">{{.Why}}</dd>{{end}}
{{if .Path}}<dt>Path</dt><dd><code>{{.Path}}</code></dd>{{end}}
{{if .Anchor}}<dt>Anchor</dt><dd><code>{{.Anchor}}</code></dd>{{end}}
{{if .Require}}<dt>Require</dt><dd><code>{{.Require}}</code></dd>{{end}}</dl>
{{range .Excerpts}}<figure class="excerpt" tabindex="0"><p>{{if .Href}}<a href="{{.Href}}"><code>{{.Where}}</code></a>{{else}}<code>{{.Where}}</code>{{end}}{{if .CodeHref}} · <a class="to-code" href="{{.CodeHref}}">in the code view</a>{{end}}</p><ol>{{range .Lines}}<li{{if .Hit}} class="hit"{{end}}><span class="n">{{.N}}</span>{{.Text}}</li>{{end}}</ol></figure>
{{end}}{{if .More}}<p class="meta">and {{plural .More "more line"}}: see the <a href="{{$.M.CodeHref}}">code view</a>.</p>{{end}}
</article>
{{else}}<p class="meta">No claims.</p>{{end}}
{{end}}{{end}}`))
})

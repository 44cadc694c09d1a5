package check

import (
	"bytes"
	"fmt"
	"go/token"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/claimslint/claimslint/internal/codeline"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/repo"
)

// rewritten is a claim CL016 reports beside its line (issue 34 item 6,
// D105): an anchored claim whose Anchor still finds its one line, whose
// Require matched that line at the base and does not match it now.
type rewritten struct {
	name      string // D7 "title" C3
	pos       token.Position
	then, now string // the line at the base, and now
	require   string // the Require now
	propose   string // a Require that matches the line now, or ""
}

// reportRewritten reports, with --base, each rewritten claim at its line:
// the line at the base beside the line now, and a Require that matches
// the line now, printed for the author to judge and never applied.
func reportRewritten(p *Pass, v *baseView) {
	then, now := v.Snap.ByID(), p.Snap.ByID()
	for _, st := range p.ResultOf[claimRule].(claimStates) {
		name, _ := SplitKind(st.Kind)
		if st.State != StateFailed || st.Status != "accepted" || len(st.Where) != 1 || name != "anchored" && name != "anchored-every" {
			continue
		}
		d, td := now[st.Decision], then[st.Decision]
		if d == nil || td == nil {
			continue
		}
		row, ok1 := claimByID(d, st.Claim)
		old, ok2 := claimByID(td, st.Claim)
		if !ok1 || !ok2 || old.Kind != row.Kind || strings.HasPrefix(row.Require, "!") || row.Require == "" {
			continue
		}
		rw, ok := rewrittenLine(p, v, st.Where[0], old, row.Require)
		if !ok {
			continue
		}
		rw.name = fmt.Sprintf("%s %s %s", d.FileID, quoteTitle(d), row.ID)
		p.Report(diag.Finding{Pos: rw.pos, Message: rw.message(p.Opts.Base)})
	}
}

func (rw rewritten) message(base string) string {
	msg := fmt.Sprintf("%s: the line its Anchor finds read %q at %s and reads %q now, which Require %s does not match", rw.name, rw.then, base, rw.now, quoteRE(rw.require))
	if rw.propose == "" {
		return msg + ": restore the line, or change the Require with the code"
	}
	return msg + fmt.Sprintf(": restore the line, or, if the change is meant, a Require that matches it now is %s (proposed, not applied)", quoteRE(rw.propose))
}

// rewrittenLine reads the line at where ("path:n") now and the one line
// of the same file the base's Anchor found at the base; ok when the
// base's Require matched it there and the Require now does not match the
// line now.
func rewrittenLine(p *Pass, v *baseView, where string, old register.Claim, require string) (rewritten, bool) {
	var rw rewritten
	i := strings.LastIndexByte(where, ':')
	n, err := strconv.Atoi(where[i+1:])
	if i < 0 || err != nil || n < 1 {
		return rw, false
	}
	file := where[:i]
	nowLine, ok := lineNow(p.Snap.Dir, file, n)
	req, err1 := requireRE(require, p.Snap.MaxN())
	oldReq, err2 := requireRE(old.Require, v.Snap.MaxN())
	was, err3 := anchorRE(old.Anchor, v.Snap.MaxN())
	if !ok || err1 != nil || err2 != nil || err3 != nil || req.MatchString(nowLine) {
		return rw, false
	}
	src, found := repo.ShowAt(p.Snap.Dir, v.Commit, file)
	if !found || len(src) > MaxFileSize {
		return rw, false
	}
	lines := bytes.Split(src, []byte{'\n'})
	masked := lines
	if _, scope := SplitKind(old.Kind); scope == "" || scope == ScopeCode || scope == ScopeTest {
		masked = bytes.Split(codeline.Mask(file, src), []byte{'\n'}) // a comment naming the anchor is not its line
	}
	thenLine, hits := "", 0
	for k, l := range masked {
		if was.Match(l) {
			thenLine, hits = string(lines[k]), hits+1
		}
	}
	if hits != 1 || !oldReq.MatchString(thenLine) {
		return rw, false
	}
	rw = rewritten{pos: token.Position{Filename: file, Line: n, Column: 1}, then: clipN(strings.TrimSpace(thenLine), 120), now: clipN(strings.TrimSpace(nowLine), 120), require: require}
	if prop := proposeRequire(thenLine, nowLine, old.Require); prop != "" && regexp.MustCompile(prop).MatchString(nowLine) {
		rw.propose = prop
	}
	return rw, true
}

// requireRE compiles a Require as check reads it, placeholders expanded.
func requireRE(req string, maxN int) (*regexp.Regexp, error) {
	if req == "" || len(req) > MaxPattern {
		return nil, fmt.Errorf("no require")
	}
	pat, err := ExpandPlaceholders(req, maxN)
	if err != nil {
		return nil, err
	}
	return regexp.Compile(pat)
}

// lineNow returns line n of the file rel under dir, at most MaxFileSize
// bytes read.
func lineNow(dir, rel string, n int) (string, bool) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "", false
	}
	defer root.Close()
	f, err := root.Open(rel)
	if err != nil {
		return "", false
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil || len(src) > MaxFileSize {
		return "", false
	}
	lines := bytes.Split(src, []byte{'\n'})
	if n > len(lines) {
		return "", false
	}
	return strings.TrimSuffix(string(lines[n-1]), "\r"), true
}

// proposeRequire is a Require for the line now. The change replaced some
// text of the base's line (widened to whole words); when the base's
// Require quotes that text once, the proposal is the Require with the new
// text in its place (`= 16 << 20` becomes `= 32 << 20`), else the new
// text quoted as a literal. "" when the change only removed text.
func proposeRequire(then, now, require string) string {
	then, now = strings.TrimSpace(then), strings.TrimSpace(now)
	pre := 0
	for pre < len(then) && pre < len(now) && then[pre] == now[pre] {
		pre++
	}
	suf := 0
	for suf < len(then)-pre && suf < len(now)-pre && then[len(then)-1-suf] == now[len(now)-1-suf] {
		suf++
	}
	// Cut at characters, not bytes: a change inside a multi-byte rune
	// replaces the rune.
	for pre > 0 && (!runeStart(now, pre) || !runeStart(then, pre)) {
		pre--
	}
	for suf > 0 && (!runeStart(now, len(now)-suf) || !runeStart(then, len(then)-suf)) {
		suf--
	}
	oldMid, newMid := widen(then, pre, len(then)-suf), widen(now, pre, len(now)-suf)
	if newMid == "" || !utf8.ValidString(newMid) || !utf8.ValidString(oldMid) {
		return ""
	}
	if q := regexp.QuoteMeta(oldMid); oldMid != "" && strings.Count(require, q) == 1 {
		return strings.Replace(require, q, regexp.QuoteMeta(newMid), 1)
	}
	return regexp.QuoteMeta(newMid)
}

// widen returns s[start:end] grown to whole words, "" when it is empty.
func widen(s string, start, end int) string {
	if start >= end {
		return ""
	}
	for start > 0 && isWordByte(s[start-1]) {
		start--
	}
	for end < len(s) && isWordByte(s[end]) {
		end++
	}
	return s[start:end]
}

// runeStart reports whether s[i:] starts at a character (or s's end).
func runeStart(s string, i int) bool { return i >= len(s) || utf8.RuneStart(s[i]) }

func isWordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

package migrate

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"github.com/claimslint/claimslint/internal/codeline"
)

// Options say where a migration reads and writes.
type Options struct {
	// Dir is the repository root; scripts and row paths are relative to it.
	Dir string
	// ClaimsDir is where claims files are written: ClaimsDir/D47.md.
	ClaimsDir string
	// TrackerExport and Prefixes let a row that greps the export for an
	// id become a tracker claim.
	TrackerExport string
	Prefixes      []string
}

// Claim is one translated row, ready to be written.
type Claim struct {
	ID      string
	Kind    string // with its scope suffix, e.g. present:comment
	Path    string
	Anchor  string
	Require string
	Why     string
	// Note explains a choice the row did not spell out (a scope, a kind).
	Note string
}

// Translation is a gate and the claims it becomes.
type Translation struct {
	Gate   *Gate
	Claims []Claim
	// File is the claims file, repository-relative.
	File string
}

// Translate turns a gate's rows into claims. The tree under opts.Dir is read
// to choose each row's scope: a grep row sees every line, a claim sees code
// lines by default, so a row whose pattern today matches only comment lines
// becomes a comment-scoped claim, and one whose anchor matches both code and
// comment lines keeps the script's every-line reading with scope any.
func Translate(g *Gate, opts Options) *Translation {
	t := &Translation{Gate: g}
	if g.Decision == "" {
		return t
	}
	t.File = path.Join(opts.ClaimsDir, g.Decision+".md")
	for _, r := range g.Rows {
		c, reason := translateRow(r, opts)
		if reason != "" {
			g.Skipped = append(g.Skipped, Skipped{Code: r.Code, Line: r.Line, Reason: reason})
			continue
		}
		t.Claims = append(t.Claims, c)
	}
	t.Claims = append(t.Claims, Claim{ID: "X1", Kind: "exec", Path: g.Script,
		Why:  "the gate runs as a bare path in CI, so it must be 100755 in the git index",
		Note: "added: the script's own executable bit"})
	return t
}

func translateRow(r Row, opts Options) (Claim, string) {
	if c, reason, ok := translateRule(r, opts); ok { // D63: the rows beyond D34's
		return c, reason
	}
	c := Claim{ID: r.Code, Path: r.Path, Why: r.Why}
	anchor, err := EREToRE2(r.Anchor)
	if err != nil {
		return c, fmt.Sprintf("pattern `%s`: %v", r.Anchor, err)
	}
	c.Anchor = anchor
	if !r.Presence() {
		req := r.Regex
		neg := strings.HasPrefix(req, "!")
		req = strings.TrimPrefix(req, "!")
		conv, err := EREToRE2(req)
		if err != nil {
			return c, fmt.Sprintf("requirement `%s`: %v", r.Regex, err)
		}
		if neg {
			conv = "!" + conv
		}
		c.Require = conv
	}
	if regexp.MustCompile(anchor).MatchString("") {
		return c, fmt.Sprintf("pattern %q matches the empty string, so it matches every line", r.Anchor)
	}
	if r.Presence() && opts.TrackerExport != "" && path.Clean(r.Path) == path.Clean(opts.TrackerExport) {
		if id := trackerID(r.Anchor, opts.Prefixes); id != "" {
			c.Kind, c.Anchor, c.Path = "tracker", id, ""
			c.Note = "the row greps the tracker export for " + id
			return c, ""
		}
	}
	kind := "present"
	if !r.Presence() {
		kind = "anchored-every"
	}
	var req *regexp.Regexp
	if c.Require != "" {
		req = regexp.MustCompile(strings.TrimPrefix(c.Require, "!"))
	}
	scope, note := chooseScope(opts.Dir, r.Path, regexp.MustCompile(anchor), req, r.Presence())
	c.Kind = kind
	if scope != "" {
		c.Kind += ":" + scope
	}
	c.Note = note
	return c, ""
}

// trackerID returns the id a pattern names when the pattern is nothing but
// that id (as "id":"ub-788", or bare), else "".
func trackerID(pattern string, prefixes []string) string {
	lit := strings.NewReplacer(`\.`, ".", `\-`, "-", `\"`, `"`, `\b`, "").Replace(pattern)
	for _, p := range prefixes {
		re := regexp.MustCompile(`^(?:"id"\s*:\s*")?(` + regexp.QuoteMeta(p) + `-[A-Za-z0-9]+(?:\.[0-9]+)*)"?$`)
		if m := re.FindStringSubmatch(lit); m != nil {
			return m[1]
		}
	}
	return ""
}

// chooseScope reads the row's file and returns the narrowest scope the
// row holds in today: "" (code), "comment" or "any", with a note when it
// is not the default. A presence row needs one matching line, so code
// lines win when there are any; an every-line row must see every line
// the script sees.
//
// An every-line row whose requirement reads differently with comments
// masked (it is met only in a trailing comment) keeps scope any too.
func chooseScope(dir, rel string, re, req *regexp.Regexp, presence bool) (string, string) {
	if strings.ContainsAny(rel, "*?[{") {
		return "", "a glob: the scope is the default, code lines"
	}
	src, err := readIn(dir, rel)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Sprintf("%s does not exist today", rel)
		}
		return "", fmt.Sprintf("%s cannot be read: %v", rel, err)
	}
	masked := strings.Split(string(codeline.Mask(rel, src)), "\n")
	raw := strings.Split(string(src), "\n")
	var code, comment []int
	for i, l := range raw {
		if !re.MatchString(l) {
			continue
		}
		if re.MatchString(masked[i]) {
			if req != nil && req.MatchString(l) != req.MatchString(masked[i]) {
				return "any", fmt.Sprintf("the requirement reads differently with comments masked (%s:%d), and the script reads every line", rel, i+1)
			}
			code = append(code, i+1)
		} else {
			comment = append(comment, i+1)
		}
	}
	switch {
	case len(code) == 0 && len(comment) == 0:
		return "", "no line matches today: the script fails this row too"
	case len(comment) == 0 || (presence && len(code) > 0):
		return "", ""
	case len(code) == 0:
		return "comment", fmt.Sprintf("matches only comment lines today (%s:%d)", rel, comment[0])
	default:
		return "any", fmt.Sprintf("matches code (%s:%d) and comment (%s:%d) lines, and the script reads every line", rel, code[0], rel, comment[0])
	}
}

// cell writes s as a table cell: a code span for patterns and paths, with
// the table escape for |.
func cell(s string, code bool) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	if s == "" {
		return ""
	}
	if !code {
		return s
	}
	ticks := "`"
	for strings.Contains(s, ticks) {
		ticks += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return ticks + " " + s + " " + ticks
	}
	return ticks + s + ticks
}

// Render writes the claims file of a translation.
func (t *Translation) Render(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: claims\n\n", t.Gate.Decision)
	fmt.Fprintf(&b, "Migrated by `claimslint migrate` from\n`%s`;\n", t.Gate.Script)
	b.WriteString("the row codes are the claim ids. The script is kept:\n`claimslint migrate --compare` runs both and prints their verdicts.\n\n")
	b.WriteString("## Confirmation\n\n")
	b.WriteString("| Claim | Kind | Path | Anchor | Require | Why |\n|---|---|---|---|---|---|\n")
	for _, c := range t.Claims {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", c.ID, c.Kind, cell(c.Path, true), cell(c.Anchor, true), cell(c.Require, true), cell(c.Why, false))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/lintcmd"
	"github.com/claimslint/claimslint/server/cli"
	"github.com/yuin/goldmark/ast"
)

// The usage lines of docs/guide/commands.md (claimslint) and
// docs/guide/docket.md (docket) are compared with the binaries' own help,
// so a flag renamed, added or dropped fails a test until the page follows
// (D79): every flag a usage line shows is one its command's --help lists,
// every command of `help` has a usage line, and every flag of a command's
// --help is on its usage lines, but for the ones the page names as not
// shown and the flags every command has.

var (
	helpFlagRE  = regexp.MustCompile(`(?:^|, )(--?[a-z][a-z0-9-]*)`)
	usageFlagRE = regexp.MustCompile(`(?:^|[\s\[(|])(--?[a-z][a-z0-9-]*)`)
	helpCmdRE   = regexp.MustCompile(`^   ([a-z][a-z-]*)(?:, [a-z]+)?  `)
)

// helpText runs a tool's help in process and returns what it printed.
func helpText(t *testing.T, tool string, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	argv := append([]string{tool}, args...)
	var code int
	if tool == "claimslint" {
		code = lintcmd.Main(argv, &out, &errb)
	} else {
		code = cli.Main(argv, cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	}
	if code != 0 {
		t.Fatalf("%s: exit %d: %s%s", strings.Join(argv, " "), code, out.String(), errb.String())
	}
	return out.String()
}

// section returns the lines of a help section (COMMANDS:, OPTIONS:).
func section(help, name string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(help, "\n") {
		switch {
		case strings.HasSuffix(l, ":") && !strings.HasPrefix(l, " "):
			in = l == name+":"
		case in && strings.TrimSpace(l) != "":
			out = append(out, l)
		}
	}
	return out
}

// helpCommands lists the commands of a help page, but help itself.
func helpCommands(help string) []string {
	var out []string
	for _, l := range section(help, "COMMANDS") {
		if m := helpCmdRE.FindStringSubmatch(l); m != nil && m[1] != "help" {
			out = append(out, m[1])
		}
	}
	return out
}

// helpFlags lists every spelling of every flag of a help page.
func helpFlags(help string) map[string]bool {
	out := map[string]bool{}
	for _, l := range section(help, "OPTIONS") {
		spec, _, _ := strings.Cut(strings.TrimSpace(l), "  ")
		for _, m := range helpFlagRE.FindAllStringSubmatch(spec, -1) {
			out[m[1]] = true
		}
	}
	return out
}

// usageBlock returns the lines of the first fenced block of a page whose
// language is lang and whose first line starts with prefix.
func usageBlock(t *testing.T, rel, lang, prefix string) []string {
	t.Helper()
	d := readDoc(t, rel)
	var lines []string
	_ = ast.Walk(d.ast, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		fb, ok := n.(*ast.FencedCodeBlock)
		if !entering || !ok || lines != nil || string(fb.Language(d.src)) != lang || fb.Lines().Len() == 0 {
			return ast.WalkContinue, nil
		}
		var ls []string
		for i := 0; i < fb.Lines().Len(); i++ {
			seg := fb.Lines().At(i)
			ls = append(ls, strings.TrimSuffix(string(seg.Value(d.src)), "\n"))
		}
		if strings.HasPrefix(ls[0], prefix) {
			lines = ls
		}
		return ast.WalkContinue, nil
	})
	if lines == nil {
		t.Fatalf("%s has no ```%s block starting %q", rel, lang, prefix)
	}
	return lines
}

// usageText groups a block's lines by the command they show: a line
// starting with prefix opens one (its command is the word after prefix,
// and a subcommand word after it when the command has subcommands), an
// indented line continues it.
func usageText(t *testing.T, tool string, lines []string, prefix string) (map[string]string, []string) {
	byCmd := map[string]string{}
	var order []string
	cur := ""
	for _, l := range lines {
		if !strings.HasPrefix(l, prefix) {
			if cur != "" {
				byCmd[cur] += " " + l
			}
			continue
		}
		f := strings.Fields(strings.TrimPrefix(l, prefix))
		if len(f) == 0 {
			continue
		}
		cur = f[0]
		if len(f) > 1 && len(helpCommands(helpText(t, tool, f[0], "--help"))) > 0 {
			cur = f[0] + " " + f[1]
		}
		if _, ok := byCmd[cur]; !ok {
			order = append(order, cur)
		}
		byCmd[cur] += " " + strings.TrimPrefix(l, prefix)
	}
	return byCmd, order
}

// notShownFlags reads the paragraph just after the usage block: a code
// span "CMD --flag" names a flag of CMD the lines leave out, a bare
// "--flag" one of the command last named, a span without a flag (`create`)
// names that command.
func notShownFlags(t *testing.T, rel, lang, prefix string) map[string]bool {
	t.Helper()
	d := readDoc(t, rel)
	out := map[string]bool{}
	done := false
	_ = ast.Walk(d.ast, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		fb, ok := n.(*ast.FencedCodeBlock)
		if !entering || !ok || done || string(fb.Language(d.src)) != lang || fb.Lines().Len() == 0 {
			return ast.WalkContinue, nil
		}
		seg := fb.Lines().At(0)
		if !strings.HasPrefix(string(seg.Value(d.src)), prefix) {
			return ast.WalkContinue, nil
		}
		done = true
		para, ok := fb.NextSibling().(*ast.Paragraph)
		if !ok {
			return ast.WalkStop, nil
		}
		tool := strings.Fields(prefix)[len(strings.Fields(prefix))-1]
		tool = tool[strings.LastIndex(tool, "/")+1:]
		last := ""
		_ = ast.Walk(para, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
			cs, ok := c.(*ast.CodeSpan)
			if !entering || !ok {
				return ast.WalkContinue, nil
			}
			words := strings.Fields(plainText(cs, d.src))
			if len(words) > 0 && words[0] == tool {
				words = words[1:]
			}
			i := 0
			for i < len(words) && !strings.HasPrefix(words[i], "-") {
				i++
			}
			if i > 0 {
				last = strings.Join(words[:i], " ")
			}
			if i < len(words) {
				out[strings.TrimSpace(last+" "+words[i])] = true
			}
			return ast.WalkSkipChildren, nil
		})
		return ast.WalkStop, nil
	})
	return out
}

func checkUsage(t *testing.T, tool, rel, lang, prefix string, notShown map[string]bool) {
	for k := range notShownFlags(t, rel, lang, prefix) {
		notShown[k] = true
	}
	lines := usageBlock(t, rel, lang, prefix)
	byCmd, order := usageText(t, tool, lines, prefix)
	shown := map[string]bool{}
	for _, c := range order {
		shown[strings.Fields(c)[0]] = true
		help := helpText(t, tool, append(strings.Fields(c), "--help")...)
		flags := helpFlags(help)
		onPage := map[string]bool{}
		for _, m := range usageFlagRE.FindAllStringSubmatch(byCmd[c], -1) {
			onPage[m[1]] = true
			if !flags[m[1]] {
				t.Errorf("%s: the usage of %s %s shows %s, which %s %s --help does not list", rel, tool, c, m[1], tool, c)
			}
		}
		var missing []string
		for _, l := range section(help, "OPTIONS") {
			spec, _, _ := strings.Cut(strings.TrimSpace(l), "  ")
			names := helpFlagRE.FindAllStringSubmatch(spec, -1)
			if len(names) == 0 {
				continue
			}
			found := false
			for _, n := range names {
				found = found || onPage[n[1]] || notShown[n[1]] || notShown[c+" "+n[1]]
			}
			if !found {
				missing = append(missing, names[0][1])
			}
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			t.Errorf("%s: the usage of %s %s does not show %s, which %s %s --help lists", rel, tool, c, strings.Join(missing, ", "), tool, c)
		}
	}
	for _, c := range helpCommands(helpText(t, tool, "help")) {
		if !shown[c] {
			t.Errorf("%s: no usage line for %s %s, which %s help lists", rel, tool, c, tool)
		}
	}
}

// TestUsageLines: the usage blocks of the guide are the binaries' help.
func TestUsageLines(t *testing.T) {
	if _, err := os.Stat("../../docs/guide/commands.md"); err != nil {
		t.Fatal(err)
	}
	t.Run("claimslint", func(t *testing.T) {
		checkUsage(t, "claimslint", "docs/guide/commands.md", "text", "claimslint ", map[string]bool{
			"--help": true, "-h": true,
		})
	})
	t.Run("docket", func(t *testing.T) {
		checkUsage(t, "docket", "docs/guide/docket.md", "sh", "go run ./cmd/docket ", map[string]bool{
			"--help": true, "-h": true, "--db": true, "--export": true,
		})
	})
}

// TestReportSectionsOnPage: getting started names the sections of the
// report's index page, in the order `claimslint report` writes them (D79,
// D83).
func TestReportSectionsOnPage(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	var stdout, stderr bytes.Buffer
	if code := lintcmd.Main([]string{"claimslint", "report", "--dir", repoRoot(t), "--out", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("claimslint report: exit %d: %s%s", code, stdout.String(), stderr.String())
	}
	html, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	var headings []string
	for _, m := range regexp.MustCompile(`<h2 id="[^"]+">([^<]+)</h2>`).FindAllStringSubmatch(string(html), -1) {
		headings = append(headings, m[1])
	}
	if len(headings) < 3 {
		t.Fatalf("the report has %d section headings: %q", len(headings), headings)
	}
	page := readDoc(t, "docs/guide/getting-started.md")
	var named []string
	_ = ast.Walk(page.ast, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if e, ok := n.(*ast.Emphasis); ok && entering && e.Level == 1 {
			named = append(named, plainText(e, page.src))
		}
		return ast.WalkContinue, nil
	})
	if strings.Join(named, "|") != strings.Join(headings, "|") {
		t.Errorf("docs/guide/getting-started.md names the report's sections (in *italics*) as %q; claimslint report writes %q", named, headings)
	}
}

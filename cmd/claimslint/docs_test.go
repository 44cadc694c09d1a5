// The tests of this package check the repository's documentation, README.md
// and the guide under docs/, against the code it describes:
//
//   - TestReadmeLayout: the README's layout table lists every package of
//     `go list ./...` once, and its other rows name paths that exist;
//   - TestDocLinks: every relative link resolves, and every #anchor names
//     a heading of its target;
//   - TestConfigurationDefaults: the defaults docs/guide/configuration.md
//     shows are internal/config's;
//   - TestConsoleSamples (console_test.go): every ```console sample runs,
//     in a scratch directory a fixture of testdata/console sets up, and
//     prints what the sample shows;
//   - TestRulesPage (rules_test.go): docs/guide/rules.md is what
//     `claimslint explain` prints for every rule (-update rewrites it).
//   - TestUsageLines, TestReportSectionsOnPage (usage_test.go): the usage
//     lines of docs/guide/commands.md and docs/guide/docket.md are the
//     binaries' --help, and getting started names the report's sections;
//   - TestCurlRecipes (recipes_test.go): the curl recipes of
//     docs/guide/docket-mcp.md, sent to a docket mcp --http (D79).
//
// They live here, as tests of package main, because cmd/claimslint is the
// one place that reaches all of it without a new production package: the
// README describes the module from its top, the console samples run both
// commands (claimslint from internal/lintcmd, docket from server/cli), and
// the rules page is rendered from internal/check and internal/audit. Test
// imports are not dependencies of the binary (D12 counts non-test imports),
// and the package had no tests whose TestMain these would have to share.
// docs/decisions is left to claimslint's own rules (CL001-CL013), which
// `claimslint check` runs on this repository.
package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/ciworkflow"
	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/lintcmd"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/server/cli"
	"github.com/claimslint/claimslint/server/mcp"
	"github.com/rogpeppe/go-internal/testscript"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"gopkg.in/yaml.v2"
)

// TestMain puts claimslint and docket on PATH (as copies of this test
// binary, which runs the command named by its argv[0]), so the console
// samples run the commands a reader types.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"claimslint": func() { os.Exit(lintcmd.Main(os.Args, os.Stdout, os.Stderr)) },
		"docket": func() {
			os.Exit(cli.Main(os.Args, cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
		},
	})
}

// repoRoot is the repository root, two levels above this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// docFiles lists the Markdown these tests read, relative to the repository
// root with slashes: README.md and every .md file under docs/ except
// docs/decisions/.
func docFiles(t *testing.T) []string {
	t.Helper()
	root := repoRoot(t)
	files := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() && rel == "docs/decisions" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(rel, ".md") {
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files[1:])
	return files
}

// doc is one parsed Markdown file.
type doc struct {
	rel string // path from the repository root, with slashes
	src []byte
	ast ast.Node
}

var md = goldmark.New(goldmark.WithExtensions(extension.GFM))

func readDoc(t *testing.T, rel string) *doc {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(repoRoot(t), filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return &doc{rel: rel, src: src, ast: md.Parser().Parse(text.NewReader(src))}
}

// line is the 1-based line of byte offset off.
func (d *doc) line(off int) int { return bytes.Count(d.src[:off], []byte("\n")) + 1 }

// nodeLine is the first line of a node: of its own lines for a block, of
// its first text for an inline.
func (d *doc) nodeLine(n ast.Node) int {
	for c := n; c != nil; c = c.FirstChild() {
		if c.Type() == ast.TypeBlock && c.Lines().Len() > 0 {
			return d.line(c.Lines().At(0).Start)
		}
		if t, ok := c.(*ast.Text); ok {
			return d.line(t.Segment.Start)
		}
	}
	if p := n.Parent(); p != nil {
		return d.nodeLine(p)
	}
	return 1
}

// plainText is the text of an inline tree: text and code spans, without
// the markup around them.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.RawHTML:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// slug is the anchor GitHub gives a heading: lower case, punctuation other
// than - and _ dropped, each space a -.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors is the set of heading anchors of d, duplicates numbered as GitHub
// numbers them (x, x-1, x-2).
func (d *doc) anchors() map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	_ = ast.Walk(d.ast, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering {
			s := slug(plainText(h, d.src))
			if k := seen[s]; k > 0 {
				out[fmt.Sprintf("%s-%d", s, k)] = true
			} else {
				out[s] = true
			}
			seen[s]++
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return out
}

var goList struct {
	once sync.Once
	pkgs []string
	err  error
}

// packages is `go list ./...` of the module, as directories relative to its
// root (cmd/claimslint, server/mcp/frame, ...).
func packages(t *testing.T) []string {
	t.Helper()
	goList.once.Do(func() {
		cmd := exec.Command("go", "list", "-f", "{{.Module.Path}} {{.ImportPath}}", "./...")
		cmd.Dir = repoRoot(t)
		out, err := cmd.Output()
		if err != nil {
			goList.err = fmt.Errorf("go list ./...: %v", err)
			return
		}
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			mod, pkg, _ := strings.Cut(l, " ")
			goList.pkgs = append(goList.pkgs, strings.TrimPrefix(strings.TrimPrefix(pkg, mod), "/"))
		}
	})
	if goList.err != nil {
		t.Fatal(goList.err)
	}
	return goList.pkgs
}

// TestReadmeLayout: the README's Layout table has one row for each package
// `go list ./...` lists, and no other row that names a package; a row that
// is not a package (.knowledge/tracker/, bench/, action.yml) names a path
// that exists.
func TestReadmeLayout(t *testing.T) {
	t.Parallel()
	d := readDoc(t, "README.md")
	var table ast.Node
	inLayout := false
	for n := d.ast.FirstChild(); n != nil && table == nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Heading:
			inLayout = n.Level == 2 && plainText(n, d.src) == "Layout"
		case *east.Table:
			if inLayout {
				table = n
			}
		}
	}
	if table == nil {
		t.Fatal("README.md: no table under a \"## Layout\" heading")
	}
	isPkg := map[string]bool{}
	for _, p := range packages(t) {
		isPkg[p] = true
	}
	rows := map[string]int{}
	for r := table.FirstChild(); r != nil; r = r.NextSibling() {
		if _, ok := r.(*east.TableRow); !ok {
			continue // the header
		}
		cell := r.FirstChild()
		code, ok := cell.FirstChild().(*ast.CodeSpan)
		if !ok || code.NextSibling() != nil {
			t.Errorf("README.md:%d: a layout row's path is one code span, like `internal/check`", d.nodeLine(cell))
			continue
		}
		p := plainText(code, d.src)
		line := d.nodeLine(cell)
		if prev, dup := rows[p]; dup {
			t.Errorf("README.md:%d: %s is listed again (first at line %d)", line, p, prev)
		}
		rows[p] = line
		if isPkg[p] {
			continue
		}
		if isPkg[strings.TrimSuffix(p, "/")] {
			t.Errorf("README.md:%d: write the package %s without a trailing slash", line, p)
			continue
		}
		if _, err := os.Stat(filepath.Join(repoRoot(t), filepath.FromSlash(p))); err != nil {
			t.Errorf("README.md:%d: %s is neither a package of go list ./... nor a path in the repository", line, p)
		}
	}
	var missing []string
	for _, p := range packages(t) {
		if _, ok := rows[p]; !ok {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		t.Errorf("README.md: the layout table misses %d of the %d packages of go list ./...: %s", len(missing), len(packages(t)), strings.Join(missing, ", "))
	}
}

// TestDocLinks: every relative link and image of README.md and docs/ (but
// docs/decisions) names a file or directory that exists, and an #anchor
// into a Markdown file names one of its headings. Links with a scheme
// (https:, mailto:) are not followed.
func TestDocLinks(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	cache := map[string]*doc{}
	get := func(rel string) *doc {
		if d, ok := cache[rel]; ok {
			return d
		}
		d := readDoc(t, rel)
		cache[rel] = d
		return d
	}
	for _, rel := range docFiles(t) {
		d := get(rel)
		_ = ast.Walk(d.ast, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering {
				return ast.WalkContinue, nil
			}
			var dest string
			switch n := n.(type) {
			case *ast.Link:
				dest = string(n.Destination)
			case *ast.Image:
				dest = string(n.Destination)
			default:
				return ast.WalkContinue, nil
			}
			if u, err := url.Parse(dest); err != nil || u.Scheme != "" || u.Host != "" {
				return ast.WalkContinue, nil
			}
			where := fmt.Sprintf("%s:%d: link %s", rel, d.nodeLine(n), dest)
			target, anchor, _ := strings.Cut(dest, "#")
			target, err := url.PathUnescape(target)
			if err != nil {
				t.Errorf("%s: %v", where, err)
				return ast.WalkContinue, nil
			}
			if strings.HasPrefix(target, "/") {
				t.Errorf("%s: write a path relative to %s, not from the root", where, rel)
				return ast.WalkContinue, nil
			}
			to := rel
			if target != "" {
				to = path.Clean(path.Join(path.Dir(rel), target))
				if to == ".." || strings.HasPrefix(to, "../") {
					t.Errorf("%s: leaves the repository", where)
					return ast.WalkContinue, nil
				}
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(to))); err != nil {
					t.Errorf("%s: %s does not exist", where, to)
					return ast.WalkContinue, nil
				}
			}
			if anchor != "" && strings.HasSuffix(to, ".md") && !get(to).anchors()[anchor] {
				t.Errorf("%s: %s has no heading whose anchor is #%s", where, to, anchor)
			}
			return ast.WalkContinue, nil
		})
	}
}

// TestConfigurationDefaults: the first YAML block of the configuration
// page, the defaults, decodes to the values config.Default holds.
func TestConfigurationDefaults(t *testing.T) {
	t.Parallel()
	const page = "docs/guide/configuration.md"
	d := readDoc(t, page)
	var block []byte
	_ = ast.Walk(d.ast, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if fb, ok := n.(*ast.FencedCodeBlock); ok && entering && block == nil && string(fb.Language(d.src)) == "yaml" {
			for i := 0; i < fb.Lines().Len(); i++ {
				seg := fb.Lines().At(i)
				block = append(block, seg.Value(d.src)...)
			}
		}
		return ast.WalkContinue, nil
	})
	if block == nil {
		t.Fatalf("%s: no yaml block", page)
	}
	got, err := config.Parse(block, config.Config{})
	if err != nil {
		t.Fatalf("%s: the defaults block: %v", page, err)
	}
	want := config.Default()
	for _, c := range []struct {
		key       string
		got, want any
	}{
		{"register", got.Register, want.Register},
		{"decisions", got.Decisions, want.Decisions},
		{"tracker.export", got.Tracker.Export, want.Tracker.Export},
		{"tracker.format", got.Tracker.Format, want.Tracker.Format},
		{"tracker.prefixes", got.Tracker.Prefixes, want.Tracker.Prefixes},
		{"range_sites", got.RangeSites, want.RangeSites},
		{"scripts", got.Scripts, want.Scripts},
		{"workflows", got.Workflows, want.Workflows},
	} {
		if fmt.Sprint(c.got) != fmt.Sprint(c.want) {
			t.Errorf("%s: %s is %v on the page, %v in config.Default", page, c.key, c.got, c.want)
		}
	}
}

// TestAdoptionGuideListsEveryRelation: the relation words the adoption
// guide lists are the ones the adopted-record reader knows.
func TestAdoptionGuideListsEveryRelation(t *testing.T) {
	t.Parallel()
	page, err := os.ReadFile(filepath.Join("..", "..", "docs", "guide", "adoption.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ToLower(strings.Join(strings.Fields(string(page)), " "))
	for _, w := range register.RelationWords() {
		if !strings.Contains(text, "`"+w+"`") {
			t.Errorf("docs/guide/adoption.md does not list the relation %q", w)
		}
	}
}

// TestDocketMCPGuideListsEveryTool: the guide's list of docket mcp's tools
// is the registry's, each once, and no other tool is named there.
func TestDocketMCPGuideListsEveryTool(t *testing.T) {
	t.Parallel()
	page, err := os.ReadFile(filepath.Join("..", "..", "docs", "guide", "docket-mcp.md"))
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(page), "(D24)")
	names := mcp.ToolNames()
	for _, n := range names {
		if strings.Count(first, "`"+n+"`") != 1 {
			t.Errorf("docs/guide/docket-mcp.md's tool list names %s %d times, want once", n, strings.Count(first, "`"+n+"`"))
		}
	}
	listed := regexp.MustCompile("`((?:issue|dep|decision|claims)_[a-z]+)`").FindAllStringSubmatch(first, -1)
	if len(listed) != len(names) {
		t.Errorf("docs/guide/docket-mcp.md lists %d tools, the registry holds %d", len(listed), len(names))
	}
}

// TestDocsIndexListsEveryKind: the guide's index names every claim kind of
// the registry, in its order (issue 33: the hand-kept list missed allow).
func TestDocsIndexListsEveryKind(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var row string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "| [Claim kinds and scopes]") {
			row = l
		}
	}
	if row == "" {
		t.Fatal("docs/README.md has no row for the claim kinds")
	}
	cells := strings.Split(row, "|")
	kindsPart, _, _ := strings.Cut(cells[2], ";")
	var got []string
	for _, m := range regexp.MustCompile("`([a-z-]+)`").FindAllStringSubmatch(kindsPart, -1) {
		got = append(got, m[1])
	}
	if want := check.KindNames(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("docs/README.md lists the kinds %v; the registry has %v", got, want)
	}
}

// TestCIGuideShowsTheWorkflowInitWrites: the workflow docs/guide/ci.md
// shows is, byte for byte, the one init writes for the options its marker
// names, and every gate of ciworkflow.Gates is a step of it (D86, dk-ble).
func TestCIGuideShowsTheWorkflowInitWrites(t *testing.T) {
	t.Parallel()
	const page, marker = "docs/guide/ci.md", "<!-- workflow: init --ref COMMIT -->\n```yaml\n"
	src := string(readDoc(t, page).src)
	i := strings.Index(src, marker)
	if i < 0 {
		t.Fatalf("%s: no %q block", page, marker)
	}
	shown, _, ok := strings.Cut(src[i+len(marker):], "```\n")
	if !ok {
		t.Fatalf("%s: the workflow block is not closed", page)
	}
	want, err := ciworkflow.Workflow(ciworkflow.WorkflowOptions{Source: ciworkflow.DefaultSource, Ref: "COMMIT", Export: config.Default().Tracker.Export})
	if err != nil {
		t.Fatal(err)
	}
	if shown != want {
		t.Errorf("%s shows a workflow init does not write; paste this:\n%s", page, want)
	}
	for _, g := range ciworkflow.Gates {
		if !strings.Contains(shown, "- name: "+g.Name+"\n") {
			t.Errorf("%s: the workflow has no step %q", page, g.Name)
		}
	}
}

// TestCIGuideNamesEveryActionInput: every input action.yml declares is
// named in docs/guide/ci.md, and every input the guide's list names is
// declared (dk-ble).
func TestCIGuideNamesEveryActionInput(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	data, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]any `yaml:"inputs"`
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	page := string(readDoc(t, "docs/guide/ci.md").src)
	_, list, ok := strings.Cut(page, "Its inputs are ")
	if !ok {
		t.Fatal("docs/guide/ci.md: no sentence \"Its inputs are ...\"")
	}
	list, _, _ = strings.Cut(list, "\n\n")
	named := map[string]bool{}
	for _, m := range regexp.MustCompile("`([a-z-]+)`").FindAllStringSubmatch(list, -1) {
		named[m[1]] = true
	}
	for in := range action.Inputs {
		if !named[in] {
			t.Errorf("action.yml declares input %q; docs/guide/ci.md's list does not name it", in)
		}
		delete(named, in)
	}
	for in := range named {
		t.Errorf("docs/guide/ci.md names input %q; action.yml does not declare it", in)
	}
}

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/yuin/goldmark/ast"
)

// A console sample is a ```console block of README.md or docs/ (but
// docs/decisions): lines "$ command", each followed by the lines it prints,
// stdout and stderr together as a terminal shows them. The HTML comment
// just before it names where it runs:
//
//	<!-- console: NAME [STEP] -->
//
// NAME is a fixture, testdata/console/NAME.txtar, or "repository": this
// repository's root, for samples that only read it. The blocks that name
// one fixture in one Markdown file are a session: the first runs in a
// fresh scratch directory written from the fixture, each later one in the
// same directory, in the order of the file, so a page can tell a story.
// STEP names a script of the fixture, .console/STEP.sh, run before the
// block: the edit the prose between two blocks describes.
//
// A fixture's files are written into the scratch directory, except those
// under .console/, which go to a directory of their own, $CONSOLE:
// .console/setup.sh runs before the first block, the other .console/*.sh
// are steps, and any other file is there for them to copy. The archive's
// comment may hold two directives, one a line:
//
//	files: ARCHIVE PREFIX...   also write the files of ARCHIVE (a path from
//	                           the repository root) whose names start with
//	                           a PREFIX, as another test's fixture has them
//	dir: DIR                   run in DIR of the scratch directory
//
// Every command of a block runs in one bash, started in the session's
// directory, so `echo $?` shows the status of the command before it.
// The session's directory prints as /home/you/repo. Setup and step scripts
// are quiet unless they fail. A shown file can be pinned to a fixture too:
// a fenced block after <!-- console-file: NAME PATH --> must equal the
// fixture's file PATH.
//
// Any other fenced block whose first line starts with "$ " is an error:
// a transcript is a console sample, and a command that cannot run here
// (git clone <this repository>) is an ```sh block without prompts.

// shownDir is how the samples write the scratch directory's path.
const shownDir = "/home/you/repo"

var (
	markerRE  = regexp.MustCompile(`^<!--\s*(console|console-file):\s*(.*?)\s*-->$`)
	fixtureRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
)

// sample is one console block and where it runs.
type sample struct {
	line     int // of the block's first line
	fixture  string
	step     string
	commands []command
}

type command struct {
	line int
	text string
	want []string
}

// shownFile is a block pinned to a fixture's file.
type shownFile struct {
	line          int
	fixture, path string
	body          string
}

// marker returns the marker comment just before n, if any.
func (d *doc) marker(n ast.Node) (kind, args string, line int) {
	prev, ok := n.PreviousSibling().(*ast.HTMLBlock)
	if !ok {
		return "", "", 0
	}
	var b strings.Builder
	for i := 0; i < prev.Lines().Len(); i++ {
		seg := prev.Lines().At(i)
		b.Write(seg.Value(d.src))
	}
	if prev.HasClosure() {
		cl := prev.ClosureLine
		b.Write(cl.Value(d.src))
	}
	m := markerRE.FindStringSubmatch(strings.TrimSpace(b.String()))
	if m == nil {
		return "", "", 0
	}
	return m[1], m[2], d.line(prev.Lines().At(0).Start)
}

// samples returns the console samples and pinned files of d, in order, and
// reports every malformed one.
func (d *doc) samples(t *testing.T) ([]sample, []shownFile) {
	var out []sample
	var files []shownFile
	_ = ast.Walk(d.ast, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		fb, ok := n.(*ast.FencedCodeBlock)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		lang := string(fb.Language(d.src))
		var lines []string
		for i := 0; i < fb.Lines().Len(); i++ {
			seg := fb.Lines().At(i)
			lines = append(lines, strings.TrimSuffix(string(seg.Value(d.src)), "\n"))
		}
		first := d.nodeLine(fb)
		if fb.Lines().Len() == 0 {
			first = d.line(fb.Info.Segment.Start) + 1
		}
		kind, args, mline := d.marker(fb)
		switch {
		case kind == "console-file":
			name, p, _ := strings.Cut(args, " ")
			files = append(files, shownFile{line: mline, fixture: name, path: strings.TrimSpace(p), body: strings.Join(lines, "\n") + "\n"})
			return ast.WalkContinue, nil
		case lang != "console":
			if kind == "console" {
				t.Errorf("%s:%d: a console marker before a ```%s block: write the sample as ```console", d.rel, mline, lang)
			}
			if len(lines) > 0 && strings.HasPrefix(lines[0], "$ ") {
				t.Errorf("%s:%d: a transcript in a ```%s block: write it as ```console after <!-- console: FIXTURE -->, or, if it cannot run here, as ```sh without prompts", d.rel, first, lang)
			}
			return ast.WalkContinue, nil
		case kind == "":
			t.Errorf("%s:%d: a ```console block needs <!-- console: FIXTURE --> just before it (fixtures are in cmd/claimslint/testdata/console)", d.rel, first)
			return ast.WalkContinue, nil
		}
		f := strings.Fields(args)
		if len(f) < 1 || len(f) > 2 || !fixtureRE.MatchString(f[0]) || (len(f) == 2 && !fixtureRE.MatchString(f[1])) {
			t.Errorf("%s:%d: want <!-- console: FIXTURE [STEP] -->, got %q", d.rel, mline, args)
			return ast.WalkContinue, nil
		}
		s := sample{line: first, fixture: f[0]}
		if len(f) == 2 {
			s.step = f[1]
		}
		for i, l := range lines {
			switch {
			case strings.HasPrefix(l, "$ "):
				s.commands = append(s.commands, command{line: first + i, text: strings.TrimPrefix(l, "$ ")})
			case len(s.commands) == 0:
				t.Errorf("%s:%d: a console sample starts with a \"$ \" command", d.rel, first+i)
				return ast.WalkContinue, nil
			default:
				c := &s.commands[len(s.commands)-1]
				c.want = append(c.want, l)
			}
		}
		if len(s.commands) == 0 {
			t.Errorf("%s:%d: an empty console sample", d.rel, first)
			return ast.WalkContinue, nil
		}
		out = append(out, s)
		return ast.WalkContinue, nil
	})
	return out, files
}

// fixture is a parsed testdata/console archive.
type fixture struct {
	name  string
	files map[string][]byte // name -> content, the files: directives' first
	order []string
	dir   string
}

func loadFixture(t *testing.T, name string) *fixture {
	t.Helper()
	a, err := txtar.ParseFile(filepath.Join("testdata", "console", name+".txtar"))
	if err != nil {
		t.Fatalf("fixture %s: %v", name, err)
	}
	fx := &fixture{name: name, files: map[string][]byte{}}
	add := func(n string, data []byte) {
		if _, ok := fx.files[n]; !ok {
			fx.order = append(fx.order, n)
		}
		fx.files[n] = data
	}
	for _, l := range strings.Split(string(a.Comment), "\n") {
		switch {
		case strings.HasPrefix(l, "files:"):
			f := strings.Fields(strings.TrimPrefix(l, "files:"))
			if len(f) < 2 {
				t.Fatalf("fixture %s: want files: ARCHIVE PREFIX..., got %q", name, l)
			}
			other, err := txtar.ParseFile(filepath.Join(repoRoot(t), filepath.FromSlash(f[0])))
			if err != nil {
				t.Fatalf("fixture %s: %v", name, err)
			}
			n := 0
			for _, of := range other.Files {
				for _, p := range f[1:] {
					if of.Name == p || (strings.HasSuffix(p, "/") && strings.HasPrefix(of.Name, p)) {
						add(of.Name, of.Data)
						n++
						break
					}
				}
			}
			if n == 0 {
				t.Fatalf("fixture %s: %q takes no file of %s", name, l, f[0])
			}
		case strings.HasPrefix(l, "dir:"):
			fx.dir = strings.TrimSpace(strings.TrimPrefix(l, "dir:"))
		}
	}
	for _, f := range a.Files {
		add(f.Name, f.Data)
	}
	return fx
}

// session is a scratch directory that the samples naming one fixture in
// one file share.
type session struct {
	fx       *fixture
	dir      string // where the commands run
	console  string // $CONSOLE
	env      []string
	replacer *strings.Replacer
}

// consoleEnv is the environment of every sample: the test's, with git and
// docket pinned and nothing of the user's configuration read.
func consoleEnv(home, console string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || strings.HasPrefix(k, "DOCKET_") || k == "CONSOLE" || k == "PWD" || k == "OLDPWD" || k == "CDPATH" || k == "BASH_ENV" || k == "ENV" || strings.HasPrefix(k, "LC_") || k == "LANG" {
			continue
		}
		if home != "" && k == "HOME" {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "LC_ALL=C", "TZ=UTC", "CONSOLE="+console,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=you", "GIT_AUTHOR_EMAIL=you@example.invalid",
		"GIT_COMMITTER_NAME=you", "GIT_COMMITTER_EMAIL=you@example.invalid",
		"GIT_AUTHOR_DATE=2026-11-30T12:00:00Z", "GIT_COMMITTER_DATE=2026-11-30T12:00:00Z",
		"DOCKET_NOW=2026-11-30T12:00:00Z", "DOCKET_AUTHOR=you")
	if home != "" {
		env = append(env, "HOME="+home)
	}
	return env
}

func newSession(t *testing.T, name string) *session {
	t.Helper()
	if name == "repository" {
		root := repoRoot(t)
		// The user's HOME stays: `go run` finds its build and module
		// caches through it.
		return &session{dir: root, env: consoleEnv("", ""), replacer: strings.NewReplacer()}
	}
	fx := loadFixture(t, name)
	scratch := t.TempDir()
	s := &session{fx: fx, dir: filepath.Join(scratch, "work", filepath.FromSlash(fx.dir)), console: filepath.Join(scratch, "console")}
	home := filepath.Join(scratch, "home")
	for _, d := range []string{s.dir, s.console, home} {
		if err := os.MkdirAll(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range fx.order {
		dst := filepath.Join(scratch, "work", filepath.FromSlash(n))
		if rest, ok := strings.CutPrefix(n, ".console/"); ok {
			dst = filepath.Join(s.console, filepath.FromSlash(rest))
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, fx.files[n], 0o666); err != nil {
			t.Fatal(err)
		}
	}
	s.env = consoleEnv(home, s.console)
	pairs := []string{s.dir, shownDir}
	if real, err := filepath.EvalSymlinks(s.dir); err == nil && real != s.dir {
		pairs = append([]string{real, shownDir}, pairs...)
	}
	s.replacer = strings.NewReplacer(pairs...)
	if _, ok := fx.files[".console/setup.sh"]; ok {
		s.script(t, "setup")
	}
	return s
}

// script runs the fixture's .console/NAME.sh in the session's directory.
func (s *session) script(t *testing.T, name string) {
	t.Helper()
	if s.fx == nil {
		t.Fatalf("the repository session has no step %s", name)
	}
	if _, ok := s.fx.files[".console/"+name+".sh"]; !ok {
		t.Fatalf("fixture %s has no step %s (.console/%s.sh)", s.fx.name, name, name)
	}
	out, err := s.bash(t, "set -eu\n. \"$CONSOLE/"+name+".sh\"\n")
	if err != nil {
		t.Fatalf("fixture %s: .console/%s.sh: %v\n%s", s.fx.name, name, err, out)
	}
}

// bash runs script in the session's directory, stdout and stderr as one
// stream, stdin empty.
func (s *session) bash(t *testing.T, script string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "--noprofile", "--norc", "-c", "exec 2>&1\n"+script)
	cmd.Dir = s.dir
	cmd.Env = s.env
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.WaitDelay = 10 * time.Second
	err := cmd.Run()
	return out.String(), err
}

// recordSep marks where each command's output starts.
const recordSep = "\x1e"

// outputEdit is a command's output as the binary prints it, for -update:
// the n lines after the command's line become got.
type outputEdit struct {
	line, n int
	got     []string
}

// run runs the sample's commands in one bash and compares what each
// prints with what the sample shows; with -update it returns the outputs
// that differ, for the page to be rewritten.
func (s *session) run(t *testing.T, rel string, sm sample) (edits []outputEdit) {
	t.Helper()
	var b strings.Builder
	b.WriteString("__status=0\n")
	for i, c := range sm.commands {
		// (exit N) hands the previous command's status to $?.
		fmt.Fprintf(&b, "printf '%s%d\\n'\n(exit $__status); %s\n__status=$?\n", recordSep, i, c.text)
	}
	out, err := s.bash(t, b.String())
	if err != nil {
		t.Errorf("%s:%d: %v\n%s", rel, sm.line, err, out)
		return nil
	}
	out = s.replacer.Replace(out)
	parts := strings.Split(out, recordSep)
	if len(parts) != len(sm.commands)+1 || parts[0] != "" {
		t.Errorf("%s:%d: the sample's output could not be split by command:\n%s", rel, sm.line, out)
		return nil
	}
	for i, c := range sm.commands {
		got := strings.TrimPrefix(parts[i+1], fmt.Sprintf("%d\n", i))
		want := ""
		if len(c.want) > 0 {
			want = strings.Join(c.want, "\n") + "\n"
		}
		switch {
		case got == want:
		case *update:
			edits = append(edits, outputEdit{line: c.line, n: len(c.want), got: strings.Split(strings.TrimSuffix(got, "\n"), "\n")})
			if got == "" {
				edits[len(edits)-1].got = nil
			}
		default:
			t.Errorf("%s:%d: $ %s\noutput differs from the sample's (-sample +got):\n%s", rel, c.line, c.text, cmp.Diff(strings.SplitAfter(want, "\n"), strings.SplitAfter(got, "\n")))
		}
	}
	return edits
}

// rewrite writes the edits into the page at rel (-update), bottom first so
// the line numbers above stay right.
func rewrite(t *testing.T, rel string, edits []outputEdit) {
	t.Helper()
	p := filepath.Join(repoRoot(t), filepath.FromSlash(rel))
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	sort.Slice(edits, func(i, j int) bool { return edits[i].line > edits[j].line })
	for _, e := range edits {
		at := e.line // the output starts on the line after the command (1-based e.line)
		lines = append(lines[:at], append(append([]string{}, e.got...), lines[at+e.n:]...)...)
	}
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestConsoleSamples runs every console sample and compares each command's
// output, exactly, with the lines the sample shows; see the comment at the
// top of this file for the format.
func TestConsoleSamples(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatal("the console samples run in bash, which is not on PATH")
	}
	used := map[string]bool{}
	type page struct {
		d       *doc
		samples []sample
		files   []shownFile
	}
	var pages []page
	for _, rel := range docFiles(t) {
		d := readDoc(t, rel)
		ss, fs := d.samples(t)
		for _, s := range ss {
			used[s.fixture] = true
		}
		for _, f := range fs {
			used[f.fixture] = true
		}
		pages = append(pages, page{d, ss, fs})
	}
	fixtures, _ := filepath.Glob(filepath.Join("testdata", "console", "*.txtar"))
	for _, f := range fixtures {
		if name := strings.TrimSuffix(filepath.Base(f), ".txtar"); !used[name] {
			t.Errorf("%s: no sample names this fixture", f)
		}
	}
	for _, p := range pages {
		if len(p.samples) == 0 && len(p.files) == 0 {
			continue
		}
		t.Run(p.d.rel, func(t *testing.T) {
			t.Parallel()
			for _, f := range p.files {
				fx := loadFixture(t, f.fixture)
				data, ok := fx.files[f.path]
				if !ok {
					t.Errorf("%s:%d: fixture %s has no file %s", p.d.rel, f.line, f.fixture, f.path)
				} else if string(data) != f.body {
					t.Errorf("%s:%d: the block differs from %s of fixture %s (-fixture +page):\n%s", p.d.rel, f.line, f.path, f.fixture, cmp.Diff(strings.SplitAfter(string(data), "\n"), strings.SplitAfter(f.body, "\n")))
				}
			}
			sessions := map[string]*session{}
			var edits []outputEdit
			for _, sm := range p.samples {
				s := sessions[sm.fixture]
				if s == nil {
					s = newSession(t, sm.fixture)
					sessions[sm.fixture] = s
				}
				if sm.step != "" {
					s.script(t, sm.step)
				}
				edits = append(edits, s.run(t, p.d.rel, sm)...)
			}
			if len(edits) > 0 {
				rewrite(t, p.d.rel, edits)
			}
		})
	}
}

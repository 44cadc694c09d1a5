package ciworkflow

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v2"
)

// step is one step of a workflow job, as GitHub reads it.
type step struct {
	Name string            `yaml:"name"`
	If   string            `yaml:"if"`
	Uses string            `yaml:"uses"`
	With map[string]string `yaml:"with"`
	Env  map[string]string `yaml:"env"`
	Run  string            `yaml:"run"`
}

type workflowFile struct {
	Name        string            `yaml:"name"`
	On          any               `yaml:"on"`
	Permissions map[string]string `yaml:"permissions"`
	Jobs        map[string]struct {
		RunsOn string `yaml:"runs-on"`
		Steps  []step `yaml:"steps"`
	} `yaml:"jobs"`
}

func parseWorkflow(t *testing.T, src string) []step {
	t.Helper()
	var w workflowFile
	if err := yaml.UnmarshalStrict([]byte(src), &w); err != nil {
		t.Fatalf("the workflow is not YAML GitHub reads: %v\n%s", err, src)
	}
	if len(w.Jobs) != 1 {
		t.Fatalf("want one job, got %d", len(w.Jobs))
	}
	for _, j := range w.Jobs {
		return j.Steps
	}
	return nil
}

func gitIn(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestWorkflowBuildsThePinnedSource replays the build of the workflow init
// writes (D85) in a scratch workspace a hostile pull request has filled: a
// go.work that puts the build's module in a workspace and replaces its
// dependency with the pull request's copy, a go.mod and vendor/ of the same
// copy, and GOFLAGS in the environment naming a hostile module file. The
// pinned source is a local git repository whose cmd/claimslint prints the
// dependency's word and the commit it was built from. The binary the
// workflow builds must be the pinned commit's: its dependency untouched,
// its VCS stamp the pinned commit.
func TestWorkflowBuildsThePinnedSource(t *testing.T) {
	t.Parallel()
	if os.Getenv("CLAIMSLINT_BUILD_TESTS") == "" {
		// Five builds of a scratch module: minutes on two cores, so not
		// in the default go test ./... (issue 33); checks/test.sh runs it.
		t.Skip("builds the pinned source five times; set CLAIMSLINT_BUILD_TESTS=1 to run it (checks/test.sh does)")
	}
	for _, tool := range []string{"git", "go", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: %v", tool, err)
		}
	}
	tmp := t.TempDir()
	src, ws, runnerTemp, home := filepath.Join(tmp, "src"), filepath.Join(tmp, "work", "repo"), filepath.Join(tmp, "work", "_temp"), filepath.Join(tmp, "home")
	for _, d := range []string{src, ws, runnerTemp, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	gitconfig := filepath.Join(tmp, "gitconfig")
	// The workflow fetches https://github.com/claimslint/claimslint: git
	// is pointed at the local source instead, so the test needs no network.
	if err := os.WriteFile(gitconfig, []byte("[url \"file://"+src+"\"]\n\tinsteadOf = https://github.com/claimslint/claimslint\n[protocol \"file\"]\n\tallow = always\n[user]\n\tname = t\n\temail = t@example.com\n[init]\n\tdefaultBranch = main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gocache, _ := exec.Command("go", "env", "GOCACHE").Output()
	gomodcache, _ := exec.Command("go", "env", "GOMODCACHE").Output()
	goroot, _ := exec.Command("go", "env", "GOROOT").Output()
	base := []string{
		"PATH=" + filepath.Join(strings.TrimSpace(string(goroot)), "bin") + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + home, "GIT_CONFIG_GLOBAL=" + gitconfig, "GIT_CONFIG_NOSYSTEM=1",
		"GOCACHE=" + strings.TrimSpace(string(gocache)), "GOMODCACHE=" + strings.TrimSpace(string(gomodcache)),
		"GOPROXY=off", "GOTOOLCHAIN=local", "GOSUMDB=off",
	}

	// The pinned source: a module of claimslint's path whose dependency is
	// a directory of its own tree.
	writeFiles(t, src, map[string]string{
		"go.mod":          "module github.com/claimslint/claimslint\n\ngo 1.22\n\nrequire example.com/word v1.0.0\n\nreplace example.com/word => ./word\n",
		"word/go.mod":     "module example.com/word\n\ngo 1.22\n",
		"word/word.go":    "package word\n\nconst Word = \"pinned\"\n",
		"cmd/docket/d.go": "package main\n\nfunc main() {}\n",
		"cmd/claimslint/main.go": `package main

import (
	"fmt"
	"runtime/debug"

	"example.com/word"
)

func main() {
	rev := "none"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				rev = s.Value
			}
		}
	}
	fmt.Println("word", word.Word, "commit", rev)
}
`,
	})
	gitIn(t, src, base, "init", "-q")
	gitIn(t, src, base, "add", ".")
	gitIn(t, src, base, "commit", "-q", "-m", "pinned")
	gitIn(t, src, base, "config", "uploadpack.allowAnySHA1InWant", "true")
	pinned := gitIn(t, src, base, "rev-parse", "HEAD")

	// What the pull request commits, case by case: each names the hostile
	// copy of the dependency in a file or setting Go could read on the way
	// to a build.
	const (
		work     = "go 1.22\n\nuse ./.claimslint-src\n\nreplace example.com/word => ./evil/word\n"
		workBoth = "go 1.22\n\nuse (\n\t.\n\t./.claimslint-src\n)\n\nreplace example.com/word => ./evil/word\n"
		gomod    = "module example.com/pr\n\ngo 1.22\n\nrequire example.com/word v1.0.0\n\nreplace example.com/word => ./evil/word\n"
		vendor   = "# example.com/word v1.0.0 => ./evil/word\n## explicit; go 1.22\nexample.com/word\n# example.com/word => ./evil/word\n"
		evil     = "package word\n\nconst Word = \"hostile\"\n"
	)
	for _, c := range []struct {
		name  string
		files map[string]string
		env   []string // $WS is the workspace
	}{
		{"go.work replaces the dependency", map[string]string{"go.work": work}, nil},
		{"go.work with vendor/", map[string]string{"go.work": workBoth, "go.mod": gomod, "pr.go": "package pr\n\nimport _ \"example.com/word\"\n", "vendor/modules.txt": vendor, "vendor/example.com/word/w.go": evil}, nil},
		{"go.mod and vendor/ at the root", map[string]string{"go.mod": gomod, "vendor/modules.txt": vendor, "vendor/example.com/word/w.go": evil}, nil},
		{"GOFLAGS names a module file", map[string]string{"hostile.mod": "module github.com/claimslint/claimslint\n\ngo 1.22\n\nrequire example.com/word v1.0.0\n\nreplace example.com/word => $WS/evil/word\n"}, []string{"GOFLAGS=-modfile=$WS/hostile.mod"}},
		{"a Go env file sets GOFLAGS", map[string]string{"go.env": "GOFLAGS=-modfile=$WS/hostile.mod\n", "hostile.mod": "module github.com/claimslint/claimslint\n\ngo 1.22\n\nrequire example.com/word v1.0.0\n\nreplace example.com/word => $WS/evil/word\n"}, []string{"GOENV=$WS/go.env"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			replayBuild(t, base, src, pinned, c.files, c.env)
		})
	}
}

// replayBuild runs the steps of the generated workflow up to its build in a
// workspace holding files (and the hostile copy of the dependency), and
// checks that the binary built is the pinned commit's.
func replayBuild(t *testing.T, base []string, src, pinned string, files map[string]string, extra []string) {
	tmp := t.TempDir()
	ws, runnerTemp := filepath.Join(tmp, "work", "repo"), filepath.Join(tmp, "work", "_temp")
	if err := os.MkdirAll(runnerTemp, 0o755); err != nil {
		t.Fatal(err)
	}
	tree := map[string]string{
		"evil/word/go.mod":       "module example.com/word\n\ngo 1.22\n",
		"evil/word/word.go":      "package word\n\nconst Word = \"hostile\"\n",
		"cmd/claimslint/main.go": "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"word hostile commit none\") }\n",
	}
	for k, v := range files {
		tree[k] = strings.ReplaceAll(v, "$WS", ws)
	}
	writeFiles(t, ws, tree)
	gitIn(t, ws, base, "init", "-q")
	gitIn(t, ws, base, "add", ".")
	gitIn(t, ws, base, "commit", "-q", "-m", "hostile")

	wf, err := Workflow(WorkflowOptions{Source: DefaultSource, Ref: pinned, Export: ".knowledge/tracker/issues.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	steps := parseWorkflow(t, wf)
	env := append(slices.Clone(base), "RUNNER_TEMP="+runnerTemp, "GITHUB_WORKSPACE="+ws)
	for _, e := range extra {
		env = append(env, strings.ReplaceAll(e, "$WS", ws))
	}
	built := false
replay:
	for _, s := range steps {
		switch {
		case strings.HasPrefix(s.Uses, "actions/setup-go@"):
			// Go is on PATH.
		case strings.HasPrefix(s.Uses, "actions/checkout@"):
			if repo := s.With["repository"]; repo != "" {
				// An older workflow's second checkout: the source, at a path
				// beneath the workspace.
				if repo != "claimslint/claimslint" {
					t.Fatalf("checkout of %q", repo)
				}
				dst := filepath.Join(ws, s.With["path"])
				_ = os.RemoveAll(dst)
				gitIn(t, ws, base, "clone", "-q", "file://"+src, dst)
				gitIn(t, dst, base, "checkout", "-q", s.With["ref"])
			}
			// The pull request is already in the workspace: the attack
			// holds even where it is there before the build.
		case s.Run != "":
			cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", s.Run)
			cmd.Dir = ws
			cmd.Env = slices.Clone(env)
			for _, k := range slices.Sorted(maps.Keys(s.Env)) {
				cmd.Env = append(cmd.Env, k+"="+s.Env[k])
			}
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("step %q: %v\n%s", s.Name, err, out)
			}
			if strings.Contains(s.Run, "go build") {
				built = true
			}
		default:
			t.Fatalf("a step the replay does not know: %+v", s)
		}
		if built {
			break replay // the gates after the build run the binary checked below
		}
	}
	if !built {
		t.Fatal("no step builds claimslint")
	}
	out, err := exec.Command(filepath.Join(runnerTemp, "claimslint")).CombinedOutput()
	if err != nil {
		t.Fatalf("the built claimslint: %v\n%s", err, out)
	}
	if got, want := strings.TrimSpace(string(out)), "word pinned commit "+pinned; got != want {
		t.Fatalf("the workflow built what the pull request controls:\n got %q\nwant %q", got, want)
	}
	// Nothing of the build is left in the workspace for the gates to read.
	if _, err := os.Stat(filepath.Join(ws, ".claimslint-src", "go.mod")); err == nil {
		t.Error("the workflow left the source in the workspace")
	}
}

// TestWorkflowGates: every gate of Gates is a step where it applies, with
// its condition, after the build and the checkout, and each claimslint
// gate annotates (--format github); the docket build and step are written
// only with a docket export (D86).
func TestWorkflowGates(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		export string
	}{{"docket's tracker", ".knowledge/tracker/issues.jsonl"}, {"another tracker", ""}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			o := WorkflowOptions{Source: DefaultSource, Ref: "v1.0.0", Export: c.export}
			wf, err := Workflow(o)
			if err != nil {
				t.Fatal(err)
			}
			steps := parseWorkflow(t, wf)
			var names []string
			for _, s := range steps {
				names = append(names, s.Name+s.Uses)
			}
			want := []string{"actions/setup-go@v5", "build claimslint", "actions/checkout@v4"}
			for _, g := range Gates {
				if g.Applies == nil || g.Applies(o) {
					want = append(want, g.Name)
				}
			}
			if !slices.Equal(names, want) {
				t.Fatalf("steps %q, want %q", names, want)
			}
			if got := steps[2].With["fetch-depth"]; got != "0" {
				t.Errorf("checkout fetch-depth %q: check --base needs the merge base", got)
			}
			if steps[0].With["cache"] != "false" {
				t.Errorf("setup-go restores a cache: %v", steps[0].With)
			}
			if got := strings.Contains(steps[1].Run, "./cmd/docket"); got != (c.export != "") {
				t.Errorf("docket built: %v, want %v", got, c.export != "")
			}
			for i, g := range Gates {
				if g.Applies != nil && !g.Applies(o) {
					continue
				}
				s := steps[slices.Index(names, g.Name)]
				if g.If != nil && s.If != g.If(o) {
					t.Errorf("gate %d %q: if %q, want %q", i, g.Name, s.If, g.If(o))
				}
				if strings.Contains(s.Run, "/claimslint\" ") && !strings.HasSuffix(strings.TrimSpace(s.Run), "--format github") {
					t.Errorf("gate %q does not annotate: %q", g.Name, s.Run)
				}
			}
		})
	}
}

// FuzzWorkflow: whatever --source, --ref and export init is given, the
// workflow it writes reads as YAML whose build step carries exactly the
// source's URL and the ref in its environment and runs the fixed script,
// or init refuses them (D85).
func FuzzWorkflow(f *testing.F) {
	for _, s := range [][3]string{
		{DefaultSource, "0123456789abcdef0123456789abcdef01234567", ".knowledge/tracker/issues.jsonl"},
		{"me/fork", "v1.0", ""},
		{"https://gitlab.example.com/a/b.git", "main", "x y.jsonl"},
		{"evil\"; id #", "main\n  x: y", "a') || true || ('"},
		{"github.com/a/b", "-x", "../e"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	ref, _ := Workflow(WorkflowOptions{Source: DefaultSource, Ref: "REF", Export: "EXPORT"})
	f.Fuzz(func(t *testing.T, source, rev, export string) {
		wf, err := Workflow(WorkflowOptions{Source: source, Ref: rev, Export: export})
		if err != nil {
			return
		}
		url, err := SourceURL(source)
		if err != nil {
			t.Fatalf("Workflow took --source %q that SourceURL refuses: %v", source, err)
		}
		var w workflowFile
		if err := yaml.UnmarshalStrict([]byte(wf), &w); err != nil {
			t.Fatalf("source %q ref %q export %q: not YAML: %v", source, rev, export, err)
		}
		steps := w.Jobs["doc-lint"].Steps
		if len(steps) < 4 || steps[1].Env["SOURCE"] != url || steps[1].Env["REF"] != rev || len(steps[1].Env) != 2 {
			t.Fatalf("source %q ref %q: the build step's environment is %v", source, rev, steps)
		}
		// Apart from the three values, the file is the reference one.
		want := strings.NewReplacer("SOURCE: https://github.com/claimslint/claimslint", "SOURCE: "+url, "REF: REF", "REF: "+rev, "'EXPORT'", "'"+export+"'").Replace(ref)
		if export == "" {
			want, _ = Workflow(WorkflowOptions{Source: source, Ref: rev})
		}
		if wf != want {
			t.Fatalf("source %q ref %q export %q changed more than its values:\n%s", source, rev, export, wf)
		}
	})
}

package ciworkflow

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/claimslint/claimslint/internal/register"
)

// DefaultSource is the repository the generated workflow builds claimslint
// from when init is given no --source: the module path.
const DefaultSource = "github.com/claimslint/claimslint"

// WorkflowOptions say where the generated workflow builds claimslint from
// and which gates apply to the repository (D85, D86).
type WorkflowOptions struct {
	// Source is the repository as a module path (github.com/owner/name),
	// owner/name on GitHub, or an https URL; Ref a commit or tag in it.
	Source, Ref string
	// Export is the docket export path when the tracker is docket's
	// (tracker.format: docket), else "": then no docket step is written.
	Export string
}

// Gate is one step of the generated workflow after the build: a command
// of the built binaries run with --format github where it annotates.
type Gate struct {
	Name string
	// If is the step's condition ("" always); Applies says whether the
	// step is written at all for these options.
	If      func(WorkflowOptions) string
	Applies func(WorkflowOptions) bool
	Env     map[string]string
	Run     string
}

// Gates are the steps of the generated workflow after the build, in order:
// check on every push, check --base against the merge base on a pull
// request, prove, audit, and docket export --check where the tracker is
// docket's and its export exists (D86). Each fact of the gate is here once:
// the workflow, its test and docs/guide/ci.md's copy are written from it.
var Gates = []Gate{
	{Name: "claimslint check", If: on("github.event_name != 'pull_request'"),
		Run: `"$RUNNER_TEMP/claimslint" check --format github`},
	{Name: "claimslint check --base (what the pull request changes, against its merge base)", If: on("github.event_name == 'pull_request'"),
		Env: map[string]string{"BASE_SHA": "${{ github.event.pull_request.base.sha }}"},
		Run: `base=$(git merge-base "$BASE_SHA" HEAD)` + "\n" + `"$RUNNER_TEMP/claimslint" check --base "$base" --format github`},
	{Name: "claimslint prove (every claim can fail)",
		Run: `"$RUNNER_TEMP/claimslint" prove --format github`},
	{Name: "claimslint audit (the register and the tracker agree)",
		Run: `"$RUNNER_TEMP/claimslint" audit --format github`},
	{Name: "docket export --check (the export is what docket would write)", Applies: usesDocket,
		If: func(o WorkflowOptions) string {
			return "hashFiles('" + strings.ReplaceAll(o.Export, "'", "''") + "') != ''"
		},
		Run: `"$RUNNER_TEMP/docket" export --check`},
}

func on(cond string) func(WorkflowOptions) string {
	return func(WorkflowOptions) string { return cond }
}

func usesDocket(o WorkflowOptions) bool { return o.Export != "" }

// sourceRE is what --source may be once a scheme is dropped: a host and a
// path of plain segments. Nothing else reaches the workflow's YAML or shell.
var (
	sourceRE = register.LazyRE(`^[A-Za-z0-9][A-Za-z0-9.-]*(/[A-Za-z0-9_.][A-Za-z0-9_.-]*)+$`)
	ownerRE  = register.LazyRE(`^[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9_.][A-Za-z0-9_.-]*$`)
	pinRefRE = register.LazyRE(`^[A-Za-z0-9_.][A-Za-z0-9_./-]*$`)
	// exportRE is a docket export path the workflow's hashFiles
	// expression can name as a plain YAML scalar.
	exportRE = register.LazyRE(`^[A-Za-z0-9_.][A-Za-z0-9_./-]*$`)
)

// SourceURL is the https URL of source: a module path
// (github.com/owner/name), GitHub's owner/name, or an https URL. A source
// that is none of these is an error naming what --source takes.
func SourceURL(source string) (string, error) {
	s := strings.TrimSuffix(strings.TrimPrefix(source, "https://"), ".git")
	if ownerRE().MatchString(s) && !strings.Contains(strings.SplitN(s, "/", 2)[0], ".") {
		s = "github.com/" + s
	}
	if !sourceRE().MatchString(s) || strings.Contains(s, "..") || !strings.Contains(strings.SplitN(s, "/", 2)[0], ".") {
		return "", fmt.Errorf("--source %q: want a module path (%s), GitHub's owner/name, or an https URL", source, DefaultSource)
	}
	return "https://" + s, nil
}

// ValidRef says what is wrong with a --ref, or "".
func ValidRef(ref string) string {
	if !pinRefRE().MatchString(ref) || strings.Contains(ref, "..") {
		return fmt.Sprintf("--ref %q: want a commit or a tag (letters, digits, . _ / -, not starting with - or /)", ref)
	}
	return ""
}

// Nameable reports whether the workflow's docket step can name the
// tracker export path p in its hashFiles expression.
func Nameable(p string) bool {
	return exportRE().MatchString(p) && !strings.Contains(p, "..")
}

// Workflow is the doc-lint workflow init writes (D85, D86). claimslint has
// no public release yet, so it builds claimslint from its source
// repository at a pinned ref: before the repository is checked out, in
// $RUNNER_TEMP, with GOWORK=off, GOENV=off and GOFLAGS=-mod=readonly, so no
// file or setting a pull request commits (go.work, go.mod, vendor/, a Go
// env file, GOFLAGS) reaches the build of its own gate. Then the gates run.
func Workflow(o WorkflowOptions) (string, error) {
	url, err := SourceURL(o.Source)
	if err != nil {
		return "", err
	}
	if msg := ValidRef(o.Ref); msg != "" {
		return "", fmt.Errorf("%s", msg)
	}
	if o.Export != "" && !Nameable(o.Export) {
		return "", fmt.Errorf("tracker.export %q: the workflow's docket step names it in an expression; use letters, digits and . _ / - in its path", o.Export)
	}
	var b strings.Builder
	b.WriteString(`# The decision register gate: make its job a required check on your main
# branch. A pull request runs its own copy of this file: have a code owner
# review .github/workflows/.
# claimslint has no published release yet: this builds it from its source
# at a pinned ref. Pin REF to a commit you have reviewed.
name: doc-lint
on:
  push:
  pull_request:
permissions:
  contents: read
jobs:
  doc-lint:
    runs-on: ubuntu-latest
    steps:
`)
	b.WriteString(buildSteps(url, o.Ref, usesDocket(o)))
	b.WriteString(`      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
`)
	for _, g := range Gates {
		if g.Applies == nil || g.Applies(o) {
			b.WriteString(gateStep(g, o, true))
		}
	}
	return b.String(), nil
}

// BuildTags are the build tags the CI build of claimslint and docket
// sets: urfave_cli_no_docs leaves out urfave/cli's man page and Markdown
// writers, which neither program calls, and the Markdown parser they
// bring (blackfriday), whose initialisation was a tenth of a check's
// start-up (D92). action.yml's build sets the same (D92's agree claim).
const BuildTags = "urfave_cli_no_docs"

// buildSteps are the steps that build claimslint (and docket) from url at
// ref, as list items at six spaces (D85).
func buildSteps(url, ref string, docket bool) string {
	var b strings.Builder
	b.WriteString(`      - uses: actions/setup-go@v5
        with:
          go-version: stable
          cache: false
      # Built in $RUNNER_TEMP, outside the workspace, reading no go.work,
      # vendor/, Go env file or GOFLAGS: nothing a pull request commits is
      # compiled into the gate that judges it.
      - name: build claimslint
        env:
          SOURCE: ` + url + `
          REF: ` + ref + `
        run: |
          src="$RUNNER_TEMP/claimslint-src"
          git init -q "$src"
          git -C "$src" fetch -q --depth 1 "$SOURCE" "$REF"
          git -C "$src" -c advice.detachedHead=false checkout -q FETCH_HEAD
          cd "$src"
          export GOWORK=off GOENV=off GOFLAGS=-mod=readonly
          go build -tags ` + BuildTags + ` -o "$RUNNER_TEMP/claimslint" ./cmd/claimslint
`)
	if docket {
		b.WriteString(`          go build -tags ` + BuildTags + ` -o "$RUNNER_TEMP/docket" ./cmd/docket
`)
	}
	b.WriteString(`          "$RUNNER_TEMP/claimslint" version
`)
	return b.String()
}

// gateStep writes g as a list item at six spaces, with its condition when
// cond is set.
func gateStep(g Gate, o WorkflowOptions, cond bool) string {
	var b strings.Builder
	b.WriteString("      - name: " + g.Name + "\n")
	if cond && g.If != nil {
		b.WriteString("        if: " + g.If(o) + "\n")
	}
	if len(g.Env) > 0 {
		b.WriteString("        env:\n")
		for _, k := range slices.Sorted(maps.Keys(g.Env)) {
			b.WriteString("          " + k + ": " + g.Env[k] + "\n")
		}
	}
	if strings.Contains(g.Run, "\n") {
		b.WriteString("        run: |\n")
		for _, l := range strings.Split(g.Run, "\n") {
			b.WriteString("          " + l + "\n")
		}
	} else {
		b.WriteString("        run: '" + strings.ReplaceAll(g.Run, "'", "''") + "'\n")
	}
	return b.String()
}

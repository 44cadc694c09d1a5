package main

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDependenciesRunOneWay: server/ is docket's alone and internal/ is
// the shared kernel plus claimslint (D100). No package of internal/, and
// no package claimslint's binary is built from, imports anything under
// server/: the vocabulary both products read (decision ids, workflow
// classes, issue ids, record text, the tracker formats) lives in internal/
// packages named for what they hold. There is no allow-list.
func TestDependenciesRunOneWay(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "../../internal/...", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/claimslint/claimslint/"
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 10 {
		t.Fatalf("go list printed %d packages: the test looks in the wrong place", len(lines))
	}
	for _, line := range lines {
		f := strings.Fields(line)
		for _, imp := range f[1:] {
			if strings.HasPrefix(imp, mod+"server/") {
				t.Errorf("%s imports %s: internal/ never imports server/ (D100)", f[0], imp)
			}
		}
	}
	deps, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, p := range strings.Fields(string(deps)) {
		if strings.HasPrefix(p, mod+"server/") {
			t.Errorf("claimslint is built from %s: claimslint imports nothing of docket's", p)
		}
	}
}

// TestAuthorOverAdopt: adoption is its own package (D100). internal/author
// (new, accept and status, init's greenfield path) imports internal/adopt
// (init --adopt: collections, dialects, inline registers), never the
// reverse; both build an internal/plan Plan, and plan imports neither;
// internal/ciworkflow, the workflow init writes, imports none of the three.
func TestAuthorOverAdopt(t *testing.T) {
	t.Parallel()
	const in = "github.com/claimslint/claimslint/internal/"
	for _, c := range []struct {
		pkg            string
		imports, never []string
	}{
		{"author", []string{"adopt", "plan", "ciworkflow"}, nil},
		{"adopt", []string{"plan", "ciworkflow"}, []string{"author"}},
		{"plan", nil, []string{"author", "adopt", "ciworkflow"}},
		{"ciworkflow", nil, []string{"author", "adopt", "plan"}},
	} {
		out, err := exec.Command("go", "list", "-f", `{{join .Imports " "}}`, "../../internal/"+c.pkg).Output()
		if err != nil {
			t.Fatalf("go list internal/%s: %v", c.pkg, err)
		}
		direct := strings.Fields(string(out))
		for _, w := range c.imports {
			if !slices.Contains(direct, in+w) {
				t.Errorf("internal/%s does not import internal/%s: the test looks in the wrong place, or the layout moved without D100", c.pkg, w)
			}
		}
		out, err = exec.Command("go", "list", "-deps", "../../internal/"+c.pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps internal/%s: %v", c.pkg, err)
		}
		deps := strings.Fields(string(out))
		for _, f := range c.never {
			if slices.Contains(deps, in+f) {
				t.Errorf("internal/%s is built from internal/%s: author imports adopt, never the reverse, and plan imports neither (D100)", c.pkg, f)
			}
		}
	}
}

// TestMCPTransportsApartFromTheApp: docket's MCP server is the
// application (server/mcp: the tools, resources and prompts) and two
// transports (server/mcp/stdio, server/mcp/streamhttp), which share only
// server/mcp/wire (D102). A transport, and wire, are built from nothing of
// the application's, nor from the tracker the tools serve; the application
// is built from neither transport; a transport not from the other. Only
// docket's command line (server/cli) puts them together.
func TestMCPTransportsApartFromTheApp(t *testing.T) {
	t.Parallel()
	const mcp = "github.com/claimslint/claimslint/server/mcp"
	const docket = "github.com/claimslint/claimslint/server/docket"
	for _, c := range []struct {
		pkg    string
		forbid []string
	}{
		{mcp + "/stdio", []string{mcp, docket, mcp + "/streamhttp"}},
		{mcp + "/streamhttp", []string{mcp, docket, mcp + "/stdio"}},
		{mcp + "/wire", []string{mcp, docket, mcp + "/stdio", mcp + "/streamhttp"}},
		{mcp, []string{mcp + "/stdio", mcp + "/streamhttp"}},
	} {
		out, err := exec.Command("go", "list", "-deps", c.pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", c.pkg, err)
		}
		deps := strings.Fields(string(out))
		if !slices.Contains(deps, c.pkg) {
			t.Fatalf("go list -deps %s does not list the package itself: the test looks in the wrong place", c.pkg)
		}
		for _, f := range c.forbid {
			if slices.Contains(deps, f) {
				t.Errorf("%s is built from %s: the MCP application and its transports depend on server/mcp/wire, not on each other (D102)", c.pkg, f)
			}
		}
	}
}

// TestServerHoldsNoGoFile: server/ is a folder of docket's packages
// (docket, vocab, codec and the adapters), with no package of its own.
func TestServerHoldsNoGoFile(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("..", "..", "server", "*.go"))
	if err != nil || len(files) > 0 {
		t.Errorf("server/ holds Go files %v (%v): put them in the package of their concept", files, err)
	}
	dirs, _ := filepath.Glob(filepath.Join("..", "..", "server", "*", "*.go"))
	if len(dirs) == 0 {
		t.Error("no package under server/: the test looks in the wrong place")
	}
}

// TestDocketsDomainReadsNoMarkdown: docket's domain checks the decision ids
// an issue names by the grammar in internal/decisionid (D72), not through
// the register, so it pulls in no Markdown parser, and of internal/ only
// the shared kernel: packages that import the standard library and each
// other, nothing third-party.
func TestDocketsDomainReadsNoMarkdown(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "../../server/docket").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	const mod = "github.com/claimslint/claimslint/"
	kernel := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if strings.Contains(f[0], "goldmark") {
			t.Errorf("server/docket depends on %s", f[0])
		}
		if !strings.HasPrefix(f[0], mod+"internal/") {
			continue
		}
		kernel++
		for _, imp := range f[1:] {
			if first, _, _ := strings.Cut(imp, "/"); strings.Contains(first, ".") && !strings.HasPrefix(imp, mod+"internal/") {
				t.Errorf("server/docket depends on %s, which imports %s: docket's domain reads only the standard library and the shared kernel of internal/", f[0], imp)
			}
		}
	}
	if kernel == 0 {
		t.Error("server/docket reads no package of internal/: the shared vocabulary is not where D100 says")
	}
}

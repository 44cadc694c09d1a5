package main

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestClaimslintImportsOnlyDocketsLeaves: claimslint reads docket's
// vocabulary (server/vocab) and its export formats (server/codec), and
// nothing else of docket: not its service, its index adapters, its MCP
// server or its command line (issue 20). A claimslint package that
// reaches for those fails here.
func TestClaimslintImportsOnlyDocketsLeaves(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	allowed := []string{"github.com/claimslint/claimslint/server/vocab", "github.com/claimslint/claimslint/server/codec"}
	var server []string
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "github.com/claimslint/claimslint/server/") {
			server = append(server, p)
			if !slices.Contains(allowed, p) {
				t.Errorf("claimslint imports %s; only %v of server/ are its to import", p, allowed)
			}
		}
	}
	if len(server) == 0 {
		t.Errorf("claimslint imports nothing of server/: go list -deps printed %d packages", len(strings.Fields(string(out))))
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
// an issue names by the grammar in server/vocab (D72), not through the
// register, so it pulls in no Markdown parser and no claimslint package.
func TestDocketsDomainReadsNoMarkdown(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "../../server/docket").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.Contains(p, "goldmark") || strings.HasPrefix(p, "github.com/claimslint/claimslint/internal/") {
			t.Errorf("server/docket depends on %s", p)
		}
	}
}

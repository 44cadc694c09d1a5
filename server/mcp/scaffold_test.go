package mcp

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// probeTool is a new read-only issue tool as a contributor adds one: its
// registry entry in issueTools and its handler, in issuetools.go alone.
const (
	probeEntry = "\tadd(newTool(&sdk.Tool{Name: \"issue_probe\", Title: \"Probe\", Annotations: readOnlyTool, Description: \"Greet by name.\"}, t.probe))\n"
	probeCode  = `
// ProbeIn is issue_probe's input.
type ProbeIn struct {
	Name string ` + "`json:\"name\"`" + `
}

// ProbeOut is issue_probe's output.
type ProbeOut struct {
	Greeting string ` + "`json:\"greeting\"`" + `
}

func (t *tools) probe(_ context.Context, _ *sdk.CallToolRequest, in ProbeIn) (*sdk.CallToolResult, ProbeOut, error) {
	return nil, ProbeOut{Greeting: "hello " + in.Name}, nil
}
`
	// probeTest is what the package's tests see once the tool is added:
	// it is a file of tests, not of code.
	probeTest = `package mcp

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"github.com/claimslint/claimslint/server/mcp/stdio"
)

func TestScaffoldedProbe(t *testing.T) {
	if !slices.Contains(ToolNames(), "issue_probe") {
		t.Fatalf("issue_probe is not in the registry: %v", ToolNames())
	}
	app := New(Options{Dir: t.TempDir()})
	if !app.ReadOnly("issue_probe") || app.Direct["issue_probe"] == nil {
		t.Errorf("issue_probe: read-only %v, served directly %v; want both", app.ReadOnly("issue_probe"), app.Direct["issue_probe"] != nil)
	}
	if InputSchemas()["issue_probe"] == nil {
		t.Error("issue_probe's arguments are not screened")
	}
	in := ` + "`" + `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"issue_probe","arguments":{"name":"docket"}}}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"issue_probe","arguments":{"name":7}}}
` + "`" + `
	var out bytes.Buffer
	if err := stdio.Serve(context.Background(), app, stdio.Options{In: bytes.NewReader([]byte(in)), Out: &out}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{` + "`" + `"structuredContent":{"greeting":"hello docket"}` + "`" + `, ` + "`" + `"id":2,"result":{"content":[{"type":"text","text":"issue_probe: ` + "`" + `} {
		if !bytes.Contains(out.Bytes(), []byte(want)) {
			t.Errorf("the reply does not hold %s:\n%s", want, out.Bytes())
		}
	}
}
`
)

// TestAddingAToolTouchesOneFile adds a read-only issue tool by editing
// issuetools.go alone (an overlay of the build: the tree is not written)
// and runs, over that build, a test that the tool is listed, served over
// stdio with its arguments screened and its output validated, known to
// only read, and served by the transport's fast path (D82, D102): every
// list a tool is on is derived from the registry. The register tools are
// the same in tools.go, where a tool carries its work (withWork) and
// TestEveryWorkHasItsChildEntry checks it.
func TestAddingAToolTouchesOneFile(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the package's tests again with the overlay")
	}
	src, err := os.ReadFile("issuetools.go")
	if err != nil {
		t.Fatal(err)
	}
	const anchor = "\tadd := func(tl tool) { out = append(out, tl) }\n"
	if strings.Count(string(src), anchor) != 1 {
		t.Fatalf("issuetools.go has not one %q: the test looks in the wrong place", anchor)
	}
	edited := strings.Replace(string(src), anchor, anchor+probeEntry, 1) + probeCode
	tmp := t.TempDir()
	abs := func(name string) string {
		p, err := filepath.Abs(name)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	files := map[string]string{abs("issuetools.go"): edited, abs("zz_probe_test.go"): probeTest}
	replace := map[string]string{}
	for target, text := range files {
		p := filepath.Join(tmp, filepath.Base(target))
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		replace[target] = p
	}
	overlay, _ := json.Marshal(map[string]any{"Replace": replace})
	if err := os.WriteFile(filepath.Join(tmp, "overlay.json"), overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-overlay", filepath.Join(tmp, "overlay.json"), "-run", "^TestScaffoldedProbe$", "-count", "1", "-v", ".")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestScaffoldedProbe") {
		t.Fatalf("the package with issue_probe added in issuetools.go alone: %v\n%s", err, out)
	}
}

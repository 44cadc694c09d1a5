package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server/cli"
	"github.com/claimslint/claimslint/server/mcp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMain doubles as the docket binary: with DOCKET_AS_BINARY set, this
// test executable runs the docket command line, so the client tests spawn
// a real `docket mcp` process over real pipes without a separate build,
// and the register tools' check children (childProcess) are real too. A
// check child that finds the file hangCheck in its repository removes it
// and hangs until it is killed: the one check a test knows is still
// running when it cancels it.
func TestMain(m *testing.M) {
	if os.Getenv("DOCKET_AS_BINARY") != "" {
		if len(os.Args) > 3 && os.Args[1] == mcp.CheckChildCommand && os.Remove(filepath.Join(os.Args[3], hangCheck)) == nil {
			time.Sleep(time.Hour)
		}
		os.Exit(cli.Main(append([]string{"docket"}, os.Args[1:]...), cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
	}
	os.Exit(m.Run())
}

// hangCheck, in a repository, makes the next check child hang (TestMain).
const hangCheck = "hang-check"

// repoWithTracker makes a git-less directory with a tracker export and
// returns the environment that points docket at it, and the directory,
// which docket must run in: inside a repository (this one), its files
// must lie beneath the repository (D67).
func repoWithTracker(t *testing.T) ([]string, string) {
	dir := t.TempDir()
	export := filepath.Join(dir, "issues.jsonl")
	if err := os.WriteFile(export, []byte(seedIssue), 0o644); err != nil {
		t.Fatal(err)
	}
	return append(os.Environ(), "DOCKET_AS_BINARY=1", "DOCKET_DB="+filepath.Join(dir, "index.db"), "DOCKET_EXPORT="+export), dir
}

// goSDKSession is go-sdk's own client connected to a `docket mcp` it
// spawns over stdio in a fresh repository; it is closed with the test.
func goSDKSession(ctx context.Context, t *testing.T, name string) *sdk.ClientSession {
	t.Helper()
	cmd := exec.Command(os.Args[0], "mcp")
	cmd.Env, cmd.Dir = repoWithTracker(t)
	client := sdk.NewClient(&sdk.Implementation{Name: name, Version: "1"}, nil)
	session, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { session.Close() })
	return session
}

// TestGoSDKClient: the go-sdk's own client spawns `docket mcp`, lists the
// tools, creates an issue and finds it in issue_list.
func TestGoSDKClient(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	session := goSDKSession(ctx, t, "go-sdk-client")
	tools, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	if want, _ := mcp.Registry(); !slices.Equal(slices.Sorted(slices.Values(names)), slices.Sorted(slices.Values(want))) {
		t.Errorf("tools/list gave %v, the registry holds %v", names, want)
	}
	res, err := session.CallTool(ctx, &sdk.CallToolParams{Name: "issue_create", Arguments: map[string]any{"title": "from the go-sdk client", "priority": 1}})
	if err != nil || res.IsError {
		t.Fatalf("issue_create: %v %+v", err, res)
	}
	var created struct {
		Issue struct{ ID, Title string } `json:"issue"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &created); err != nil || !strings.HasPrefix(created.Issue.ID, "dk-") {
		t.Fatalf("structured content %s: %v", raw, err)
	}
	res, err = session.CallTool(ctx, &sdk.CallToolParams{Name: "issue_list", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("issue_list: %v %+v", err, res)
	}
	raw, _ = json.Marshal(res.StructuredContent)
	if !strings.Contains(string(raw), created.Issue.ID) || !strings.Contains(string(raw), "dk-aaa") {
		t.Errorf("issue_list does not hold %s and dk-aaa: %s", created.Issue.ID, raw)
	}
	res, err = session.CallTool(ctx, &sdk.CallToolParams{Name: "issue_show", Arguments: map[string]any{"id": "dk-none"}})
	if err != nil || !res.IsError {
		t.Errorf("issue_show of an unknown id: err %v, isError %v; want a tool error", err, res != nil && res.IsError)
	}
}

// TestTypeScriptClient: the official TypeScript SDK client does the same
// through StdioClientTransport. .ci/run installs it with npm ci; on a
// machine without node_modules the test is skipped, except under CI, where
// that is a failure.
func TestTypeScriptClient(t *testing.T) {
	t.Parallel()
	dir, _ := filepath.Abs("testdata/tsclient")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("node_modules missing under CI: .ci/run must run npm ci in %s", dir)
		}
		t.Skip("run `npm ci` in server/mcp/testdata/tsclient to enable")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(dir, "client.mjs"), os.Args[0], "mcp")
	cmd.Env, cmd.Dir = featureRepo(t) // a register too, for the resources and claims_check
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("TypeScript client: %v\n%s", err, out)
	}
	names, _ := mcp.Registry()
	readOnly := slices.Sorted(maps.Keys(mcp.ReadOnlySet()))
	for _, want := range []string{fmt.Sprintf("tools: %d", len(names)), "created dk-", "listed dk-aaa", "unknown id: isError",
		"read-only: " + strings.Join(readOnly, ","),
		"pages: dk-", "blocked: " + "dk-", "search: dk-", "reopen: closed -> open; text: reopened dk-",
		// D81: the declared capabilities, a resource, a prompt, progress.
		"capabilities: " + declaredCapabilities, "resource: issue://dk-", " application/json from the TypeScript client",
		"register: D1,D2", "completion: has dk-", "prompt: Triage the ready queue: the 3 of 3 issues nothing unfinished blocks",
		"progress: 0/2 1/2; text: failing: 1 findings (1 errors); 2 claims: 1 ok, 1 failed"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("client output lacks %q:\n%s", want, out)
		}
	}
}

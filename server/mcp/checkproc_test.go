package mcp_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/server/mcp"
)

// childProcess is the Options.CheckProcess of the tests: this test binary,
// which TestMain turns into docket.
func childProcess(t testing.TB) func(args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return func(args ...string) *exec.Cmd {
		cmd := exec.Command(exe, args...)
		cmd.Env = append(os.Environ(), "DOCKET_AS_BINARY=1")
		return cmd
	}
}

// tinyRepo is a register of two decisions: D1 whose claim holds, D2 whose
// claim fails.
func tinyRepo(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"docs/PRD.md": "# Decisions\n\nLive range: D1..D2.\n\n| ID | Decision | Status |\n|---|---|---|\n" +
			"| D1 | [Frames](decisions/D1-frames.md) | accepted |\n| D2 | [Gone](decisions/D2-gone.md) | accepted |\n",
		"docs/decisions/D1-frames.md": "---\nid: D1\nstatus: accepted\ndate: 2026-11-30\n---\n# D1: Frames\n\nFrames are small.\n\n## Confirmation\n\n" +
			"| Claim | Kind | Path | Anchor | Require | Why |\n|---|---|---|---|---|---|\n| C1 | anchored | `src/*.go` | `const maxFrame` | `= 16 << 20` | the limit |\n",
		"docs/decisions/D2-gone.md": "---\nid: D2\nstatus: accepted\ndate: 2026-11-30\n---\n# D2: Gone\n\nA line that is not there.\n\n## Confirmation\n\n" +
			"| Claim | Kind | Path | Anchor | Require | Why |\n|---|---|---|---|---|---|\n| C1 | present | `src/*.go` | `func missing\\(` | | gone |\n",
		"src/wire.go": "package wire\n\nconst maxFrame = 16 << 20\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestCheckChildAnswersAsInProcess: the register tools answer the same
// bytes whether their check runs in a child process (docket mcp) or in
// process: results, findings, claim states and errors alike.
func TestCheckChildAnswersAsInProcess(t *testing.T) {
	t.Parallel()
	store, _ := newStore(t)
	repo, empty := tinyRepo(t), t.TempDir()
	calls := []struct{ dir, tool, args, want string }{
		{repo, "claims_check", `{}`, `"ok":false`},
		{repo, "claims_check", `{"decision":"D1"}`, `"ok":true`},
		{repo, "decision_list", `{}`, `"failed":1`},
		{repo, "decision_show", `{"id":"D2"}`, `"text":"---\nid: D2`},
		{repo, "decision_show", `{"id":"D9"}`, `no decision D9 in the register`},
		// A decision the register lacks is not "0 claims, ok".
		{repo, "claims_check", `{"decision":"D999"}`, `"isError":true`},
		{repo, "claims_check", `{"decision":"D999"}`, `claims_check: no decision D999 in the register`},
		{empty, "claims_check", `{}`, `claims_check: register: read docs/PRD.md`},
		{empty, "decision_list", `{}`, `decision_list: register: read docs/PRD.md`},
	}
	for _, c := range calls {
		in := initLines + `{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"` + c.tool + `","arguments":` + c.args + `}}` + "\n"
		inProcess := serveWith(t, serveOptions{Store: store, Dir: c.dir}, []byte(in))
		child := serveWith(t, serveOptions{Store: store, Dir: c.dir, CheckProcess: childProcess(t)}, []byte(in))
		if !bytes.Equal(inProcess, child) {
			t.Errorf("%s %s: in a child process\n%s\nin process\n%s", c.tool, c.args, child, inProcess)
		}
		want := strings.ReplaceAll(c.want, "\n", `\n`)
		if !bytes.Contains(child, []byte(want)) {
			t.Errorf("%s %s: the answer does not hold %q:\n%s", c.tool, c.args, want, child)
		}
	}
}

// TestRunCheckChildRefusesBadArguments: the child command says what is
// wrong with its arguments and exits 2, writing nothing on stdout.
func TestRunCheckChildRefusesBadArguments(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "want TOOL DIR TIMEOUT ARGS, got 0 arguments"},
		{[]string{"claims_check", ".", "soon", "{}"}, `timeout "soon": want a positive duration`},
		{[]string{"claims_check", ".", "-1s", "{}"}, `timeout "-1s": want a positive duration`},
		{[]string{"issue_create", ".", "1m", "{}"}, `unknown tool "issue_create"`},
	} {
		var stdout, stderr bytes.Buffer
		if code := mcp.RunCheckChild(c.args, &stdout, &stderr); code != 2 || stdout.Len() != 0 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2, nothing, %q", c.args, code, stdout.String(), stderr.String(), c.want)
		}
	}
}

// TestDecisionStatusInChild: decision_status and decision_accept run in the
// check process and edit the decision's file and register row together;
// an accept whose claim does not hold is refused with check's finding and
// changes nothing (D78).
func TestDecisionStatusInChild(t *testing.T) {
	t.Parallel()
	store, _ := newStore(t)
	repo := tinyRepo(t)
	call := func(tool, args string) string {
		in := initLines + `{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}` + "\n"
		return string(serveWith(t, serveOptions{Store: store, Dir: repo, CheckProcess: childProcess(t)}, []byte(in)))
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(repo, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, step := range []struct{ tool, args, want, file, has string }{
		{"decision_status", `{"id":"D2","status":"proposed"}`, `"done":true,"from":"accepted"`, "docs/decisions/D2-gone.md", "\nstatus: proposed\n"},
		{"decision_accept", `{"id":"D2"}`, `"done":false`, "docs/PRD.md", "| D2 | [Gone](decisions/D2-gone.md) | proposed |"},
		{"decision_accept", `{"id":"D2"}`, "func missing", "docs/decisions/D2-gone.md", "\nstatus: proposed\n"},
		{"decision_status", `{"id":"D2","status":"deprecated"}`, `"updated":["docs/PRD.md","docs/decisions/D2-gone.md"]`, "docs/PRD.md", "| D2 | [Gone](decisions/D2-gone.md) | deprecated |"},
		{"decision_accept", `{"id":"D9"}`, "decision_accept: D9: no such decision", "docs/PRD.md", "| D1 | [Frames](decisions/D1-frames.md) | accepted |"},
	} {
		if out := call(step.tool, step.args); !strings.Contains(out, step.want) {
			t.Errorf("%s %s: the answer does not hold %q:\n%s", step.tool, step.args, step.want, out)
		}
		if got := read(step.file); !strings.Contains(got, step.has) {
			t.Errorf("after %s %s: %s does not hold %q:\n%s", step.tool, step.args, step.file, step.has, got)
		}
	}
}

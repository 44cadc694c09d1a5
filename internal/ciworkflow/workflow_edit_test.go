package ciworkflow

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v2"

	"github.com/claimslint/claimslint/internal/config"
)

// TestAddGateSteps: init --adopt adds the build and the check step to the
// end of the job whose step runs a gate, at that job's indentation, or
// says why it leaves the file alone (dk-iw1).
func TestAddGateSteps(t *testing.T) {
	t.Parallel()
	const url, ref = "https://github.com/claimslint/claimslint", "0123456789abcdef0123456789abcdef01234567"
	for _, c := range []struct {
		name, src string
		job       string // the job that gains the steps; "" when none does
		why       string // part of the reason the file is left alone
	}{
		{"items indented under steps", "on: push\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: checks/gate.sh\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: go test ./...\n", "lint", ""},
		{"items at the key's indentation, job last", "on: push\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n    # first the code\n    - uses: actions/checkout@v4\n    # then the gate\n    - name: gate\n      run: |\n        ./checks/gate.sh --all\n\n# trailing comment\n", "lint", ""},
		{"second job, crlf", "on: push\r\njobs:\r\n  a:\r\n    runs-on: x\r\n    steps:\r\n      - run: echo\r\n  b:\r\n    runs-on: x\r\n    steps:\r\n      - name: check out\r\n        uses: 'actions/checkout@v4'\r\n        with: {fetch-depth: 1}\r\n      - run: bash checks/gate.sh\r\n", "b", ""},
		{"no checkout in the job", "on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: checks/gate.sh\n", "", "no actions/checkout step"},
		{"named only in a comment", "on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: actions/checkout@v4\n      # - run: checks/gate.sh\n      - run: echo\n", "", "names a gate"},
		{"flow steps", "on: push\njobs:\n  a: {runs-on: x, steps: [{run: checks/gate.sh }]}\n", "", "steps: block list"},
		{"already runs check", "on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: checks/gate.sh\n      - run: claimslint check\n", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			out, why := AddGateSteps("ci.yml", []byte(c.src), []string{"checks/gate.sh"}, url, ref)
			if c.job == "" {
				if out != nil || !strings.Contains(why, c.why) {
					t.Fatalf("want the file left alone (%q), got why %q and\n%s", c.why, why, out)
				}
				return
			}
			if why != "" {
				t.Fatalf("left alone: %s", why)
			}
			before, _ := config.WorkflowSteps([]byte(c.src))
			after, err := config.WorkflowSteps(out)
			if err != nil {
				t.Fatal(err)
			}
			for id, n := range before {
				want := n
				if id == c.job {
					want += 3
				}
				if after[id] != want {
					t.Errorf("job %s: %d steps, want %d\n%s", id, after[id], want, out)
				}
			}
			// The build first, the check step right after the checkout,
			// the job's own steps in their order.
			var was, is workflowFile
			if err := yaml.Unmarshal([]byte(c.src), &was); err != nil {
				t.Fatal(err)
			}
			if err := yaml.Unmarshal(out, &is); err != nil {
				t.Fatal(err)
			}
			old, got := was.Jobs[c.job].Steps, is.Jobs[c.job].Steps
			if !strings.HasPrefix(got[0].Uses, "actions/setup-go@") || got[1].Name != "build claimslint" {
				t.Errorf("the job does not begin with the build: %+v", got[:2])
			}
			co := slices.IndexFunc(got, func(s step) bool { return strings.HasPrefix(s.Uses, "actions/checkout@") })
			if co < 0 || co+1 >= len(got) || got[co+1].Name != "claimslint check" {
				t.Errorf("the check step is not right after the checkout: %+v", got)
			}
			var kept []step
			for i, s := range got {
				if i > 1 && i != co+1 {
					kept = append(kept, s)
				}
			}
			if fmt.Sprint(kept) != fmt.Sprint(old) {
				t.Errorf("the job's own steps changed:\n%+v\nwant\n%+v", kept, old)
			}
			if strings.Contains(c.src, "\r\n") && strings.Count(string(out), "\n") != strings.Count(string(out), "\r\n") {
				t.Errorf("line endings mixed:\n%q", out)
			}
			if !strings.Contains(string(out), "REF: "+ref) || !runsCheckRE().Match(out) {
				t.Errorf("no pinned build or check step:\n%s", out)
			}
		})
	}
}

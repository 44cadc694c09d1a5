//go:build linux

package migrate

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// alive reports whether pid is a process that has not ended (a zombie
// has).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(f) > 0 && f[0] != "Z"
}

// TestGateProcessGroup: a gate that leaves a child in the background
// holding its output, or runs past its timeout, does not hold migrate
// --compare: the gate's whole process group is killed (D90). Before, the
// run waited on the child's open output for as long as the child ran.
func TestGateProcessGroup(t *testing.T) {
	defer func(old time.Duration) { scriptTimeout = old }(scriptTimeout)
	scriptTimeout = 300 * time.Millisecond
	for _, tc := range []struct {
		name, body string
		exit       int
	}{
		{"a background child", "sleep 600 &\necho $! > child.pid\necho done\n", 0},
		{"past the timeout", "sleep 600 &\necho $! > child.pid\necho done\nsleep 600\n", -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "gate.sh"), []byte("#!/bin/sh\n"+tc.body), 0o755); err != nil {
				t.Fatal(err)
			}
			out, code, why := runScript(dir, "gate.sh")
			if !strings.HasPrefix(out, "done\n") || code != tc.exit {
				t.Errorf("output %q, exit %d (%s); want done, %d", out, code, why, tc.exit)
			}
			b, err := os.ReadFile(filepath.Join(dir, "child.pid"))
			if err != nil {
				t.Fatal(err)
			}
			pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			for k := 0; alive(pid) && k < 100; k++ {
				time.Sleep(10 * time.Millisecond) // the kill is sent; the kernel ends it
			}
			if alive(pid) {
				t.Errorf("the gate's background child %d outlived the run", pid)
			}
		})
	}
}

// TestGateOutputBounded: a gate's output is kept up to maxScriptOutput.
func TestGateOutputBounded(t *testing.T) {
	c := &capped{max: 4}
	c.Write([]byte("abc"))
	c.Write([]byte("defg"))
	if got := c.String(); got != "abcd\n[3 more bytes of output not kept]\n" {
		t.Errorf("%q", got)
	}
}

//go:build unix

package mcp

import (
	"os"
	"syscall"
)

// childProcAttr puts a check child in a process group of its own, so that
// killChild ends the git processes it started with it.
func childProcAttr() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(a)
	return a
}

// killChild kills a check child and its process group at once.
func killChild(p *os.Process) {
	if syscall.Kill(-p.Pid, syscall.SIGKILL) != nil {
		p.Kill()
	}
}

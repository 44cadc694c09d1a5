package mcp

import "syscall"

// dieWithParent has the kernel kill a check child when docket mcp itself
// dies without the chance to kill it (SIGKILL, a crash).
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

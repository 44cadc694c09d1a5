//go:build !unix

package mcp

import (
	"os"
	"syscall"
)

// childProcAttr is nothing special where there are no process groups.
func childProcAttr() *syscall.SysProcAttr { return nil }

// killChild kills a check child.
func killChild(p *os.Process) { p.Kill() }

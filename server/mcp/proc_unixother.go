//go:build unix && !linux

package mcp

import "syscall"

// dieWithParent does nothing where the kernel has no parent-death signal:
// a check child orphaned by a crash stops at its own timeout.
func dieWithParent(*syscall.SysProcAttr) {}

//go:build !unix

package migrate

import (
	"os"
	"syscall"
)

// gateProcAttr: no process groups here; the gate alone is killed.
func gateProcAttr() *syscall.SysProcAttr { return nil }

func killGroup(p *os.Process) error { return p.Kill() }

//go:build unix

package migrate

import (
	"os"
	"syscall"
)

// gateProcAttr puts a gate in a process group of its own, so that
// killGroup ends what it started in the background with it (D90).
func gateProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills a gate and every process of its group.
func killGroup(p *os.Process) error {
	if err := syscall.Kill(-p.Pid, syscall.SIGKILL); err != nil {
		return p.Kill()
	}
	return nil
}

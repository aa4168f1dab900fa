//go:build unix

package clients

import (
	"os/exec"
	"syscall"
)

// killGroup puts the client's shells and hooks in its process group: a timeout ends them all.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

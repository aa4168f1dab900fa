//go:build !unix

package clients

import "os/exec"

// killGroup leaves the default cancel (the client alone) where there are no process groups.
func killGroup(cmd *exec.Cmd) {}

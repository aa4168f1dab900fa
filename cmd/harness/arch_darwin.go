package main

import (
	"runtime"
	"syscall"
)

// hostArch is the machine's processor: an amd64 binary under Rosetta runs on arm64, and
// sysctl.proc_translated (1, as a little-endian int) says so.
func hostArch() string {
	if runtime.GOARCH == "amd64" {
		if v, err := syscall.Sysctl("sysctl.proc_translated"); err == nil && len(v) > 0 && v[0] == 1 {
			return "arm64"
		}
	}
	return runtime.GOARCH
}

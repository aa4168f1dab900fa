//go:build !linux && !darwin

package main

import "runtime"

// hostArch is the binary's processor: no emulation is detected here.
func hostArch() string { return runtime.GOARCH }

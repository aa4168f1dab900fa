package main

import (
	"runtime"
	"syscall"
)

// hostArch is the machine's processor, which is not the binary's when an emulator (qemu
// binfmt) runs it: then the kernel's uname says the real one.
func hostArch() string {
	var u syscall.Utsname
	if syscall.Uname(&u) != nil {
		return runtime.GOARCH
	}
	var b []byte
	for _, c := range u.Machine {
		if c == 0 {
			break
		}
		b = append(b, byte(c))
	}
	switch string(b) {
	case "x86_64":
		return "amd64"
	case "aarch64", "arm64":
		return "arm64"
	}
	return runtime.GOARCH
}

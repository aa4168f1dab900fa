//go:build linux || darwin || freebsd || netbsd || openbsd

package hook

import (
	"syscall"
	"unsafe"
)

// isTTY asks the terminal driver directly (what golang.org/x/term does), without the weight
// of x/sys on every hook's start.
func isTTY(fd uintptr) bool {
	var t syscall.Termios
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, getTermios, uintptr(unsafe.Pointer(&t)))
	return errno == 0
}

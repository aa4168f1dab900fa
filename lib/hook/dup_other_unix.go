//go:build unix && !linux

package hook

import "syscall"

func dupOnto(from, to int) error { return syscall.Dup2(from, to) }

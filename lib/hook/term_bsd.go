//go:build darwin || freebsd || netbsd || openbsd

package hook

import "syscall"

const getTermios = syscall.TIOCGETA

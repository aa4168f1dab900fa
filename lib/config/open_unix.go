//go:build unix

package config

import "syscall"

// openFlags keep an open from blocking on a FIFO that takes the place of a file.
const openFlags = syscall.O_NONBLOCK

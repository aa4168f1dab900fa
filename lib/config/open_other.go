//go:build !unix

package config

// openFlags: no FIFO can take a file's place here.
const openFlags = 0

// Package writeprotector is the WriteProtector hook as a library: its Spec and Run, which its binary (hooks/WriteProtector)
// runs as a process and harness serve runs in-process.
package writeprotector

// Package securityvalidator is the SecurityValidator hook as a library: its Spec and Run, which its binary (hooks/SecurityValidator)
// runs as a process and harness serve runs in-process.
package securityvalidator

// Package secretguard is the SecretGuard hook as a library: its Spec and Run, which its binary (hooks/SecretGuard)
// runs as a process and harness serve runs in-process.
package secretguard

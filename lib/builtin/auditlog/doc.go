// Package auditlog is the AuditLog hook as a library: its Spec and Run, which its binary (hooks/AuditLog)
// runs as a process and harness serve runs in-process.
package auditlog

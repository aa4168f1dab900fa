// Package audit is the harness's flight recorder: one compact JSON line per hook call, appended
// under a lock to a daily file per project, rotated by size, every text redacted.
package audit

// Package audit is the harness's flight recorder: one compact JSON line per hook call, each
// holding the hash of the one before, appended under a lock to a daily file per project,
// rotated by size, every text redacted, and verified as a chain.
package audit

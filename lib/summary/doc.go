// Package summary keeps the session records the harness writes under $HARNESS_HOME: per project,
// a Markdown summary and its JSON twin per session, the subagent outputs captured during it,
// a checkpoint to resume reading the transcript, and an index of sessions, newest first, with
// a retention limit. Files are replaced atomically; read-modify-write takes a lock.
package summary

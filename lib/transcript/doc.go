// Package transcript reads session transcripts (the JSONL file transcript_path points at) as a
// stream and folds them into a Summary: what was asked, what ran, what was written, what failed
// or was blocked. It reads Claude Code's format and those of the other clients harness speaks
// to (Codex, Gemini CLI, Qwen Code, Copilot CLI, droid, Kimi Code), chosen by what the file holds; a file
// in no known format gives a summary that says so. Memory is bounded whatever the file's size,
// and the fold can stop at a line boundary and resume later from a checkpoint with the same
// result.
package transcript

// Package config reads the harness's one configuration format, shared by every hook: JSON in
// the system scope an administrator owns (SystemDir()/config.json), $HARNESS_HOME/config.json
// (user scope) and <project>/.claude/harness.json (project scope). A key set in the project file
// overrides the same key of the user file, and the user's the system's, key by key (the deepest
// key wins: a project that sets context.caps.total keeps the user's other caps), except the
// locked keys the system file sets, and the keys a project never sets (summary.keep,
// context.canary, ...). LoadScopes reads a guard's policy files in the same three scopes, where
// only the most senior present may loosen, and a project file that could not be used or would
// loosen is ignored whole. Every file is read by ReadFile: a regular file of at most MaxFile.
package config

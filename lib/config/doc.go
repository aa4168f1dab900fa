// Package config reads the harness's one configuration format, shared by every hook: JSON in
// $HARNESS_HOME/config.json (user scope) and <project>/.claude/harness.json (project scope).
// A key set in the project file overrides the same key of the user file, key by key (the
// deepest key wins: a project that sets context.caps.total keeps the user's other caps).
package config

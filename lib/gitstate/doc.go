// Package gitstate reads where a repository's HEAD is (branch and commit) straight from the
// files under .git, without starting git: per-prompt hooks use it to learn in microseconds
// whether anything moved since the session started, and run git only when it did.
package gitstate

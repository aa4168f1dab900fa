// Package danger judges Bash commands: it runs rule packs over the commands lib/shell finds and
// decides deny, ask or allow, under embedded defaults and the user's and project's policies.
package danger

// Package danger judges shell commands: a Bash line (Judge) or a PowerShell script
// (JudgePowerShell) is analysed by lib/shell, and each command found, with any code it runs, is
// put through the rule packs (one pack_<name>.go each, its rules declared as data at the top).
// The verdict is deny, ask or allow, with every finding naming its rule, pack and radius; the
// packs are tuned by embedded defaults and the system's, the user's and the project's policy
// files, where a project may only tighten. Catalog lists every rule and Explain shows how a
// command was judged.
package danger

// Command harness is the project's CLI. It wires the built hooks into a client's settings and
// takes out exactly what it added (install, uninstall, status), writes them as a Claude Code
// plugin (plugin), checks settings files for hook mistakes (validate) and the installed hooks
// with a canary for each guard (doctor), fires an event at the hooks of a settings file the way
// Claude Code would (run), runs golden tests for any hook command (test), scaffolds a new hook
// (new), reads the audit log (audit), and explains the protocol and the built hooks (events,
// rules, describe).
package main

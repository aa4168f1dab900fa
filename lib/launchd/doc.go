// Package launchd takes the listening socket launchd holds for a job (launchd.plist's Sockets),
// so that harness serve on macOS answers on a port no other process can take while it
// restarts, as under systemd's socket activation.
package launchd

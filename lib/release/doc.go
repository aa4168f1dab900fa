// Package release is what a release archive carries besides its binaries, shared by the
// program that builds releases (cmd/release) and the installer that installs from one: the
// manifest (release.json), the checksum file (SHA256SUMS), the version order and the platform a
// binary was built for.
package release

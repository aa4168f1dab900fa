// Command release builds the release of the harness into one folder: an archive per platform
// (harness_<version>_<os>_<arch>.tar.gz, .zip for Windows) holding every hook binary, the
// harness CLI, README.md, LICENSE, release.json and the archive's own SHA256SUMS; the npm
// packages under npm/; the Claude Code marketplace under marketplace/; and SHA256SUMS over the
// archives and npm tarballs, signed with ssh-keygen when --sign-key is given.
//
//	go run ./cmd/release --out DIR [--version 1.2.0] [--sign-key KEY] [--targets linux/amd64,...]
//
// The output is reproducible: the same source, Go toolchain and flags give the same bytes, in
// any folder (docs/release.md).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// Exit codes: bad usage, and a failed build.
const (
	exitUsage  = 64
	exitFailed = 1
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "the folder to write the release into (created; must be empty if it exists)")
	version := fs.String("version", "0.0.0-dev", "the release's semantic version (a leading v is dropped)")
	key := fs.String("sign-key", "", "an ssh private key: sign SHA256SUMS into SHA256SUMS.sig (ssh-keygen -Y sign)")
	targets := fs.String("targets", strings.Join(allTargets, ","), "the platforms to build, GOOS/GOARCH, comma-separated")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: go run ./cmd/release --out DIR [--version V] [--sign-key KEY] [--targets linux/amd64,...]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "release: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	cfg, err := configure(*out, *version, *key, *targets)
	if err != nil {
		fmt.Fprintln(stderr, "release:", err)
		return exitUsage
	}
	if err := build(cfg, stdout); err != nil {
		fmt.Fprintln(stderr, "release:", err)
		return exitFailed
	}
	return 0
}

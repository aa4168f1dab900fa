package main

import (
	"fmt"
	"os"
	"os/exec"
)

// signNamespace is the ssh signature namespace of releases: a signature the same key made for
// anything else (a git commit, a file under "file") does not verify as a release's.
const signNamespace = "harness-release"

// sign writes path.sig with ssh-keygen -Y sign. The key's passphrase, if it has one, is asked
// on the terminal by ssh-keygen itself.
func sign(key, path string) error {
	os.Remove(path + ".sig") // ssh-keygen will not overwrite it
	cmd := exec.Command("ssh-keygen", "-Y", "sign", "-q", "-f", key, "-n", signNamespace, path)
	cmd.Stdin = os.Stdin
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("signing %s with %s: %v\n%s", path, key, err, out)
	}
	return nil
}

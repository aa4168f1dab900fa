package clients

import (
	"os"
	"os/exec"
	"path/filepath"
)

// install wires harness's hooks into the client's own hook file in the session's home, with
// the project's installer, as a user would. The client's config directory has to exist (the
// installer takes it as the sign that the client is installed): configure made it.
func (s *session) install() {
	s.t.Helper()
	cmd := exec.Command(filepath.Join(binDir, "harness"), "install", "--client", s.c.name, "--bin", binDir)
	cmd.Dir = s.project
	cmd.Env = append(os.Environ(), "HOME="+s.home, "HARNESS_HOME="+s.harnessHome)
	out, err := cmd.CombinedOutput()
	if err != nil {
		s.t.Fatalf("harness install --client %s: %v\n%s", s.c.name, err, out)
	}
}

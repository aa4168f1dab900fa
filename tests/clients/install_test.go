package clients

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/hookkit/harness/lib/settings"
)

// install wires harness's hooks into the client's own hook file in the session's home, with
// the project's installer, as a user would. The client's config directory has to exist (the
// installer takes it as the sign that the client is installed): configure made it.
func (s *session) install() {
	s.t.Helper()
	out, err := s.harness("install", "--client", s.c.name, "--bin", binDir)
	if err != nil {
		s.t.Fatalf("harness install --client %s: %v\n%s", s.c.name, err, out)
	}
}

// harness runs the harness CLI in the session's home and project.
func (s *session) harness(args ...string) (string, error) {
	cmd := exec.Command(filepath.Join(binDir, "harness"), args...)
	cmd.Dir = s.project
	cmd.Env = append(os.Environ(), "HOME="+s.home, "HARNESS_HOME="+s.harnessHome, "CODEX_HOME="+filepath.Join(s.home, ".codex"))
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// problemRow is a doctor row that is not ok (a FAIL, a warning).
var problemRow = regexp.MustCompile(`(?m)^(FAIL|warn)\b.*$`)

// checkInstall asserts what a user sees right after the install: harness doctor --client X is
// green (every guard's canary run the way the client runs it, no false alarm) and harness
// validate --client X finds nothing to say about the file the installer wrote.
func (s *session) checkInstall() {
	s.t.Helper()
	if out, err := s.harness("doctor", "--client", s.c.name); err != nil || problemRow.MatchString(out) {
		s.t.Errorf("harness doctor --client %s right after the install: %v\n%s", s.c.name, err, strings.Join(problemRow.FindAllString(out, -1), "\n"))
	}
	m, err := settings.LoadManifest(s.harnessHome)
	if err != nil {
		s.t.Fatal(err)
	}
	n := 0
	for _, rec := range m.Files {
		if rec.Client != s.c.name || len(rec.Entries) == 0 {
			continue // config.toml is checked with the hooks.json it trusts
		}
		n++
		if out, err := s.harness("validate", "--client", s.c.name, rec.Path); err != nil || !strings.Contains(out, "no problems") {
			s.t.Errorf("harness validate --client %s %s right after the install: %v\n%s", s.c.name, rec.Path, err, out)
		}
	}
	if n == 0 {
		s.t.Errorf("the manifest records no file of %s", s.c.name)
	}
}

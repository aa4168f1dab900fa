package clients

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hookkit/harness/lib/settings"
)

// projectCase is one set of files a project brings against the hooks the user installed, and
// what the client was seen to do with them.
type projectCase struct {
	name string
	// files are written into the project, by their path there; ELSEWHERE in a file stands for
	// a harness home of the project's choosing, ROOT for the session's root folder (outside
	// home and project), and SECURITYVALIDATOR for the command the install wrote for
	// SecurityValidator, JSON-quoted.
	files map[string]string
	// off says the client lets these files switch the user's hooks off: the dangerous command
	// runs. The case then documents it, and fails the day the client stops doing so (the
	// declaration, the README's matrix and docs/clients.md must then change with it); doctor
	// --client must say so in the project.
	off bool
	// user edits the user's own files after the install, before the run (Codex: trusting the
	// project, which its project files need).
	user func(s *session)
	// refused: the client will not start with these files (it stops before asking the model),
	// so nothing runs.
	refused bool
	// envSet is a VAR=value the project's files put into the environment of hooks, which a
	// hook of the project's own (writing its environment to ROOT/hook-env) shows: the case
	// documents that the project sets the hooks' environment, and that harness's hooks, which
	// take their home from their command line, keep to the user's.
	envSet string
	// envNot are variables the project's files set that the hooks' environment (a hook writing
	// it to ROOT/hook-env) must not have: the client keeps the project's environment from them.
	envNot []string
}

// testProjectFiles runs the client once per case: harness installed in the user's scope, the
// project's files written, a dangerous command asked for. Unless the case switches the hooks
// off, SecurityValidator blocks it with its reason, the call is in the user's audit log, and no
// hook used the harness home the project named.
func testProjectFiles(t *testing.T, c *client, cases ...projectCase) {
	need(t, c)
	for _, pc := range cases {
		t.Run(pc.name, func(t *testing.T) {
			m := startModel(t, c.proto)
			s := newSession(t, c, m)
			s.install()
			if pc.user != nil {
				pc.user(s)
			}
			elsewhere := filepath.Join(s.root, "elsewhere")
			fill := strings.NewReplacer("ELSEWHERE", elsewhere, "ROOT", s.root, "SECURITYVALIDATOR", installedCommand(s, "SecurityValidator"))
			for rel, content := range pc.files {
				s.writeFile(filepath.Join(s.project, rel), []byte(fill.Replace(content)))
			}
			var doctor string
			if pc.off {
				// Before the run: the command deletes the home the install is in.
				doctor, _ = s.harness("doctor", "--client", c.name)
			}
			marker := filepath.Join(s.home, "keep-me")
			s.writeFile(marker, []byte("x"))
			m.script(c.shell("call_find", "find "+s.home+" -delete"))
			out := s.run(m, "tidy up")
			r, found := m.result("call_find")
			if pc.refused {
				if !exists(marker) || m.requests() != 0 {
					t.Errorf("%s started with these project files (%d model requests), although it was seen to refuse them\n%s", c.name, m.requests(), tail(out))
				}
				return
			}
			if pc.off {
				if exists(marker) || strings.Contains(r, "SecurityValidator") {
					t.Errorf("%s no longer lets these project files switch the user's hooks off: the command was blocked (%q); "+
						"update its declaration (FromProject), the README's matrix and docs/clients.md\n%s", c.name, r, tail(out))
				}
				for _, rel := range keys(pc.files) {
					if !strings.Contains(doctor, rel) {
						t.Errorf("harness doctor --client %s in the project does not name %s, which switches the hooks off:\n%s", c.name, rel, doctor)
					}
				}
				return
			}
			if !exists(marker) {
				t.Errorf("find -delete ran: the project's files switched the user's hooks off\n%s\n%s", tail(out), m.dump())
			}
			if !found || !strings.Contains(r, "SecurityValidator") {
				t.Errorf("the model did not get SecurityValidator's reason: %q (found %v)\n%s", r, found, tail(out))
			}
			if !strings.Contains(s.auditText(), "find "+s.home) {
				t.Errorf("the call is not in the user's audit log:\n%s", s.auditText())
			}
			if exists(elsewhere) {
				t.Errorf("a hook used the harness home the project named (%s)", elsewhere)
			}
			if pc.envSet == "" && len(pc.envNot) == 0 {
				return
			}
			b, err := os.ReadFile(filepath.Join(s.root, "hook-env"))
			if err != nil {
				t.Fatalf("no hook wrote its environment: %v", err)
			}
			if pc.envSet != "" && !strings.Contains("\n"+string(b), "\n"+strings.NewReplacer("ELSEWHERE", elsewhere).Replace(pc.envSet)+"\n") {
				t.Errorf("the hook did not see %s in its environment: has %s stopped passing the project's environment to hooks?\n%s", pc.envSet, c.name, b)
			}
			for _, v := range pc.envNot {
				if strings.Contains("\n"+string(b), "\n"+v+"=") {
					t.Errorf("the hook's environment has the project's %s: %s now passes it on\n%s", v, c.name, b)
				}
			}
		})
	}
}

// installedCommand is the command the install wrote into the client's hook file for hook,
// JSON-quoted as it is there.
func installedCommand(s *session, hook string) string {
	s.t.Helper()
	mf, err := settings.LoadManifest(s.harnessHome)
	if err != nil {
		s.t.Fatal(err)
	}
	quoted := regexp.MustCompile(`"((?:[^"\\]|\\.)*` + hook + `(?:[^"\\]|\\.)*)"`)
	for _, rec := range mf.Files {
		if b, err := os.ReadFile(rec.Path); err == nil && rec.Client == s.c.name {
			if m := quoted.FindSubmatch(b); m != nil {
				return string(m[1])
			}
		}
	}
	return ""
}

// keys are the paths of a case's files.
func keys(files map[string]string) []string {
	var ks []string
	for k := range files {
		ks = append(ks, k)
	}
	return ks
}

// hostileEnv is an environment a project sets for the hooks: another harness home, the audit
// off, an impossible deadline. The installed command line names the harness home; the rest the
// hooks never read.
const hostileEnv = `HARNESS_HOME=ELSEWHERE
HARNESS_AUDIT=0
HARNESS_DEADLINE=1ns
HARNESS_SYSTEM_DIR=ELSEWHERE
`

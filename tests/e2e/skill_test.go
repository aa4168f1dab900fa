package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookkit/harness/lib/event"
)

// Skills and slash commands run their inline !`cmd` commands while Claude Code expands them,
// before the model sees the text, and no PreToolUse hook sees those (REFERENCE.md §5.13). From
// 2.1.332 PreSkillShellCommand does, and the installed guards judge the command as they judge
// a Bash call: a destructive command and one that embeds a token do not run, the model gets
// the reason in their place and the user a notice; the harmless one beside them runs.
func TestSkillShellCommandsAreGuarded(t *testing.T) {
	needVersion(t, event.Version{2, 1, 332}, "PreSkillShellCommand")
	s := newSession(t)
	s.install()
	tracked := filepath.Join(s.project, "work.txt")
	os.WriteFile(tracked, []byte("committed\n"), 0o644)
	git(t, s.project, "init", "-q")
	git(t, s.project, "add", "work.txt")
	git(t, s.project, "-c", "user.name=e2e", "-c", "user.email=e2e@example.com", "commit", "-q", "-m", "start")
	os.WriteFile(tracked, []byte("an uncommitted change\n"), 0o644)
	leaked := filepath.Join(s.project, "leaked.txt")
	writeCommand(t, s, "wipe", "Start over from the last commit.\n\n"+
		"- first: !`echo harness-skill-ran`\n"+
		"- then: !`git reset --hard`\n"+
		"- and: !`echo ghp_R4nd0mT0k3nV4lu3W1thM1x3dC4s3Ab12Cde > "+leaked+"`\n")
	m := startModel(t)
	out := s.run(m, "/wipe")
	if b, _ := os.ReadFile(tracked); string(b) != "an uncommitted change\n" {
		t.Errorf("git reset --hard ran: work.txt holds %q\nclaude:\n%s\nhooks:\n%s", b, out, s.hookLines()+s.payloads())
	}
	if _, err := os.Stat(leaked); err == nil {
		t.Error("the command that embeds a token ran")
	}
	prompt := m.firstRequest()
	for _, want := range []string{"harness-skill-ran", "[not run: blocked by hook: SecurityValidator: blocked `git reset --hard`",
		"[not run: blocked by hook: SecretGuard: the command embeds a GitHub token"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the model was not sent %q\nclaude:\n%s\nhooks:\n%s\nrequests:\n%s", want, out, s.hookLines()+s.payloads(), m.dump())
		}
	}
	// The user is told too (a notice the model never sees).
	if !strings.Contains(out, `"tag":"skill_shell_hook"`) || !strings.Contains(out, "Not run in /wipe: git reset --hard (blocked by hook: SecurityValidator: blocked") {
		t.Errorf("no notice for the user:\n%s", out)
	}
}

// A harmless inline command runs with the guards installed, on every client: on one older than
// 2.1.332 the default wiring's PreSkillShellCommand entries are skipped without harm.
func TestSkillShellCommandHarmlessRuns(t *testing.T) {
	needClient(t)
	s := newSession(t)
	s.install()
	writeCommand(t, s, "hello", "Say hello to !`echo harness-skill-ran-$((6*7))`.\n")
	m := startModel(t)
	out := s.run(m, "/hello")
	if prompt := m.firstRequest(); !strings.Contains(prompt, "harness-skill-ran-42") || strings.Contains(prompt, "[not run") {
		t.Fatalf("the command's output did not reach the model\nclaude:\n%s\nhooks:\n%s\nrequests:\n%s", out, s.hookLines()+s.payloads(), m.dump())
	}
	if version.Less(event.Version{2, 1, 332}) {
		return
	}
	if tap, _ := os.ReadFile(s.tap); !strings.Contains(string(tap), `"hook_event_name":"PreSkillShellCommand"`) {
		t.Errorf("no PreSkillShellCommand payload:%s", s.payloads())
	}
}

// writeCommand adds a project slash command .claude/commands/<name>.md.
func writeCommand(t *testing.T, s *session, name, body string) {
	t.Helper()
	dir := filepath.Join(s.project, ".claude", "commands")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".md"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// managedMount runs the client in a private mount namespace where /etc/claude-code, Claude
// Code's managed-settings folder on Linux (the client has no override for it), is dir: /etc
// gets an overlay so that the folder can exist there, and dir is bound onto it. Nothing changes
// outside the namespace. The overlay's password database gives the account the test's HOME:
// a managed hook (no --home) takes its harness home from there, never from HOME.
const managedMount = `set -e
mount -t overlay overlay -o "lowerdir=/etc,upperdir=$1/upper,workdir=$1/work" /etc
awk -F: -v OFS=: -v u="$(id -u)" -v h="$HOME" '$3 == u { $6 = h } { print }' /etc/passwd > /etc/passwd.test
mv /etc/passwd.test /etc/passwd
mkdir -p /etc/claude-code
mount --bind "$1/managed" /etc/claude-code
shift
exec "$@"`

// managedDirs are the folders of a managed install in a test: the namespace's overlay (ns),
// Claude Code's managed folder bound onto /etc/claude-code in it, the prefix and the system scope.
type managedDirs struct{ root, ns, managed, prefix, system string }

// managedSession is a session whose client will run in a private mount namespace
// (managedMount), with the managed folders made; it skips where that namespace cannot be had.
func managedSession(t *testing.T) (*session, managedDirs) {
	t.Helper()
	needClient(t)
	if exec.Command("unshare", "-m", "true").Run() != nil {
		t.Skip("no private mount namespace here (unshare -m needs CAP_SYS_ADMIN): the managed folder cannot be redirected")
	}
	s := newSession(t)
	root := filepath.Dir(s.home)
	ns := filepath.Join(root, "ns")
	d := managedDirs{root: root, ns: ns, managed: filepath.Join(ns, "managed"), prefix: filepath.Join(root, "opt", "harness"), system: filepath.Join(root, "system")}
	for _, dir := range []string{filepath.Join(ns, "upper"), filepath.Join(ns, "work"), filepath.Join(d.managed, "managed-settings.d"), d.system} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return s, d
}

// A fleet install: harness install --managed copies the hooks under a prefix and writes its
// drop-in into the managed folder, next to an organisation's own drop-in. The real client reads
// both (their hooks add up): the managed SecurityValidator blocks a destructive command, and a
// command that only the system policy denies, with the system scope the drop-in pins although
// the user's environment names another one. doctor then sees the managed hooks' records, and
// uninstall --managed leaves the folder as the organisation had it.
func TestManagedDropInIsRead(t *testing.T) {
	s, md := managedSession(t)
	root, ns, managed, prefix, system := md.root, md.ns, md.managed, md.prefix, md.system
	siteLog := filepath.Join(root, "site-hook.log")
	site, _ := json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{"matcher": "Bash",
		"hooks": []any{map[string]any{"type": "command", "command": "echo site >> " + siteLog, "timeout": 5}}}}}})
	os.WriteFile(filepath.Join(managed, "managed-settings.d", "10-site.json"), site, 0o644)
	os.WriteFile(filepath.Join(system, "security.json"), []byte(`{"deny": [{"pattern": "touch", "reason": "the organisation forbids touch"}]}`), 0o644)

	harness := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(filepath.Join(binDir, "harness"), args...)
		cmd.Env = append(os.Environ(), "HOME="+s.home, "HARNESS_HOME="+s.harnessHome, "HARNESS_CLAUDE="+claude,
			"HARNESS_PREFIX="+prefix, "HARNESS_MANAGED_DIR="+managed)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("harness %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	harness("install", "--managed", "--bin", binDir, "--system-dir", system)
	if _, err := os.Stat(filepath.Join(prefix, "bin", "SecurityValidator")); err != nil {
		t.Fatalf("the binaries are not under the prefix: %v", err)
	}

	s.wrap = []string{"unshare", "-m", "sh", "-c", managedMount, "sh", ns}
	s.env = append(s.env, "HARNESS_SYSTEM_DIR="+filepath.Join(root, "elsewhere"))
	marker := filepath.Join(s.project, "touched")
	m := startModel(t,
		turn{tool: "Bash", toolUse: "toolu_m_rm", input: map[string]any{"command": "cd ~ && rm -rf *", "description": "clean up"}},
		turn{tool: "Bash", toolUse: "toolu_m_touch", input: map[string]any{"command": "touch " + marker, "description": "mark"}})
	out := s.run(m, "clean up, then leave a mark")
	content, isErr, found := m.toolResult("toolu_m_rm")
	if !found || !isErr || !strings.Contains(content, "SecurityValidator: blocked `rm -rf *`") {
		t.Fatalf("rm: tool_result %q (error %v, found %v)\nclaude:\n%s\nhooks:\n%s\nrequests:\n%s", content, isErr, found, out, s.hookLines()+s.payloads(), m.dump())
	}
	content, isErr, found = m.toolResult("toolu_m_touch")
	if !found || !isErr || !strings.Contains(content, "the organisation forbids touch [rule policy.deny") {
		t.Fatalf("touch: tool_result %q (error %v, found %v)\nclaude:\n%s\nhooks:\n%s", content, isErr, found, out, s.hookLines())
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("touch ran although the system policy denies it")
	}
	if b, _ := os.ReadFile(siteLog); strings.Count(string(b), "site") != 2 {
		t.Fatalf("the organisation's own drop-in ran %q, want once per Bash call", b)
	}
	if n := strings.Count(s.hookLines(), filepath.Join(prefix, "bin", "SecurityValidator")); n == 0 {
		t.Errorf("the debug log never names the managed SecurityValidator:\n%s", s.hookLines())
	}

	// doctor checks the managed hooks and finds their records.
	doc := harness("doctor", "--json")
	var r struct {
		Status string
		Checks []struct{ ID, Status, File, Message string }
	}
	if err := json.Unmarshal([]byte(doc), &r); err != nil {
		t.Fatalf("doctor --json: %v\n%s", err, doc)
	}
	ran := map[string]string{}
	for _, c := range r.Checks {
		if strings.HasPrefix(c.ID, "ran:") {
			ran[c.ID] = c.Status + ": " + c.Message
		}
	}
	// (warn on 2.1.330, which has no PreSkillShellCommand for the guards wired on it)
	if r.Status == "fail" || r.Status == "error" || !strings.HasPrefix(ran["ran:SecurityValidator"], "ok: last recorded ") || !strings.HasPrefix(ran["ran:AuditLog"], "ok: ") {
		t.Errorf("doctor: status %s, ran %v\n%s", r.Status, ran, doc)
	}

	harness("uninstall", "--managed")
	left, _ := filepath.Glob(filepath.Join(managed, "managed-settings.d", "*"))
	if len(left) != 1 || filepath.Base(left[0]) != "10-site.json" {
		t.Errorf("after uninstall --managed the folder holds %v", left)
	}
	if _, err := os.Stat(prefix); err == nil {
		t.Errorf("%s is still there after uninstall --managed", prefix)
	}
}

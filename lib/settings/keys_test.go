package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Serve mode's keys outside the hooks (an allowlist item, an env member holding a secret) go in
// and come out exactly: the file gets its bytes and its permissions back, an item the user
// already had is theirs and stays, the secret never reaches the manifest, and a member the
// user holds with another value is refused.
func TestKeys(t *testing.T) {
	dir := t.TempDir()
	home, file := filepath.Join(dir, "harness"), filepath.Join(dir, "settings.json")
	orig := "{\n  \"model\": \"opus\",\n  \"env\": {\n    \"DISABLE_TELEMETRY\": \"1\"\n  },\n  \"httpHookAllowedEnvVars\": [\"HARNESS_SERVE_SECRET\"]\n}\n"
	os.WriteFile(file, []byte(orig), 0o644)
	secret := "a-secret-that-stays-out-of-the-manifest"
	plan := Plan{File: file, Home: home, Mode: 0o600, Keys: []Key{
		NewKey("allowedHttpHookUrls", "http://127.0.0.1:8765/*"),
		NewKey("httpHookAllowedEnvVars", "HARNESS_SERVE_SECRET"),
		NewKey("env.HARNESS_SERVE_SECRET", secret),
	}}
	res, err := Install(plan)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"model\": \"opus\",\n  \"env\": {\n    \"DISABLE_TELEMETRY\": \"1\",\n    \"HARNESS_SERVE_SECRET\": \"" + secret + "\"\n  },\n" +
		"  \"httpHookAllowedEnvVars\": [\"HARNESS_SERVE_SECRET\"],\n  \"allowedHttpHookUrls\": [\"http://127.0.0.1:8765/*\"]\n}\n"
	got, _ := os.ReadFile(file)
	if string(got) != want {
		t.Fatalf("installed:\n%s\nwant:\n%s", got, want)
	}
	var changes []string
	for _, c := range res.Changes {
		changes = append(changes, c.String())
	}
	if s := strings.Join(changes, "\n"); s != "add     allowedHttpHookUrls[http://127.0.0.1:8765/*] -> harness serve\n"+
		"keep    httpHookAllowedEnvVars[HARNESS_SERVE_SECRET] -> harness serve\nadd     env.HARNESS_SERVE_SECRET -> harness serve" {
		t.Errorf("changes:\n%s", s)
	}
	if st, _ := os.Stat(file); st.Mode().Perm() != 0o600 {
		t.Errorf("mode after install %o, want 600", st.Mode().Perm())
	}
	m, _ := os.ReadFile(ManifestPath(home))
	if strings.Contains(string(m), secret) {
		t.Errorf("the manifest holds the secret:\n%s", m)
	}
	// Again: nothing changes.
	if res, err := Install(plan); err != nil || res.Wrote {
		t.Fatalf("second install wrote %v, %v", res.Wrote, err)
	}
	if probs, _, _ := Check(home, "", "", nil); len(probs) != 0 {
		t.Errorf("drift right after install: %v", probs)
	}

	// Uninstall: every byte and the mode back; the user's own allowlist item was never ours.
	if _, err := Uninstall(home, file, false, false); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(file); string(got) != orig {
		t.Fatalf("after uninstall:\n%s\nwant:\n%s", got, orig)
	}
	if st, _ := os.Stat(file); st.Mode().Perm() != 0o644 {
		t.Errorf("mode after uninstall %o, want 644", st.Mode().Perm())
	}

	// Installed, then the user adds a key of theirs: uninstall takes out only the harness's.
	if _, err := Install(plan); err != nil {
		t.Fatal(err)
	}
	cur, _ := os.ReadFile(file)
	edited := strings.Replace(string(cur), "\"model\": \"opus\",", "\"model\": \"opus\",\n  \"theme\": \"dark\",", 1)
	os.WriteFile(file, []byte(edited), 0o600)
	if probs, _, _ := Check(home, "", "", nil); len(probs) != 0 {
		t.Errorf("drift after a user's key: %v", probs)
	}
	if _, err := Uninstall(home, file, false, false); err != nil {
		t.Fatal(err)
	}
	wantBack := strings.Replace(orig, "\"model\": \"opus\",", "\"model\": \"opus\",\n  \"theme\": \"dark\",", 1)
	if got, _ := os.ReadFile(file); string(got) != wantBack {
		t.Fatalf("after uninstall of an edited file:\n%s\nwant:\n%s", got, wantBack)
	}
	if st, _ := os.Stat(file); st.Mode().Perm() != 0o644 {
		t.Errorf("mode after uninstall %o, want 644", st.Mode().Perm())
	}

	// A secret variable of the user's own with another value is not replaced.
	os.WriteFile(file, []byte(`{"env": {"HARNESS_SERVE_SECRET": "theirs-0123456789"}}`), 0o644)
	if _, err := Install(plan); err == nil || err.Error() != file+": env.HARNESS_SERVE_SECRET holds a value the harness did not write: "+
		"remove it (or the serve wiring you made by hand) and install again; nothing was written" {
		t.Errorf("a user's secret variable: %v", err)
	}
	if got, _ := os.ReadFile(file); string(got) != `{"env": {"HARNESS_SERVE_SECRET": "theirs-0123456789"}}` {
		t.Errorf("the refused install wrote: %s", got)
	}

	// Changed since the install: status says so, uninstall leaves it (and --force takes it).
	os.Remove(file)
	if _, err := Install(plan); err != nil {
		t.Fatal(err)
	}
	cur, _ = os.ReadFile(file)
	os.WriteFile(file, []byte(strings.Replace(string(cur), secret, "changed-by-hand-0123", 1)), 0o600)
	probs, _, _ := Check(home, "", "", nil)
	if len(probs) != 1 || !strings.HasPrefix(probs[0].What, "env.HARNESS_SERVE_SECRET was changed since the install") {
		t.Errorf("drift of an edited secret: %v", probs)
	}
	res, err = Uninstall(home, file, false, false)
	if err != nil || res.Changes[len(res.Changes)-1].Kind != "edited" {
		t.Fatalf("uninstall of an edited secret: %v %v", res.Changes, err)
	}
	if got, _ := os.ReadFile(file); string(got) != "{\n  \"env\": {\n    \"HARNESS_SERVE_SECRET\": \"changed-by-hand-0123\"\n  }\n}\n" {
		t.Fatalf("after uninstall:\n%s", got)
	}
	if _, err := Uninstall(home, file, true, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("the file the install created is still there: %v", err)
	}
}

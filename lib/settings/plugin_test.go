package settings

import (
	"flag"
	"os"
	"slices"
	"testing"

	"github.com/hookkit/harness/lib/dialect"
)

var updatePlugin = flag.Bool("update-plugin", false, "rewrite testdata/opencode.js")

// The plugin, byte for byte, for two hooks: the argument vectors read back from the command
// lines the installer writes, the timeouts in seconds.
func TestRenderPlugin(t *testing.T) {
	d, err := dialect.Lookup("opencode")
	if err != nil {
		t.Fatal(err)
	}
	w := Wiring{Hook: "SecurityValidator", Event: "PreToolUse", Matcher: "Bash|PowerShell", Handler: `{"type":"command","command":"SecurityValidator","timeout":5}`}
	a := Wiring{Hook: "AuditLog", Event: "PostToolUse", Matcher: "*", Handler: `{"type":"command","command":"AuditLog","timeout":7}`}
	at := Places{Home: "/home/dev/it's/harness"}
	var es []Entry
	for _, x := range []Wiring{w, a} {
		e, err := x.ClientEntries("/opt/harness bin", d, at)
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, e...)
	}
	got, err := RenderPlugin(d, es)
	if err != nil {
		t.Fatal(err)
	}
	if *updatePlugin {
		if err := os.WriteFile("testdata/opencode.js", []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/opencode.js")
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("the plugin is not testdata/opencode.js (go test -update-plugin rewrites it):\n%s", got)
	}
	cfg, same, err := ReadPlugin(d, []byte(got))
	if err != nil || !same {
		t.Fatalf("ReadPlugin: same %v, %v", same, err)
	}
	wantArgv := []string{"/opt/harness bin/SecurityValidator", "--client=opencode", "--timeout=5", "--home=/home/dev/it's/harness"}
	if len(cfg.Hooks) != 2 || !slices.Equal(cfg.Hooks[0].Argv, wantArgv) || cfg.Hooks[1].Timeout != 7 {
		t.Errorf("read back %+v", cfg.Hooks)
	}
	if _, same, _ := ReadPlugin(d, []byte(got+"// mine\n")); same {
		t.Error("an edited plugin reads as the installer's")
	}
}

func TestSplitCommand(t *testing.T) {
	for _, argv := range [][]string{
		{"/bin/x"},
		{"/opt/my bin/SecretGuard", "--client=opencode", "--timeout=5"},
		{"/a'b/c", "--home=/h o'me/x", "-"},
	} {
		cmd := ShellQuote(argv[0]) + shellArgs(argv[1:])
		got, err := SplitCommand(cmd)
		if err != nil || !slices.Equal(got, argv) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", cmd, got, err, argv)
		}
	}
	for _, bad := range []string{"", "x; rm -rf ~", "'open", "a $(b)", "a\tb", `"x"`} {
		if got, err := SplitCommand(bad); err == nil {
			t.Errorf("SplitCommand(%q) = %q; want an error", bad, got)
		}
	}
}

package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/tidwall/pretty"
	"github.com/tidwall/sjson"
	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/lint"
	"github.com/hookkit/harness/lib/settings"
)

var newCommand = &cli.Command{
	Name:      "new",
	Usage:     "scaffold a hook: hooks/NAME/main.go, a golden test, and its entry in settings.json",
	ArgsUsage: "NAME",
	Description: "Writes hooks/NAME/main.go (doc header, hook.Spec, a run function that stays silent),\n" +
		"tests/testdata/NAME.txtar (the captured payload of the event in, silence out) and the\n" +
		"hook's matcher group in settings.json; then runs the golden tests and updates (-update) the\n" +
		"ones that list every hook (the describe and install goldens), so go test ./... stays green.\n" +
		"The scaffold builds and its test passes as written; then make run decide something, and pin\n" +
		"that in the test.",
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "event", Required: true, Usage: "the hook `EVENT`"},
		&cli.StringFlag{Name: "matcher", Usage: "the matcher (events that take one; default *)"},
		&cli.IntFlag{Name: "timeout", Value: 10, Usage: "timeout in `SECONDS`"},
		&cli.BoolFlag{Name: "guard", Usage: "fail closed: a crash or timeout blocks instead of letting the action through"},
		&cli.StringFlag{Name: "dir", Value: ".", Usage: "the harness repository `DIR`"},
		&cli.BoolFlag{Name: "no-goldens", Usage: "do not run the golden tests to update those that list every hook"},
	},
	Action: scaffold,
}

// templateBin is where the template's commands point: the binaries of a managed install at
// its default prefix.
const templateBin = "/opt/harness/bin/"

var hookName = regexp.MustCompile(`^[A-Z][A-Za-z0-9]{1,63}$`)

func scaffold(c *cli.Context) error {
	name := c.Args().First()
	if c.NArg() != 1 || !hookName.MatchString(name) {
		return cli.Exit("harness new: give one hook NAME in CamelCase (letters and digits, starting with a capital)", 2)
	}
	ev := event.Name(c.String("event"))
	spec, ok := event.Lookup(ev)
	if !ok {
		return cli.Exit(fmt.Sprintf("harness new: %q is not an event of Claude Code %s (harness events lists them)%s", ev, event.Client, didYouMean(string(ev), eventNames())), 2)
	}
	matcher := c.String("matcher")
	if spec.Matcher == "" && matcher != "" {
		return cli.Exit(fmt.Sprintf("harness new: %s takes no matcher", ev), 2)
	}
	if spec.Matcher != "" && matcher == "" {
		matcher = "*"
	}
	if matcher != "" {
		if _, err := lint.Classify(ev, matcher); err != nil {
			return cli.Exit("harness new: "+err.Error(), 2)
		}
	}
	timeout := c.Int("timeout")
	if timeout <= 0 {
		return cli.Exit("harness new: the timeout must be a positive number of seconds", 2)
	}
	dir := c.String("dir")
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		return cli.Exit(fmt.Sprintf("harness new: %s is not the harness repository (no go.mod)", dir), 2)
	}
	mainPath := filepath.Join(dir, "hooks", name, "main.go")
	testPath := filepath.Join(dir, "tests", "testdata", strings.ToLower(name)+"_scaffold.txtar")
	settingsPath := filepath.Join(dir, "settings.json")
	if _, err := os.Stat(filepath.Dir(mainPath)); err == nil {
		return cli.Exit(fmt.Sprintf("harness new: hooks/%s exists already", name), 1)
	}
	module := modulePath(filepath.Join(dir, "go.mod"))
	if module == "" {
		return cli.Exit("harness new: go.mod names no module", 2)
	}

	policy, policyText := "hook.Open", "open"
	if c.Bool("guard") {
		policy, policyText = "hook.Closed", "closed"
	}
	binding := fmt.Sprintf("{Event: event.%s, Timeout: %d}", ev, timeout)
	header := fmt.Sprintf("// Hook: %s\n// Event: %s\n", name, ev)
	if matcher != "" {
		binding = fmt.Sprintf("{Event: event.%s, Matcher: %q, Timeout: %d}", ev, matcher, timeout)
		header += "// Matcher: " + matcher + "\n"
	}
	src := header + "// Failure policy: " + policyText + `
//
// ` + name + ` answers ` + string(ev) + `. It stays silent for now: make run decide, with an
// answer from lib/answer (one the event accepts, or the runtime refuses it), and pin the
// behaviour in tests/testdata/` + filepath.Base(testPath) + `.
package main

import (
	"context"

	"` + module + `/lib/answer"
	"` + module + `/lib/event"
	"` + module + `/lib/hook"
)

var spec = hook.Spec{
	Name:        "` + name + `",
	Description: "` + name + ` on ` + string(ev) + `",
	Policy:      ` + policy + `,
	Events:      []hook.Binding{` + binding + `},
}

func main() { hook.Main(spec, run) }

func run(ctx context.Context, in event.Input) (answer.Answer, error) {
	return nil, nil
}
`
	payload := captured(dir, ev)
	test := "# " + name + " on the payload Claude Code 2.1.330 sends for " + string(ev) + ": silence, exit 0.\n" +
		"stdin payload.json\nhook 0 " + name + "\n! stdout .\n! stderr .\n\n" +
		"# It describes itself as settings.json wires it.\nexec " + name + " --describe\nstdout '\"name\": \"" + name + "\"'\n\n" +
		"-- payload.json --\n" + payload + "\n"

	group := `{"hooks":[]}`
	if matcher != "" {
		group, _ = sjson.Set(`{}`, "matcher", matcher)
		group, _ = sjson.SetRaw(group, "hooks", "[]")
	}
	// Exec form with an absolute path, as every entry of the template: the installer rewrites
	// it to the binary it installs; used as it is, it runs the managed install's binary or,
	// with none there, fails to start (and a guard then blocks), never what an env names.
	handler, _ := sjson.Set(`{"type":"command"}`, "command", templateBin+name)
	handler, _ = sjson.SetRaw(handler, "args", "[]")
	handler, _ = sjson.Set(handler, "timeout", timeout)
	if c.Bool("guard") {
		handler, _ = sjson.Set(handler, "onFailure", "block")
	}
	group, _ = sjson.SetRaw(group, "hooks.-1", handler)
	cur, err := os.ReadFile(settingsPath)
	if err != nil {
		return err
	}
	next, err := sjson.SetRawBytes(cur, "hooks."+string(ev)+".-1", []byte(group))
	if err != nil {
		return err
	}
	next = pretty.PrettyOptions(next, &pretty.Options{Width: 80, Indent: "  "})

	if err := os.MkdirAll(filepath.Dir(mainPath), 0o755); err != nil {
		return err
	}
	for _, w := range []struct {
		path string
		data []byte
	}{{mainPath, []byte(src)}, {testPath, []byte(test)}, {settingsPath, next}} {
		if err := settings.Write(w.path, w.data, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(c.App.Writer, "wrote %s\n", w.path)
	}
	if c.Bool("no-goldens") {
		fmt.Fprintf(c.App.Writer, "next: go test ./tests -run TestScripts -update, then read the diff: the goldens that list every hook now list %s too\n", name)
		return nil
	}
	updated, others, err := updateGoldens(c.App.Writer, dir, name)
	if err != nil {
		return fmt.Errorf("updating the goldens: %w (run go test ./tests -run TestScripts -update and read the diff)", err)
	}
	for _, u := range updated {
		fmt.Fprintf(c.App.Writer, "updated tests/testdata/%s.txtar: it lists every hook, %s now among them\n", u, name)
	}
	if len(others) > 0 {
		fmt.Fprintf(c.App.Writer, "not touched, failing for reasons of their own (not %s): %s\n", name, strings.Join(others, ", "))
	}
	fmt.Fprintf(c.App.Writer, "next: make run decide something, pin it in %s, and run go test ./...\n", testPath)
	return nil
}

// updateGoldens runs the golden tests and rewrites, with -update, those that fail only
// because they list every hook (their diff names the new one); a test failing for any other
// reason is left alone and named. Then it runs them again to check.
func updateGoldens(w io.Writer, dir, name string) (updated, others []string, err error) {
	fmt.Fprintf(w, "running the golden tests to update those that list every hook ...\n")
	b, _ := goTest(dir)
	for test, log := range failedScripts(string(b)) {
		if strings.Contains(log, name) && strings.Contains(log, "differ") {
			updated = append(updated, test)
		} else {
			others = append(others, test)
		}
	}
	sort.Strings(updated)
	sort.Strings(others)
	if len(updated) == 0 {
		return nil, others, nil
	}
	only := "^TestScripts$/^(" + strings.Join(updated, "|") + ")$"
	if b, err := goTest(dir, "-run", only, "-update"); err != nil && !strings.Contains(string(b), "FAIL") {
		return nil, nil, fmt.Errorf("go test -update: %w\n%s", err, b)
	}
	if b, err := goTest(dir, "-run", only); err != nil {
		return nil, nil, fmt.Errorf("still failing after -update:\n%s", b)
	}
	return updated, others, nil
}

func goTest(dir string, args ...string) ([]byte, error) {
	if len(args) == 0 {
		args = []string{"-run", "^TestScripts$"}
	}
	cmd := exec.Command("go", append([]string{"test", "./tests", "-count=1"}, args...)...)
	cmd.Dir = dir
	return cmd.CombinedOutput()
}

// failedScripts maps each failing testscript of go test's output to its log.
func failedScripts(out string) map[string]string {
	fails := map[string]string{}
	cur := ""
	for _, l := range strings.Split(out, "\n") {
		t := strings.TrimSpace(l)
		if rest, ok := strings.CutPrefix(t, "--- FAIL: TestScripts/"); ok {
			cur, _, _ = strings.Cut(rest, " ")
			fails[cur] = ""
			continue
		}
		if strings.HasPrefix(t, "--- FAIL: ") || strings.HasPrefix(t, "--- PASS: ") || t == "FAIL" || strings.HasPrefix(t, "FAIL\t") {
			cur = ""
		}
		if cur != "" {
			fails[cur] += l + "\n"
		}
	}
	return fails
}

// captured is the payload the real client sent for the event, from the fixtures, or a minimal
// one with the common fields.
func captured(dir string, ev event.Name) string {
	if b, err := os.ReadFile(filepath.Join(dir, "lib", "event", "testdata", "captured", string(ev)+".json")); err == nil {
		return string(pretty.Ugly(b))
	}
	return fmt.Sprintf(`{"session_id":"s","transcript_path":"","cwd":"/tmp","hook_event_name":%q}`, ev)
}

// modulePath reads the module path of a go.mod.
func modulePath(path string) string {
	b, _ := os.ReadFile(path)
	for _, l := range strings.Split(string(b), "\n") {
		if m, ok := strings.CutPrefix(strings.TrimSpace(l), "module "); ok {
			return strings.TrimSpace(m)
		}
	}
	return ""
}

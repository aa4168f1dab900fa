package main

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness/lib/builtin"
	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/object"
	"github.com/hookkit/harness/lib/server"
	"github.com/hookkit/harness/lib/settings"
)

// Serve mode's fixed names: the variable the settings' env gives the secret in (the hooks'
// header reads it), the units' name, the listen address by default.
const (
	serveSecretVar     = "HARNESS_SERVE_SECRET"
	serveUnitName      = "harness-serve"
	defaultServeListen = "127.0.0.1:8765"
	// serveHTTPTimeout is the HTTP hooks' timeout: above the hooks' own deadline in the server
	// (below their 5 s binding), so a slow call is the hook's deny, not a timeout.
	serveHTTPTimeout = 10
)

// serveFlags are install's flags for serve mode.
var serveFlags = []cli.Flag{
	&cli.BoolFlag{Name: "serve", Usage: "Claude Code only: wire the guards and AuditLog as HTTP hooks answered by harness serve, with its secret, allowlist entries and the service that holds its socket (systemd user units; a launch agent on macOS) (docs/serve.md)"},
	&cli.StringFlag{Name: "listen", Usage: "with --serve: the loopback address the socket holds (default " + defaultServeListen + ")"},
}

// httpEvent says whether Claude Code takes an HTTP hook on an event, and serve mode wires one
// there: not on SessionStart or Setup (Claude Code runs none there), nor on SessionEnd, whose
// 1.5 s budget for every hook the binaries keep.
func httpEvent(ev string) bool { return ev != "SessionStart" && ev != "Setup" && ev != "SessionEnd" }

// serveSecretPath is where install --serve keeps the secret: a fixed place under the account's
// home, which SecurityValidator and WriteProtector know (a session may not read it).
func serveSecretPath(userHome string) string {
	return filepath.Join(userHome, ".config", "harness", "serve.secret")
}

// serveRefusal is why serve mode cannot be installed here ("" when it can).
func serveRefusal(c *cli.Context, d *dialect.Dialect) string {
	switch {
	case !d.Identity:
		return "serve mode is for Claude Code only (its hooks of type \"http\"): " + d.Title + " runs the binaries; install without --serve"
	case c.Bool("managed"):
		return "--serve with --managed is refused: harness serve runs as each user's service, on a socket their own service manager holds; " +
			"a managed install would need a system service on a socket the system holds, which the harness does not set up. " +
			"Install the binaries with --managed, and serve mode per user with harness install --serve"
	case platformRefusal(runtime.GOOS) != "":
		return platformRefusal(runtime.GOOS)
	case c.IsSet("scope") && c.String("scope") != "user":
		return "--serve writes the secret into the settings' env: the user scope only (or --settings naming a file of your own), never " +
			"a project's files, which the repository shares"
	case c.String("from") != "":
		return "--serve wires the harness's own hooks: --from does not apply"
	}
	return ""
}

// platformRefusal is why serve mode is not set up on a system ("" where systemd's user units
// or, on macOS, a launch agent hold its socket).
func platformRefusal(goos string) string {
	switch goos {
	case "windows":
		return "serve mode is not set up on Windows: no service manager holds a loopback socket for a user's service there, so another " +
			"process could take the port while the server restarts. The binaries stay (install without --serve)"
	}
	return ""
}

// serveInstall is install --serve: the secret, the units, and the settings file with the
// guards and AuditLog as HTTP hooks, serve-register on SessionStart, the allowlist entries and
// the secret's variable; then the units enabled when a user manager runs. Everything is tried
// first writing nothing, so that a refusal leaves every file as it was; every file written is
// recorded in the manifest, which uninstall undoes.
func serveInstall(c *cli.Context, d *dialect.Dialect, home, bin string) error {
	if why := serveRefusal(c, d); why != "" {
		return cli.Exit("harness install --serve: "+why, exitUsage)
	}
	listen := c.String("listen")
	if listen == "" {
		listen = defaultServeListen
	}
	err := loopback(listen)
	if err == nil {
		err = hostService.Address(listen)
	}
	if err != nil {
		return cli.Exit(fmt.Sprintf("harness install --serve: --listen %s: %v", listen, err), exitUsage)
	}
	form, onFailure, why, err := chooseForm(c.String("form"))
	if err != nil {
		return err
	}
	why = map[settings.Form]string{settings.Exec: "exec", settings.Shell: "shell"}[form] + " form (" + why + ")"
	if !onFailure {
		return cli.Exit("harness install --serve: this Claude Code predates onFailure (2.1.330): an HTTP hook that fails would let the call run; install without --serve", exitUsage)
	}
	file, _, err := hookFile(c, d)
	if err != nil {
		return err
	}
	if err := present(d, file); err != nil {
		return err
	}
	harnessBin := filepath.Join(bin, "harness")
	built := harnessBin
	if b := c.String("built"); b != "" {
		built = filepath.Join(b, "harness")
	}
	if st, err := os.Stat(built); err != nil || st.Mode()&0o111 == 0 {
		return fmt.Errorf("%s is not built (run ./install.sh, or pass --bin): harness serve runs from it", built)
	}
	userHome, err := os.UserHomeDir()
	if err != nil {
		return fmt.Errorf("finding the home directory: %w", err)
	}
	m, err := settings.LoadManifest(home)
	if err != nil {
		return err
	}
	secretFile := serveSecretPath(userHome)
	secret, theirs, err := serveSecret(m, secretFile)
	if err != nil {
		return err
	}
	base := "http://" + listen
	groups, err := serveEntries(c, home, bin, harnessBin, form, base)
	if err != nil {
		return err
	}
	svc := hostService
	units := svc.Files(userHome, harnessBin, listen, secretFile, home, systemDir(c))
	var files []settings.Whole
	if !theirs {
		files = append(files, settings.Whole{Path: secretFile, Data: []byte(secret + "\n"), Mode: 0o600})
	}
	files = append(files, units...)
	var unitPaths []string
	for _, u := range units {
		unitPaths = append(unitPaths, u.Path)
	}
	plan := settings.Plan{File: file, Home: home, Groups: groups, Client: d.Recorded(), Mode: 0o600, Keys: []settings.Key{
		settings.NewKey("allowedHttpHookUrls", base+"/*"),
		settings.NewKey("httpHookAllowedEnvVars", serveSecretVar),
		settings.NewKey("env."+serveSecretVar, secret),
	}}

	// Tried first, writing nothing: a refusal of either leaves everything as it was.
	dry := plan
	dry.DryRun = true
	if _, err := settings.WriteOwned(home, files, true); err != nil {
		return err
	}
	if _, err := settings.Install(dry); err != nil {
		return err
	}
	if c.Bool("dry-run") {
		res, _ := settings.Install(dry)
		placed, _ := settings.WriteOwned(home, files, true)
		// The diff shows where the secret goes, never the secret.
		hide := func(b []byte) []byte {
			return []byte(strings.ReplaceAll(string(b), secret, "<the secret in "+secretFile+">"))
		}
		res.Before, res.After = hide(res.Before), hide(res.After)
		reportServe(c, home, file, why, res, placed, theirs, secretFile, "", listen)
		return nil
	}
	placed, err := settings.WriteOwned(home, files, false)
	if err != nil {
		return err
	}
	res, err := settings.Install(plan)
	if err != nil {
		return err
	}
	started, manager := svc.Start(placed)
	if err := settings.SetServe(home, &settings.Serve{Listen: listen, Secret: secretFile, Settings: file,
		Units: unitPaths, Manager: manager, Service: svc.Name()}); err != nil {
		return err
	}
	reportServe(c, home, file, why, res, placed, theirs, secretFile, started, listen)
	return nil
}

// serveSecret is the secret to wire: the one in the file when there is one (the harness's from
// an earlier install, or the user's own, which is then theirs: uninstall leaves it), else a new
// one of 32 random bytes.
func serveSecret(m *settings.Manifest, file string) (secret string, theirs bool, err error) {
	if _, err := os.Lstat(file); err == nil {
		s, err := readSecret(file)
		if err != nil {
			return "", false, err
		}
		ours := slices.ContainsFunc(m.Owned, func(o settings.Copy) bool { return o.Path == file })
		return s, !ours, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", false, err
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", false, fmt.Errorf("making the secret: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), false, nil
}

// serveEntries is the wiring in serve mode: every handler of a hook the server runs
// (builtin.Hooks) on an event that takes HTTP hooks becomes an HTTP hook, its onFailure and
// statusMessage kept; every other handler stays the binary; serve-register goes on
// SessionStart.
func serveEntries(c *cli.Context, home, bin, harnessBin string, form settings.Form, base string) ([]settings.Entry, error) {
	wirings, err := wiring(c, bin)
	if err != nil {
		return nil, err
	}
	var out []settings.Entry
	for _, w := range wirings {
		var g []byte
		if _, served := builtin.Hooks[w.Hook]; served && httpEvent(w.Event) {
			if g, err = httpGroup(w, base); err != nil {
				return nil, err
			}
		} else {
			if err := checkBuilt(c, w, bin); err != nil {
				return nil, err
			}
			if g, err = w.Group(bin, form, true, places(c, home)); err != nil {
				return nil, err
			}
		}
		out = append(out, settings.Entry{Hook: w.Hook, Event: w.Event, Matcher: w.Matcher, Group: g})
	}
	args := []string{"serve-register", "--home", home, "--url", base}
	var h object.Object
	h.Set("type", "command")
	if form == settings.Exec {
		h.Set("command", harnessBin)
		h.Set("args", args)
	} else {
		h.Set("command", settings.ShellQuote(harnessBin)+" "+strings.Join(quoteAll(args), " "))
	}
	h.Set("timeout", 5)
	h.Set("statusMessage", "harness serve: registering the session")
	g, _ := sjson.Set(`{}`, "matcher", "*")
	g, err = sjson.SetRaw(g, "hooks", "["+string(h.AppendJSON(nil))+"]")
	if err != nil {
		return nil, err
	}
	return append(out, settings.Entry{Hook: "serve-register", Event: "SessionStart", Matcher: "*", Group: []byte(g)}), nil
}

func quoteAll(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = settings.ShellQuote(a)
	}
	return out
}

// httpGroup renders a wiring as an HTTP hook to harness serve: its URL, the HTTP timeout, the
// wiring's onFailure (the guards' block; AuditLog has none: it fails open, as its binary does)
// and statusMessage, and the header that carries the secret from the variable the settings'
// env holds.
func httpGroup(w settings.Wiring, base string) ([]byte, error) {
	var h object.Object
	h.Set("type", "http")
	h.Set("url", base+"/hook/"+w.Hook)
	h.Set("timeout", serveHTTPTimeout)
	if v := gjson.Get(w.Handler, "onFailure"); v.Exists() {
		h.Set("onFailure", object.Raw(v.Raw))
	}
	if v := gjson.Get(w.Handler, "statusMessage"); v.Exists() {
		h.Set("statusMessage", object.Raw(v.Raw))
	}
	h.Set("headers."+server.SecretHeader, "$"+serveSecretVar)
	h.Set("allowedEnvVars", []string{serveSecretVar})
	return settings.MatcherGroup(w.Matcher, h)
}

// reportServe says what install --serve did: the settings file's changes, the files written
// (the secret by its path alone, never its content), and whether the socket listens.
func reportServe(c *cli.Context, home, file, why string, res settings.Result, placed []settings.Placed, theirs bool, secretFile, started, listen string) {
	out, dry := c.App.Writer, c.Bool("dry-run")
	how := "serve mode: the guards and AuditLog as HTTP hooks to http://" + listen + ", the other hooks' binaries in " + why
	fmt.Fprintf(out, "%s (user scope), %s:\n", file, how)
	printResult(out, res)
	fmt.Fprintln(out, "  not wired as HTTP hooks (the binaries stay): SessionStart (Claude Code runs no HTTP hook there: serve-register and AuditLog), SessionEnd (its 1.5 s budget for every hook)")
	wrote := res.Wrote
	fmt.Fprintln(out, "files of serve mode:")
	for _, p := range placed {
		fmt.Fprintf(out, "  %s\n", p)
		wrote = wrote || p.Kind == "add" || p.Kind == "update"
	}
	if theirs {
		fmt.Fprintf(out, "  keep    %s (yours: its secret is used, and uninstall leaves it)\n", secretFile)
	}
	if dry {
		writeDiff(out, file, res.Before, res.After)
	}
	if started != "" {
		fmt.Fprintln(out, started)
	}
	name := onPath(out, home, c.String("built"), dry)
	footer(out, dry, wrote, fmt.Sprintf("%s uninstall --settings %s", name, file))
}

// serveUninstall undoes the rest of install --serve once no settings file holds its keys any
// more: the units stopped and disabled (by the user manager when one runs), then the files it
// wrote, each only while it holds what was written (or with --force). A dry run, which changed
// no settings file, counts those it would have uninstalled (dropped) as gone.
func serveUninstall(c *cli.Context, home string, dropped ...string) error {
	m, err := settings.LoadManifest(home)
	if err != nil {
		return err
	}
	if len(m.Owned) == 0 {
		return nil
	}
	for _, r := range m.Files {
		if len(r.Keys) > 0 && !(c.Bool("dry-run") && slices.Contains(dropped, r.Path)) {
			return nil // its settings are still wired: the server stays
		}
	}
	out, dry := c.App.Writer, c.Bool("dry-run")
	fmt.Fprintln(out, "files of serve mode:")
	var svc service
	if m.Serve != nil {
		svc = serviceOf(m.Serve)
	}
	if !dry && svc != nil {
		svc.Stop(out, m.Serve)
	}
	placed, dirs, err := settings.RemoveOwned(home, c.Bool("force"), dry)
	if err != nil {
		return err
	}
	left := false
	for _, p := range placed {
		fmt.Fprintf(out, "  %s\n", p)
		left = left || p.Kind == "edited"
	}
	for _, d := range dirs {
		fmt.Fprintf(out, "  removed the folder %s: the install had created it, and it is empty now\n", d)
	}
	if !dry && svc != nil {
		svc.Forget()
	}
	if left {
		return cli.Exit("files of serve mode changed since the install were left in place; run harness uninstall --force to remove them too", 1)
	}
	return nil
}

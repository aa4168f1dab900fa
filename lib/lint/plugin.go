package lint

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/settings"
)

// plugin checks a PluginFile client's plugin (OpenCode's): that it is the harness's, unedited,
// and that every hook it runs is there, executable, told its client, on an event the plugin
// fires, with a deadline no shorter than the hook's own.
func (c *checker) plugin(data []byte, d *dialect.Dialect) {
	cfg, same, err := settings.ReadPlugin(d, data)
	if err != nil {
		c.add(Error, "plugin.unreadable", "", "%v", err)
		return
	}
	if !same {
		c.add(Error, "plugin.edited", "", "the plugin is not the one harness writes for its hooks (edited by hand, or from another version): run harness install --client %s again", d.Client)
	}
	if len(cfg.Hooks) == 0 {
		c.add(Error, "plugin.empty", "hooks", "the plugin runs no hook")
	}
	for i, h := range cfg.Hooks {
		path := index("hooks", i)
		if _, ok := d.Event(event.Name(h.Event)); !ok {
			c.add(Error, "client.event", join(path, "event"), "the %s plugin never fires %q: this hook never runs", d.Title, h.Event)
		}
		if m := h.Matcher; m != "" && m != "*" {
			if _, err := regexp.Compile("^(?:" + m + ")$"); err != nil {
				c.add(Error, "matcher.invalid", join(path, "matcher"), "%q is not a regular expression: the plugin runs this hook on every call (%v)", m, err)
			}
		}
		if len(h.Argv) == 0 {
			c.add(Error, "plugin.argv", join(path, "argv"), "no program to run: the plugin blocks every call it selects")
			continue
		}
		prog := h.Argv[0]
		st, err := os.Stat(prog)
		switch {
		case !filepath.IsAbs(prog):
			c.add(Error, "plugin.argv", join(path, "argv"), "%s is not an absolute path: the plugin runs no shell and looks up no PATH", prog)
		case err != nil:
			c.add(Error, "command.missing", join(path, "argv"), "%s is not there: the plugin blocks every call this hook selects", prog)
		case st.IsDir() || st.Mode()&0o111 == 0:
			c.add(Error, "command.not-executable", join(path, "argv"), "%s is not executable: the plugin blocks every call this hook selects", prog)
		}
		if !slices.Contains(h.Argv, "--client="+string(d.Client)) {
			c.add(Error, "plugin.client", join(path, "argv"), "%s is not told --client=%s: it reads the payload as Claude Code's and misses %s's tool names", h.Hook, d.Client, d.Title)
		}
		for _, a := range h.Argv {
			if v, ok := strings.CutPrefix(a, "--timeout="); ok {
				if n, err := strconv.Atoi(v); err == nil && int64(n) > h.Timeout {
					c.add(Error, "client.timeout", join(path, "timeout"), "the plugin gives %s %d s, below its own deadline of %d s: it is killed, and the call blocked, before it answers", h.Hook, h.Timeout, n)
				}
			}
		}
		if h.Timeout <= 0 {
			c.add(Error, "client.timeout", join(path, "timeout"), "a timeout of %d s: the plugin kills %s at once", h.Timeout, h.Hook)
		}
	}
}

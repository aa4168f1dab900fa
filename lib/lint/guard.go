package lint

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/hook"
)

// guardTimeouts are the timeouts the harness guards are built with, per event
// (hooks/<Name>/main.go; tests/ checks them against each binary's --describe). A guard run
// without --timeout=N on its command line takes its deadline from these.
var guardTimeouts = map[string]map[event.Name]int{
	"SecurityValidator": {event.PreToolUse: 5, event.PreSkillShellCommand: 5},
	"WriteProtector":    {event.PreToolUse: 5, event.PreSkillShellCommand: 5},
	"SecretGuard":       {event.UserPromptSubmit: 10, event.PreToolUse: 5, event.PreSkillShellCommand: 5, event.SessionEnd: 1},
}

// GuardTimeout returns the timeout, in seconds, the harness guard name is built with on ev;
// 0 when name is not a guard or has no binding there.
func GuardTimeout(name string, ev event.Name) int { return guardTimeouts[name][ev] }

// guardOf names the harness guard a handler runs ("" for any other command): the base name
// of its program, and the --timeout=N it is installed with (0 without one). words are the
// command and its arguments: exec form's command and args, or shell form's words.
func guardOf(words []string) (name string, installed int) {
	if len(words) == 0 {
		return "", 0
	}
	name = strings.Trim(filepath.Base(strings.Trim(words[0], `"'`)), `"'`)
	if _, ok := guardTimeouts[name]; !ok {
		return "", 0
	}
	for _, w := range words[1:] {
		if v, ok := strings.CutPrefix(strings.Trim(w, `"'`), "--timeout="); ok {
			installed, _ = strconv.Atoi(v)
		}
	}
	return name, installed
}

// guardDeadline is the deadline a harness guard answers by on ev: below its built-in timeout
// for the event, and below the one it is installed with (lib/hook's own rule).
func guardDeadline(name string, ev event.Name, installed int) time.Duration {
	d := time.Duration(0)
	if t := guardTimeouts[name][ev]; t > 0 {
		d = hook.Deadline(hook.Spec{Events: []hook.Binding{{Timeout: t}}})
	}
	if installed > 0 {
		i := hook.Deadline(hook.Spec{Events: []hook.Binding{{Timeout: installed}}})
		if d == 0 || i < d {
			d = i
		}
	}
	return d
}

// guard checks a Claude Code handler that runs a harness guard (SecurityValidator,
// WriteProtector, SecretGuard): where the event can block, it must block when it fails
// (onFailure "block", Claude Code 2.1.330 on), and its timeout must be above the guard's own
// deadline, or Claude Code kills it before it answers and the call runs.
func (c *checker) guard(spec event.Spec, ms []member, path string) {
	cmd, _ := get(ms, "command")
	words := strings.Fields(cmd.Str)
	if args, ok := get(ms, "args"); ok {
		words = []string{cmd.Str}
		for _, a := range args.Array() {
			words = append(words, a.Str)
		}
	}
	name, installed := guardOf(words)
	if name == "" {
		return
	}
	c.guardCommand(name, words, join(path, "command"))
	if v, ok := get(ms, "onFailure"); spec.Block == event.Blocks && (!ok || v.Str != "block") {
		c.add(Warning, "guard.on-failure", join(path, "onFailure"), "%s is a harness guard, and without onFailure \"block\" its crash, kill or missing binary lets the call run: write \"onFailure\": \"block\"", name)
	}
	t, ok := get(ms, "timeout")
	if !ok || t.Type != gjson.Number {
		return
	}
	c.guardTimeout(name, spec.Name, installed, time.Duration(t.Num*float64(time.Second)), t.Raw+" s", join(path, "timeout"))
}

// guardCommand warns when a guard's command line depends on the environment: a variable, a
// command substitution or ~ expanded by the shell, or a program found on PATH. A project's
// settings can set env for every hook, so such a command could run another program, or the
// guard with other flags; the installer writes an absolute path and literal flags.
func (c *checker) guardCommand(name string, words []string, path string) {
	prog := strings.Trim(words[0], `"'`)
	for _, w := range words {
		if strings.ContainsAny(w, "$`") || strings.HasPrefix(strings.Trim(w, `"'`), "~") {
			c.add(Warning, "guard.command-env", path, "%s's command expands %s when it runs, and a project's settings can set the environment of every hook: write the absolute path and literal flags, as harness install does", name, w)
			return
		}
	}
	if !filepath.IsAbs(prog) {
		c.add(Warning, "guard.command-env", path, "%s is found on PATH when it runs, and a project's settings can set PATH for every hook: write its absolute path, as harness install does", name)
	}
}

// guardTimeout warns when the client gives a guard no more time than its own deadline: the
// client kills it first, and a killed hook lets the call run.
func (c *checker) guardTimeout(name string, ev event.Name, installed int, given time.Duration, as, path string) {
	d := guardDeadline(name, ev, installed)
	if d == 0 || given > d {
		return
	}
	how := fmt.Sprintf("its %s timeout", ev)
	if installed > 0 {
		how = fmt.Sprintf("--timeout=%d", installed)
	}
	c.add(Warning, "guard.timeout", path, "%s answers by its own deadline, %v (from %s), but this timeout (%s) kills it first, and a killed guard lets the call run: give it more than %v", name, d, how, as, d)
}

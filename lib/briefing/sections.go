package briefing

import (
	"context"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/bitfield/script"
	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/summary"
)

// catchUpLimit bounds the catch-up of a summary whose transcript grew since it was written;
// the rest of the briefing's budget is left to the other sections.
const catchUpLimit = time.Second

// continuity is the previous session's summary; after a compaction, this session's own. A
// summary whose transcript has grown since it was written (Behind: a stat) is first brought
// up to date from its checkpoint (summary.CatchUp); one that cannot be within catchUpLimit is
// shown as it is, and the debug writer says so.
func (b *builder) continuity(ctx context.Context) string {
	var d summary.Doc
	title := "Previous session in this project"
	if b.o.Source == "compact" {
		var ok bool
		if d, ok = summary.Open(b.o.HarnessHome, b.o.Project, 0).Load(b.o.Session); !ok {
			b.skip(Continuity, "no summary of this session yet")
			return ""
		}
		title = "This session so far (before the compaction)"
	} else {
		var ok bool
		if d, _, ok = summary.Newest(b.o.HarnessHome, b.o.Project, b.o.Session); !ok {
			b.skip(Continuity, "no earlier session summary in "+summary.Dir(b.o.HarnessHome, b.o.Project))
			return ""
		}
	}
	if d.Behind() {
		ctx, cancel := context.WithTimeout(ctx, catchUpLimit)
		nd, _, err := summary.Open(b.o.HarnessHome, b.o.Project, b.o.Config.Int("summary.keep", summary.DefaultKeep)).CatchUp(ctx, d.Session, b.o.Home)
		cancel()
		if err != nil {
			b.skip(Continuity, "the summary shown is behind its transcript: "+err.Error())
		} else if nd.Session != "" {
			d = nd
		}
	}
	var s strings.Builder
	fmt.Fprintf(&s, "## %s\n", title)
	when := d.End
	if when == "" {
		when = d.Start
	}
	fmt.Fprintf(&s, "Session %s, last active %s", d.Session, when)
	if d.Final {
		fmt.Fprintf(&s, ", ended (%s)", d.EndReason)
	}
	s.WriteString(".\n")
	if d.Unreadable != "" {
		fmt.Fprintf(&s, "Not summarised: %s.\n", d.Unreadable)
		return s.String()
	}
	list := func(label string, items []string, total, max int) {
		if total == 0 {
			return
		}
		if len(items) > max {
			items = items[:max]
		}
		fmt.Fprintf(&s, "%s: %s", label, strings.Join(items, "; "))
		if total > len(items) {
			fmt.Fprintf(&s, " (and %d more)", total-len(items))
		}
		s.WriteString("\n")
	}
	list("Asked", d.Prompts.Items, d.Prompts.Total, 5)
	var tools []string
	for _, n := range d.ToolsByCount() {
		tools = append(tools, fmt.Sprintf("%s %d", n, d.Tools[n]))
	}
	list("Tool calls", tools, len(tools), 8)
	list("Files created", d.Created.Items, d.Created.Total, 10)
	list("Files edited", d.Edited.Items, d.Edited.Total, 10)
	var failed, blocked []string
	for _, e := range d.Failures {
		failed = append(failed, strings.TrimSpace(e.Tool+" "+e.Input)+": "+e.Reason)
	}
	for _, e := range d.Blocked {
		blocked = append(blocked, strings.TrimSpace(e.Tool+" "+e.Input)+": "+e.Reason)
	}
	list("Failed", failed, len(failed), 3)
	list("Blocked", blocked, len(blocked), 3)
	var agents []string
	for _, a := range d.Subagents {
		item := strings.TrimSpace(a.Type + ": " + a.Description)
		if r := Cap(strings.TrimSpace(firstLine(strings.TrimSpace(a.Result))), 160); r != "" {
			item += " -> " + r
		}
		agents = append(agents, item)
	}
	list("Subagents", agents, len(agents), 3)
	list("Left open (the last todo list)", d.Open.Items, d.Open.Total, 5)
	if d.LastMessage != "" {
		fmt.Fprintf(&s, "Last reply: %s\n", Cap(d.LastMessage, 600))
	}
	return s.String()
}

// git runs git in the project.
func (b *builder) git(ctx context.Context, args ...string) (string, error) {
	return b.run(ctx, "git", args...)
}

// inRepo says whether the project is in a work tree, noting why not for section.
func (b *builder) inRepo(ctx context.Context, section string) bool {
	if out, err := b.git(ctx, "rev-parse", "--is-inside-work-tree"); err != nil || out != "true" {
		if err == nil {
			err = fmt.Errorf("not inside a work tree")
		}
		b.skip(section, "left out: "+err.Error())
		return false
	}
	return true
}

// wip is the work in progress beyond the status line Claude Code shows.
func (b *builder) wip(ctx context.Context) string {
	if !b.inRepo(ctx, WIP) {
		return ""
	}
	var s strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&s, "- "+format+"\n", args...) }
	if _, err := b.git(ctx, "rev-parse", "--verify", "-q", "HEAD"); err != nil {
		line("No commits yet.")
	} else if stat, err := b.git(ctx, "diff", "HEAD", "--shortstat"); err != nil {
		b.skip(WIP, err.Error())
	} else if strings.TrimSpace(stat) != "" {
		// The files by name, so the model need not run git to learn what is in progress.
		names, _ := b.git(ctx, "diff", "HEAD", "--name-only", "-z")
		line("Uncommitted changes against HEAD: %s: %s", strings.TrimSpace(stat), fileList(strings.Split(strings.Trim(names, "\x00"), "\x00")))
	}
	if out, err := b.git(ctx, "ls-files", "--others", "--exclude-standard", "-z"); err == nil && strings.Trim(out, "\x00") != "" {
		files := strings.Split(strings.Trim(out, "\x00"), "\x00")
		line("Untracked files (%d): %s", len(files), fileList(files))
	}
	if up, err := b.git(ctx, "rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{u}"); err == nil {
		if counts, err := b.git(ctx, "rev-list", "--left-right", "--count", "@{u}...HEAD"); err == nil {
			if f := strings.Fields(counts); len(f) == 2 && f[0] == "0" && f[1] == "0" {
				line("In sync with upstream %s.", up)
			} else if len(f) == 2 {
				line("Upstream %s: %s ahead, %s behind", up, f[1], f[0])
			}
		}
		b.commits(ctx, &s, "Unpushed commits", "@{u}..HEAD")
	} else if _, err := b.git(ctx, "rev-parse", "--verify", "-q", "HEAD"); err == nil {
		line("No upstream branch.")
		b.commits(ctx, &s, "Commits on no remote", "HEAD", "--not", "--remotes")
	}
	if out, err := b.git(ctx, "stash", "list"); err == nil && out != "" {
		n, _ := script.Echo(out + "\n").CountLines()
		first, _ := script.Echo(out + "\n").First(3).Slice()
		line("Stashes (%d): %s", n, strings.Join(first, "; "))
	}
	if out, err := b.git(ctx, "reflog", "-n", "300", "--format=%gs"); err == nil {
		cur, _ := b.git(ctx, "branch", "--show-current")
		re := regexp.MustCompile(`^checkout: moving from (\S+) to (\S+)$`)
		seen := map[string]bool{cur: true}
		var recent []string
		moves, _ := script.Echo(out+"\n").MatchRegexp(re).ReplaceRegexp(re, "$2\n$1").Slice()
		for _, br := range moves {
			if !seen[br] && len(recent) < 5 && isBranch(ctx, b, br) {
				seen[br] = true
				recent = append(recent, br)
			}
		}
		if len(recent) > 0 {
			line("Recently checked out: %s", strings.Join(recent, ", "))
		}
	}
	if s.Len() == 0 {
		return ""
	}
	return "## Work in progress\n" + clean(s.String())
}

// maxFiles caps the file names a work-in-progress line gives; the rest are counted.
const maxFiles = 10

// fileList names files, at most maxFiles of them, and counts the rest.
func fileList(files []string) string {
	if len(files) <= maxFiles {
		return strings.Join(files, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(files[:maxFiles], ", "), len(files)-maxFiles)
}

func isBranch(ctx context.Context, b *builder, name string) bool {
	_, err := b.git(ctx, "show-ref", "--verify", "-q", "refs/heads/"+name)
	return err == nil
}

// commits lists up to five commits of a range with their count.
func (b *builder) commits(ctx context.Context, s *strings.Builder, label string, rng ...string) {
	out, err := b.git(ctx, append([]string{"log", "--format=%h %s"}, rng...)...)
	if err != nil || out == "" {
		return
	}
	n, _ := script.Echo(out + "\n").CountLines()
	first, _ := script.Echo(out + "\n").First(5).Slice()
	fmt.Fprintf(s, "- %s (%d):\n", label, n)
	for _, c := range first {
		fmt.Fprintf(s, "  - %s\n", c)
	}
	if n > len(first) {
		fmt.Fprintf(s, "  - ... and %d more\n", n-len(first))
	}
}

// shape is the top-level listing, the build and test commands, and the toolchains.
func (b *builder) shape(ctx context.Context) string {
	entries, err := os.ReadDir(b.o.Project)
	if err != nil {
		b.skip(Shape, err.Error())
		return ""
	}
	var names []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		n := e.Name()
		if e.IsDir() {
			n += "/"
		}
		names = append(names, n)
	}
	sort.Strings(names)
	var s strings.Builder
	s.WriteString("## Project\n")
	max := b.c.Int("context.listing_max", 100)
	if len(names) == 0 {
		s.WriteString("Top level: nothing but dot-files")
	} else {
		fmt.Fprintf(&s, "Top level (%d entries): ", len(names))
	}
	shown := names
	if len(shown) > max {
		shown = shown[:max]
	}
	s.WriteString(strings.Join(shown, " "))
	if len(names) > len(shown) {
		fmt.Fprintf(&s, " ... and %d more", len(names)-len(shown))
	}
	s.WriteString("\n")
	cmds, tools := b.detect()
	if len(cmds) > 0 {
		fmt.Fprintf(&s, "Build and test commands: %s\n", strings.Join(cmds, ", "))
	}
	var versions []string
	for _, t := range tools {
		out, err := b.run(ctx, t[0], t[1:]...)
		if err != nil {
			b.skip(Shape, err.Error())
			continue
		}
		versions = append(versions, firstLine(out))
	}
	if len(versions) > 0 {
		fmt.Fprintf(&s, "Toolchains: %s\n", strings.Join(versions, "; "))
	}
	return clean(s.String())
}

// commonScripts are the package.json scripts kept when a project has too many to list.
var commonScripts = map[string]bool{"build": true, "test": true, "lint": true, "check": true, "typecheck": true,
	"dev": true, "start": true, "format": true}

var makeTarget = regexp.MustCompile(`^([A-Za-z0-9][A-Za-z0-9_.-]*)[ \t]*:([^=].*)?$`)

// detect finds the build and test commands a project's files declare, and the toolchain
// version commands for them.
func (b *builder) detect() (cmds []string, tools [][]string) {
	has := func(name string) bool {
		_, err := os.Stat(filepath.Join(b.o.Project, name))
		return err == nil
	}
	read := func(name string) string {
		data, _ := os.ReadFile(filepath.Join(b.o.Project, name))
		return string(data)
	}
	tool := func(t ...string) { tools = append(tools, t) }
	if has("go.mod") {
		cmds = append(cmds, "`go build ./...`", "`go test ./...`", "`go vet ./...`")
		tool("go", "version")
	}
	if has("package.json") {
		pm := "npm"
		switch {
		case has("pnpm-lock.yaml"):
			pm = "pnpm"
		case has("yarn.lock"):
			pm = "yarn"
		case has("bun.lockb") || has("bun.lock"):
			pm = "bun"
		}
		var scripts []string
		gjson.Get(read("package.json"), "scripts").ForEach(func(k, _ gjson.Result) bool {
			scripts = append(scripts, k.String())
			return true
		})
		sort.Strings(scripts)
		for _, sc := range scripts {
			if len(scripts) > 12 && !commonScripts[sc] {
				continue
			}
			cmds = append(cmds, fmt.Sprintf("`%s run %s`", pm, sc))
		}
		tool("node", "--version")
		if pm != "npm" {
			tool(pm, "--version")
		}
	}
	for _, mf := range []string{"GNUmakefile", "makefile", "Makefile"} {
		if !has(mf) {
			continue
		}
		targets, _ := script.File(filepath.Join(b.o.Project, mf)).MatchRegexp(makeTarget).ReplaceRegexp(makeTarget, "$1").Slice()
		seen := map[string]bool{}
		n := 0
		for _, t := range targets {
			if seen[t] || strings.HasPrefix(t, ".") || n >= 15 {
				continue
			}
			seen[t] = true
			n++
			cmds = append(cmds, "`make "+t+"`")
		}
		tool("make", "--version")
		break
	}
	if has("Cargo.toml") {
		cmds = append(cmds, "`cargo build`", "`cargo test`")
		tool("cargo", "--version")
	}
	if has("pyproject.toml") || has("setup.py") || has("requirements.txt") {
		py := read("pyproject.toml")
		runner := ""
		switch {
		case has("uv.lock"):
			runner = "uv run "
		case has("poetry.lock") || strings.Contains(py, "[tool.poetry]"):
			runner = "poetry run "
		}
		if strings.Contains(py, "pytest") || has("pytest.ini") || has("tests") || has("conftest.py") {
			cmds = append(cmds, "`"+runner+"pytest`")
		}
		if strings.Contains(py, "[tool.ruff") {
			cmds = append(cmds, "`"+runner+"ruff check`")
		}
		tool("python3", "--version")
	}
	if has("CMakeLists.txt") {
		cmds = append(cmds, "`cmake -B build && cmake --build build`")
		tool("cmake", "--version")
	}
	if has("gradlew") {
		cmds = append(cmds, "`./gradlew build`", "`./gradlew test`")
	} else if has("pom.xml") {
		cmds = append(cmds, "`mvn package`", "`mvn test`")
	}
	return cmds, tools
}

// promptFiles are the files the user names, walked up from the project and from home, each
// capped; CLAUDE.md never, since Claude Code loads it itself.
func (b *builder) promptFiles() string {
	names := b.c.Strings("context.prompt_files", []string{defaultPromptFile, "CONTEXT.md"})
	each := b.c.Int("context.caps.prompt_file", defaultFileCap)
	seen := map[string]bool{}
	var out []string
	dirs := ancestors(b.o.Project)
	if b.o.Home != "" {
		dirs = append(dirs, b.o.Home, filepath.Join(b.o.Home, ".claude"))
	}
	for _, name := range names {
		if strings.EqualFold(filepath.Base(name), "CLAUDE.md") || name == "" {
			b.skip(PromptFiles, "CLAUDE.md is loaded by Claude Code itself")
			continue
		}
		for _, d := range dirs {
			p := filepath.Join(d, name)
			real, err := filepath.EvalSymlinks(p)
			if err != nil || seen[real] {
				continue
			}
			data, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			seen[real] = true
			text := strings.TrimSpace(clean(string(data)))
			if text == "" {
				continue
			}
			out = append(out, fmt.Sprintf("## %s (%s)\n%s", name, p, Cap(text, each)))
		}
	}
	return strings.Join(out, "\n\n")
}

// ancestors is dir and each folder above it, nearest first.
func ancestors(dir string) []string {
	var out []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		out = append(out, d)
		if filepath.Dir(d) == d {
			return out
		}
	}
}

// host is what Claude Code already injects: only for hosts that do not.
func (b *builder) host(ctx context.Context) string {
	var s strings.Builder
	s.WriteString("## Repository and machine\n")
	if b.inRepo(ctx, Host) {
		if br, err := b.git(ctx, "branch", "--show-current"); err == nil && br != "" {
			fmt.Fprintf(&s, "Branch: %s\n", br)
		} else if sha, err := b.git(ctx, "rev-parse", "--short", "HEAD"); err == nil {
			fmt.Fprintf(&s, "Branch: none (detached HEAD at %s)\n", sha)
		}
		if st, err := b.git(ctx, "status", "--short"); err == nil {
			if st == "" {
				s.WriteString("Status: clean\n")
			} else {
				n, _ := script.Echo(st + "\n").CountLines()
				first, _ := script.Echo(st + "\n").First(20).Slice()
				fmt.Fprintf(&s, "Status (%d):\n%s\n", n, strings.Join(first, "\n"))
				if n > len(first) {
					fmt.Fprintf(&s, "... and %d more\n", n-len(first))
				}
			}
		}
		if log, err := b.git(ctx, "log", "--format=%h %s", "-5"); err == nil && log != "" {
			fmt.Fprintf(&s, "Recent commits:\n%s\n", log)
		}
	}
	fmt.Fprintf(&s, "Date: %s\n", b.o.Now.Format("Monday 2006-01-02 15:04 MST (-07:00)"))
	host, _ := os.Hostname()
	name := os.Getenv("USER")
	if u, err := user.Current(); name == "" && err == nil {
		name = u.Username
	}
	fmt.Fprintf(&s, "Machine: %s/%s, shell %s, user %s, host %s\n", runtime.GOOS, runtime.GOARCH, os.Getenv("SHELL"), name, host)
	return clean(s.String())
}

package tests

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hookkit/harness/lib/dialect"
)

// docFiles are the README and every page of docs/.
func docFiles(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("../docs/*.md")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no docs/*.md: %v", err)
	}
	return append([]string{"../README.md"}, pages...)
}

var (
	fence  = regexp.MustCompile("(?s)```([a-z]*)\n(.*?)```")
	inline = regexp.MustCompile("`((?:\\./install\\.sh|harness|go test|go run) [^`]*)`")
	flagRE = regexp.MustCompile(`(?:^|\s)(--[a-z][a-z-]*)`)
	link   = regexp.MustCompile(`\]\(([^)#\s]*)(#[^)\s]*)?\)`)
)

// commands returns every command a page shows: the lines of its shell blocks and the inline
// code that starts with ./install.sh, harness, go test or go run; pipes, redirections and
// lists split into their commands.
func commands(text string) []string {
	var raw []string
	for _, m := range fence.FindAllStringSubmatch(text, -1) {
		if m[1] != "" && m[1] != "sh" && m[1] != "console" {
			continue
		}
		raw = append(raw, strings.Split(m[2], "\n")...)
	}
	for _, m := range inline.FindAllStringSubmatch(fence.ReplaceAllString(text, ""), -1) {
		raw = append(raw, m[1])
	}
	var out []string
	for _, l := range raw {
		if i := strings.Index(l, " #"); i >= 0 {
			l = l[:i]
		}
		for _, part := range regexp.MustCompile(`\|\||&&|[|;<>]`).Split(l, -1) {
			if p := strings.TrimSpace(part); p != "" && !strings.HasPrefix(p, "#") {
				out = append(out, p)
			}
		}
	}
	return out
}

// TestDocsCommands checks every command the README and docs/ show against the real thing:
// a harness command exists and takes every flag written with it, an install.sh flag is one
// it or harness install takes, and a package or program given to go test or go run exists.
// (The two commands of the README run for real: ./install.sh in TestInstallScript, go test
// here.)
func TestDocsCommands(t *testing.T) {
	harness := filepath.Join(binDir, "harness")
	help := map[string]string{}
	helpOf := func(args ...string) (string, bool) {
		key := strings.Join(args, " ")
		if h, ok := help[key]; ok {
			return h, h != ""
		}
		out, err := exec.Command(harness, append(args, "--help")...).CombinedOutput()
		h := string(out)
		if err != nil || strings.Contains(h, "No help topic") {
			h = ""
		}
		help[key] = h
		return h, h != ""
	}
	script, err := os.ReadFile("../install.sh")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, file := range docFiles(t) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range commands(string(b)) {
			f := strings.Fields(c)
			flags := flagRE.FindAllStringSubmatch(c, -1)
			switch {
			case f[0] == "harness" && len(f) > 1 && f[1] == strings.ToLower(f[1]):
				checked++
				h, ok := helpOf(f[1])
				if !ok {
					t.Errorf("%s: `%s`: harness has no command %q", file, c, f[1])
					continue
				}
				if len(f) > 2 && !strings.HasPrefix(f[2], "-") {
					if sub, ok := helpOf(f[1], f[2]); ok && sub != h {
						h += sub
					}
				}
				for _, fl := range flags {
					if !strings.Contains(h, fl[1]) && fl[1] != "--help" && fl[1] != "--version" {
						t.Errorf("%s: `%s`: harness %s takes no %s", file, c, f[1], fl[1])
					}
				}
			case f[0] == "./install.sh":
				checked++
				h, _ := helpOf("install")
				u, _ := helpOf("uninstall")
				for _, fl := range flags {
					if !strings.Contains(string(script), fl[1]) && !strings.Contains(h+u, fl[1]) {
						t.Errorf("%s: `%s`: install.sh takes no %s", file, c, fl[1])
					}
				}
			case f[0] == "go" && len(f) > 1 && (f[1] == "test" || f[1] == "run"):
				checked++
				for _, a := range f[2:] {
					if !strings.HasPrefix(a, "./") || strings.ContainsAny(a, "<>") {
						continue
					}
					dir := strings.TrimSuffix(strings.TrimSuffix(a, "/..."), "/")
					if st, err := os.Stat(filepath.Join("..", dir)); err != nil || !st.IsDir() {
						t.Errorf("%s: `%s`: no package %s", file, c, a)
					}
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d commands found in the README and docs/: is the extraction broken?", checked)
	}
}

// TestDocsLinks: every relative link of the README and docs/ names a file that exists, and
// an anchor a heading of that file.
func TestDocsLinks(t *testing.T) {
	for _, file := range docFiles(t) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			target, anchor := m[1], strings.TrimPrefix(m[2], "#")
			if strings.Contains(target, "://") {
				continue
			}
			path := file
			if target != "" {
				path = filepath.Join(filepath.Dir(file), target)
			}
			page, err := os.ReadFile(path)
			if err != nil {
				t.Errorf("%s: link to %s: %v", file, target, err)
				continue
			}
			if anchor != "" && !hasAnchor(string(page), anchor) {
				t.Errorf("%s: link to %s#%s: no such heading", file, target, anchor)
			}
		}
	}
}

// hasAnchor reports a Markdown heading whose GitHub anchor is a.
func hasAnchor(page, a string) bool {
	for _, l := range strings.Split(page, "\n") {
		if !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.ToLower(strings.TrimSpace(strings.TrimLeft(l, "#")))
		h = regexp.MustCompile(`[^\w\- ]`).ReplaceAllString(h, "")
		if strings.ReplaceAll(h, " ", "-") == a {
			return true
		}
	}
	return false
}

// The README is a front door: short, with the two commands a newcomer needs.
func TestReadmeFrontDoor(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) > 160 {
		t.Errorf("README.md has %d lines: keep it a front door (about 150) and move the reference to docs/", len(lines))
	}
	for _, want := range []string{"./install.sh     # the main job", "go test ./...    # the tests", "## Clients", "## The hooks"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("README.md lacks %q", want)
		}
	}
}

// Every package under lib/ keeps its package doc in doc.go, and only there (DESIGN.md).
func TestPackageDocs(t *testing.T) {
	pkgDoc := regexp.MustCompile(`(?m)^// Package \w+ `)
	dirs, _ := filepath.Glob("../lib/*")
	for _, d := range dirs {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			continue
		}
		if _, err := os.Stat(filepath.Join(d, "doc.go")); err != nil {
			t.Errorf("%s has no doc.go", d)
		}
		files, _ := filepath.Glob(filepath.Join(d, "*.go"))
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if has, doc := pkgDoc.Match(src), filepath.Base(f) == "doc.go"; has != doc {
				t.Errorf("%s: holds a package doc: %v; only doc.go should", f, has)
			}
		}
	}
}

// The README's client matrix lists every client the declarations hold, each with the version
// its declaration says was tested and, word for word, what its declaration says a project's own
// files can do to its hooks (FromProject, from its real-client test): a client added without
// its row, tested again at another version, or found to behave otherwise without the row
// saying so, fails here.
func TestReadmeMatrixFollowsDeclarations(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows, project := map[string]string{}, map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		cells := strings.Split(line, " | ")
		if len(cells) > 2 && strings.HasPrefix(line, "| ") {
			title := strings.TrimPrefix(cells[0], "| ")
			rows[title] = strings.TrimSpace(cells[1])
			if len(cells) == 5 {
				project[title] = strings.TrimSuffix(cells[4], " |")
			}
		}
	}
	for _, d := range dialect.All() {
		version, ok := rows[d.Title]
		if !ok {
			t.Errorf("README.md's client matrix has no row for %s", d.Title)
			continue
		}
		if got := project[d.Title]; got != d.FromProject || got == "" {
			t.Errorf("README.md's matrix says a project's own files can %q in %s; its declaration (FromProject) says %q", got, d.Title, d.FromProject)
		}
		// the first word of the declaration's version: 2.1.332, v1.32.3 (of v1.32.3-19-g...), documented
		want, _, _ := strings.Cut(strings.Fields(d.Tested + " ?")[0], "-")
		want = strings.TrimSuffix(want, ",")
		if !strings.Contains(version, want) {
			t.Errorf("README.md says %s was tested at %q; its declaration says %q", d.Title, version, d.Tested)
		}
	}
}

// clientFacts are the facts of a client's declaration that its section of docs/clients.md must
// hold, each as the text that says it there: one entry per fact, so a new fact of the
// declarations is one more entry.
var clientFacts = []struct {
	fact string
	says func(d *dialect.Dialect) []string
}{
	{"its --client name", func(d *dialect.Dialect) []string {
		return []string{"- **Client**: `--client " + string(d.Client) + "`"}
	}},
	{"the version tested", func(d *dialect.Dialect) []string {
		v, _, _ := strings.Cut(strings.Fields(d.Tested + " ?")[0], "-")
		return []string{"- **Version tested**: " + strings.TrimSuffix(v, ",")}
	}},
	{"the kind of its file", func(d *dialect.Dialect) []string { return []string{"- **Files**: (" + string(d.Files.Kind) + ")"} }},
	{"its user file", func(d *dialect.Dialect) []string {
		f := d.Files
		switch {
		case f.User != "":
			out := []string{"user: `~/" + filepath.ToSlash(filepath.Join(f.Dir, f.User)) + "`"}
			if f.Env != "" {
				out = append(out, "`$"+f.Env+"`")
			}
			return out
		case f.NoUser != "":
			return []string{"user: none"}
		}
		return []string{"--settings"}
	}},
	{"its project file", func(d *dialect.Dialect) []string {
		f := d.Files
		switch {
		case f.Project != "":
			out := []string{"project: `" + filepath.ToSlash(f.Project) + "`"}
			if f.Local != "" {
				out = append(out, "`"+filepath.ToSlash(f.Local)+"`")
			}
			return out
		case f.NoProject != "":
			return []string{"project: refused"}
		}
		return nil
	}},
	{"the file that trusts its hooks", func(d *dialect.Dialect) []string {
		if d.Files.Trust == "" {
			return nil
		}
		return []string{"`" + d.Files.Trust + "`"}
	}},
	{"that it runs Claude Code's own hook files too", func(d *dialect.Dialect) []string {
		if !d.Files.ClaudeFiles {
			return nil
		}
		return []string{"runs the hooks of Claude Code's own files too"}
	}},
	{"the unit of its timeouts", func(d *dialect.Dialect) []string {
		if d.Millis {
			return []string{"timeouts in milliseconds"}
		}
		return nil
	}},
	{"that it cannot ask", func(d *dialect.Dialect) []string {
		if !d.NoAsk {
			return nil
		}
		return []string{"an ask is a block"}
	}},
	{"the events it fires that are not wired", func(d *dialect.Dialect) []string {
		var out []string
		for ev := range d.Unwired {
			out = append(out, string(ev))
		}
		return out
	}},
	{"its transcripts", func(d *dialect.Dialect) []string {
		if d.Transcript.Format == "" {
			return []string{"- **Transcripts**: none read"}
		}
		return []string{"- **Transcripts**: `~/" + d.Transcript.Glob + "`"}
	}},
}

// TestClientsDocFollowsDeclarations: docs/clients.md has exactly one section per declared
// client, the heading naming its Title, holding the facts of its declaration (clientFacts);
// no other heading names a client, and no section is a client that is not declared.
func TestClientsDocFollowsDeclarations(t *testing.T) {
	b, err := os.ReadFile("../docs/clients.md")
	if err != nil {
		t.Fatal(err)
	}
	type section struct{ heading, text string }
	var sections []section
	for _, part := range regexp.MustCompile(`(?m)^#{1,2} `).Split(string(b), -1)[1:] {
		heading, text, _ := strings.Cut(part, "\n")
		sections = append(sections, section{strings.TrimSpace(heading), text})
	}
	declared := map[string]*dialect.Dialect{}
	for _, d := range dialect.All() {
		declared[string(d.Client)] = d
	}
	client := regexp.MustCompile("(?m)^- \\*\\*Client\\*\\*: `--client ([^`]+)`")
	found := map[string]int{}
	for _, s := range sections {
		m := client.FindAllStringSubmatch(s.text, -1)
		if len(m) > 1 {
			t.Errorf("docs/clients.md, %q: %d clients in one section", s.heading, len(m))
		}
		for _, d := range dialect.All() {
			if regexp.MustCompile(`\b`+regexp.QuoteMeta(d.Title)+`\b`).MatchString(s.heading) && s.heading != d.Title {
				t.Errorf("docs/clients.md: the heading %q names %s but is not its section (## %s)", s.heading, d.Title, d.Title)
			}
		}
		if len(m) == 0 {
			if titled(s.heading) {
				t.Errorf("docs/clients.md, %q: a client's section with no `- **Client**: `--client NAME`` line", s.heading)
			}
			continue
		}
		d, ok := declared[m[0][1]]
		if !ok {
			t.Errorf("docs/clients.md, %q: --client %s is not a declared client", s.heading, m[0][1])
			continue
		}
		if s.heading != d.Title {
			t.Errorf("docs/clients.md: the section of --client %s is headed %q, not its Title %q", d.Client, s.heading, d.Title)
		}
		found[string(d.Client)]++
		for _, f := range clientFacts {
			for _, want := range f.says(d) {
				if !strings.Contains(s.text, want) {
					t.Errorf("docs/clients.md, %s: does not say %s (%q), as its declaration does", d.Title, f.fact, want)
				}
			}
		}
	}
	for _, d := range dialect.All() {
		if n := found[string(d.Client)]; n != 1 {
			t.Errorf("docs/clients.md has %d sections for %s (--client %s); want one", n, d.Title, d.Client)
		}
	}
}

// titled reports a heading that is a declared client's Title.
func titled(heading string) bool {
	for _, d := range dialect.All() {
		if d.Title == heading {
			return true
		}
	}
	return false
}

package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// onPath makes the installed CLI answer to `harness` in a new shell, the way the platform
// expects: a link in ~/.local/bin when that is on PATH, otherwise the exact line to add. It
// acts only when this process is the installed CLI ($HARNESS_HOME/bin/harness, or the copy an
// install.sh dry run built in a temporary directory): a `go run` or test build is not linked.
// It says what it did in one line and returns how to name the CLI in hints.
func onPath(out io.Writer, harnessHome, built string, dryRun bool) string {
	target := filepath.Join(harnessHome, "bin", "harness")
	self, err := os.Executable()
	if err != nil || !sameFile(self, target) && (built == "" || !sameFile(self, filepath.Join(built, "harness"))) {
		return "harness"
	}
	if found, err := exec.LookPath("harness"); err == nil {
		if sameFile(found, target) {
			fmt.Fprintf(out, "harness is on PATH: %s\n", found)
			return "harness"
		}
		fmt.Fprintf(out, "harness on PATH is %s, not this one: run %s, or put %s first on PATH\n", found, target, filepath.Dir(target))
		return target
	}
	home, err := os.UserHomeDir()
	if err != nil {
		fmt.Fprintf(out, "harness is not on PATH: add %s to PATH\n", filepath.Dir(target))
		return target
	}
	local := filepath.Join(home, ".local", "bin")
	link := filepath.Join(local, "harness")
	if !inPath(local) {
		fmt.Fprintf(out, "harness is not on PATH: add this line to %s, then open a new shell: %s\n", rcFile(home), pathLine(home, filepath.Dir(target)))
		return target
	}
	if dryRun {
		fmt.Fprintf(out, "would link %s -> %s (on PATH)\n", link, target)
		return "harness"
	}
	if st, err := os.Lstat(link); err == nil {
		to, _ := os.Readlink(link)
		if st.Mode()&os.ModeSymlink == 0 || filepath.Base(to) != "harness" || filepath.Base(filepath.Dir(to)) != "bin" {
			// A file or link of the user's own: not ours to replace.
			fmt.Fprintf(out, "harness is not on PATH: %s is another program; run %s, or put %s first on PATH\n", link, target, filepath.Dir(target))
			return target
		}
		os.Remove(link) // a stale link of an earlier install (<harness home>/bin/harness)
	}
	if err := os.MkdirAll(local, 0o755); err != nil {
		fmt.Fprintf(out, "harness is not on PATH: creating %s: %v\n", local, err)
		return target
	}
	if err := os.Symlink(target, link); err != nil {
		fmt.Fprintf(out, "harness is not on PATH: linking %s: %v\n", link, err)
		return target
	}
	fmt.Fprintf(out, "linked %s -> %s: harness is on PATH\n", link, target)
	return "harness"
}

// ownLink reports the link onPath made: ~/.local/bin/harness pointing into harnessHome.
func ownLink(harnessHome string) (string, bool) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", false
	}
	link := filepath.Join(home, ".local", "bin", "harness")
	to, err := os.Readlink(link)
	return link, err == nil && to == filepath.Join(harnessHome, "bin", "harness")
}

func sameFile(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}

// inPath reports a directory listed in $PATH.
func inPath(dir string) bool {
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if d != "" && filepath.Clean(d) == dir {
			return true
		}
	}
	return false
}

// rcFile is the start-up file of the user's login shell that a new terminal reads.
func rcFile(home string) string {
	switch filepath.Base(os.Getenv("SHELL")) {
	case "zsh":
		return "~/.zshrc"
	case "fish":
		return "~/.config/fish/config.fish"
	case "bash":
		if runtime.GOOS == "darwin" {
			return "~/.bash_profile" // Terminal.app opens login shells
		}
		return "~/.bashrc"
	}
	return "~/.profile"
}

// pathLine is the line that puts dir on PATH, in the user's shell's syntax, with the home
// directory written as $HOME so the line survives a copied dotfile.
func pathLine(home, dir string) string {
	if rest, ok := strings.CutPrefix(dir, home+"/"); ok {
		dir = "$HOME/" + rest
	}
	if filepath.Base(os.Getenv("SHELL")) == "fish" {
		return "fish_add_path " + dir
	}
	return `export PATH="` + dir + `:$PATH"`
}

package main

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/settings"
)

// projectHooks is what the current project's own files do to the hooks of the clients the
// harness is installed for (only, when set, is the one client asked about): a file that switches
// every hook off, or brings hooks of its own (settings.ProjectHooks). The project is the current
// directory and, when it lies in a git work tree, that tree's top: where a client started here
// reads its project files.
func projectHooks(homes []string, only *dialect.Dialect) ([]settings.Problem, error) {
	var clients []*dialect.Dialect
	for _, h := range homes {
		m, err := settings.LoadManifest(h)
		if err != nil {
			return nil, err
		}
		for _, r := range m.Files {
			d := dialect.Default()
			if r.Client != "" {
				var err error
				if d, err = dialect.Lookup(r.Client); err != nil {
					continue // reported by the check of the file itself
				}
			}
			if (only == nil || d == only) && !slices.Contains(clients, d) {
				clients = append(clients, d)
			}
		}
	}
	if len(clients) == 0 {
		return nil, nil
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	dirs := []string{cwd}
	if top := workTree(cwd); top != "" && top != cwd {
		dirs = append(dirs, top)
	}
	var out []settings.Problem
	for _, d := range clients {
		for _, dir := range dirs {
			for _, p := range settings.ProjectHooks(d, dir) {
				if !slices.Contains(out, p) {
					out = append(out, p)
				}
			}
		}
	}
	return out, nil
}

// workTree is the top of the git work tree dir lies in ("" when none): the nearest folder up
// that holds .git.
func workTree(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness/lib/config"
	"github.com/hookkit/harness/lib/settings"
)

// harnessHome is $HARNESS_HOME, by default ~/.claude/harness. The CLI reads the environment
// (its owner runs it) and writes what it resolved on each hook's command line; the hooks
// themselves read no variable.
func harnessHome() (string, error) {
	if h := os.Getenv("HARNESS_HOME"); h != "" {
		return filepath.Abs(h)
	}
	home, err := os.UserHomeDir()
	if h := config.DefaultHome(home); h != "" {
		return h, nil
	}
	return "", fmt.Errorf("finding the home directory: %w", err)
}

// systemDir is the administrator's scope: --system-dir where the command has it, else
// $HARNESS_SYSTEM_DIR, else the compiled default.
func systemDir(c *cli.Context) string {
	v := os.Getenv("HARNESS_SYSTEM_DIR")
	if s := c.String("system-dir"); s != "" {
		v = s
	}
	if v == "" {
		return config.DefaultSystemDir()
	}
	if abs, err := filepath.Abs(v); err == nil {
		return abs
	}
	return v
}

// places are the folders an install writes on each hook's command line.
func places(c *cli.Context, home string) settings.Places {
	return settings.Places{Home: home, SystemDir: systemDir(c)}
}

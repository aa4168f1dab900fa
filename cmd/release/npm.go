package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// The npm packages follow the convention of native tools on npm (esbuild, biome): a small main
// package whose bin is a Node launcher, and one package per platform carrying the binaries,
// each an optional dependency of the main one pinned to the exact version, chosen by npm from
// its os and cpu fields. No package has an install script: all of it works with
// --ignore-scripts, and `npx @hookkit/harness install` copies the binaries out of node_modules
// into the harness home (cmd/harness/archive.go), so a cache clean removes no guard.

// npmScope is the scope the project owns on npm.
const npmScope = "@hookkit"

// npmMain is the main package's name.
const npmMain = npmScope + "/harness"

const npmRepository = "git+https://github.com/hookkit/harness.git"

// platformPackage is one platform's npm package, written.
type platformPackage struct {
	name, file string // the package name; its tarball, relative to the release folder
}

func names(ps []platformPackage) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.file)
	}
	return out
}

// tarballName is npm pack's file name for a package.
func tarballName(pkg, version string) string {
	return "npm/" + stripAt(pkg) + "-" + version + ".tgz"
}

func stripAt(pkg string) string {
	b := []byte(pkg)
	if len(b) > 0 && b[0] == '@' {
		b = b[1:]
	}
	return string(bytes.ReplaceAll(b, []byte("/"), []byte("-")))
}

// packageJSON renders a package.json with its keys in the order given.
func packageJSON(fields [][2]any) []byte {
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, f := range fields {
		v, _ := json.MarshalIndent(f[1], "  ", "  ")
		fmt.Fprintf(&b, "  %q: %s", f[0], v)
		if i < len(fields)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// writeNPMPlatform writes the package of t's binaries: bin/ holds them with release.json and
// SHA256SUMS, as an unpacked archive does, so `harness install` checks and copies them alike.
func writeNPMPlatform(c config, t target, bins, docs []file) (platformPackage, error) {
	name := npmScope + "/harness-" + t.npm()
	os_, cpu, _ := bytes.Cut([]byte(t.npm()), []byte("-"))
	pj := packageJSON([][2]any{
		{"name", name},
		{"version", c.version},
		{"description", fmt.Sprintf("The harness's hook binaries and CLI for %s (installed by %s; not used on its own)", t, npmMain)},
		{"license", "MIT"},
		{"repository", map[string]string{"type": "git", "url": npmRepository}},
		{"os", []string{string(os_)}},
		{"cpu", []string{string(cpu)}},
		{"files", []string{"bin/"}},
		{"preferUnplugged", true},
	})
	files := []file{{name: "package.json", mode: 0o644, data: pj}}
	files = append(files, docs...)
	files = append(files, prefixed("bin", payload(c, t, bins, nil))...)
	p := platformPackage{name: name, file: tarballName(name, c.version)}
	return p, writeTarball(c, p.file, files)
}

// writeNPMMain writes the main package: the launcher, and every platform package as an
// optional dependency at exactly this version.
func writeNPMMain(c config, plats []platformPackage, docs []file) (string, error) {
	deps := map[string]string{}
	for _, p := range plats {
		deps[p.name] = c.version
	}
	pj := packageJSON([][2]any{
		{"name", npmMain},
		{"version", c.version},
		{"description", "Guards, context and records for Claude Code, as small Go binaries: npx " + npmMain + " install copies them into ~/.claude/harness and wires them in"},
		{"license", "MIT"},
		{"repository", map[string]string{"type": "git", "url": npmRepository}},
		{"bin", map[string]string{"harness": "bin/harness.js"}},
		{"files", []string{"bin/harness.js"}},
		{"engines", map[string]string{"node": ">=18"}},
		{"optionalDependencies", deps},
	})
	files := []file{{name: "package.json", mode: 0o644, data: pj}, {name: "bin/harness.js", mode: 0o755, data: []byte(launcher)}}
	files = append(files, docs...)
	name := tarballName(npmMain, c.version)
	return name, writeTarball(c, name, files)
}

// writeTarball writes an npm tarball: every file under package/.
func writeTarball(c config, name string, files []file) error {
	sort.Slice(files, func(i, j int) bool { return files[i].name < files[j].name })
	b, err := tgzBytes(prefixed("package", files), c.mtime)
	if err != nil {
		return err
	}
	p := filepath.Join(c.out, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, b, 0o644)
}

// launcher is the main package's bin: it runs the CLI of this platform's package.
const launcher = `#!/usr/bin/env node
// Runs the harness CLI from this platform's package (@hookkit/harness-<platform>-<arch>), which
// npm installed as an optional dependency. ` + "`harness install`" + ` copies the binaries from there
// into the harness home: the settings never name node_modules or the npx cache.
"use strict";
const { spawnSync } = require("child_process");
const path = require("path");

const pkg = "@hookkit/harness-" + process.platform + "-" + process.arch;
let dir;
try {
  dir = path.dirname(require.resolve(pkg + "/package.json"));
} catch (e) {
  console.error("harness: no binaries for " + process.platform + "-" + process.arch + ": the package " + pkg +
    " is not installed (npm leaves optional dependencies out with --omit=optional, and a platform without a release has none)");
  process.exit(1);
}
const exe = path.join(dir, "bin", process.platform === "win32" ? "harness.exe" : "harness");
const r = spawnSync(exe, process.argv.slice(2), { stdio: "inherit" });
if (r.error) {
  console.error("harness: running " + exe + ": " + r.error.message);
  process.exit(1);
}
process.exit(r.status === null ? 1 : r.status);
`

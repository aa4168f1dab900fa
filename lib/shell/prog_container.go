// Containers: docker, podman, nerdctl and kubectl exec and run, their options, mounts and targets.

package shell

import (
	"path"
	"strings"
)

// EngineArgs returns a container engine's arguments from its subcommand on, past the engine's
// global options (docker --context prod ...) and, for compose, compose's own (docker compose
// -f prod.yml ...); compose reports whether they are compose's, whose word is dropped.
func EngineArgs(name string, args []string) (sub []string, compose bool) {
	if name == "docker-compose" {
		return standaloneOpts.Parse(args).Rest, true
	}
	args = engineOpts.Parse(args).Rest
	if len(args) > 0 && args[0] == "compose" {
		return composeOpts.Parse(args[1:]).Rest, true
	}
	return args, false
}

// containerSub is EngineArgs without container's word either, so that exec and run come first.
func containerSub(name string, args []string) []string {
	args, _ = EngineArgs(name, args)
	if len(args) > 0 && args[0] == "container" {
		return args[1:]
	}
	return args
}

func containerExec(name string, args []string) ([]string, bool) {
	args = containerSub(name, args)
	if len(args) == 0 || args[0] != "exec" {
		return nil, false
	}
	r := dockerExec.Parse(args[1:]).Rest
	if len(r) < 2 {
		return nil, false
	}
	return r[1:], true
}

// containerRun unwraps docker run [options] IMAGE COMMAND..., with its bind mounts (-v
// HOST:CONTAINER[:ro], --mount type=bind,source=...,target=...); read-only ones can be read
// through but nothing run inside can change them.
func (a *analyzer) containerRun(name string, args []string, st *state) (cmd []string, mounts []Mount, workdir string, ok bool) {
	args = containerSub(name, args)
	if len(args) == 0 || args[0] != "run" {
		return nil, nil, "", false
	}
	p := dockerRun.Parse(args[1:])
	if len(p.Rest) < 1 {
		return nil, nil, "", false
	}
	cmd = p.Rest[1:] // after the image (or compose service)
	if ep, ok := p.Value("entrypoint"); ok && ep != "" {
		cmd = append(strings.Fields(ep), cmd...)
	}
	if len(cmd) == 0 {
		return nil, nil, "", false
	}
	if w, ok := p.Value("w", "workdir"); ok && strings.HasPrefix(w, "/") {
		workdir = path.Clean(w)
	}
	if v, ok := p.Value("pid"); ok && v == "host" {
		// The host's processes are in reach: signals, /proc/1/root.
		mounts = append(mounts, Mount{Host: "/proc", Container: "/proc"})
	}
	if p.Has("privileged", "device") {
		// The host's devices are in reach: judged like the host, paths and all.
		mounts = append(mounts, Mount{Host: "/dev", Container: "/dev"})
	}
	for _, v := range dockerRun.Values(args[1:], "v", "volume") {
		parts := strings.Split(v, ":")
		if len(parts) < 2 || !strings.HasPrefix(parts[1], "/") {
			continue
		}
		if !strings.HasPrefix(parts[0], "/") && !strings.HasPrefix(parts[0], ".") && !strings.HasPrefix(parts[0], "~") && !strings.HasPrefix(parts[0], Dyn) {
			continue // a named volume
		}
		ro := len(parts) > 2 && (strings.Contains(","+parts[2]+",", ",ro,") || strings.Contains(","+parts[2]+",", ",readonly,"))
		mounts = append(mounts, Mount{Host: a.resolve(parts[0], st.cwd), Container: path.Clean(parts[1]), ReadOnly: ro})
	}
	for _, v := range dockerRun.Values(args[1:], "mount") {
		var src, dst string
		bind, ro := false, false
		for _, kv := range strings.Split(v, ",") {
			k, val, _ := strings.Cut(kv, "=")
			switch k {
			case "type":
				bind = val == "bind"
			case "source", "src":
				src = val
			case "target", "destination", "dst":
				dst = val
			case "readonly", "ro":
				ro = val == "" || val == "true" || val == "1"
			}
		}
		if bind && src != "" && strings.HasPrefix(dst, "/") {
			mounts = append(mounts, Mount{Host: a.resolve(src, st.cwd), Container: path.Clean(dst), ReadOnly: ro})
		}
	}
	return cmd, mounts, workdir, true
}

func kubectlExec(args []string) ([]string, bool) {
	// kubectl -n NS --context C exec ...: global options may come first
	for len(args) > 1 && strings.HasPrefix(args[0], "-") && args[0] != "--" {
		if !strings.Contains(args[0], "=") && (args[0] == "-n" || args[0] == "--namespace" || args[0] == "--context" || args[0] == "--kubeconfig" || args[0] == "--cluster" || args[0] == "--user" || args[0] == "-s" || args[0] == "--server") {
			args = args[1:]
		}
		args = args[1:]
	}
	if len(args) == 0 || args[0] != "exec" {
		return nil, false
	}
	for i, arg := range args {
		if arg == "--" {
			return args[i+1:], len(args) > i+1
		}
	}
	p := KubectlOpts.Parse(args[1:])
	if len(p.Operands) < 2 {
		return nil, false
	}
	return p.Operands[1:], true
}

// kubectlTarget is the namespace and context a kubectl exec names, as they appear (" -n
// production"), so that what runs inside still shows where.
func kubectlTarget(args []string) string {
	var b strings.Builder
	for i, a := range args {
		if a == "--" {
			break
		}
		switch {
		case (a == "-n" || a == "--namespace" || a == "--context") && i+1 < len(args):
			b.WriteString(" " + a + " " + args[i+1])
		case strings.HasPrefix(a, "--namespace=") || strings.HasPrefix(a, "--context="):
			b.WriteString(" " + a)
		}
	}
	return b.String()
}

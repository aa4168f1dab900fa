// Links made earlier in the line (ln -s, ln) and the paths that go through them.

package shell

import (
	"path"
	"strings"
)

// lnLinks are the links ln makes: link path to the path it reaches. A symbolic link's
// relative target is read from the link's directory; a hard link is another name of the same
// file, named from where ln runs.
func (a *analyzer) lnLinks(c *Cmd) map[string]string {
	p := Opts{Short: "StV", Long: []string{"suffix", "target-directory", "backup"}}.Parse(c.Args)
	if len(p.Operands) != 2 || p.Has("t", "target-directory") || strings.Contains(strings.Join(p.Operands, ""), Dyn) {
		return nil
	}
	target, name := p.Operands[0], p.Operands[1]
	if strings.HasSuffix(name, "/") || name == "." || name == ".." {
		name += "/" + path.Base(target) // ln -s TARGET DIR/: the link is DIR/TARGET's name
	}
	link := a.resolve(name, c.Dir)
	switch {
	case !p.Has("s", "symbolic"):
		target = a.resolve(target, c.Dir)
	case !strings.HasPrefix(target, "/"):
		target = path.Join(path.Dir(link), target)
	}
	return map[string]string{link: path.Clean(target)}
}

// throughLinks rewrites an argument that goes through a link made earlier in the line (h/,
// root/etc after ln -s / root) to the path it reaches. The link itself (rc, k) is rewritten
// only when whole is set, for programs that open what it points at (echo x >> rc, cat k); a
// file named after an option's prefix counts too (curl -F f=@k, --file=k).
func (a *analyzer) throughLinks(arg, dir string, whole bool) string {
	if len(a.links) == 0 || strings.HasPrefix(arg, "-") && !strings.Contains(arg, "=") || strings.Contains(arg, Dyn) {
		return arg
	}
	if t, ok := a.linkPath(arg, dir, whole); ok {
		return t
	}
	if !whole {
		return arg
	}
	// f=@k, @k, --file=k: the path after the prefix
	for _, sep := range []string{"=@", "=<", "@", "="} {
		if i := strings.Index(arg, sep); i >= 0 && i+len(sep) < len(arg) {
			if t, ok := a.linkPath(arg[i+len(sep):], dir, true); ok {
				return arg[:i+len(sep)] + t
			}
		}
	}
	return arg
}

// linkPath is the path p reaches through a link the line made, when it goes through one.
func (a *analyzer) linkPath(p, dir string, whole bool) (string, bool) {
	r := Resolve(p, dir, a.world.Home)
	for link, target := range a.links {
		switch {
		case strings.HasPrefix(r, link+"/"):
			return target + r[len(link):], true
		case r == link && strings.HasSuffix(p, "/"):
			return target + "/", true
		case r == link && whole:
			return target, true
		}
	}
	return "", false
}

// onLink reports programs that act on a link itself, not on what it points at: rm k removes
// the link, mv moves it, tar and rsync store it as a link unless told to follow (tar -h,
// rsync -L).
func onLink(c *Cmd) bool {
	switch c.Name {
	case "ln", "rm", "unlink", "mv", "readlink", "ls", "stat", "test", "[", "find", "lsattr", "file":
		return true
	case "tar", "bsdtar", "gtar", "rsync":
		letter, long := "h", "--dereference"
		if c.Name == "rsync" {
			letter, long = "L", "--copy-links"
		}
		for i, arg := range c.Args {
			cluster := strings.HasPrefix(arg, "-") && !strings.HasPrefix(arg, "--") || i == 0 && c.Name != "rsync" && !strings.HasPrefix(arg, "-")
			if arg == long || cluster && strings.Contains(arg, letter) {
				return false
			}
		}
		return true
	}
	return false
}

// Symbolic links made earlier in the line (ln -s) and the paths that go through them.

package shell

import (
	"path"
	"strings"
)

// lnLinks are the symbolic links ln -s makes: link path to the target it points at.
func (a *analyzer) lnLinks(c *Cmd) map[string]string {
	p := Opts{Short: "StV", Long: []string{"suffix", "target-directory", "backup"}}.Parse(c.Args)
	if !p.Has("s", "symbolic") || len(p.Operands) != 2 || strings.Contains(strings.Join(p.Operands, ""), Dyn) {
		return nil
	}
	link := a.resolve(p.Operands[1], c.Dir)
	target := p.Operands[0]
	if !strings.HasPrefix(target, "/") {
		target = path.Join(path.Dir(link), target) // a relative target is read from the link's directory
	}
	return map[string]string{link: path.Clean(target)}
}

// throughLinks rewrites an argument that goes through a link made earlier in the line (h/,
// root/etc after ln -s / root) to the path it reaches; the link itself (rm h) stays.
func (a *analyzer) throughLinks(arg, dir string) string {
	if len(a.links) == 0 || strings.HasPrefix(arg, "-") || strings.Contains(arg, Dyn) {
		return arg
	}
	r := Resolve(arg, dir, a.world.Home)
	for link, target := range a.links {
		switch {
		case strings.HasPrefix(r, link+"/"):
			return target + r[len(link):]
		case r == link && strings.HasSuffix(arg, "/"):
			return target + "/"
		}
	}
	return arg
}

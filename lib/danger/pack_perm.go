package danger

import (
	"path"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// The rules of this pack.
var (
	permCritical          = &Rule{ID: "perm.critical", Action: Deny, Radius: High, Instead: "change only the files that need it"}
	permDevice            = &Rule{ID: "perm.device", Action: Ask, Radius: Medium, Instead: "add your user to the owning group instead"}
	permRecursiveCritical = &Rule{ID: "perm.recursive-critical", Action: Deny, Radius: High, Instead: "change only the files that need it"}
	permSecret            = &Rule{ID: "perm.secret", Action: Deny, Radius: High, Instead: "keep credentials at mode 600"}
	permSetuid            = &Rule{ID: "perm.setuid", Action: Deny, Radius: High, Instead: "leave system binaries' modes alone"}
	permSystem            = &Rule{ID: "perm.system", Action: Deny, Radius: High, Instead: "leave system files alone"}
	permWorldWritable     = &Rule{ID: "perm.world-writable", Action: Ask, Radius: Medium, Instead: "grant the narrowest permission that works (e.g. u+x on one script)"}
)

var packPerm = pack{name: "perm", title: "permissions",
	rules: []*Rule{permCritical, permDevice, permRecursiveCritical, permSecret, permSetuid, permSystem, permWorldWritable},
	programs: []program{
		{[]string{"chmod", "chown", "chgrp", "setfacl"}, (*judge).perm}, {[]string{"install"}, (*judge).installMode},
	},
}

// perm: recursive permission and ownership changes of important places; world-writable trees.
func (j *judge) perm(c *shell.Cmd) {
	recursive := viaFind(c)
	mode := ""
	var ops []string
	for i, a := range c.Args {
		switch {
		case a == "--":
			ops = append(ops, c.Args[i+1:]...)
		case a == "-R" || a == "--recursive" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "R") && !looksLikeMode(a):
			recursive = true
			continue
		case mode == "" && (c.Name != "chmod" || looksLikeMode(a)):
			if strings.HasPrefix(a, "-") && c.Name != "chmod" {
				continue
			}
			mode = a
			continue
		case strings.HasPrefix(a, "-"):
			continue
		default:
			ops = append(ops, a)
			continue
		}
		break
	}
	wide := mode == "777" || mode == "0777" || mode == "a+rwx" || mode == "ugo+rwx" || mode == "000" || mode == "0000" || mode == "o+w" || mode == "a+w"
	if c.Name == "chmod" && otherWritable(mode) {
		wide = true
	}
	// setuid (u+s, +s, 4xxx, 6xxx) runs a file as its owner; g+s and 2xxx on a directory is the
	// everyday group-inheritance bit.
	setuid := c.Name == "chmod" && (strings.Contains(mode, "u+s") || strings.HasPrefix(mode, "+s") || strings.Contains(mode, "a+s") ||
		len(strings.TrimLeft(mode, "0")) == 4 && strings.ContainsAny(mode[len(mode)-4:len(mode)-3], "46"))
	for _, op := range ops {
		t := j.res(c, op)
		pl, label := j.classify(t)
		if c.Name == "chmod" || c.Name == "setfacl" || c.Name == "chown" || c.Name == "chgrp" {
			j.tamper(c, t, "change the permissions of")
		}
		if wide && (strings.HasPrefix(t, "/dev/") || strings.HasSuffix(t, ".sock")) {
			j.add(c, permDevice, "it opens "+t+" to every user (a device or socket: docker.sock that way is root for anyone)", "")
			continue
		}
		if setuid && (pl == system || pl == root) {
			j.add(c, permSetuid, "it makes "+label+" run as its owner (setuid/setgid) for anyone: a privilege escalation", "")
			continue
		}
		switch {
		case recursive && (pl == root || pl == system || pl == home || pl == homeSecret || pl == ancestor):
			j.add(c, permRecursiveCritical, c.Name+" -R changes every file in "+label, "")
		case (pl == root || pl == home) && (wide || c.Name != "chmod"):
			j.add(c, permCritical, "it changes the permissions or owner of "+label, "")
		case pl == system && (wide || c.Name != "chmod"):
			j.add(c, permSystem, "it changes the permissions or owner of "+label, "")
		case pl == homeSecret && wide:
			j.add(c, permSecret, "it opens up "+label+" to other users", "")
		case sudoersFile(t) && c.Name == "chmod" && !writesForOthers(mode) && !othersRead(mode):
			// 0440, root's group reading: the mode sudo itself asks of these files
		case (c.Name == "chmod" && opensToOthers(mode) || c.Name == "setfacl" && aclOpens(c.Args)) && (!publicInSecretDir(t) || c.Name == "chmod" && writesForOthers(mode)) && (j.isSecretFile(t) || pl == homeSecret):
			// a public key may be read by anyone; authorized_keys, config or ~/.ssh itself
			// writable by others lets them add a key that logs in as this user
			j.add(c, permSecret, "it lets other users read or change "+label+" ("+mode+")", "")
		case recursive && wide:
			j.add(c, permWorldWritable, "it makes everything in "+label+" "+mode, "")
		}
	}
}

// otherWritable reports an octal chmod mode that lets every user write (the last digit has
// the write bit), such as 666 or 0757.
func otherWritable(mode string) bool {
	if len(mode) < 3 || strings.Trim(mode, "01234567") != "" {
		return false
	}
	last := mode[len(mode)-1]
	return last == '2' || last == '3' || last == '6' || last == '7'
}

// looksLikeMode reports a chmod mode: octal, or [ugoa]*[-+=][rwxXstugo]*, comma-separated.
func looksLikeMode(s string) bool {
	if s == "" {
		return false
	}
	for _, part := range strings.Split(s, ",") {
		i := 0
		for i < len(part) && strings.IndexByte("ugoa", part[i]) >= 0 {
			i++
		}
		if i == len(part) {
			return false
		}
		if part[i] >= '0' && part[i] <= '7' && i == 0 {
			if strings.Trim(part, "01234567") != "" {
				return false
			}
			continue
		}
		if strings.IndexByte("-+=", part[i]) < 0 || strings.Trim(part[i+1:], "-+=rwxXstugo") != "" {
			return false
		}
	}
	return true
}

// installMode: install -m MODE SRC... DEST puts a secret in place readable or writable by others.
func (j *judge) installMode(c *shell.Cmd) {
	p := shell.Opts{Short: "mogSbt", Long: []string{"mode", "owner", "group", "suffix", "target-directory"}}.Parse(c.Args)
	mode, _ := p.Value("m", "mode")
	if !opensToOthers(mode) || len(p.Operands) < 2 {
		return
	}
	for _, op := range p.Operands {
		if t := j.res(c, op); j.isSecretFile(t) {
			_, label := j.classify(t)
			j.add(c, permSecret, "install -m "+mode+" lets other users read or change "+label, "")
			return
		}
	}
}

// opensToOthers reports a chmod mode that gives the group or other users read or write: an
// octal mode whose group or other digit has r or w (644, 0640, 660), or a symbolic one that
// adds or sets r or w for g, o or a (o+r, g+w, a+r, +r, go=rw).
// writesForOthers reports a chmod mode that gives the group or others write (g+w, o+w, 0664).
func writesForOthers(mode string) bool {
	if mode != "" && strings.Trim(mode, "01234567") == "" {
		return len(mode) >= 3 && (mode[len(mode)-2]-'0')&2 != 0 || len(mode) >= 3 && (mode[len(mode)-1]-'0')&2 != 0
	}
	for _, part := range strings.Split(mode, ",") {
		i := strings.IndexAny(part, "+=")
		if i >= 0 && strings.Contains(part[i+1:], "w") && (part[:i] == "" || strings.ContainsAny(part[:i], "goa")) {
			return true
		}
	}
	return false
}

// sudoersFile reports sudo's policy files.
func sudoersFile(p string) bool {
	return p == "/etc/sudoers" || strings.HasPrefix(p, "/etc/sudoers.d/")
}

// othersRead reports a chmod mode that lets every user (not only the group) read.
func othersRead(mode string) bool {
	if mode != "" && strings.Trim(mode, "01234567") == "" {
		return len(mode) >= 3 && (mode[len(mode)-1]-'0')&4 != 0
	}
	for _, part := range strings.Split(mode, ",") {
		i := strings.IndexAny(part, "+=")
		if i >= 0 && strings.Contains(part[i+1:], "r") && (part[:i] == "" || strings.ContainsAny(part[:i], "oa")) {
			return true
		}
	}
	return false
}

func opensToOthers(mode string) bool {
	if mode != "" && strings.Trim(mode, "01234567") == "" {
		if len(mode) < 3 {
			return false
		}
		g, o := mode[len(mode)-2]-'0', mode[len(mode)-1]-'0'
		return g&6 != 0 || o&6 != 0
	}
	for _, part := range strings.Split(mode, ",") {
		i := strings.IndexAny(part, "+=")
		if i < 0 || !strings.ContainsAny(part[i+1:], "rw") {
			continue
		}
		if who := part[:i]; who == "" || strings.ContainsAny(who, "goa") {
			return true
		}
	}
	return false
}

// publicInSecretDir reports the files of a credential folder that are meant to be readable:
// public keys, known_hosts, ssh's config, and the folder itself (sshd accepts 755 there).
func publicInSecretDir(p string) bool {
	base := path.Base(p)
	return strings.HasSuffix(base, ".pub") || base == "known_hosts" || base == "config" || base == "authorized_keys" || base == ".ssh" || base == ".gnupg"
}

// aclOpens reports setfacl entries that give others, the group or another user read or write
// (-m o::rw, -m g::r, -m u:alice:r; not -x, -b, or u::rw, the owner's own).
func aclOpens(args []string) bool {
	for i, a := range args {
		spec := ""
		switch {
		case (a == "-m" || a == "--modify") && i+1 < len(args):
			spec = args[i+1]
		case strings.HasPrefix(a, "--modify="):
			spec = strings.TrimPrefix(a, "--modify=")
		}
		for _, e := range strings.Split(spec, ",") {
			parts := strings.Split(e, ":")
			if len(parts) < 3 || !strings.ContainsAny(parts[len(parts)-1], "rw") {
				continue
			}
			kind, who := parts[0], parts[1]
			if kind == "d" || kind == "default" {
				kind, who = parts[1], at(parts, 2)
			}
			if kind == "o" || kind == "other" || kind == "g" || kind == "group" || (kind == "u" || kind == "user") && who != "" {
				return true
			}
		}
	}
	return false
}

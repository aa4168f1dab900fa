package paths

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/hookkit/harness/lib/shell"
)

// Reads are judged by one question: would the content of a no-access file reach the model (or
// a copy of it land where the model can read it)? Reading is otherwise free, inside the project
// or out: only the no-access tier is denied and .env files ask.

// NoAccessRead reports whether a resolved path is a file of the no-access tier whose content
// no tool call may read: private keys and key stores anywhere, cloud and tool credentials, the
// user's secret stores (~/.password-store, keyrings, ~/.gnupg). The public parts of ~/.ssh
// (*.pub, known_hosts, config, authorized_keys) and gpg's *.conf files hold nothing secret and
// may be read, though no tool may write them.
func (e Env) NoAccessRead(p string) bool {
	if !e.credential(p) && !e.inSecretDir(p) {
		return false
	}
	if !e.inSecretDir(p) {
		return true // a key or credential file by its name
	}
	base := path.Base(p)
	switch {
	case strings.HasSuffix(base, ".pub") && !strings.HasSuffix(base, ".pub.key"),
		base == "known_hosts" || base == "known_hosts.old" || base == "authorized_keys" || base == "authorized_keys2":
		return false
	}
	for _, h := range e.keyHomes() {
		if p == h+"/.ssh/config" || under(p, h+"/.gnupg") && strings.HasSuffix(base, ".conf") {
			return false
		}
	}
	return true
}

// noAccessRoots are the no-access directories and files of home: a read of a directory that
// holds one of them (tar of ~, grep -r over ~/.config) reaches it.
func (e Env) noAccessRoots() []string {
	var out []string
	for _, h := range e.keyHomes() {
		for _, d := range secretDirs {
			switch d {
			case ".kube":
				out = append(out, h+"/.kube/config")
			case ".docker":
				out = append(out, h+"/.docker/config.json")
			default:
				out = append(out, h+"/"+d)
			}
		}
		for _, f := range homeCredentials {
			out = append(out, h+f)
		}
	}
	return append(out, systemRoots...)
}

// systemRoots are where the system's own credentials are (systemCredential): an archive or
// copy of /etc or /etc/ssh is denied. A search of them is not asked about: they are root's
// alone, and a search shows only the lines it matches (grep -r PermitRootLogin /etc/ssh).
var systemRoots = []string{"/etc/shadow", "/etc/gshadow", "/etc/ssh/ssh_host_ed25519_key", "/etc/ssl/private", "/etc/pki/tls/private",
	"/etc/kubernetes/admin.conf", "/var/lib/kubelet/pki"}

// holdsNoAccess reports a directory with a no-access directory or file somewhere below it; a
// search leaves the system's own out (systemRoots).
func (e Env) holdsNoAccess(dir string, search bool) string {
	for _, r := range e.noAccessRoots() {
		if r != dir && under(r, dir) && !(search && slices.Contains(systemRoots, r)) {
			return r
		}
	}
	return ""
}

// search reports a reading program that looks for lines rather than copying files: it shows
// only what matches, so a search over a directory that holds keys asks instead of denying.
func search(how string) bool {
	switch how {
	case "Grep", "grep", "egrep", "fgrep", "zgrep", "rg", "rg --hidden", "ag", "ag --hidden", "ack", "Select-String":
		return true
	}
	return false
}

// JudgeRead decides a read of one path, as an Access from Reads names it.
func (e Env) JudgeRead(a Access, pol *Policy) Verdict {
	if pol == nil {
		pol = &Policy{}
	}
	p := shell.Plain(a.Path)
	if a.Names != "" {
		return e.judgeNameSearch(a, pol)
	}
	// The parts known only at run time: a find's matches (Match) are things under its start; a
	// variable could be any name. Only a directory that holds credentials makes them matter.
	if i := strings.Index(a.Path, shell.Match); i >= 0 {
		return e.judgeReadTree(Access{Path: strings.TrimSuffix(a.Path[:i], "/"), How: a.How, Read: true, Tree: true}, pol, true)
	}
	if i := strings.Index(p, shell.Dyn); i >= 0 {
		dir := e.Resolve(path.Dir(p[:i] + "x"))
		v := Verdict{Path: dir}
		if e.inSecretDir(dir) && !e.allows(dir, pol.AllowRead) {
			return v.advise(credentialsRead, "the file read is chosen at run time in "+dir+", which holds credentials", "ask the user for what you need from it")
		}
		return v
	}
	if strings.ContainsAny(p, "*?[") {
		return e.judgeReadPattern(a, p, pol)
	}
	v := e.judgeReadPath(a, p, pol)
	if v.Action == Allow && a.Tree {
		return e.judgeReadTree(a, pol, false)
	}
	return v
}

func (e Env) judgeReadPath(a Access, p string, pol *Policy) Verdict {
	r := e.Resolve(p)
	v := Verdict{Path: r}
	if e.allows(r, pol.AllowRead) {
		return v
	}
	if e.match(r, pol.DenyRead) {
		return v.with(policyDenyRead, "the policy forbids reading "+r)
	}
	if e.NoAccessRead(r) && e.projectKey(r) || KeyName(r) && e.Project != "" && under(r, e.Project) {
		return v.with(askKeyRead, r+" may be a private key (or only a certificate): its content would reach the model")
	}
	if e.NoAccessRead(r) {
		return v.with(credentialsRead, r+" holds credentials, whose content must not reach the model or leave this machine")
	}
	if (EnvFile(r) || envrc(r)) && !a.Loads {
		return v.with(askEnvRead, r+" is an environment file: reading it shows its secret values")
	}
	return v
}

// judgeNameSearch asks about a search by name, under a folder that holds credentials, for names
// that credentials have (find ~ -name '*.pem', fd id_rsa ~, Glob **/.env*): it is how their
// paths are found before they are read. Other name searches (find / -name 'libssl*') are free.
func (e Env) judgeNameSearch(a Access, pol *Policy) Verdict {
	r := e.Resolve(shell.Plain(a.Path))
	v := Verdict{Path: r}
	held := e.holdsNoAccess(r, true)
	if held == "" && !e.NoAccessRead(r) && !e.inSecretDir(r) || e.allows(r, pol.AllowRead) {
		return v
	}
	for _, c := range append(e.samples(r), held, held+"/id_ed25519") {
		if ok, _ := path.Match(a.Names, strings.ToLower(path.Base(c))); ok && c != "" {
			return v.with(askReadTree, "this "+a.How+" looks under "+r+" for names like "+path.Base(c)+", which credentials have")
		}
	}
	return v
}

// judgeReadTree judges a read of everything under a directory: one inside a no-access
// directory is denied; one that holds such a directory (home, ~/.config) is denied for copies
// and archives and asks for searches (and for a find's matches, whose names are unknown).
func (e Env) judgeReadTree(a Access, pol *Policy, matches bool) Verdict {
	r := e.Resolve(shell.Plain(a.Path))
	v := Verdict{Path: r}
	if e.allows(r, pol.AllowRead) {
		return v
	}
	if e.NoAccessRead(r) {
		return v.advise(credentialsRead, r+" holds credentials, whose content must not reach the model or leave this machine", "ask the user for what you need, or to run the step themselves")
	}
	held := e.holdsNoAccess(r, search(a.How) || matches)
	if held == "" || e.allows(held, pol.AllowRead) {
		return v
	}
	if search(a.How) || matches {
		return v.with(askReadTree, r+" holds "+held+", which this "+a.How+" would reach")
	}
	return v.advise(credentialsRead, r+" holds "+held+", which this "+a.How+" would copy", "copy the directories you mean, not the whole of "+r)
}

// judgeReadPattern judges a glob: it matches a no-access file when the directory it starts in
// is one (and it does not ask only for public keys), or when it could match one of the
// credential files under that directory.
func (e Env) judgeReadPattern(a Access, pat string, pol *Policy) Verdict {
	i := strings.IndexAny(pat, "*?[")
	dir := path.Dir(pat[:i] + "x")
	rdir := e.Resolve(dir)
	full := rdir + pat[len(dir):]
	v := Verdict{Path: full}
	if e.inSecretDir(rdir) {
		if last := path.Base(full); strings.HasSuffix(last, ".pub") || last == "known_hosts" {
			return v
		}
		if e.allows(full, pol.AllowRead) {
			return v
		}
		return v.advise(credentialsRead, full+" matches files in "+rdir+", which hold credentials", "name the file you need, if it is a public one, or ask the user")
	}
	worst := v
	cands := e.samples(rdir)
	if real, ok := present(full); ok {
		cands = real // what the shell would expand the pattern to now
	}
	for _, c := range cands {
		if !globMatch(full, c) {
			continue
		}
		if w := e.judgeReadPath(Access{Path: c, How: a.How, Loads: a.Loads}, c, pol); w.Action > worst.Action {
			worst = w
			worst.Path, worst.Why = full, full+" matches "+c+": "+w.Why
		}
	}
	return worst
}

// present lists what a one-level pattern (no **) matches in a folder that exists, at most 256
// names; ok is false when that cannot be told and samples stand in.
func present(pat string) (matches []string, ok bool) {
	dir := path.Dir(pat)
	if strings.Contains(pat, "**") || strings.ContainsAny(dir, "*?[") {
		return nil, false
	}
	if fi, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, true // a folder that is not there: the pattern matches nothing
	} else if err != nil || !fi.IsDir() {
		return nil, false
	}
	m, err := filepath.Glob(pat)
	if err != nil || len(m) > 256 {
		return nil, false
	}
	return m, true
}

// samples are credential files a pattern starting in dir might match: the no-access files of
// home below it, and key, key store and .env files in dir itself or below.
func (e Env) samples(dir string) []string {
	var out []string
	for _, r := range e.noAccessRoots() {
		if under(r, dir) {
			out = append(out, r, r+"/id_rsa", r+"/credentials")
		}
	}
	for _, f := range []string{"id_rsa", "server.key", "server.pem", "store.p12", ".env", "sub/id_ed25519", "sub/tls.key", "sub/.env"} {
		out = append(out, dir+"/"+f)
	}
	return out
}

// globMatch matches a shell or ripgrep glob the way the shell expands it: * never matches a
// name's leading dot unless the pattern spells it.
func globMatch(pattern, name string) bool {
	ok, _ := doublestar.Match(pattern, name)
	if !ok {
		return false
	}
	ps, ns := strings.Split(pattern, "/"), strings.Split(name, "/")
	if len(ps) == len(ns) {
		for i := range ps {
			if strings.HasPrefix(ns[i], ".") && !strings.HasPrefix(ps[i], ".") && ps[i] != ns[i] {
				return false
			}
		}
	} else if strings.HasPrefix(path.Base(name), ".") && !strings.HasPrefix(path.Base(pattern), ".") {
		return false
	}
	return true
}

// projectKey reports a key or key-store file by its extension (.pem, .key, .p12, ...) inside the
// project: often a development certificate, so reading it asks instead of denying.
func (e Env) projectKey(p string) bool {
	if e.Project == "" || !under(p, e.Project) || strings.HasPrefix(strings.ToLower(path.Base(p)), "id_") {
		return false
	}
	for _, h := range e.homes() {
		if under(p, h+"/.ssh") {
			return false
		}
	}
	return true
}

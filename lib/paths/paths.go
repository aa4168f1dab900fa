package paths

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/hookkit/harness/lib/verdict"
)

// Action is a verdict, ordered by severity (lib/verdict's, as lib/danger's verdicts are).
type Action = verdict.Action

const (
	Allow = verdict.Allow
	Ask   = verdict.Ask
	Deny  = verdict.Deny
)

// Verdict is the judgement on one path.
type Verdict struct {
	Action Action
	// Path is the path as resolved (what the rules saw).
	Path string
	// Rule is the id of the rule that denies or asks (rules.go); Why and Instead explain it.
	Rule, Why, Instead string
}

// Env is where the writes happen.
type Env struct {
	// Home is where ~ and $HOME point in what a tool or command names ($HOME).
	Cwd, Home, Project string
	// OwnerHome is the account's own home when it is not Home (a project's settings can set
	// HOME): every protection of home covers it too, and nothing in it is allowed as home.
	OwnerHome string
	// Temp are the directories writes may go to outside the project (the system's temp dirs:
	// the hook passes /tmp, /var/tmp and $TMPDIR).
	Temp []string
	// HarnessHome is the harness's own directory (its binaries, policy, manifest).
	HarnessHome string
}

// Policy tunes the tiers. Patterns are doublestar globs over resolved paths; a leading ~/ is
// the home directory, a relative pattern is relative to the project root.
type Policy struct {
	// AllowDirs are directories outside the project that may be written (senior policy only: system, else user).
	AllowDirs []string
	// Deny, ReadOnly and Ask add paths to those tiers.
	Deny, ReadOnly, Ask []string
	// AskWorkflows makes writes to CI workflow files ask.
	AskWorkflows bool
	// AllowRead are no-access or .env files the model may read after all (senior policy only);
	// DenyRead adds files no tool call may read.
	AllowRead, DenyRead []string
	// MCP says, per MCP server, how the paths its tools name are judged: "auto" (the tool's
	// name decides read or write), "write", "read", or "ignore" (its paths are not this
	// machine's files: a GitHub server's repository paths). Only "auto" and "write" may come
	// from a project policy.
	MCP map[string]string
	// Problems are the project policy files that were ignored, one line each, for the guard
	// to report (config.LoadScopes).
	Problems []string
}

// Resolve turns a path as a tool or command wrote it into the real path it names: Windows
// separators and drive letters normalised, ~ and $HOME expanded, made absolute against cwd,
// cleaned, and symlinks followed on the part of the path that exists.
func (e Env) Resolve(p string) string {
	p = e.lexical(p)
	if device(p) {
		return p // /dev/stdout is a link into /proc; it is still where output goes
	}
	return followLinks(p, 0)
}

// lexical is Resolve without following links: the path as written, made absolute and clean.
func (e Env) lexical(p string) string {
	p = strings.TrimSpace(p)
	if len(p) >= 2 && p[1] == ':' && isLetter(p[0]) {
		// C:\Users\x or C:/Users/x: a Windows drive, which is no directory of this machine.
		p = "/" + strings.ToLower(p[:1]) + "/" + strings.TrimLeft(strings.ReplaceAll(p[2:], `\`, "/"), "/")
	}
	// A backslash is a Windows separator: POSIX file names with one in them are too rare to
	// let it hide a ..\ escape.
	p = strings.ReplaceAll(p, `\`, "/")
	switch {
	case p == "~" || p == "$HOME" || p == "${HOME}":
		p = e.Home
	case strings.HasPrefix(p, "~/"):
		p = e.Home + p[1:]
	case strings.HasPrefix(p, "$HOME/"):
		p = e.Home + p[5:]
	case strings.HasPrefix(p, "${HOME}/"):
		p = e.Home + p[7:]
	}
	if !strings.HasPrefix(p, "/") {
		p = e.Cwd + "/" + p
	}
	return path.Clean(p)
}

// real returns e with its directories resolved as written paths are (cleaned, symlinks
// followed), so that a project, home or temp directory reached through a link, or written with
// a trailing slash, still contains the paths under it.
func (e Env) real() Env {
	r := func(d string) string {
		if !strings.HasPrefix(d, "/") {
			return d
		}
		return followLinks(path.Clean(d), 0)
	}
	e.Cwd, e.Home, e.Project, e.HarnessHome, e.OwnerHome = r(e.Cwd), r(e.Home), r(e.Project), r(e.HarnessHome), r(e.OwnerHome)
	temp := make([]string, len(e.Temp))
	for i, t := range e.Temp {
		temp[i] = r(t)
	}
	e.Temp = temp
	return e
}

// device reports the files under /dev that programs write as a matter of course.
func device(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero":
		return true
	}
	return under(p, "/dev/fd")
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// followLinks resolves symlinks in every existing component of an absolute, clean path; the
// components that do not exist yet are kept as written.
func followLinks(p string, depth int) string {
	if depth > 40 || p == "/" {
		return p
	}
	dir, base := path.Split(p)
	dir = followLinks(path.Clean(dir), depth+1)
	full := path.Join(dir, base)
	st, err := os.Lstat(full)
	if err != nil || st.Mode()&fs.ModeSymlink == 0 {
		return full
	}
	target, err := os.Readlink(full)
	if err != nil {
		return full
	}
	if !strings.HasPrefix(target, "/") {
		target = path.Join(dir, target)
	}
	return followLinks(path.Clean(target), depth+1)
}

// under reports whether p is dir or inside it.
func under(p, dir string) bool {
	if dir == "" {
		return false
	}
	if dir == "/" {
		return true
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}

var systemDirs = []string{"/etc", "/usr", "/bin", "/sbin", "/boot", "/lib", "/lib32", "/lib64", "/libx32", "/var", "/sys", "/proc", "/dev", "/System", "/Library"}

// Judge decides a write to a path as written by a tool or command.
func (e Env) Judge(p string, pol *Policy) Verdict {
	if pol == nil {
		pol = &Policy{}
	}
	// The directories as given first; only a write they do not allow is judged again with
	// them resolved (a project or home reached through a link). A resolved path can never be
	// under a directory whose own path holds a link, so the first pass allows nothing the
	// second would not: the usual call pays no lstat for the directories.
	v := e.judge(p, pol)
	if v.Action == Allow {
		return v
	}
	return e.real().judge(p, pol)
}

func (e Env) judge(p string, pol *Policy) Verdict { return e.judgeAs(p, pol, true) }

// judgeAs is judge, following a hard link to the protected file it names when aliases is set
// (not again from there).
func (e Env) judgeAs(p string, pol *Policy, aliases bool) Verdict {
	lex := e.lexical(p)
	r := e.Resolve(p)
	v := Verdict{Path: r}
	if device(r) {
		return v
	}
	if alias := e.aliasOf(r, aliases); alias != "" {
		if a := e.judgeAs(alias, pol, false); a.Action != Allow {
			a.Path, a.Why = r, r+" is a hard link of "+alias+", the same file: "+a.Why
			return a
		}
	}
	if e.match(r, pol.Deny) {
		return v.with(policyDeny, "the policy forbids writing "+r)
	}
	if (e.credential(r) || KeyName(r)) && e.fixture(r) {
		return v.with(askKeyFixture, r+" is a key file in a test-fixture folder: it would be committed with the tests")
	}
	if e.credential(r) || e.inSecretDir(r) || KeyName(r) {
		return v.with(credentials, r+" holds credentials, which no tool call may touch")
	}
	if e.userSettings(r) || e.userSettings(lex) {
		return v.with(roClaudeSettings, r+" configures the hooks that guard this session")
	}
	if under(r, e.HarnessHome) {
		return v.with(roHarness, r+" is one of the harness's own files")
	}
	for _, d := range systemDirs {
		if under(r, d) && !under(r, "/var/tmp") && !under(r, "/var/folders") {
			return v.with(roSystem, r+" is a system path")
		}
	}
	if gitInternal(r) {
		return v.with(roGit, r+" is inside a .git directory, which only git should write")
	}
	if e.match(r, pol.ReadOnly) {
		return v.with(policyReadOnly, "the policy makes "+r+" read-only")
	}
	if e.rcFile(r) && (strings.HasPrefix(r, e.Home+"/") || e.inside(r, pol)) {
		// Asking is a leniency of HOME's own rc files; the owner home's outside the allowed
		// places stay denied below.
		return v.with(askRCFile, r+" runs in every new shell")
	}
	if !e.inside(r, pol) {
		return v.with(outsideProject, r+" is outside the project ("+e.Project+") and the temp directories")
	}
	if EnvFile(r) {
		return v.with(askEnv, r+" is an environment file, which usually holds secrets")
	}
	if ProjectSettings(e.Project, r) || ProjectSettings(e.Project, lex) {
		return v.with(askProjectSet, r+" can change the hooks and permissions of this project")
	}
	if what := e.plants(r, lex, pol); what != "" {
		return v.with(askPlanted, r+" is "+what+": code written there runs later, outside the guards")
	}
	if pol.AskWorkflows && e.Project != "" && (under(r, e.Project+"/.github/workflows") || r == e.Project+"/.gitlab-ci.yml") {
		return v.with(askCIWorkflow, r+" runs in CI with the repository's secrets")
	}
	if e.match(r, pol.Ask) {
		return v.with(policyAsk, "the policy asks before writing "+r)
	}
	return v
}

// inside reports a path in the project, a temp directory or a directory the policy allows.
// The most specific directory decides: a home (or project, checked first) that lives inside a
// temp directory, as in CI and containers, keeps its own tier, so only a temp directory
// inside home, or one home is not in, lets a path in home through.
func (e Env) inside(r string, pol *Policy) bool {
	if under(r, e.Project) {
		return true
	}
	for _, d := range e.Temp {
		if under(r, d) {
			home := e.homeOf(r)
			if home == "" || d != home && under(d, home) {
				return true
			}
		}
	}
	for _, d := range pol.AllowDirs {
		if under(r, e.expand(d, e.Home)) {
			return true
		}
	}
	return false
}

// homeOf returns the home directory, as given or resolved, that holds r, or "" if none
// does. Both are tried so that Judge's first pass, with the directories as given, never
// allows a path in a home reached through a link that its second pass would deny.
func (e Env) homeOf(r string) string {
	for _, h := range e.homes() {
		if !strings.HasPrefix(h, "/") {
			continue
		}
		if under(r, h) {
			return h
		}
		if real := followLinks(path.Clean(h), 0); under(r, real) {
			return real
		}
	}
	return ""
}

// homes are the home directories the tiers protect: Home, and the account's own when it is
// another. What home allows (~/ in allow_dirs and allow_read) is Home's alone.
func (e Env) homes() []string {
	hs := make([]string, 0, 2)
	for _, h := range []string{e.Home, e.OwnerHome} {
		if h != "" && !slices.Contains(hs, h) {
			hs = append(hs, h)
		}
	}
	return hs
}

// keyHomes are homes and the system's root account's (/root; /var/root on macOS): its keys and
// credentials are no-access too, which matters when the agent runs as root (containers).
func (e Env) keyHomes() []string {
	hs := e.homes()
	for _, r := range []string{"/root", "/var/root"} {
		if !slices.Contains(hs, r) {
			hs = append(hs, r)
		}
	}
	return hs
}

// expand makes a policy pattern absolute: ~/ is home (one of homes), a relative pattern is
// under the project.
func (e Env) expand(pattern, home string) string {
	switch {
	case strings.HasPrefix(pattern, "~/"):
		return home + pattern[1:]
	case !strings.HasPrefix(pattern, "/"):
		return e.Project + "/" + pattern
	}
	return pattern
}

// match reports a path that a pattern of a tier that protects (deny, read_only, ask,
// deny_read) names: ~/ stands for every home.
func (e Env) match(p string, patterns []string) bool {
	for _, pat := range patterns {
		if !strings.HasPrefix(pat, "~/") {
			if ok, _ := doublestar.Match(e.expand(pat, e.Home), p); ok {
				return true
			}
			continue
		}
		for _, h := range e.homes() {
			if ok, _ := doublestar.Match(e.expand(pat, h), p); ok {
				return true
			}
		}
	}
	return false
}

// allows reports a path that a pattern of an allowance (allow_read) names: ~/ is Home alone.
func (e Env) allows(p string, patterns []string) bool {
	for _, pat := range patterns {
		if ok, _ := doublestar.Match(e.expand(pat, e.Home), p); ok {
			return true
		}
	}
	return false
}

// secretDirs are the directories in home every file of which is a credential.
var secretDirs = []string{".ssh", ".gnupg", ".aws", ".config/gcloud", ".password-store", ".azure", ".kube", ".docker", ".local/share/keyrings", "Library/Keychains"}

func (e Env) inSecretDir(p string) bool {
	for _, h := range e.keyHomes() {
		for _, d := range secretDirs {
			if under(p, h+"/"+d) {
				return d != ".kube" && d != ".docker" || p == h+"/.kube/config" || p == h+"/.docker/config.json"
			}
		}
	}
	return false
}

// credential is IsCredential for every home.
func (e Env) credential(p string) bool {
	for _, h := range e.keyHomes() {
		if IsCredential(p, h) {
			return true
		}
	}
	return false
}

// userSettings reports Claude Code's settings in any home (UserSettings).
func (e Env) userSettings(p string) bool {
	for _, h := range e.homes() {
		if UserSettings(h, p) {
			return true
		}
	}
	return false
}

// homeCredentials are the files of home that hold a tool's credentials.
var homeCredentials = []string{"/.aws/credentials", "/.aws/config", "/.netrc", "/.git-credentials", "/.docker/config.json",
	"/.kube/config", "/.pgpass", "/.npmrc", "/.pypirc", "/.my.cnf", "/.config/gh/hosts.yml", "/.claude/.credentials.json",
	"/.vault-token", "/.cargo/credentials", "/.cargo/credentials.toml", "/.gem/credentials", "/.terraform.d/credentials.tfrc.json", "/.config/hub",
	// hosting, cloud and service CLIs that keep a token in a file of their own
	"/.config/glab-cli/config.yml", "/.config/tea/config.yml", "/.config/hcloud/cli.toml", "/.config/doctl/config.yaml",
	"/.config/scw/config.yaml", "/.config/netlify/config.json", "/.railway/config.json", "/.fly/config.yml", "/.pulumi/credentials.json",
	"/.config/stripe/config.toml", "/.supabase/access-token", "/.wrangler/config/default.toml", "/.config/configstore/firebase-tools.json",
	"/.local/share/com.vercel.cli/auth.json", "/.config/linode-cli", "/.config/vultr-cli.yaml", "/.config/ngrok/ngrok.yml", "/.ngrok2/ngrok.yml",
	"/.oci/config", "/.cache/huggingface/token", "/.huggingface/token", "/.sentryclirc", "/.composer/auth.json", "/.config/composer/auth.json",
	"/.m2/settings.xml", "/.gradle/gradle.properties", "/.nuget/NuGet/NuGet.Config", "/.codex/auth.json", "/.gemini/oauth_creds.json",
	"/.config/github-copilot/apps.json", "/.config/github-copilot/hosts.json",
	"/.config/harness/serve.secret"}

// IsCredential reports whether a resolved path holds credentials: private keys, key stores,
// .env files, cloud and tool credentials.
func IsCredential(p, home string) bool {
	base := strings.ToLower(path.Base(p))
	switch {
	case strings.HasPrefix(base, "id_") && strings.Contains(p, "/.ssh/") && !strings.HasSuffix(base, ".pub"), KeyName(p):
		return true // an SSH private key by its name, wherever it is (in the project, reading it asks)
	case strings.HasSuffix(base, ".pem") || strings.HasSuffix(base, ".key") || strings.HasSuffix(base, ".p12") ||
		strings.HasSuffix(base, ".pfx") || strings.HasSuffix(base, ".keystore") || strings.HasSuffix(base, ".jks"):
		return true
	case systemCredential(p, base):
		return true
	}
	if home == "" {
		return false
	}
	rel, ok := strings.CutPrefix(p, home)
	return ok && slices.Contains(homeCredentials, rel) // no string built per entry
}

// systemCredential reports the machine's own secrets, readable by root alone: password hashes,
// SSH host keys (whoever holds one can pose as this machine), TLS private keys, and the
// kubeconfigs a cluster's control plane keeps with client keys in them.
func systemCredential(p, base string) bool {
	switch p {
	case "/etc/shadow", "/etc/gshadow", "/etc/shadow-", "/etc/gshadow-", "/etc/master.passwd", "/etc/security/opasswd",
		"/etc/kubernetes/admin.conf", "/etc/kubernetes/super-admin.conf", "/etc/kubernetes/kubelet.conf",
		"/etc/kubernetes/controller-manager.conf", "/etc/kubernetes/scheduler.conf", "/var/lib/kubelet/kubeconfig":
		return true
	}
	return strings.HasPrefix(base, "ssh_host_") && strings.HasSuffix(base, "_key") ||
		under(p, "/etc/ssl/private") || under(p, "/etc/pki/tls/private") || under(p, "/var/lib/kubelet/pki") ||
		under(p, "/private/etc/ssl/private") || p == "/private/etc/master.passwd"
}

// envrc reports direnv's .envrc, which exports the variables a folder needs, secrets often
// among them: reading it asks as reading a .env does.
func envrc(p string) bool { return path.Base(p) == ".envrc" }

// EnvFile reports a .env file that is not a template (.env.example, .env.sample, ...).
func EnvFile(p string) bool {
	base := path.Base(p)
	if base != ".env" && !strings.HasPrefix(base, ".env.") {
		return false
	}
	for _, t := range []string{"example", "sample", "template", "dist", "defaults", "tmpl", "schema"} {
		if strings.HasSuffix(base, "."+t) || strings.Contains(base, "."+t+".") {
			return false
		}
	}
	return true
}

func (e Env) rcFile(p string) bool {
	for _, h := range e.homes() {
		rel, ok := strings.CutPrefix(p, h+"/")
		if !ok {
			continue
		}
		switch rel {
		case ".bashrc", ".bash_profile", ".bash_login", ".bash_aliases", ".profile", ".zshrc", ".zshenv", ".zprofile", ".zlogin",
			".kshrc", ".cshrc", ".tcshrc", ".config/fish/config.fish", ".config/nushell/config.nu", ".config/nushell/env.nu":
			return true
		}
		// fish's conf.d snippets, and PowerShell's profiles (Linux and macOS, Windows' Documents)
		dir, base := path.Split(rel)
		if dir == ".config/fish/conf.d/" && strings.HasSuffix(base, ".fish") ||
			(dir == ".config/powershell/" || dir == "Documents/PowerShell/" || dir == "Documents/WindowsPowerShell/") && strings.HasSuffix(strings.ToLower(base), "profile.ps1") {
			return true
		}
	}
	return false
}

func gitInternal(p string) bool {
	return strings.Contains(strings.ToLower(p)+"/", "/.git/") // .GIT is .git where case is folded
}

// TempDir reports whether a $TMPDIR may count as scratch space: only a folder inside the
// system's own temp locations (macOS gives each user one under /var/folders). A variable a
// project's settings can set must not make its own folder, or the home, writable as "temp".
func TempDir(dir string) bool {
	if !strings.HasPrefix(dir, "/") {
		return false
	}
	dir = path.Clean(dir)
	for _, t := range []string{"/tmp", "/var/tmp", "/private/tmp", "/var/folders", "/private/var/folders"} {
		if dir == t || strings.HasPrefix(dir, t+"/") {
			return true
		}
	}
	return false
}

// KeyName reports a file named as an SSH private key anywhere (id_rsa, id_ed25519, id_ecdsa,
// id_dsa, and their -cert-less variants such as id_rsa_deploy), not its .pub half.
func KeyName(p string) bool {
	base := strings.ToLower(path.Base(p))
	for _, k := range []string{"id_rsa", "id_ed25519", "id_ecdsa", "id_dsa", "id_ecdsa_sk", "id_ed25519_sk"} {
		// id_rsa, id_rsa_deploy, id_rsa.old; not id_rsa_parser.go, a source file named after one
		suffixed := strings.HasPrefix(base, k+"_") && (!strings.Contains(base[len(k):], ".") || strings.HasSuffix(base, ".key") || strings.HasSuffix(base, ".pem"))
		if (base == k || suffixed || strings.HasPrefix(base, k+".")) && !strings.HasSuffix(base, ".pub") {
			return true
		}
	}
	return false
}

// PrivateKey reports text that holds a private key: a PEM or OpenSSH block of one.
func PrivateKey(text string) bool {
	i := strings.Index(text, "-----BEGIN ")
	for i >= 0 {
		line, _, _ := strings.Cut(text[i:], "\n")
		if j := strings.Index(line, "PRIVATE KEY-----"); j >= 0 && keyBody(text[i+j+len("PRIVATE KEY-----"):]) {
			return true
		}
		next := strings.Index(text[i+1:], "-----BEGIN ")
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

// keyBody reports text that goes on as a key's body after its header line: base64 (or an
// encrypted PEM's Proc-Type header) on the next lines, the line breaks possibly written as \n
// inside a string. Prose that only names the header ("starts with -----BEGIN ... KEY-----;
// never commit it") has none.
func keyBody(rest string) bool {
	rest = strings.TrimLeft(rest, " \t\r")
	switch {
	case strings.HasPrefix(rest, "\n"):
		rest = rest[1:]
	case strings.HasPrefix(rest, `\n`), strings.HasPrefix(rest, `\r\n`):
		rest = strings.ReplaceAll(rest, `\n`, "\n")[strings.Index(rest, `\n`)+1:]
	default:
		return false // the header line goes on with prose
	}
	rest = strings.TrimLeft(rest, " \t\r\n")
	if strings.HasPrefix(rest, "Proc-Type:") {
		return true
	}
	n := 0
	for _, r := range rest {
		if r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '+' || r == '/' || r == '=' {
			n++
			if n >= 24 {
				return true
			}
			continue
		}
		return false
	}
	return false
}

// fixture reports a path inside the project's test-fixture folders (testdata, fixtures,
// test, tests, __fixtures__, spec/fixtures): keys there are test keys, asked about rather
// than denied.
func (e Env) fixture(r string) bool {
	if e.Project == "" || !under(r, e.Project) {
		return false
	}
	rel := strings.TrimPrefix(r, e.Project)
	for _, seg := range strings.Split(path.Dir(rel), "/") {
		switch strings.ToLower(seg) {
		case "testdata", "fixtures", "fixture", "test", "tests", "__fixtures__", "test-fixtures", "testfixtures":
			return true
		}
	}
	return false
}

// keyWrite judges a write of a private key's text that the path alone allows: inside the
// project it would be committed (denied), in a test-fixture folder asked about.
func (e Env) keyWrite(v Verdict) Verdict {
	if e.fixture(v.Path) {
		return v.with(askKeyFixture, v.Path+" would hold a private key, in a test-fixture folder: it would be committed with the tests")
	}
	if e.Project != "" && under(v.Path, e.Project) {
		return v.with(credentialsKey, v.Path+" would hold a private key inside the project, where it would be committed")
	}
	return v
}

// aliasOf is the protected file a path is another name of (a hard link made earlier: ln
// ~/.claude/settings.json s.json), "" when none: the user's and the project's Claude Code
// settings and the harness's programs and top-level files. Only a file with more than one
// name is compared, so the usual write pays one lstat.
func (e Env) aliasOf(r string, follow bool) string {
	if !follow {
		return ""
	}
	fi, err := os.Lstat(r)
	if err != nil || !fi.Mode().IsRegular() || !linked(fi) {
		return ""
	}
	var names []string
	for _, h := range e.homes() {
		names = append(names, h+"/.claude/settings.json", h+"/.claude/settings.local.json")
	}
	if e.Project != "" {
		names = append(names, e.Project+"/.claude/settings.json", e.Project+"/.claude/settings.local.json")
	}
	if e.HarnessHome != "" {
		bins, _ := filepath.Glob(filepath.Join(e.HarnessHome, "bin", "*"))
		tops, _ := filepath.Glob(filepath.Join(e.HarnessHome, "*.json"))
		names = append(append(names, bins...), tops...)
	}
	for _, n := range names {
		if n == r {
			continue
		}
		if o, err := os.Stat(n); err == nil && os.SameFile(fi, o) {
			return n
		}
	}
	return ""
}

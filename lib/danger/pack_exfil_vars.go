package danger

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/hookkit/harness/lib/shell"
)

// secretVars: a credential held in an environment variable put into what a network tool
// sends. Headers, cookies and logins are how tokens are meant to be used and stay silent
// (unless the host only collects requests, or the key only signs; a login to a bare public
// address asks); a request body, a URL or a raw connection carrying one is exfiltration when it
// goes to a raw socket, a public IP, a paste or capture service, or is a key that is never sent
// as such; otherwise the user is asked, since posting a client secret to its OAuth endpoint is
// legitimate. Hosts on this machine or the private network are exempt.
func (j *judge) secretVars(c *shell.Cmd) {
	if icmpTool(c.Name) {
		// ping -p, nping --data-string: the packet carries what it is given to the host.
		for i, a := range c.Args {
			vars := shell.Vars(a)
			for _, f := range c.FromArg[min(i, len(c.FromArg)):min(i+1, len(c.FromArg))] {
				for _, s := range f {
					vars = append(vars, shell.Vars(strings.Join(s.Args, " "))...)
				}
			}
			for _, v := range vars {
				if shell.SecretName(v) {
					j.add(c, exfilSecretVar, c.Name+" puts $"+v+" into the packets it sends: whoever receives them has it", "never send credentials anywhere")
					return
				}
			}
		}
		return
	}
	if dnsTool(c.Name) {
		for _, a := range c.Args {
			for _, v := range shell.Vars(a) {
				if shell.SecretName(v) {
					j.add(c, exfilSecretVar, c.Name+" puts $"+v+" into a name it looks up: whoever serves that domain receives it", "never send credentials anywhere")
					return
				}
			}
		}
		return
	}
	for _, part := range hostParts(c.Name, c.Args) {
		for _, v := range shell.Vars(part) {
			if shell.SecretName(v) {
				j.add(c, exfilSecretVar, c.Name+" puts $"+v+" into a host name or login it sends: whoever serves that name receives it", "never send credentials anywhere")
				return
			}
		}
	}
	if j.hostedPost(c) {
		return
	}
	raw := rawSocket(c.Name)
	if !raw && !httpClient(c.Name) {
		return
	}
	var sent, login []string // secret variable names in what is sent, and in headers and logins
	carry := func(into *[]string, s string) {
		for _, v := range shell.Vars(s) {
			if shell.SecretName(v) && !slices.Contains(*into, v) {
				*into = append(*into, v)
			}
		}
	}
	carried := func(s string) { carry(&sent, s) }
	credOpt, bodyOpt := false, false
	stdinSent := raw
	var bodyFrom []*shell.Cmd // what prints the body: -d @<(printf %s "$TOKEN"), -T <(...), --post-file=<(...)
	for i, a := range c.Args {
		if bodyOpt {
			bodyOpt = false
			if i < len(c.FromArg) && substOnly(a) {
				bodyFrom = append(bodyFrom, c.FromArg[i]...)
			}
		}
		if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "--") && bodyOption(k) && substOnly(v) && i < len(c.FromArg) {
			bodyFrom = append(bodyFrom, c.FromArg[i]...)
		}
		if v, ok := attachedBody(a); ok && substOnly(v) && i < len(c.FromArg) {
			bodyFrom = append(bodyFrom, c.FromArg[i]...) // -d@<(printf %s "$T"), -sd@<(...)
		}
		if bodyOption(a) {
			bodyOpt = true
		}
		if credOpt {
			credOpt = false
			carry(&login, a)
			continue
		}
		if credentialOption(c.Name, a) {
			credOpt = !strings.Contains(a, "=") && !(strings.HasPrefix(a, "-H") && len(a) > 2) && !(strings.HasPrefix(a, "-u") && len(a) > 2)
			carry(&login, a)
			continue
		}
		if c.Name == "curl" && !strings.HasPrefix(a, "--") && strings.HasPrefix(a, "-") && len(a) > 2 && (strings.HasSuffix(a, "H") || strings.HasSuffix(a, "u")) &&
			strings.Trim(a[1:len(a)-1], "sSfLkvigN46") == "" {
			credOpt = true // -sH 'Authorization: ...': a cluster whose last option takes the header
			continue
		}
		if strings.HasSuffix(a, "@-") || a == "-" {
			stdinSent = true
		}
		if httpieHeader(c.Name, a) {
			carry(&login, a)
			continue
		}
		if i := strings.Index(a, "://"); i >= 0 {
			// user:$PASS@host logs in; the rest of a URL is sent.
			rest := a[i+3:]
			if at := strings.IndexByte(rest, '@'); at >= 0 && !strings.ContainsAny(rest[:at], "/?#") {
				carry(&login, rest[:at])
				a = a[:i+3] + rest[at+1:]
			}
		}
		carried(a)
	}
	if stdinSent && c.Stdin != nil {
		carried(c.Stdin.Text)
		for _, f := range c.Stdin.From {
			if f.Name == "echo" || f.Name == "printf" || f.Name == "cat" && f.Stdin != nil || f.Name == "jq" {
				for _, a := range f.Args {
					carried(a)
				}
				if f.Stdin != nil {
					carried(f.Stdin.Text)
				}
			}
		}
	}
	for _, f := range bodyFrom {
		switch f.Name {
		case "echo", "printf":
			for _, a := range f.Args {
				carried(a)
			}
		case "printenv":
			for _, a := range f.Args {
				if shell.SecretName(a) && !slices.Contains(sent, a) {
					sent = append(sent, a)
				}
			}
		case "cat":
			if f.Stdin != nil {
				carried(f.Stdin.Text)
			}
		}
	}
	host := requestHost(c.Args)
	if raw {
		host = rawHost(c.Name, c.Args)
	}
	if h, ok := elsewhere(c); ok {
		host = h // a second URL, a proxy or a rewritten address: not where the first URL says
	}
	// Headers and logins are how credentials are used, except towards a host that only
	// collects, or for a key that is never sent at all.
	signs := slices.Contains(c.Args, "--aws-sigv4") || slices.ContainsFunc(c.Args, func(a string) bool { return strings.HasPrefix(a, "--aws-sigv4=") })
	if len(login) > 0 && (captureHost(host) || neverSent(login) && !signs) {
		for _, v := range login {
			if !slices.Contains(sent, v) {
				sent = append(sent, v)
			}
		}
	}
	if localHost(host) {
		return // a service on this machine or the private network
	}
	if len(sent) == 0 && len(login) > 0 && ipAddress(host) {
		j.add(c, exfilSecretVarRequest, c.Name+" logs in to "+host+" with $"+strings.Join(login, ", $")+": an address, not a service's name", "check that "+host+" is the service the credential belongs to")
		return
	}
	if len(sent) == 0 {
		return
	}
	what := "$" + strings.Join(sent, ", $")
	switch {
	case raw:
		j.add(c, exfilSecretVar, c.Name+" sends "+what+" over a raw network connection", "")
	case host == "":
		j.add(c, exfilSecretVarRequest, c.Name+" sends "+what+" to a host not known before it runs", "")
	case captureHost(host) || ipAddress(host) && !slices.Contains(login, sent[0]):
		j.add(c, exfilSecretVar, c.Name+" sends "+what+" to "+host, "")
	case neverSent(sent) && !signs:
		j.add(c, exfilSecretVar, c.Name+" sends "+what+" to "+host+"; that key signs requests and is never sent itself", "use the provider's CLI or SDK, which sign requests with it")
	default:
		j.add(c, exfilSecretVarRequest, c.Name+" sends "+what+" in a request to "+host, "check that "+host+" is the service the credential belongs to")
	}
}

// elsewhere finds where a request really goes when it is not (only) its first URL: another
// URL on the line, a proxy (option or environment), an address rewritten by --resolve or
// --connect-to. The host returned is the first that is not local ("" when unknown).
func elsewhere(c *shell.Cmd) (string, bool) {
	found, host := false, ""
	note := func(h string) {
		if !found || host == "" || localHost(host) {
			found, host = true, h
		}
	}
	urls := 0
	for i, a := range c.Args {
		switch {
		case strings.Contains(a, "://") && !strings.HasPrefix(a, "-"):
			if urls++; urls > 1 {
				note(requestHost([]string{a}))
			}
		case a == "-x" || a == "--proxy" || a == "--preproxy" || strings.HasPrefix(a, "--socks"):
			if i+1 < len(c.Args) {
				note(proxyHost(c.Args[i+1]))
			}
		case strings.HasPrefix(a, "--proxy=") || strings.HasPrefix(a, "--preproxy=") || strings.HasPrefix(a, "--socks") && strings.Contains(a, "="):
			_, v, _ := strings.Cut(a, "=")
			note(proxyHost(v))
		case a == "--resolve" || a == "--connect-to" || strings.HasPrefix(a, "--resolve=") || strings.HasPrefix(a, "--connect-to="):
			note("")
		case a == "--url" && i+1 < len(c.Args):
			if urls++; urls > 1 {
				note(requestHost([]string{c.Args[i+1]}))
			}
		}
	}
	for _, e := range c.Env {
		k, v, _ := strings.Cut(e, "=")
		if strings.HasSuffix(strings.ToUpper(k), "_PROXY") && strings.ToUpper(k) != "NO_PROXY" {
			note(proxyHost(v))
		}
	}
	return host, found
}

// envRef finds interpreter code reading one environment variable by name.
var envRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:os\.environ(?:\.get)?\s*[\[(]|os\.getenv\(|process\.env\.|process\.env\[|ENV\[|ENV\.fetch\(|\$ENV\{|getenv\(|Deno\.env\.get\(|Bun\.env\.|Sys\.getenv\(|\$env:)\s*['"]?([A-Za-z_][A-Za-z0-9_]*)`)
})

// codeSecretVars is secretVars for interpreter code that talks to the network: a credential
// read from the environment into a header is how it is used; into a body, a query or a URL it
// is sent, judged by where the code's first URL points.
func (j *judge) codeSecretVars(c *shell.Cmd, code string) {
	var sent, login []string
	for _, m := range envRef().FindAllStringSubmatchIndex(code, 32) {
		v := code[m[2]:m[3]]
		if !shell.SecretName(v) || slices.Contains(sent, v) || slices.Contains(login, v) {
			continue
		}
		before := strings.ToLower(code[max(0, m[0]-200):m[0]])
		header, body := -1, -1
		for _, k := range []string{"authorization", "headers", "bearer", "auth=", "auth:", "auth(", "x-api-key", "private-token",
			"secret_access_key=", "aws_session_token=", "credentials(", "api_key=", "token=", "key="} {
			header = max(header, strings.LastIndex(before, k))
		}
		for _, k := range []string{"data=", "json=", "body", "params=", "data:", "json:", "?", "&", "send(", "write("} {
			body = max(body, strings.LastIndex(before, k))
		}
		if header > body {
			login = append(login, v)
		} else {
			sent = append(sent, v)
		}
	}
	if len(sent) == 0 && len(login) == 0 {
		return
	}
	// The code's URLs: the worst of them decides (a decoy localhost first must not hide a post
	// to an address).
	host := ""
	for from, n := 0, 0; n < 16; n++ {
		i := strings.Index(code[from:], "://")
		if i < 0 {
			break
		}
		i += from
		start := strings.LastIndexAny(code[:i], "'\"` (") + 1
		end := i + 3 + strings.IndexAny(code[i+3:]+"'", "'\"` )")
		from = end
		h, _ := hostPath(code[start:end])
		if host == "" || localHost(host) || !captureHost(host) && (captureHost(h) || ipAddress(h) && !localHost(h)) {
			host = h
		}
	}
	switch {
	case localHost(host):
	case captureHost(host):
		j.add(c, exfilSecretVar, c.Name+" code sends $"+strings.Join(append(sent, login...), ", $")+" to "+host, "")
	case len(sent) == 0:
		if ipAddress(host) {
			j.add(c, exfilSecretVarRequest, c.Name+" code logs in to "+host+" with $"+strings.Join(login, ", $")+": an address, not a service's name", "check that "+host+" is the service the credential belongs to")
		}
	case ipAddress(host):
		j.add(c, exfilSecretVar, c.Name+" code sends $"+strings.Join(sent, ", $")+" to "+host, "")
	case neverSent(sent):
		j.add(c, exfilSecretVar, c.Name+" code sends $"+strings.Join(sent, ", $")+"; that key signs requests and is never sent itself", "use the provider's SDK, which signs requests with it")
	case host == "":
		j.add(c, exfilSecretVarRequest, c.Name+" code sends $"+strings.Join(sent, ", $")+" to a host not known before it runs", "put the credential in a header of a request to the service it belongs to")
	default:
		j.add(c, exfilSecretVarRequest, c.Name+" code sends $"+strings.Join(sent, ", $")+" in a request to "+host, "check that "+host+" is the service the credential belongs to")
	}
}

// bodyOption: an HTTP client's option whose value is (or names the file holding) the body.
func bodyOption(a string) bool {
	switch a {
	case "-d", "--data", "--data-binary", "--data-raw", "--data-urlencode", "--data-ascii", "--json", "-T", "--upload-file",
		"--post-file", "--body-file", "-F", "--form":
		return true
	}
	// -sT, -fsSd: a cluster of curl's flags whose last option takes the body
	return len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.IndexByte("dTF", a[len(a)-1]) >= 0 && strings.Trim(a[1:len(a)-1], "sSfLkvigN46") == ""
}

// substOnly reports a value that is only a substitution: @<(...), <(...), name=@<(...).
func substOnly(v string) bool {
	if i := strings.LastIndexByte(v, '@'); i >= 0 {
		v = v[i+1:]
	}
	return shell.Unknown(v)
}

// attachedBody reads curl's short body options written with their value: -d@file, -sd@file.
func attachedBody(a string) (string, bool) {
	if len(a) < 3 || a[0] != '-' || a[1] == '-' {
		return "", false
	}
	for k := 1; k < len(a); k++ {
		switch {
		case strings.IndexByte("dTF", a[k]) >= 0:
			return a[k+1:], k+1 < len(a)
		case strings.IndexByte("sSfLkvigN46", a[k]) < 0:
			return "", false
		}
	}
	return "", false
}

// hostedPost: a secret variable, or the whole environment, put into what gh or glab posts on
// the hosting service (a comment, an issue, a pull or merge request, a review, a note), where
// everyone who can read the project sees it.
func (j *judge) hostedPost(c *shell.Cmd) bool {
	if c.Name != "gh" && c.Name != "glab" {
		return false
	}
	posts := false
	for _, a := range c.Args {
		switch a {
		case "comment", "note", "create", "edit", "review":
			posts = true
		}
	}
	if !posts {
		return false
	}
	for i, a := range c.Args {
		for _, v := range shell.Vars(a) {
			if shell.SecretName(v) {
				j.add(c, exfilSecretVar, c.Name+" posts $"+v+" on the hosting service, where everyone who can read the project sees it", "never send credentials anywhere")
				return true
			}
		}
		if i < len(c.FromArg) {
			for _, f := range c.FromArg[i] {
				if f.Name == "env" || f.Name == "printenv" || f.Name == "set" || f.Name == "export" && len(f.Args) == 0 {
					j.add(c, exfilSecretVar, c.Name+" posts the environment ("+f.Name+") on the hosting service, where everyone who can read the project sees it", "never send credentials anywhere")
					return true
				}
			}
		}
	}
	return false
}

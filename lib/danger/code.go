package danger

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/hookkit/harness/lib/shell"
)

// fetchesCode reports text that downloads something or opens a connection.
// hijacks reports startup text that takes over what the user runs: a preloaded library, an
// alias or function named after sudo, su or ssh, a PROMPT_COMMAND that runs a network tool.
func hijacks(text string) bool {
	if strings.Contains(text, "LD_PRELOAD=") {
		return true
	}
	for _, w := range []string{"alias sudo=", "alias su=", "alias passwd=", "sudo()", "function sudo"} {
		if strings.Contains(text, w) {
			return true
		}
	}
	return strings.Contains(text, "PROMPT_COMMAND=") && fetchesCode(text)
}

func fetchesCode(text string) bool {
	if psFetches(text) {
		return true
	}
	for _, w := range []string{"curl ", "wget ", "/dev/tcp/", "nc ", "ncat ", "base64 -d", "bash -i", "python -c", "python3 -c"} {
		for from := 0; ; {
			i := strings.Index(text[from:], w)
			if i < 0 {
				break
			}
			i += from
			if i == 0 || strings.IndexByte(" \t\n;|&('\"`$=>", text[i-1]) >= 0 || w[0] == '/' || i >= 2 && text[i-2] == '\\' {
				return true // a word of its own: not rsync, not func
			}
			from = i + 1
		}
	}
	return false
}

// psFetches reports PowerShell text that downloads: iwr, irm, their cmdlets, WebClient.
func psFetches(text string) bool {
	l := strings.ToLower(text)
	for _, w := range []string{"invoke-webrequest", "invoke-restmethod", "downloadstring(", "downloadfile(", "net.webclient", "start-bitstransfer", "iwr ", "irm "} {
		if i := strings.Index(l, w); i >= 0 && (i == 0 || strings.IndexByte(" \t\n;|&('\"`$=", l[i-1]) >= 0 || w[0] != 'i') {
			return true
		}
	}
	return false
}

// runsFetched reports text that downloads and runs code, or opens a shell connection: what an
// autorun file must not do (a hook that curls a local service is fine).
func runsFetched(text string) bool {
	if !fetchesCode(text) {
		return false
	}
	for _, w := range []string{"| sh", "|sh", "| bash", "|bash", "| python", "sh -c", "bash -c", "/dev/tcp/", "nc ", "ncat ", "base64 -d", "bash -i", "-e /bin/sh", "--connect"} {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

func isDecode(c *shell.Cmd) bool {
	switch c.Name {
	case "base64", "base32":
		return shell.Opts{}.Parse(c.Args).Has("d", "decode", "D")
	case "xxd":
		return slices.Contains(c.Args, "-r")
	case "openssl":
		return slices.Contains(c.Args, "-d") || slices.Contains(c.Args, "base64")
	case "uudecode", "rev":
		return true
	}
	return false
}

// runsCode reports whether a command executes program text: shells, eval, source, interpreters.
func runsCode(c *shell.Cmd) bool {
	switch c.Name {
	case "sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "fish", "eval", "source", ".", "at", "batch":
		return true
	}
	return strings.HasPrefix(c.Name, "python") || c.Name == "perl" || c.Name == "ruby" || c.Name == "node" ||
		c.Name == "php" || c.Name == "bun" || c.Name == "deno" || c.Name == "lua" || c.Name == "Rscript" || c.Name == "pwsh"
}

// Interpreter code: a socket and a shell in one program, downloads evaluated, fork loops, credentials
// posted, guarded files rewritten. The patterns but sdk and literal are lowercase and read the
// lowercased code: that is (?i) without the case folding that made them a fifth of a slow call. The shell commands and deletes inside the code are already
// separate commands (lib/shell); these are what only the code itself shows.
var codePatterns = sync.OnceValue(func() map[string]*regexp.Regexp {
	return map[string]*regexp.Regexp{
		"eval":     regexp.MustCompile(`(?s)\b(exec|eval)\b[\s(]*[^;\n]{0,120}?(urlopen|requests\.get|lwp::simple|\bget\s*\(|net::http|open-uri|uri\.open|fetch\s*\(|https?\.get|curl|wget|file_get_contents\s*\(\s*['"]https?:)|\bfetch\s*\([^;\n]{0,200}?\.then\s*\(\s*(\(?\w*\)?\s*=>\s*)?(eval|new\s+function|function)\b`),
		"fork":     regexp.MustCompile(`(?s)fork\s+while\s+(fork|1|true)\b|fork\s+until\s+0\b|while\s*(\(\s*)?(true|1|true)\s*\)?\s*[:{]?\s*[^\n]{0,40}\bfork\s*[(;}]|for\s*\(\s*;\s*;\s*\)\s*\{?\s*[^\n]{0,20}fork\s*[(;}]|loop\s*\{\s*fork|fork\s*\(\s*\)[^\n]{0,20}\bfor\s+\w+\s+in\s+(iter\s*\(|itertools\.(count|repeat|cycle)\b)`),
		"netget":   regexp.MustCompile(`(file_get_contents|fopen)\s*\(\s*['"]https?:`),
		"fetch":    regexp.MustCompile(`fetch\s*\(`),
		"smtplib":  regexp.MustCompile(`\bsmtplib`),
		"dotwrite": regexp.MustCompile(`\.write\s*\(`),
		"jsondump": regexp.MustCompile(`json\.dump\s*\(`),
		"openmode": regexp.MustCompile(`open\s*\([^)]*['"][wa]\+?b?['"]`),
		"redir":    regexp.MustCompile(`>\s*\$`),
		"env":      regexp.MustCompile(`os\.environ\b(\s*\)|\s*[,;]|\.copy|\.items)|dict\(os\.environ|process\.env\s*[,)]|json\.stringify\(\s*process\.env|env\.to_h|%env\b|getenv\(\s*\)`),
		"sdk":      regexp.MustCompile(`\.(objects|buckets|instances|object_versions|volumes|snapshots|tables)\.all\(\)\s*\.(delete|terminate)\(|\.(objects|object_versions)\.delete\(|(?s)\.(delete|terminate)\(\)\s+for\s+\w+\s+in\s+[^\]\n]{0,120}\.(buckets|instances|volumes|snapshots|tables)\.all\(\)|for\s+\w+\s+in\s+[^:\n]{0,120}\.(buckets|instances|volumes|snapshots|tables)\.all\(\)\s*:[^\n]{0,120}\.(delete|terminate)\(`),
		"literal":  regexp.MustCompile("['\"`]([^'\"`\\s]{2,200})['\"`]"),
	}
})

// writesFile reports lowercased code that writes a file. Each pattern runs only where its words
// are: one regexp of them all tried every position of the code, a tenth of a slow call.
func writesFile(lower string) bool {
	if containsAny(lower, "writefile", "file_put_contents", "truncate", "file.write", "io.write") {
		return true
	}
	pats := codePatterns()
	return strings.Contains(lower, ".write") && pats["dotwrite"].MatchString(lower) ||
		strings.Contains(lower, "json.dump") && pats["jsondump"].MatchString(lower) ||
		strings.Contains(lower, "open") && pats["openmode"].MatchString(lower) ||
		strings.Contains(lower, ">") && pats["redir"].MatchString(lower)
}

// sendsNet reports lowercased code that talks to the network: an HTTP client, a socket, mail.
func sendsNet(lower string) bool {
	if containsAny(lower, "requests.post", "requests.put", "requests.patch", "requests.get", "urlopen", "urllib", "http.client",
		"httpx", "aiohttp", "http.request", "https.request", "axios", "xmlhttprequest", "net::http", "lwp", "http::tiny", "curl_exec", "socket.") {
		return true
	}
	pats := codePatterns()
	return containsAny(lower, "file_get_contents", "fopen") && pats["netget"].MatchString(lower) ||
		strings.Contains(lower, "fetch") && pats["fetch"].MatchString(lower) ||
		strings.Contains(lower, "smtplib") && pats["smtplib"].MatchString(lower)
}

// containsAny reports whether s holds any of subs.
func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func (j *judge) code(c *shell.Cmd) {
	j.judgeCanon(c)
	pats := codePatterns()
	code := c.Code
	lower := strings.ToLower(code)
	has := func(subs ...string) bool { return containsAny(lower, subs...) }
	if (has(".claude/settings.json", ".claude/settings.local.json") || has("'.claude'", "\".claude\"") && has("settings.json", "settings.local.json")) && (writesFile(lower) || has("write_text", "writefile", "fs.write", "sed -i")) &&
		has("hooks", "disableallhooks") {
		j.add(c, tamperUserSettings, c.Name+" code that rewrites Claude Code's settings, where the hooks that guard this session are configured", "")
	}
	if has("eval", "exec", "function", "system", "popen", "spawn", "run(") && evalsDecoded(lower) {
		j.add(c, netDecodedExec, c.Name+" code that runs text it decodes from base64 or hex, which hides what it really runs", "")
	}
	if has("kill") && killsEvery(lower) {
		j.add(c, killMass, c.Name+" code that signals pid -1: every process it may, the session's own among them", "")
	}
	if has("os.kill", "process.kill", "posix.kill") && has("/proc") && has("listdir", "readdir", "glob") {
		j.add(c, killMass, c.Name+" code that signals every process it finds in /proc", "")
	}
	sockets := has("/inet/tcp", "/inet/udp", "socket", "fsockopen", "require('net')", `require("net")`, "net.connect", "createconnection", "tcpsocket", "io::socket", "net::telnet", "socket.new")
	shells := has("/inet/tcp", "/inet/udp", "subprocess", "pty.spawn", "os.dup2", "/bin/sh", "/bin/bash", "exec", "spawn", "popen", "system", "child_process", "cmd.exe")
	downloads := has("urlopen", "requests.get", "lwp", "get(", "net::http", "open-uri", "uri.open", "fetch(", "http.get", "https.get", "curl", "wget", "file_get_contents")
	switch {
	case sockets && shells:
		j.add(c, revInterpreter, c.Name+" code that connects a socket to a shell or subprocess: a reverse shell", "")
	case downloads && has("exec", "eval") && pats["eval"].MatchString(lower):
		j.add(c, netInterpreterEval, c.Name+" code that downloads code and evaluates it, unreviewed", "")
	case has("fetch(", "http.get(", "https.get(", "axios") && has(".then(", "await ") && has("child_process") && has("execsync(", "exec(", "spawnsync(", "spawn(") && runsResponse(lower):
		j.add(c, netInterpreterEval, c.Name+" code that downloads text and runs it as a command, unreviewed", "")
	case has("fork") && pats["fork"].MatchString(lower):
		j.add(c, forkBomb, c.Name+" code that forks in an endless loop: a fork bomb that freezes the machine", "")
	}
	if has("delete", "terminate") && has("boto3", "google.cloud", "aws-sdk", "@aws-sdk", "azure") && pats["sdk"].MatchString(code) {
		j.add(c, cloudSdkWholesale, c.Name+" code that deletes every object, bucket or instance a cloud SDK lists", "")
	}
	if has("redis") && has(".flushall(", ".flushdb(") {
		// redis-py, ioredis, node-redis: a client's flushall() is FLUSHALL
		j.dbDestroy(c, c.Name+" code that calls FLUSHALL or FLUSHDB through a Redis client", "", c.Name)
	} else if has("mongo") && has(".drop_database(", ".dropdatabase(") {
		j.dbDestroy(c, c.Name+" code that drops a MongoDB database", callLiteral(code, "drop_database(", "dropDatabase("), c.Name)
	}
	if has("indices.delete", "delete_index", "deleteindex", "init_index", "initindex", ".index(") && indexWipe(code) {
		j.add(c, storeIndexDelete, c.Name+" code that deletes every index, or a whole index, through a search engine's SDK", "")
	}
	sends := has("http", "url", "fetch", "socket", "request", "axios", "lwp", "smtp", "curl") && sendsNet(lower)
	writes := has("write", "dump", "open", "put", "truncate", "io.") && writesFile(lower)
	if sends && has("environ", "env") && pats["env"].MatchString(lower) {
		j.add(c, exfilSecret, c.Name+" code that sends the environment (API keys and tokens live there) over the network", "")
	}
	if sends {
		j.codeSecretVars(c, code)
		// A command the code runs that prints a secret (security find-generic-password -w,
		// aws secretsmanager get-secret-value), in code that talks to the network.
		for _, o := range j.an.Cmds {
			if len(o.Via) > 0 && o.Via[len(o.Via)-1] == c.Name+" code" && o.Text == c.Text {
				if what := j.readsSecret(o); what != "" {
					j.add(c, exfilSecret, c.Name+" code that runs "+o.Name+" for "+what+" and talks to the network", "")
					break
				}
			}
		}
	}
	if !sends && !writes {
		return
	}
	var named []string
	for _, m := range pats["literal"].FindAllStringSubmatch(code, 64) {
		named = append(named, m[1])
	}
	for _, lit := range append(named, shell.CodePaths(code, j.world.Home, c.Dir)...) {
		if !strings.Contains(lit, "/") && !strings.HasPrefix(lit, ".") {
			continue
		}
		t := j.res(c, lit)
		if sends && j.isSecretFile(j.resRead(c, lit)) {
			j.add(c, exfilSecret, c.Name+" code that reads "+lit+" and talks to the network", "")
		}
		if writes {
			j.tamper(c, t, "rewrite")
		}
	}
}

// runsResponse reports lowercased JavaScript that hands what a request returned to
// child_process: .then(t => ...execSync(t)), or const t = await r.text(); execSync(t).
func runsResponse(lower string) bool {
	for _, call := range []string{"execsync(", "exec(", "spawnsync(", "spawn("} {
		for from := 0; ; {
			i := strings.Index(lower[from:], call)
			if i < 0 {
				break
			}
			i += from
			from = i + len(call)
			arg := strings.TrimSpace(lower[from:min(len(lower), from+40)])
			k := 0
			for k < len(arg) && identByte(arg[k]) {
				k++
			}
			name := arg[:k]
			if name == "" || k < len(arg) && arg[k] != ')' && arg[k] != ',' {
				continue
			}
			// the variable is what a request's body was read into
			before := lower[:i]
			if strings.Contains(before, name+"=>") || strings.Contains(before, name+" =>") || strings.Contains(before, "("+name+")=>") ||
				strings.Contains(before, "("+name+") =>") || strings.Contains(before, name+" = await") || strings.Contains(before, name+"=await") {
				return true
			}
		}
	}
	return false
}

// callLiteral is the string literal a call's first argument is (drop_database("app")), "" for
// anything else.
func callLiteral(code string, calls ...string) string {
	for _, call := range calls {
		if i := strings.Index(code, call); i >= 0 {
			rest := strings.TrimLeft(code[i+len(call):], " ")
			if rest != "" && (rest[0] == '"' || rest[0] == '\'') {
				if k := strings.IndexByte(rest[1:], rest[0]); k >= 0 {
					return rest[1 : 1+k]
				}
			}
		}
	}
	return ""
}

// killsEvery reports lowercased code that signals pid -1 (every process the user may signal):
// os.kill(-1, 9), process.kill(-1), Process.kill(9, -1), Perl's kill 9, -1.
func killsEvery(lower string) bool {
	for from := 0; ; {
		i := strings.Index(lower[from:], "kill")
		if i < 0 {
			return false
		}
		i += from
		from = i + 4
		if i > 0 && identByte(lower[i-1]) {
			continue
		}
		args := strings.TrimLeft(lower[from:], " \t")
		if !strings.HasPrefix(args, "(") && !strings.HasPrefix(args, "'") && !strings.HasPrefix(args, `"`) && (args == "" || args[0] < '0' || args[0] > '9') {
			continue
		}
		args = strings.TrimPrefix(args, "(")
		if k := strings.IndexAny(args, ");\n"); k >= 0 {
			args = args[:k]
		}
		for _, a := range strings.Split(args, ",") {
			if strings.TrimSpace(a) == "-1" {
				return true
			}
		}
	}
}

// evalsDecoded reports lowercased code that evaluates or runs what it decodes from base64 or hex:
// eval(Buffer.from('...', 'base64').toString()), eval(atob('...')), system(pack("H*", '...')).
func evalsDecoded(lower string) bool {
	if !containsAny(lower, "b64decode(", "atob(", "fromhex(", "unhexlify(", "decode64(", "base64_decode(", "hex2bin(", "h*", "frombase64string(", "buffer.from(") {
		return false
	}
	for _, call := range []string{"eval(", "exec(", "function(", "system(", "popen(", "execsync(", "spawnsync(", "run(", "system "} {
		for from := 0; ; {
			i := strings.Index(lower[from:], call)
			if i < 0 {
				break
			}
			from += i + len(call)
			arg := lower[from:min(len(lower), from+200)]
			if k := strings.IndexByte(arg, '\n'); k >= 0 {
				arg = arg[:k]
			}
			if containsAny(arg, "b64decode(", "atob(", "fromhex(", "unhexlify(", "decode64(", "base64_decode(", "hex2bin(", `pack("h*"`, `pack('h*'`, "frombase64string(") ||
				strings.Contains(arg, "buffer.from(") && containsAny(arg, "base64", "'hex'", `"hex"`) {
				return true
			}
		}
	}
	return false
}

// indexWipe reports search-engine SDK code deleting every index or a whole one: Elasticsearch's
// and OpenSearch's indices.delete(index="*" | "_all"), Algolia's index .delete(), Meilisearch's
// delete_index / deleteIndex.
func indexWipe(code string) bool {
	for _, call := range []string{"indices.delete("} {
		for from := 0; ; {
			i := strings.Index(code[from:], call)
			if i < 0 {
				break
			}
			from += i + len(call)
			args := code[from:min(len(code), from+120)]
			for _, all := range []string{`"*"`, `'*'`, `"_all"`, `'_all'`} {
				if strings.Contains(args, all) {
					return true
				}
			}
		}
	}
	// Algolia: client.init_index("x").delete() / initIndex('x').delete(); Meilisearch.
	if (strings.Contains(code, "init_index(") || strings.Contains(code, "initIndex(")) && strings.Contains(code, ").delete()") {
		return true
	}
	return strings.Contains(code, ".delete_index(") || strings.Contains(code, ".deleteIndex(")
}

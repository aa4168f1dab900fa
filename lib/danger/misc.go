package danger

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/hookkit/harness/lib/shell"
)

func (j *judge) power(c *shell.Cmd) {
	if c.Name == "init" || c.Name == "telinit" {
		if len(c.Args) == 0 || (c.Args[0] != "0" && c.Args[0] != "6") {
			return
		}
	}
	if c.Name == "shutdown" && contains(c.Args, "-c") {
		return
	}
	j.add(c, "power.shutdown", Deny, High, c.Name+" shuts down or restarts the machine, ending every session and process on it", "ask the user to restart the machine")
}

func (j *judge) systemctl(c *shell.Cmd) {
	for _, a := range c.Args {
		switch a {
		case "poweroff", "reboot", "halt", "kexec", "emergency", "rescue", "rescue.target", "emergency.target", "poweroff.target",
			"halt.target", "reboot.target", "runlevel0.target", "runlevel1.target", "runlevel6.target":
			j.add(c, "power.shutdown", Deny, High, "systemctl "+a+" takes the whole machine down", "ask the user to restart the machine")
			return
		}
	}
	ops := shell.Opts{}.Parse(c.Args).Operands
	if len(ops) > 1 && (ops[0] == "stop" || ops[0] == "disable" || ops[0] == "mask" || ops[0] == "kill") {
		for _, u := range ops[1:] {
			switch strings.TrimSuffix(u, ".service") {
			case "ssh", "sshd", "systemd-logind", "dbus", "networking", "NetworkManager", "systemd-networkd":
				j.add(c, "power.critical-service", Deny, High, "systemctl "+ops[0]+" "+u+" cuts the machine off (logins, network or the system bus)", "ask the user to manage system services")
				return
			}
		}
	}
}

func (j *judge) kill(c *shell.Cmd) {
	if c.Name == "killall5" {
		j.add(c, "kill.mass", Deny, High, "killall5 signals every process on the machine", "kill the process you mean by its pid")
		return
	}
	if c.Name == "kill" {
		args := c.Args
		if len(args) == 1 && args[0] == "-1" {
			args = []string{"--", "-1"} // kill -1 alone reads as pid -1
		}
		// The first option is the signal (-9, -KILL, -s KILL, -n 9); the rest are pids.
		if len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "--" {
			if args[0] == "-s" || args[0] == "-n" || args[0] == "--signal" {
				args = args[min(2, len(args)):]
			} else {
				args = args[1:]
			}
		}
		for _, a := range args {
			if a == "-1" || a == "1" {
				j.add(c, "kill.mass", Deny, High, "kill "+a+" signals every process you can reach (or init)", "kill the process you mean by its pid")
				return
			}
		}
		// kill $(ps -e -o pid=), kill $(pgrep .): the pids of every process. A pipeline that
		// narrows the list (ps aux | grep node | awk ...) is the usual way to find one.
		if len(c.ArgsFrom) == 1 && allProcesses(c.ArgsFrom[0]) {
			f := c.ArgsFrom[0]
			j.add(c, "kill.mass", Deny, High, "kill is given the pid of every process ("+f.Name+" lists them all)", "kill the process you mean by its pid")
		}
		return
	}
	p := shell.Opts{Short: "snuUgPtFG", Long: []string{"signal", "user", "uid", "group", "parent", "terminal", "pidfile"}}.Parse(c.Args)
	pat := at(p.Operands, 0)
	if len(c.Args) >= 2 && c.Args[len(c.Args)-1] == "-1" {
		pat = "-1"
	}
	if pat == "." || pat == ".*" || pat == "-1" || (pat == "" && p.Has("u", "user", "U", "uid")) || c.Name == "pkill" && p.Has("v", "inverse") {
		j.add(c, "kill.mass", Deny, High, c.Name+" matches every process", "name the program you mean to stop")
		return
	}
	switch pat {
	case "bash", "sh", "zsh", "fish", "dash", "sshd", "systemd", "init", "login", "tmux", "screen", "claude":
		j.add(c, "kill.mass", Deny, High, c.Name+" "+pat+" kills every "+pat+" process: the sessions, and the shell running this one", "kill the process you mean by its pid")
		return
	}
	for _, h := range []string{"SecurityValidator", "WriteProtector", "SecretGuard", "AuditLog", "PromptContext", "LoadContext", "SessionSummary", "AgentOutputCapture", "/harness/"} {
		if strings.Contains(pat, h) || pat == "harness" {
			j.add(c, "tamper.kill-hooks", Deny, High, c.Name+" "+pat+" kills the hooks that guard this session", "ask the user to change hook settings themselves")
			return
		}
	}
}

// allProcesses reports a command that lists every process, or every process of a user: ps
// -e/-A/ax/-u, pgrep with a pattern that matches anything.
func allProcesses(c *shell.Cmd) bool {
	switch c.Name {
	case "ps":
		for _, a := range c.Args {
			// -u/-U/x: every process of a user, which includes the session itself.
			if a == "-e" || a == "-A" || a == "ax" || a == "aux" || a == "-ax" || a == "-aux" || a == "x" || a == "ux" ||
				a == "-u" || a == "-U" || a == "--user" || strings.HasPrefix(a, "-e") && !strings.ContainsAny(a[2:], "CpuUgGs") {
				return true
			}
		}
	case "pgrep":
		for _, a := range c.Args {
			if a == "." || a == ".*" || a == "" {
				return true
			}
		}
	}
	return false
}

// Databases.

var dbClients = []string{"psql", "mysql", "mariadb", "sqlite3", "sqlite", "mongo", "mongosh", "redis-cli",
	"clickhouse-client", "clickhouse", "sqlcmd", "cqlsh", "cockroach", "duckdb", "valkey-cli", "keydb-cli", "usql", "pgcli", "mycli", "wrangler", "turso"}

var sqlPatterns = sync.OnceValue(func() [4]*regexp.Regexp {
	return [4]*regexp.Regexp{
		regexp.MustCompile(`(?is)\bdrop\s+(database|schema|table|keyspace|collection)\s+(if\s+exists\s+)?([\w."` + "`" + `-]+)`),
		regexp.MustCompile(`(?is)\btruncate\s+(table\s+)?([\w."` + "`" + `-]+)`),
		regexp.MustCompile(`(?is)\bdelete\s+from\s+([\w."` + "`" + `-]+)\s*(;|$|\)|where\s+(1\s*=\s*1|true|1)\s*(;|$|\))|returning\b|using\b|limit\b|order\b)`),
		regexp.MustCompile(`(?is)\bflushall\b|\bflushdb\b|\.dropDatabase\s*\(|\.drop\s*\(\s*\)|\.deleteMany\s*\(\s*\{\s*\}\s*\)|\.remove\s*\(\s*\{\s*\}\s*\)`),
	}
})

// devName reports a database or table name that says it is for development or tests.
func devName(n string) bool {
	n = strings.ToLower(strings.Trim(n, "\"`'"))
	if n == ":memory:" {
		return true
	}
	// A database file (dev.sqlite3, test.db) is its name without the extension.
	for _, ext := range []string{".sqlite3", ".sqlite", ".db"} {
		n = strings.TrimSuffix(n, ext)
	}
	for _, w := range []string{"dev", "development", "test", "testing", "local", "tmp", "temp", "scratch", "sandbox", "example", "demo", "ci"} {
		if n == w || strings.HasPrefix(n, w+"_") || strings.HasSuffix(n, "_"+w) || strings.Contains(n, "_"+w+"_") ||
			strings.HasPrefix(n, w+"-") || strings.HasSuffix(n, "-"+w) || strings.HasSuffix(n, w) && len(n) > len(w) && (w == "dev" || w == "test") {
			return true
		}
	}
	return false
}

// sqlText collects the statements a client runs: -c/-e/--eval values, operands of sqlite3 and
// redis-cli, and its stdin.
func sqlText(c *shell.Cmd) string {
	var parts []string
	args := c.Args
	if c.Name == "mysql" || c.Name == "mariadb" || c.Name == "mycli" {
		// mysql's -p takes its password only attached (-psecret); a lone -p prompts for it.
		var kept []string
		for _, a := range args {
			if !strings.HasPrefix(a, "-p") && !strings.HasPrefix(a, "--password") {
				kept = append(kept, a)
			}
		}
		args = kept
	}
	p := shell.Opts{Short: "cefhUPdDuqQnsHiw", Long: []string{"command", "execute", "eval", "query", "file", "host", "user", "port", "dbname", "database", "username", "password"}}.Parse(args)
	for _, k := range []string{"c", "command", "e", "execute", "eval", "q", "query", "Q"} {
		if v, ok := p.Flags[k]; ok {
			parts = append(parts, v)
		}
	}
	switch c.Name {
	case "sqlite3", "sqlite", "duckdb", "redis-cli", "valkey-cli", "keydb-cli":
		ops := p.Operands
		if strings.HasPrefix(c.Name, "sqlite") || c.Name == "duckdb" {
			if len(ops) > 0 {
				ops = ops[1:] // the database file
			}
		}
		parts = append(parts, strings.Join(ops, " "))
	case "mongo", "mongosh":
		// the connection string is an operand; code comes from --eval or stdin
	}
	if c.Stdin != nil && c.Stdin.Known {
		parts = append(parts, c.Stdin.Text)
	}
	return strings.Join(parts, ";\n")
}

func (j *judge) dbClient(c *shell.Cmd) {
	text := stripSQLStrings(sqlText(c))
	if text == "" {
		return
	}
	pats := sqlPatterns()
	if m := pats[0].FindStringSubmatch(text); m != nil {
		j.dbDestroy(c, "DROP "+strings.ToUpper(m[1])+" "+m[3], m[3], c.Name)
		return
	}
	if m := pats[1].FindStringSubmatch(text); m != nil {
		j.dbDestroy(c, "TRUNCATE "+m[2], m[2], c.Name)
		return
	}
	if m := pats[2].FindStringSubmatch(text); m != nil && !strings.EqualFold(m[2], "where") {
		j.dbDestroy(c, "DELETE FROM "+m[1]+" without WHERE", m[1], c.Name)
		return
	}
	if m := pats[3].FindString(text); m != "" {
		j.dbDestroy(c, strings.TrimSpace(m), mongoDB(text), c.Name)
	}
}

// stripSQLStrings blanks out quoted literals and comments, where DROP is only text.
func stripSQLStrings(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\'':
			for i++; i < len(s); i++ {
				if s[i] == '\'' {
					if i+1 < len(s) && s[i+1] == '\'' {
						i++
						continue
					}
					break
				}
			}
			b.WriteString("''")
		case s[i] == '-' && i+1 < len(s) && s[i+1] == '-':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			b.WriteByte('\n')
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func (j *judge) dbDestroy(c *shell.Cmd, stmt, name, client string) {
	db := name
	if db == "" || !devName(db) {
		db = dbNameOf(c)
	}
	if db == ":memory:" {
		return // an in-memory database lives only as long as the command
	}
	where := ""
	if c.Remote {
		where = " (inside " + strings.Join(c.Via, ", ") + ")"
	}
	if devName(name) || devName(db) || devName(dbHost(c)) || devName(containerOf(c)) {
		j.add(c, "db.drop-dev", Ask, Medium, stmt+" destroys data in what looks like a development database"+where, "confirm it is not shared, or recreate it from migrations")
		return
	}
	j.add(c, "db.destructive", Deny, High, stmt+" destroys data for good"+where, "back it up first and ask the user to run destructive statements themselves")
}

// dbHost is the host a client connects to (-h, --host), "" when none is given.
func dbHost(c *shell.Cmd) string {
	p := shell.Opts{Short: "dDhUpPcefnqQ", Long: []string{"dbname", "database", "host", "command", "execute", "eval"}}.Parse(c.Args)
	v, _ := p.Value("h", "host")
	for _, label := range strings.Split(strings.ToLower(v), ".") {
		if label == "prod" || label == "production" || label == "live" {
			return "" // test.prod.example.com is production
		}
	}
	host, _, _ := strings.Cut(v, ".") // the host's own name: redis-dev, not .example.com
	return host
}

// containerOf is the container or service a client runs in through docker/kubectl exec: the
// word before the client in the statement (docker compose exec redis-test redis-cli ...).
func containerOf(c *shell.Cmd) string {
	if !c.Remote {
		return ""
	}
	words := strings.Fields(c.Text)
	for i := 1; i < len(words); i++ {
		if words[i] == c.Name || strings.HasSuffix(words[i], "/"+c.Name) {
			return words[i-1]
		}
	}
	return ""
}

// dbNameOf finds the database a client connects to (-d, --dbname, a connection URL, sqlite file).
func dbNameOf(c *shell.Cmd) string {
	p := shell.Opts{Short: "dDhUpPcefnqQ", Long: []string{"dbname", "database", "host", "command", "execute", "eval"}}.Parse(c.Args)
	if v, ok := p.Value("d", "dbname", "database", "D"); ok {
		return v
	}
	for _, o := range p.Operands {
		if strings.Contains(o, "://") {
			return o[strings.LastIndex(o, "/")+1:]
		}
	}
	if len(p.Operands) > 0 {
		return p.Operands[0]
	}
	return ""
}

// frameworkDrop: the database commands of web frameworks and migration tools (rails db:drop,
// artisan migrate:fresh, prisma migrate reset, manage.py flush, flyway clean, mysqladmin drop,
// heroku pg:reset). They default to the development database: ask; aimed at production (an
// environment, settings module, --env, URL or app named so, or Rails' production check turned
// off): deny.
func (j *judge) frameworkDrop(c *shell.Cmd) {
	if c.Name == "mysqladmin" {
		ops := shell.Opts{Short: "uhPpS", Long: []string{"user", "host", "port", "socket"}}.Parse(c.Args).Operands
		if len(ops) >= 2 && (ops[0] == "drop") {
			j.dbDestroy(c, "mysqladmin drop "+ops[1], ops[1], "mysqladmin")
		}
		return
	}
	if !frameworkRunner(c.Name) {
		return // grep db:reset, echo pg:reset: text, not a command
	}
	drop := schemaDrop(c)
	if drop == "" {
		return
	}
	if where := prodArgs(c); where != "" {
		j.add(c, "db.destructive", Deny, High, drop+" destroys the production database ("+where+")", "back it up first and ask the user to run it")
		return
	}
	if c.Name == "heroku" {
		j.add(c, "db.destructive", Ask, Medium, drop+" wipes a hosted database", "check which app it is, and capture a backup first (heroku pg:backups:capture)")
		return
	}
	j.add(c, "db.drop-dev", Ask, Medium, drop+" drops the development or test database", "confirm it is not shared, or recreate it from migrations")
}

// frameworkRunner reports the programs that run framework and migration tasks (directly, or
// through a package runner whose wrapper lib/shell could not see through).
func frameworkRunner(name string) bool {
	switch name {
	case "grep", "egrep", "fgrep", "rg", "ag", "ack", "echo", "printf", "git", "sed", "awk", "gawk", "cat", "less", "more",
		"head", "tail", "jq", "yq", "man", "tldr", "code", "vim", "vi", "nano", "emacs", "wc", "sort", "tee", "touch", "ls", "find":
		return false // text and files that mention a task are not the task
	}
	return true
}

// schemaDrop names the framework command in c that drops or empties a whole database.
func schemaDrop(c *shell.Cmd) string {
	words := append([]string{c.Name}, c.Args...)
	artisan := false
	for i, w := range words {
		switch w {
		case "artisan":
			artisan = true
		case "db:schema:load", "db:structure:load": // recreates every table: the data in them is gone
			return w
		case "db:drop", "db:reset", "db:purge", "db:migrate:reset", "db:truncate_all",
			"db:seed:replant", "ecto.drop", "ecto.reset", "schema:drop", "doctrine:database:drop", "doctrine:schema:drop",
			"flyway:clean", "flywayClean", "dropAll", "drop-all", "pg:reset":
			if w != "schema:drop" || contains(words, "typeorm") || strings.HasPrefix(c.Name, "typeorm") {
				return w
			}
		case "migrate:fresh", "migrate:reset", "migrate:refresh", "db:wipe":
			if artisan {
				return "artisan " + w
			}
		case "migrate":
			if at(words, i+1) == "reset" && (c.Name == "prisma" || at(words, i-1) == "prisma") {
				return "prisma migrate reset"
			}
		case "push":
			if (c.Name == "prisma" || at(words, i-1) == "db" && at(words, i-2) == "prisma") && contains(words, "--force-reset") {
				return "prisma db push --force-reset"
			}
		case "flush", "reset_db":
			if strings.HasSuffix(c.Name, "python") || strings.HasPrefix(c.Name, "python3") || at(words, i-1) == "manage.py" || c.Name == "manage.py" || c.Name == "django-admin" {
				return "manage.py " + w
			}
		case "clean":
			if c.Name == "flyway" {
				return "flyway clean"
			}
		case "drop":
			if c.Name == "migrate" && (contains(words, "-f") || i == len(words)-1) {
				return "migrate drop"
			}
		case "firestore:delete":
			if contains(words, "--all-collections") || contains(words, "-r") || contains(words, "--recursive") {
				return "firebase firestore:delete"
			}
		}
	}
	return ""
}

// production says what aims c at a production environment ("" if nothing does): an
// environment variable or option naming it, a settings module, a database URL or host, or an
// app whose name says so, or Rails' protection against dropping production turned off.
func production(c *shell.Cmd) string {
	if w := wrapperProd(c); w != "" {
		return w
	}
	items := append(append([]string{}, c.Env...), c.Args...)
	for i, it := range items {
		k, v, hasEq := strings.Cut(it, "=")
		uk := strings.ToUpper(strings.TrimLeft(k, "-"))
		if uk == "DISABLE_DATABASE_ENVIRONMENT_CHECK" && v != "" && v != "0" {
			return it
		}
		if !hasEq && i+1 < len(items) && (k == "--env" || k == "-e" || k == "--environment" || k == "--app" || k == "-a" || k == "--settings") {
			v, hasEq = items[i+1], true
			uk = strings.ToUpper(strings.TrimLeft(k, "-"))
		}
		if !hasEq {
			continue
		}
		switch {
		case strings.HasSuffix(uk, "ENV") || uk == "ENVIRONMENT" || uk == "E" || uk == "STAGE" || uk == "APP" || uk == "A":
			if prodWord(v) {
				return it
			}
		case strings.Contains(uk, "SETTINGS") || strings.Contains(uk, "URL") || strings.Contains(uk, "HOST") || strings.Contains(uk, "DATABASE"):
			if prodWord(v) {
				return it
			}
		}
	}
	return ""
}

// wrapperProd finds a production namespace or context given to the kubectl or docker that runs
// the command (kubectl -n production exec deploy/web -- ...).
func wrapperProd(c *shell.Cmd) string {
	if !c.Remote {
		return ""
	}
	words := strings.Fields(c.Text)
	for _, v := range c.Via { // kubectl exec -n production, then bash -c '...'
		if strings.Contains(v, " -n ") || strings.Contains(v, "--namespace") || strings.Contains(v, "--context") {
			words = append(strings.Fields(v), append([]string{"--"}, words...)...)
		}
	}
	for i, w := range words {
		if w == c.Name {
			break
		}
		if w == "--" {
			continue
		}
		switch {
		case (w == "-n" || w == "--namespace" || w == "--context" || w == "--kube-context") && i+1 < len(words) && prodWord(words[i+1]):
			return w + " " + words[i+1]
		case (strings.HasPrefix(w, "--namespace=") || strings.HasPrefix(w, "--context=")) && prodWord(w[strings.IndexByte(w, '=')+1:]):
			return w
		}
	}
	return ""
}

// prodArgs returns the first argument or variable of c that names production ("" if none):
// -n production, prod-rg, --app acme-prod, RAILS_ENV=production.
func prodArgs(c *shell.Cmd) string {
	if w := production(c); w != "" {
		return w
	}
	args := c.Args
	for _, f := range c.ArgsFrom {
		args = append(append([]string(nil), args...), f.Args...) // $(gcloud ... --filter=name~prod)
	}
	for _, a := range args {
		if !strings.HasPrefix(a, "-") && prodWord(a) {
			return a
		}
		if _, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "--") && prodWord(v) {
			return a
		}
	}
	return ""
}

// prodWord reports a value with "prod", "production" or "live" as one of its words
// (acme-production, config.settings.production, prod-db.internal; not products).
func prodWord(v string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
		if w == "prod" || w == "production" || w == "prd" {
			return true
		}
	}
	return false
}

func (j *judge) dropdb(c *shell.Cmd) {
	ops := shell.Opts{Short: "hpUdD", Long: []string{"host", "port", "username", "maintenance-db"}}.Parse(c.Args).Operands
	if len(ops) == 0 {
		return
	}
	j.dbDestroy(c, "dropdb "+ops[0], ops[0], "dropdb")
}

// scratchBucket reports a bucket named for development or scratch data (acme-dev-scratch).
func scratchBucket(b string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(b), func(r rune) bool { return r == '-' || r == '.' || r == '_' }) {
		switch w {
		case "dev", "development", "test", "testing", "scratch", "tmp", "temp", "sandbox", "ci", "playground":
			return true
		}
	}
	return false
}

// mongoDB names the database mongo code works on: getSiblingDB("x"), use x ("" if neither).
func mongoDB(code string) string {
	if i := strings.Index(code, "getSiblingDB("); i >= 0 {
		rest := strings.TrimLeft(code[i+len("getSiblingDB("):], " '\"")
		if j := strings.IndexAny(rest, "'\")"); j > 0 {
			return rest[:j]
		}
	}
	if i := strings.Index(code, "use "); i >= 0 {
		if f := strings.Fields(code[i+4:]); len(f) > 0 {
			return strings.Trim(f[0], ";'\"")
		}
	}
	return ""
}

// Cloud and infrastructure.

func (j *judge) terraform(c *shell.Cmd) {
	p := shell.Opts{}.Parse(c.Args)
	if len(p.Operands) == 0 {
		return
	}
	sub := p.Operands[0]
	if sub == "workspace" && at(p.Operands, 1) == "delete" && (p.Has("force") || contains(c.Args, "-force")) {
		j.add(c, "cloud.iac-workspace-delete", Deny, High, c.Name+" workspace delete discards the workspace's state: the resources stay, unmanaged", "destroy or migrate the resources first, and ask the user")
		return
	}
	if sub == "run-all" || sub == "run" && at(p.Operands, 1) == "--all" {
		p.Operands = p.Operands[1:] // terragrunt run-all destroy
		if len(p.Operands) > 0 && p.Operands[0] == "--all" {
			p.Operands = p.Operands[1:]
		}
		if len(p.Operands) == 0 {
			return
		}
		sub = p.Operands[0]
	}
	if sub == "state" && len(p.Operands) > 1 && p.Operands[1] == "rm" && massListing(c.ArgsFrom) {
		j.add(c, "cloud.iac-state-rm", Deny, High, c.Name+" state rm of everything state list printed makes it forget the whole estate", "remove the one resource you mean")
		return
	}
	if sub == "state" && len(p.Operands) > 1 && p.Operands[1] == "rm" {
		j.add(c, "cloud.iac-state-rm", Ask, Medium, c.Name+" state rm makes it forget resources, which it will then create again or leave unmanaged", "check with terraform state list, and prefer a removed block in the configuration")
		return
	}
	destroy := sub == "destroy" || sub == "apply" && (p.Has("destroy") || contains(c.Args, "-destroy"))
	if !destroy {
		return
	}
	for _, a := range c.Args {
		if strings.HasPrefix(a, "-target") {
			j.add(c, "cloud.iac-destroy-target", Ask, Medium, c.Name+" destroy of a targeted resource", "check the plan with terraform plan -destroy -target=... first")
			return
		}
	}
	j.add(c, "cloud.iac-destroy", Deny, High, c.Name+" destroy deletes every resource of the configuration", "run terraform plan -destroy and ask the user to apply it")
}

// platform covers the cluster and platform CLIs whose delete takes a whole cluster or app:
// eksctl delete cluster, heroku apps:destroy, doctl ... delete.
func (j *judge) platform(c *shell.Cmd) {
	ops := shell.Opts{Short: "fr", Long: []string{"name", "region", "app", "confirm", "context", "access-token", "output", "format"}}.Parse(c.Args).Operands
	switch {
	case c.Name == "eksctl" && len(ops) > 1 && ops[0] == "delete" && ops[1] == "cluster":
		j.add(c, "cloud.cluster-delete", Deny, High, "eksctl delete cluster deletes the cluster and everything running in it", "ask the user to delete clusters themselves")
	case c.Name == "heroku" && len(ops) > 0 && (ops[0] == "apps:destroy" || ops[0] == "destroy"):
		j.add(c, "cloud.app-destroy", Deny, High, "heroku apps:destroy deletes the app with its add-ons and data", "ask the user to destroy apps themselves")
	case c.Name == "doctl" && len(ops) > 2 && ops[0] == "kubernetes" && ops[1] == "cluster" && (ops[2] == "delete" || ops[2] == "rm"):
		j.add(c, "cloud.cluster-delete", Deny, High, "doctl kubernetes cluster delete deletes the cluster and everything running in it", "ask the user to delete clusters themselves")
	case c.Name == "doctl" && (contains(ops[:min(len(ops), 3)], "delete") || contains(ops[:min(len(ops), 3)], "rm")):
		j.add(c, "cloud.delete", Ask, Medium, "doctl deletes "+strings.Join(ops, " "), "check what it deletes with the matching get or list command")
	}
}

func (j *judge) pulumi(c *shell.Cmd) {
	if len(c.Args) > 0 && (c.Args[0] == "destroy" || c.Args[0] == "down") {
		j.add(c, "cloud.iac-destroy", Deny, High, "pulumi destroy deletes every resource of the stack", "preview with pulumi destroy --preview-only and ask the user")
	}
	if len(c.Args) > 1 && c.Args[0] == "stack" && (c.Args[1] == "rm" || c.Args[1] == "remove") {
		j.add(c, "cloud.iac-stack-rm", Ask, Medium, "pulumi stack rm deletes the stack and its state", "destroy the stack's resources first, then remove it")
	}
}

// stackTool: CLIs that deploy a whole stack and tear it down again (cdk destroy, cdktf
// destroy, serverless remove, sst remove, amplify delete).
func (j *judge) stackTool(c *shell.Cmd) {
	ops := shell.Opts{Long: []string{"app", "a", "profile", "context", "c", "region", "stage", "s", "output", "o", "config"}}.Parse(c.Args).Operands
	if len(ops) == 0 {
		return
	}
	switch {
	case (c.Name == "cdk" || c.Name == "cdktf") && ops[0] == "destroy",
		(c.Name == "serverless" || c.Name == "sls" || c.Name == "sst") && ops[0] == "remove",
		c.Name == "amplify" && ops[0] == "delete":
		if previewStage(c.Args) {
			j.add(c, "cloud.iac-destroy", Ask, Medium, c.Name+" "+ops[0]+" deletes every resource of a development or preview stack", "check the stage name first")
			return
		}
		j.add(c, "cloud.iac-destroy", Deny, High, c.Name+" "+ops[0]+" deletes every resource of the stack", "ask the user to tear down stacks themselves")
	}
}

func (j *judge) aws(c *shell.Cmd) {
	p := shell.Opts{Long: []string{"profile", "region", "output", "endpoint-url", "query", "instance-ids", "bucket", "key"}}.Parse(c.Args)
	ops := p.Operands
	if len(ops) < 2 {
		return
	}
	svc, op := ops[0], ops[1]
	switch {
	case svc == "s3" && op == "rm" && p.Has("recursive"):
		bucket, prefix, _ := strings.Cut(strings.TrimPrefix(at(ops, 2), "s3://"), "/")
		// A prefix in a scratch bucket (acme-dev-scratch/tmp/) is a cleanup; anything else is data.
		if strings.Trim(prefix, "/*") == "" || !scratchBucket(bucket) || prodWord(bucket) || strings.Contains(prefix, shell.Dyn) {
			j.add(c, "cloud.s3-delete", Deny, High, "aws s3 rm --recursive deletes every object under "+or(at(ops, 2), "the prefix"), "delete the objects you mean by key, or use a lifecycle rule")
		}
	case svc == "s3" && op == "rb" && p.Has("force"):
		j.add(c, "cloud.s3-delete", Deny, High, "aws s3 rb --force deletes a bucket and everything in it", "empty and remove the bucket by hand after checking it")
	case svc == "s3" && op == "sync" && p.Has("delete") && strings.HasPrefix(at(ops, 3), "s3://") && at(ops, 2) != "" && !strings.HasPrefix(at(ops, 2), "s3://"):
		// uploading a local tree with --delete is a deploy; allowed
	case svc == "kms" && (op == "schedule-key-deletion" || op == "disable-key"), svc == "route53" && op == "delete-hosted-zone",
		svc == "secretsmanager" && op == "delete-secret" && p.Has("force-delete-without-recovery"),
		svc == "ec2" && op == "terminate-instances", svc == "rds" && strings.HasPrefix(op, "delete-db"),
		svc == "cloudformation" && op == "delete-stack", svc == "dynamodb" && op == "delete-table",
		svc == "eks" && op == "delete-cluster", svc == "iam" && op == "delete-user", svc == "s3api" && op == "delete-bucket":
		j.add(c, "cloud.delete", Deny, High, "aws "+svc+" "+op+" deletes cloud resources for good", "ask the user to delete production resources themselves")
	case (strings.HasPrefix(op, "delete-") || strings.HasPrefix(op, "terminate-")) && massListing(c.ArgsFrom):
		j.add(c, "cloud.delete-all", Deny, High, "aws "+svc+" "+op+" is run on everything a listing produced", "delete the resources you mean by id")
	case op == "delete-item" || op == "delete-object" || op == "delete-message" || op == "delete-tags" || op == "delete-objects" && !massListing(c.ArgsFrom):
		// one item, object or message: ordinary data work
	case strings.HasPrefix(op, "delete-") || strings.HasPrefix(op, "terminate-"):
		j.add(c, "cloud.delete", Ask, Medium, "aws "+svc+" "+op+" deletes cloud resources", "check the resource id first")
	}
}

func at(list []string, i int) string {
	if i < len(list) {
		return list[i]
	}
	return ""
}

func (j *judge) gcloud(c *shell.Cmd) {
	ops := shell.Opts{Long: []string{"project", "zone", "region", "format", "account"}}.Parse(c.Args).Operands
	s := strings.Join(ops, " ")
	switch {
	case strings.HasPrefix(s, "projects delete"):
		j.add(c, "cloud.delete", Deny, High, "gcloud projects delete deletes a whole project and everything in it", "ask the user to delete projects themselves")
	case strings.HasPrefix(s, "storage rm") && (contains(c.Args, "-r") || contains(c.Args, "--recursive")):
		j.add(c, "cloud.bucket-delete", Deny, High, "gcloud storage rm -r deletes every object under the path", "delete the objects you mean by name")
	case contains(ops, "delete"):
		j.add(c, "cloud.delete", Ask, Medium, "gcloud "+s+" deletes cloud resources", "check the resource first")
	}
}

func (j *judge) gsutil(c *shell.Cmd) {
	ops := shell.Opts{Short: "hop", Long: []string{}}.Parse(c.Args)
	for i, a := range ops.Operands {
		if (a == "rm" || a == "rb") && (contains(c.Args[i:], "-r") || contains(c.Args, "-R") || contains(c.Args, "-rf") || a == "rb") {
			j.add(c, "cloud.bucket-delete", Deny, High, "gsutil "+a+" -r deletes a bucket's objects wholesale", "delete the objects you mean by name")
			return
		}
	}
}

func (j *judge) az(c *shell.Cmd) {
	ops := shell.Opts{Long: []string{"name", "resource-group", "subscription", "output"}}.Parse(c.Args).Operands
	s := strings.Join(ops, " ")
	switch {
	case strings.HasPrefix(s, "group delete"):
		j.add(c, "cloud.delete", Deny, High, "az group delete deletes a resource group and everything in it", "ask the user to delete resource groups themselves")
	case contains(ops, "delete"):
		j.add(c, "cloud.delete", Ask, Medium, "az "+s+" deletes cloud resources", "check the resource first")
	}
}

// inNamespace reports a kubectl command aimed at the namespace ns.
func inNamespace(p shell.Parsed, ns string) bool {
	v, _ := p.Value("n", "namespace")
	return v == ns
}

// massListing reports commands that list every resource of a kind (kubectl get nodes, aws ...
// list-..., helm list, terraform state list): their output fed to a delete deletes them all.
// A pipeline that narrows the list (grep Evicted, a label or field selector, a JMESPath
// filter, awk '$3 == "Failed"') picks some, which is the usual way to clean up.
func massListing(from []*shell.Cmd) bool {
	listing := false
	for _, f := range from {
		switch f.Name {
		case "grep", "egrep", "fgrep", "rg", "ag":
			if !slices.Contains(f.Args, "-v") && !slices.Contains(f.Args, "--invert-match") {
				return false
			}
			if pat := strings.Join(f.Args, " "); strings.Contains(pat, "main") || strings.Contains(pat, "master") || strings.Contains(pat, "prod") {
				return false // grep -v main: the ones that matter are kept out
			}
		case "head", "tail":
			return false
		case "sed":
			if prog := strings.Join(f.Args, " "); slices.Contains(f.Args, "-n") || strings.Contains(prog, "/d") {
				return false
			}
		case "git":
			if slices.Contains(f.Args, "branch") || slices.Contains(f.Args, "for-each-ref") || slices.Contains(f.Args, "ls-remote") {
				listing = true
			}
		case "awk", "gawk", "mawk":
			if prog := strings.Join(f.Args, " "); strings.ContainsAny(prog, "~/") || strings.Contains(prog, "==") || strings.Contains(prog, "if") {
				return false
			}
		case "jq", "yq":
			if strings.Contains(strings.Join(f.Args, " "), "select(") {
				return false
			}
		}
		for i, a := range f.Args {
			switch {
			case a == "-l" || a == "--selector" || strings.HasPrefix(a, "--selector=") || strings.HasPrefix(a, "--field-selector") ||
				strings.HasPrefix(a, "--filter") || a == "-f" && f.Name == "docker" || strings.HasPrefix(a, "-l") && len(a) > 2 && f.Name == "kubectl":
				return false
			case (a == "--query" || a == "--jq") && strings.Contains(at(f.Args, i+1), "?"), strings.HasPrefix(a, "--query=") && strings.Contains(a, "?"):
				return false
			case a == "list" || strings.HasPrefix(a, "list-") || a == "ls" || a == "get" && f.Name != "git" || strings.HasPrefix(a, "describe-"):
				listing = true
			}
		}
	}
	return listing
}

// ansible: modules that plant access or run code on every host matched (the shell ones are
// analysed as commands on those hosts, lib/shell).
func (j *judge) ansible(c *shell.Cmd) {
	p := shell.Opts{Short: "mauiefMlBPtTc", Long: []string{"module-name", "args", "user", "inventory", "extra-vars", "limit"}}.Parse(c.Args)
	switch m, _ := p.Value("m", "module-name"); strings.TrimPrefix(strings.TrimPrefix(m, "ansible.posix."), "ansible.builtin.") {
	case "authorized_key":
		j.add(c, "persist.authorized-keys", Deny, High, "ansible -m authorized_key adds SSH keys allowed to log in on every host matched", "ask the user to manage SSH access")
	case "user":
		if a, _ := p.Value("a", "args"); strings.Contains(a, "state=absent") {
			j.add(c, "kill.user", Deny, High, "ansible -m user state=absent removes the account on every host matched", "ask the user to manage accounts")
		}
	}
}

// npmScript: npm pkg set scripts.X="..." that fetches code: npm runs install scripts by itself.
func (j *judge) npmScript(c *shell.Cmd) {
	if len(c.Args) < 3 || c.Args[0] != "pkg" || c.Args[1] != "set" {
		return
	}
	for _, a := range c.Args[2:] {
		if strings.HasPrefix(a, "scripts.") && (fetchesCode(a) || hijacks(a)) {
			j.add(c, "persist.autorun", Deny, High, "it sets an npm script that downloads or connects ("+strings.SplitN(a, "=", 2)[0]+"), run by npm on its own", "ask the user to add install scripts")
			return
		}
	}
}

// previewStage reports a stage or stack named for development or a pull request (dev,
// MyStack-dev, pr-42), and none for production.
func previewStage(args []string) bool {
	dev := false
	for _, a := range args {
		if prodWord(a) {
			return false
		}
		for _, w := range strings.FieldsFunc(strings.ToLower(a), func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
			if w == "dev" || w == "development" || w == "test" || w == "preview" || w == "sandbox" || w == "pr" || w == "review" {
				dev = true
			}
		}
	}
	return dev
}

// bigquery: bq rm of a dataset or table.
func (j *judge) bigquery(c *shell.Cmd) {
	p := shell.Opts{Long: []string{"project_id", "location"}}.Parse(c.Args)
	if len(p.Operands) == 0 || p.Operands[0] != "rm" {
		return
	}
	if p.Has("r", "recursive") || p.Has("d", "dataset") {
		j.add(c, "cloud.delete", Ask, Medium, "bq rm deletes a dataset (with -r every table in it)", "delete the table you mean")
	}
}

// ztcp (zsh's TCP module) connecting out: with the shell's streams on it, a reverse shell.
func (j *judge) ztcp(c *shell.Cmd) {
	if ops := (shell.Opts{}).Parse(c.Args).Operands; len(ops) >= 2 && !slices.Contains(c.Args, "-l") && !slices.Contains(c.Args, "-c") {
		j.add(c, "rev.net-shell", Deny, High, "ztcp opens a raw connection from zsh to "+ops[0]+", the way zsh reverse shells start", "use curl or nc for network checks")
	}
}

// logind over D-Bus: PowerOff, Reboot, Halt.
func (j *judge) logind(c *shell.Cmd) {
	text := strings.Join(c.Args, " ")
	if strings.Contains(text, "login1") && (strings.Contains(text, "PowerOff") || strings.Contains(text, "Reboot") || strings.Contains(text, "Halt") || strings.Contains(text, "KExec")) {
		j.add(c, "power.shutdown", Deny, High, c.Name+" asks logind to power off or restart the machine", "ask the user to restart the machine")
	}
}

// loginctl terminate-user, kill-user: every process and session of the user.
func (j *judge) loginctl(c *shell.Cmd) {
	if len(c.Args) > 0 && (c.Args[0] == "terminate-user" || c.Args[0] == "kill-user" || c.Args[0] == "terminate-seat") {
		j.add(c, "kill.mass", Deny, High, "loginctl "+c.Args[0]+" ends every session and process of the user", "kill the process you mean by its pid")
	}
}

// helm: uninstalling a release deletes everything it installed.
func (j *judge) helm(c *shell.Cmd) {
	ops := shell.Opts{Short: "n", Long: []string{"namespace", "kube-context", "kubeconfig", "timeout"}}.Parse(c.Args).Operands
	if len(ops) == 0 || ops[0] != "uninstall" && ops[0] != "delete" && ops[0] != "del" && ops[0] != "un" {
		return
	}
	if len(c.ArgsFrom) > 0 && massListing(c.ArgsFrom) {
		j.add(c, "container.helm-uninstall-all", Deny, High, "it uninstalls every release a listing produced, with all their resources", "uninstall the release you mean by name")
		return
	}
	if w := prodArgs(c); w != "" {
		j.add(c, "container.helm-uninstall", Deny, High, "helm uninstall deletes every resource the release installed, and it names production ("+w+")", "ask the user to uninstall production releases")
	}
}

func (j *judge) kubectl(c *shell.Cmd) {
	p := shell.Opts{Short: "nclfo", Long: []string{"namespace", "context", "selector", "filename", "output", "kubeconfig", "cluster", "field-selector"}}.Parse(c.Args)
	ops := p.Operands
	if len(ops) > 0 && ops[0] == "scale" && p.Has("all") && (contains(c.Args, "--replicas=0") || p.Flags["replicas"] == "0") {
		j.add(c, "container.k8s-scale-all", Ask, Medium, "it scales every deployment to zero: an outage of the namespace", "scale the deployment you mean by name")
		return
	}
	if len(ops) > 0 && ops[0] == "drain" && len(c.ArgsFrom) > 0 && massListing(c.ArgsFrom) {
		j.add(c, "container.k8s-drain-all", Deny, High, "it drains every node a listing produced, evicting every workload in the cluster", "drain one node at a time")
		return
	}
	if len(ops) == 0 || ops[0] != "delete" {
		return
	}
	for _, f := range c.ArgsFrom {
		if (f.Name == "kubectl" || f.Name == "oc") && contains(f.Args, "get") && (contains(f.Args, "ns") || contains(f.Args, "namespace") || contains(f.Args, "namespaces")) {
			j.add(c, "container.k8s-namespace", Deny, High, "it deletes the namespaces a listing produced, and with them everything running in them", "delete the namespace you mean by name")
			return
		}
	}
	if massListing(c.ArgsFrom) {
		j.add(c, "container.k8s-delete-all", Ask, High, "it deletes every resource a listing printed", "delete the resources you mean by name or label")
		return
	}
	kind := at(ops, 1)
	switch {
	case kind == "namespace" || kind == "namespaces" || kind == "ns" || strings.HasPrefix(kind, "namespace/") || strings.HasPrefix(kind, "ns/"):
		j.add(c, "container.k8s-namespace", Deny, High, "deleting a namespace deletes everything running in it", "delete the workloads you mean by name")
	case p.Has("all", "A", "all-namespaces"):
		j.add(c, "container.k8s-all", Deny, High, "kubectl delete --all removes every resource of that kind", "delete the resources you mean by name or label")
	case inNamespace(p, "kube-system") && kind != "pod" && kind != "pods" && !strings.HasPrefix(kind, "pod/"):
		j.add(c, "container.k8s-system", Deny, High, "it deletes "+kind+" from kube-system, which the whole cluster runs on", "leave kube-system to the cluster's operators")
	case kind == "crd" || kind == "crds" || kind == "customresourcedefinition" || kind == "customresourcedefinitions" || strings.HasPrefix(kind, "crd/") || strings.HasPrefix(kind, "customresourcedefinition"):
		j.add(c, "container.k8s-crd", Deny, High, "deleting a custom resource definition deletes every resource of that kind in the cluster", "delete the resources you mean by name")
	case kind == "pv" || kind == "pvc" || kind == "persistentvolumeclaim" || kind == "persistentvolume" || kind == "crd" || kind == "customresourcedefinition" || kind == "node":
		j.add(c, "container.k8s-data", Ask, Medium, "kubectl delete "+kind+" can destroy stored data or workloads", "check what depends on it first")
	}
}

func (j *judge) docker(c *shell.Cmd) {
	sub, compose := shell.EngineArgs(c.Name, c.Args)
	if compose {
		if at(sub, 0) == "down" && (slices.Contains(sub, "-v") || slices.Contains(sub, "--volumes")) {
			j.add(c, "container.compose-volumes", Ask, Medium, "compose down -v deletes the project's named volumes and the data in them", "leave -v off to keep the data")
		}
		return
	}
	if ops := (shell.Opts{}).Parse(sub); len(ops.Operands) > 0 && ops.Has("a", "all") {
		switch o := ops.Operands; {
		case o[0] == "rm" || o[0] == "rmi" || (o[0] == "container" || o[0] == "image" || o[0] == "pod") && at(o, 1) == "rm":
			j.add(c, "container.rm-all", Deny, High, c.Name+" "+strings.Join(o[:min(2, len(o))], " ")+" --all removes every container, image or pod", "remove the ones you mean by name")
			return
		case o[0] == "volume" && at(o, 1) == "rm":
			if ops.Has("f", "force") {
				j.add(c, "container.rm-all", Deny, High, c.Name+" volume rm --all --force deletes every volume's data, in use or not", "remove the volumes you mean by name")
			} else {
				j.add(c, "container.prune", Ask, Medium, c.Name+" volume rm --all deletes the data of every unused volume", "remove the volumes you mean by name")
			}
			return
		}
	}
	ops := shell.Opts{Short: "f", Long: []string{"filter", "format"}}.Parse(sub).Operands
	s := strings.Join(ops, " ")
	switch {
	case strings.HasPrefix(s, "system prune"):
		j.add(c, "container.prune", Ask, Medium, "docker system prune removes stopped containers, images, networks (and with --volumes, data)", "remove the containers or images you mean by name")
	case s == "system reset" || strings.HasPrefix(s, "system reset "):
		j.add(c, "container.rm-all", Deny, High, c.Name+" system reset deletes every container, image, network and volume", "remove what you mean by name")
	case strings.HasPrefix(s, "volume prune"):
		j.add(c, "container.prune", Ask, Medium, "docker volume prune deletes the data of every unused volume", "remove the volumes you mean by name")
	case strings.HasPrefix(s, "rm") || strings.HasPrefix(s, "rmi") || strings.HasPrefix(s, "volume rm") || strings.HasPrefix(s, "container rm") || strings.HasPrefix(s, "image rm"):
		for _, f := range c.ArgsFrom {
			if (f.Name == "docker" || f.Name == "podman" || f.Name == "nerdctl") && !filtered(f.Args) {
				j.add(c, "container.rm-all", Deny, High, "it removes every container, image or volume that docker lists", "remove the ones you mean by name")
				return
			}
		}
	}
}

// filtered reports a docker listing narrowed by --filter or -f.
func filtered(args []string) bool {
	for _, a := range args {
		if a == "-f" || a == "--filter" || strings.HasPrefix(a, "--filter=") {
			return true
		}
	}
	return false
}

// History and logs.

func (j *judge) history(c *shell.Cmd) {
	if (shell.Opts{}).Parse(c.Args).Has("c") {
		j.add(c, "hist.clear", Deny, Medium, "history -c wipes the shell history", "leave the history alone")
	}
}

// setHist: set +o history stops the shell recording the commands after it.
func (j *judge) setHist(c *shell.Cmd) {
	for i, a := range c.Args {
		if a == "+o" && at(c.Args, i+1) == "history" {
			j.add(c, "hist.disable", Deny, Medium, "set +o history stops the shell recording history", "leave history recording on")
		}
	}
}

func (j *judge) unsetHist(c *shell.Cmd) {
	if contains(c.Args, "HISTFILE") {
		j.add(c, "hist.disable", Deny, Medium, "unsetting HISTFILE stops the shell recording history", "leave history recording on")
	}
}

func (j *judge) exportHist(c *shell.Cmd) {
	for _, a := range c.Args {
		if v, ok := strings.CutPrefix(a, "HISTFILE="); ok && (v == "/dev/null" || v == "") {
			j.add(c, "hist.disable", Deny, Medium, "pointing HISTFILE at /dev/null stops the shell recording history", "leave history recording on")
		}
		if v, ok := strings.CutPrefix(a, "HISTSIZE="); ok && v == "0" {
			j.add(c, "hist.disable", Deny, Medium, "HISTSIZE=0 stops the shell recording history", "leave history recording on")
		}
	}
}

func (j *judge) journalctl(c *shell.Cmd) {
	for _, a := range c.Args {
		if _, v, _ := strings.Cut(a, "="); strings.HasPrefix(a, "--vacuum-size=") && sizeBytes(v) >= 64<<20 ||
			strings.HasPrefix(a, "--vacuum-files=") && v != "0" && v != "1" {
			continue // a cap that keeps a recent journal: routine housekeeping
		}
		if strings.HasPrefix(a, "--vacuum") {
			j.add(c, "hist.logs", Deny, Medium, "journalctl --vacuum-time deletes the system journal", "cap it with --vacuum-size, or leave the journal to its retention settings")
			return
		}
	}
}

func (j *judge) crontab(c *shell.Cmd) {
	p := shell.Opts{Short: "u"}.Parse(c.Args)
	if p.Has("r") {
		j.add(c, "persist.crontab-remove", Deny, Medium, "crontab -r deletes every scheduled job of the user", "edit the single entry you mean with crontab -e")
		return
	}
	if p.Has("l", "e") {
		return
	}
	text := ""
	if c.Stdin != nil {
		text = c.Stdin.Text
		for _, f := range c.Stdin.From {
			text += " " + f.Name + " " + strings.Join(f.Args, " ")
		}
	}
	for _, f := range c.ArgsFrom { // crontab <(echo '...')
		text += " " + f.Name + " " + strings.Join(f.Args, " ")
	}
	if fetchesCode(text) || hijacks(text) || strings.Contains(text, "@reboot") && (strings.Contains(text, "--connect") || strings.Contains(text, " nc ")) {
		j.add(c, "persist.cron-fetch", Deny, High, "it schedules a job that downloads, connects or starts hidden code", "ask the user to schedule jobs themselves")
	}
}

// sizeBytes reads a journalctl size (500M, 1G, 1K); 0 when it is not one.
func sizeBytes(v string) int64 {
	mult := int64(1)
	switch {
	case strings.HasSuffix(v, "K"):
		mult = 1 << 10
	case strings.HasSuffix(v, "M"):
		mult = 1 << 20
	case strings.HasSuffix(v, "G"):
		mult = 1 << 30
	case strings.HasSuffix(v, "T"):
		mult = 1 << 40
	}
	n, err := strconv.ParseInt(strings.TrimRight(v, "KMGTB"), 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n * mult
}

// visudo fed by a non-interactive editor (EDITOR='tee -a', a pipe): sudoers written blind.
func (j *judge) visudo(c *shell.Cmd) {
	for _, e := range c.Env {
		if strings.HasPrefix(e, "EDITOR=") || strings.HasPrefix(e, "VISUAL=") || strings.HasPrefix(e, "SUDO_EDITOR=") {
			j.add(c, "persist.sudoers", Deny, High, "it changes who may run commands as root, through visudo with "+e, "ask the user to edit sudoers with visudo")
			return
		}
	}
	if c.Stdin != nil && (len(c.Stdin.From) > 0 || c.Stdin.Text != "") {
		j.add(c, "persist.sudoers", Deny, High, "it feeds visudo, which changes who may run commands as root", "ask the user to edit sudoers with visudo")
	}
}

// Windows and macOS: the same dangers under other names. The text is split into words, so
// that a drive root, a profile or a shutdown is a word of its own, not a substring.
func (j *judge) windows(c *shell.Cmd) {
	text := strings.Join(c.Args, " ")
	if c.Name == "pwsh" || c.Name == "powershell" {
		text = c.Code + " " + text
	}
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '"' || r == '\'' || r == ';' || r == '&' || r == '|' || r == '(' || r == ')'
	})
	has := func(ws ...string) bool {
		for _, w := range words {
			if slices.Contains(ws, w) {
				return true
			}
		}
		return false
	}
	after := func(cmd string, ok func(string) bool) bool { // a word right after cmd satisfies ok
		for i, w := range words {
			if w == cmd && i+1 < len(words) && ok(words[i+1]) {
				return true
			}
		}
		return false
	}
	drive := func(w string) bool {
		return len(w) >= 2 && w[1] == ':' && w[0] >= 'a' && w[0] <= 'z' && len(strings.Trim(w[2:], "\\/*")) == 0
	}
	root := func(w string) bool {
		w = strings.TrimRight(w, "\\/*")
		return drive(w+":") && len(w) == 1 || drive(w) || w == "%userprofile%" || w == "$env:userprofile" || w == "$home" || w == "~" ||
			w == "%systemroot%" || w == "$env:systemroot" || w == "c:\\windows" || w == "c:\\users" || w == "%windir%"
	}
	j.psPolicy(c, words, has)
	removes := has("remove-item", "rm", "rmdir", "rd", "del", "erase", "ri") && has("-recurse", "/s", "-r", "-rf")
	switch {
	case has("format-volume", "clear-disk", "initialize-disk") || after("format", drive) || has("diskpart") && has("clean"):
		j.add(c, "disk.format", Deny, High, c.Name+" formats or wipes a disk", "ask the user to manage disks")
	case has("iex", "invoke-expression") && has("downloadstring", "invoke-webrequest", "iwr", "irm", "invoke-restmethod", "net.webclient"):
		u := ""
		for _, w := range words {
			if strings.HasPrefix(w, "http") {
				u = w
				break
			}
		}
		if host, p := hostPath(u); host != "" && j.trusted(host, p) {
			j.add(c, "net.pipe-installer", Ask, Medium, c.Name+" runs an installer downloaded from "+host+" without a chance to read it first", "download the script, read it, then run it")
			return
		}
		j.add(c, "net.pipe-shell", Deny, High, c.Name+" runs code downloaded from the network, unreviewed", "download the script, read it, then run it")
	case has("stop-computer", "restart-computer") || after("shutdown", func(w string) bool { return w == "/s" || w == "/r" || w == "/p" || w == "-s" || w == "-r" }):
		j.add(c, "power.shutdown", Deny, High, c.Name+" shuts down or restarts the machine", "ask the user to restart the machine")
	case removes && slices.ContainsFunc(words, root):
		j.add(c, "fs.rm-critical", Deny, High, c.Name+" deletes a drive root or the user's profile", "delete the specific directory you mean")
	case removes:
		// PowerShell on Linux or macOS: Remove-Item -Recurse on a path is rm -rf; only the
		// operands of the removing statement count.
		for _, stmt := range strings.FieldsFunc(text, func(r rune) bool { return r == ';' || r == '\n' || r == '|' }) {
			ws := strings.FieldsFunc(stmt, func(r rune) bool { return r == ' ' || r == '\t' || r == '"' || r == '\'' || r == ',' })
			if len(ws) == 0 || !slices.Contains([]string{"remove-item", "rm", "rmdir", "rd", "del", "erase", "ri"}, strings.ToLower(ws[0])) {
				continue
			}
			for _, w := range ws[1:] {
				lw := strings.ToLower(w)
				if lw == "$home" || lw == "$env:home" || lw == "$env:userprofile" {
					w = j.world.Home
				}
				if strings.HasPrefix(w, "/") || strings.HasPrefix(w, "~") || strings.HasPrefix(w, ".") || w == "*" {
					j.deleted(c, j.res(c, w), true, "fs.rm-critical")
					break
				}
			}
		}
	}
}

// diskutil erases and repartitions macOS disks.
func (j *judge) diskutil(c *shell.Cmd) {
	if len(c.Args) > 0 {
		switch strings.ToLower(c.Args[0]) {
		case "erasedisk", "erasevolume", "secureerase", "zerodisk", "randomdisk", "partitiondisk", "reformat", "apfs":
			if c.Args[0] != "apfs" || len(c.Args) > 1 && strings.HasPrefix(strings.ToLower(c.Args[1]), "delete") {
				j.add(c, "disk.format", Deny, High, "diskutil "+c.Args[0]+" erases a disk", "ask the user to manage disks")
			}
		}
	}
}

// macOS: restart through System Events, login hooks.
func (j *judge) macos(c *shell.Cmd) {
	text := strings.ToLower(strings.Join(c.Args, " ") + " " + c.Code)
	switch {
	case c.Name == "osascript" && strings.Contains(text, "system events") && (strings.Contains(text, "restart") || strings.Contains(text, "shut down") || strings.Contains(text, "log out")):
		j.add(c, "power.shutdown", Deny, High, "osascript asks System Events to restart or shut down", "ask the user to restart the machine")
	case c.Name == "osascript" && strings.Contains(text, "login item") && strings.Contains(text, "make "):
		j.add(c, "persist.autorun", Deny, High, "osascript adds a login item, a program started at every login", "ask the user to set up login items")
	case c.Name == "defaults" && strings.Contains(text, "write") && strings.Contains(text, "com.apple.loginwindow") && (strings.Contains(text, "loginhook") || strings.Contains(text, "logouthook")):
		j.add(c, "persist.autorun", Deny, High, "it installs a macOS login hook, a script run as root at every login", "ask the user to set up login items")
	}
}

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

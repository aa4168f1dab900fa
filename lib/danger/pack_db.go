package danger

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/hookkit/harness/lib/shell"
)

// The rules of this pack.
var (
	dbDestructive       = &Rule{ID: "db.destructive", Action: Deny, Radius: High, Instead: "back it up first and ask the user to run destructive statements themselves"}
	dbDestructiveHosted = &Rule{ID: "db.destructive-hosted", Action: Ask, Radius: Medium, Instead: "check which app it is, and capture a backup first (heroku pg:backups:capture)"}
	dbDropDev           = &Rule{ID: "db.drop-dev", Action: Ask, Radius: Medium, Instead: "confirm it is not shared, or recreate it from migrations"}
)

var packDB = pack{name: "db", title: "databases",
	rules: []*Rule{dbDestructive, dbDestructiveHosted, dbDropDev},
	programs: []program{
		{[]string{"dropdb"}, (*judge).dropdb}, {dbClients, (*judge).dbClient},
	},
	known: (*judge).dbKnown,
}

// The option grammars of the programs this file judges: which options take a value.
var (
	sqlClientOpts = shell.Opts{Short: "cefhUPdDuqQnsHiw", Long: []string{"command", "execute", "eval", "query", "file", "host", "user", "port", "dbname", "database", "username", "password"}}
	dbClientOpts  = shell.Opts{Short: "dDhUpPcefnqQ", Long: []string{"dbname", "database", "host", "command", "execute", "eval"}}
	mysqlOpts     = shell.Opts{Short: "uhPpS", Long: []string{"user", "host", "port", "socket"}}
	redisOpts     = shell.Opts{Short: "hpasnu", Long: []string{"user", "pass", "sni", "cacert", "cert", "key", "pattern", "count"}}
	dropdbOpts    = shell.Opts{Short: "hpUdD", Long: []string{"host", "port", "username", "maintenance-db"}}
	querySQLOpts  = shell.Opts{Short: "q", Long: []string{"query-string", "sql", "sqls", "querytext", "profile", "region", "output", "endpoint-url", "query",
		"project", "account", "configuration", "format", "project_id", "location", "work-group", "database", "instance", "subscription", "resource-group", "name"}}
)

var dbClients = []string{"psql", "mysql", "mariadb", "sqlite3", "sqlite", "mongo", "mongosh", "redis-cli",
	"clickhouse-client", "clickhouse", "sqlcmd", "cqlsh", "cockroach", "duckdb", "valkey-cli", "keydb-cli", "usql", "pgcli", "mycli", "wrangler", "turso",
	"snowsql", "snow", "trino", "presto", "beeline", "hive", "impala-shell", "spark-sql", "vsql"}

// sqlPatterns are compiled the first time a command needs them, not at every hook's start.
var sqlPatterns = sync.OnceValue(func() [4]*regexp.Regexp {
	return [4]*regexp.Regexp{
		regexp.MustCompile(`(?is)\bdrop\s+(database|schema|table|keyspace|collection)\s+(if\s+exists\s+)?([\w."` + "`" + `\[\]-]+)`),
		regexp.MustCompile(`(?is)\btruncate\s+(table\s+)?([\w."` + "`" + `\[\]-]+)`),
		regexp.MustCompile(`(?is)\bdelete\s+(?:[\w.]+\s+)?from\s+(?:only\s+)?([\w."` + "`" + `\[\]-]+)(?:\s+(?:as\s+)?\w+)?\s*(;|$|\)|where\s+(1\s*=\s*1|true|1)\s*(;|$|\))|returning\b|using\b|limit\b|order\b)`),
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
	p := sqlClientOpts.Parse(args)
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
	if readOnlySession(c) {
		return // the client refuses every write: a DROP or DELETE only fails
	}
	if keyScanDelete(c) {
		j.dbDestroy(c, c.Name+" "+strings.ToUpper(at(redisOpts.Parse(c.Args).Operands, 0))+" of every key a scan lists", "", c.Name)
		return
	}
	text := sqlText(c)
	if redisClient(c.Name) && redisScriptFlush(text) {
		// EVAL "redis.call('flushall')" 0: the script's own call, inside its quotes
		j.dbDestroy(c, c.Name+" EVAL of a script that calls FLUSHALL or FLUSHDB", "", c.Name)
		return
	}
	// SQL the same line wrote to a file it then runs: psql -f FILE, < FILE, \i, .read, source.
	for _, f := range sqlFiles(c, text) {
		if shell.Known(f) {
			text += ";\n" + j.wroteBefore(c, j.res(c, f), false)
		}
	}
	j.sqlStatements(c, text)
}

func redisClient(name string) bool {
	return name == "redis-cli" || name == "valkey-cli" || name == "keydb-cli"
}

// redisScriptFlush reports a Lua script given to EVAL that calls FLUSHALL or FLUSHDB.
func redisScriptFlush(text string) bool {
	l := strings.ToLower(text)
	return strings.Contains(l, "eval") && containsAny(l, "redis.call(", "redis.pcall(", "server.call(", "server.pcall(") && containsAny(l, "flushall", "flushdb")
}

// sqlFiles are the files a client reads SQL from: -f/--file, its redirected stdin, and the
// include commands in the text it runs (psql's \i and \ir, sqlite's .read, mysql's source).
func sqlFiles(c *shell.Cmd, text string) []string {
	var out []string
	if c.Name == "psql" || c.Name == "pgcli" || c.Name == "usql" || c.Name == "cockroach" || c.Name == "sqlcmd" || c.Name == "snowsql" || c.Name == "vsql" {
		p := sqlClientOpts.Parse(c.Args)
		for _, k := range []string{"f", "file", "i"} {
			if v, ok := p.Flags[k]; ok && v != "" && v != "-" {
				out = append(out, v)
			}
		}
	}
	if c.Stdin != nil && c.Stdin.File != "" {
		out = append(out, c.Stdin.File)
	}
	for _, line := range strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == ';' }) {
		f := strings.Fields(line)
		if len(f) == 2 && (f[0] == `\i` || f[0] == `\ir` || f[0] == `\include` || f[0] == ".read" || strings.EqualFold(f[0], "source") || f[0] == `\.`) {
			out = append(out, strings.Trim(f[1], `'"`))
		}
	}
	return out
}

// keyScanDelete reports a Redis client deleting (DEL, UNLINK) the keys another Redis client
// listed with --scan or KEYS: FLUSHALL by another route, or, under a pattern (session:*), every
// key of a kind, which is a table emptied (DELETE without WHERE); a cache's or a test's keys
// are a cleanup.
func keyScanDelete(c *shell.Cmd) bool {
	if c.Name != "redis-cli" && c.Name != "valkey-cli" && c.Name != "keydb-cli" {
		return false
	}
	if op := strings.ToUpper(at(redisOpts.Parse(c.Args).Operands, 0)); op != "DEL" && op != "UNLINK" {
		return false
	}
	for _, f := range c.ArgsFrom {
		switch f.Name {
		case "grep", "egrep", "rg", "head", "tail":
			return false // some of them
		case "redis-cli", "valkey-cli", "keydb-cli":
			scan, pattern := false, "*"
			for i, a := range f.Args {
				switch {
				case a == "--scan":
					scan = true
				case a == "--pattern" && i+1 < len(f.Args):
					pattern = f.Args[i+1]
				case strings.HasPrefix(a, "--pattern="):
					pattern = strings.TrimPrefix(a, "--pattern=")
				case strings.EqualFold(a, "keys") && i+1 < len(f.Args) && strings.Contains(f.Args[i+1], "*"):
					scan, pattern = true, f.Args[i+1]
				}
			}
			if scan && !scratchKeys(pattern) {
				return true
			}
		}
	}
	return false
}

// scratchKeys reports a key pattern that names a cache, temporary or test namespace
// (cache:product:*, tmp:*): a scoped cleanup, not data.
func scratchKeys(pattern string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(pattern), func(r rune) bool { return r == ':' || r == '*' || r == '_' || r == '-' || r == '.' || r == '/' }) {
		switch w {
		case "cache", "cached", "tmp", "temp", "test", "tests", "scratch", "lock", "locks", "ratelimit", "throttle":
			return true
		}
	}
	return false
}

// sqlStatements judges the SQL a client runs.
func (j *judge) sqlStatements(c *shell.Cmd, text string) {
	text = stripSQLStrings(text)
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

// readOnlySession reports a SQLite or DuckDB client opened read-only: -readonly, or a
// database URI with mode=ro or immutable=1.
func readOnlySession(c *shell.Cmd) bool {
	if !strings.HasPrefix(c.Name, "sqlite") && c.Name != "duckdb" {
		return false
	}
	for _, a := range c.Args {
		if a == "-readonly" || a == "--readonly" {
			return true
		}
		if !strings.HasPrefix(a, "-") {
			// the first operand is the database
			return strings.HasPrefix(a, "file:") && (strings.Contains(a, "mode=ro") || strings.Contains(a, "immutable=1"))
		}
	}
	return false
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
		case s[i] == '/' && i+1 < len(s) && s[i+1] == '*':
			// /* comment */ separates words as a space does; MySQL runs what /*! ... */ and
			// /*!40000 ... */ hold, so their text stays.
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				end = len(s) - i - 2
			}
			body := s[i+2 : i+2+end]
			if strings.HasPrefix(body, "!") {
				b.WriteString(" " + strings.TrimLeft(body[1:], "0123456789") + " ")
			} else {
				b.WriteByte(' ')
			}
			i += 2 + end + 1
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
		j.add(c, dbDropDev, stmt+" destroys data in what looks like a development database"+where, "")
		return
	}
	j.add(c, dbDestructive, stmt+" destroys data for good"+where, "")
}

// dbHost is the host a client connects to (-h, --host), "" when none is given.
func dbHost(c *shell.Cmd) string {
	p := dbClientOpts.Parse(c.Args)
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
	p := dbClientOpts.Parse(c.Args)
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
		ops := mysqlOpts.Parse(c.Args).Operands
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
		j.add(c, dbDestructive, drop+" destroys the production database ("+where+")", "back it up first and ask the user to run it")
		return
	}
	if c.Name == "heroku" {
		j.add(c, dbDestructiveHosted, drop+" wipes a hosted database", "")
		return
	}
	j.add(c, dbDropDev, drop+" drops the development or test database", "")
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
		case "db":
			// WP-CLI: wp db reset|drop|clean deletes the site's tables
			if (c.Name == "wp" || strings.HasSuffix(c.Name, "wp-cli.phar")) && i == 1 && (at(words, 2) == "reset" || at(words, 2) == "drop" || at(words, 2) == "clean") {
				return "wp db " + at(words, 2)
			}
		case "db:schema:load", "db:structure:load": // recreates every table: the data in them is gone
			return w
		case "db:drop", "db:reset", "db:purge", "db:migrate:reset", "db:truncate_all",
			"db:seed:replant", "ecto.drop", "ecto.reset", "schema:drop", "doctrine:database:drop", "doctrine:schema:drop",
			"flyway:clean", "flywayClean", "dropAll", "drop-all", "pg:reset":
			if w != "schema:drop" || slices.Contains(words, "typeorm") || strings.HasPrefix(c.Name, "typeorm") {
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
			if (c.Name == "prisma" || at(words, i-1) == "db" && at(words, i-2) == "prisma") && slices.Contains(words, "--force-reset") {
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
			if c.Name == "migrate" && (slices.Contains(words, "-f") || i == len(words)-1) {
				return "migrate drop"
			}
		case "downgrade":
			if at(words, i+1) == "base" && (c.Name == "alembic" || at(words, i-1) == "alembic" || slices.Contains(words, "alembic")) {
				return "alembic downgrade base"
			}
		case "migrate:rollback":
			if slices.Contains(words, "--all") && (c.Name == "knex" || slices.Contains(words, "knex")) {
				return "knex migrate:rollback --all"
			}
		case "db:migrate:undo:all":
			return "sequelize db:migrate:undo:all"
		case "reset":
			if at(words, i-1) == "db" && (c.Name == "supabase" || at(words, i-2) == "supabase") {
				return "supabase db reset"
			}
		case "firestore:delete":
			if slices.Contains(words, "--all-collections") || slices.Contains(words, "-r") || slices.Contains(words, "--recursive") {
				return "firebase firestore:delete"
			}
		}
	}
	return ""
}

func (j *judge) dropdb(c *shell.Cmd) {
	ops := dropdbOpts.Parse(c.Args).Operands
	if len(ops) == 0 {
		return
	}
	j.dbDestroy(c, "dropdb "+ops[0], ops[0], "dropdb")
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

// dbKnown: framework database commands, and SQL sent through the CLIs of cloud query
// services and warehouses.
func (j *judge) dbKnown(c *shell.Cmd) {
	j.frameworkDrop(c)
	j.ormRunner(c)
	if q := querySQL(c); q != "" {
		j.sqlStatements(c, q)
	}
}

// querySQL is the SQL a cloud CLI sends to a query service or warehouse: aws athena
// start-query-execution, redshift-data and rds-data execute-statement, gcloud spanner
// databases execute-sql, bq query (not --dry_run), az postgres|mysql flexible-server execute.
// "" for any other command.
func querySQL(c *shell.Cmd) string {
	// The subcommand's word must be there before the arguments are parsed.
	switch c.Name {
	case "aws":
		if !slices.Contains(c.Args, "start-query-execution") && !slices.Contains(c.Args, "execute-statement") && !slices.Contains(c.Args, "batch-execute-statement") {
			return ""
		}
	case "gcloud":
		if !slices.Contains(c.Args, "execute-sql") {
			return ""
		}
	case "az":
		if !slices.Contains(c.Args, "execute") {
			return ""
		}
	case "bq":
		if !slices.Contains(c.Args, "query") {
			return ""
		}
	default:
		return ""
	}
	p := querySQLOpts.Parse(c.Args)
	ops := p.Operands
	s := strings.Join(ops[:min(len(ops), 3)], " ")
	var q []string
	switch c.Name {
	case "aws":
		switch at(ops, 0) + " " + at(ops, 1) {
		case "athena start-query-execution", "redshift-data execute-statement", "redshift-data batch-execute-statement", "rds-data execute-statement":
		default:
			return ""
		}
		q = querySQLOpts.Values(c.Args, "query-string", "sql", "sqls")
	case "gcloud":
		if !strings.HasPrefix(s, "spanner databases execute-sql") {
			return ""
		}
		q = querySQLOpts.Values(c.Args, "sql")
	case "az":
		if len(ops) < 3 || ops[1] != "flexible-server" || ops[2] != "execute" {
			return ""
		}
		q = querySQLOpts.Values(c.Args, "querytext", "q")
	case "bq":
		if at(ops, 0) != "query" || p.Has("dry_run") && p.Flags["dry_run"] != "false" {
			return ""
		}
		q = ops[1:]
		if c.Stdin != nil && c.Stdin.Known {
			q = append(q, c.Stdin.Text)
		}
	}
	return strings.Join(q, ";\n")
}

// ormRunner: code run in an application's own console that deletes every row of a model
// (rails runner 'User.destroy_all', gitlab-rails runner, manage.py shell -c
// 'Order.objects.all().delete()'): as DELETE without WHERE, on the database the app is
// configured for.
func (j *judge) ormRunner(c *shell.Cmd) {
	code := ""
	words := append([]string{c.Name}, c.Args...)
	for i, w := range words {
		if (w == "runner" || w == "r") && i > 0 && (words[i-1] == "rails" || strings.HasSuffix(words[i-1], "/rails") || words[i-1] == "gitlab-rails") {
			// rails runner [-e ENV] CODE
			for k := i + 1; k < len(words); k++ {
				if words[k] == "-e" || words[k] == "--environment" {
					k++
					continue
				}
				if !strings.HasPrefix(words[k], "-") {
					code = words[k]
					break
				}
			}
		}
		if w == "shell" && i > 0 && strings.HasSuffix(words[i-1], "manage.py") {
			for k := i + 1; k < len(words); k++ {
				if words[k] == "-c" || words[k] == "--command" {
					code = at(words, k+1)
				}
			}
			if code == "" && c.Stdin != nil && c.Stdin.Known {
				code = c.Stdin.Text // echo '...' | manage.py shell
			}
		}
		if w == "tinker" && i > 0 && words[i-1] == "artisan" {
			for k := i + 1; k < len(words); k++ {
				if v, ok := strings.CutPrefix(words[k], "--execute="); ok {
					code = v
				} else if words[k] == "--execute" {
					code = at(words, k+1)
				}
			}
		}
	}
	if code == "" {
		return
	}
	m := ormWipe().FindStringSubmatch(code)
	if m == nil {
		return
	}
	stmt := strings.TrimSpace(m[0])
	if prod := prodArgs(c); prod != "" || slices.ContainsFunc(c.Env, func(e string) bool { return prodWord(e) }) {
		j.add(c, dbDestructive, stmt+" deletes every row of the model in production", "")
		return
	}
	j.dbDestroy(c, stmt+" deletes every row of the model", "", c.Name)
}

// ormWipe matches a whole model's rows deleted: Model.destroy_all / delete_all (Rails),
// Model.all.each(&:destroy) and find_each { |r| r.destroy } (Rails, one row at a time; a
// where(nil) or where({}) narrows nothing),
// Model.objects.all().delete() (Django), Model::query()->delete() and Model::truncate()
// (Laravel); a where, filter or find before it narrows it and does not match.
var ormWipe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b[A-Z]\w*(::[A-Z]\w*)*(\.all|\.unscoped|\.where\(\s*(nil|\{\s*\})?\s*\))?\.(destroy_all|delete_all)\b|` +
		`\b[A-Z]\w*(::[A-Z]\w*)*(\.all|\.unscoped|\.where\(\s*(nil|\{\s*\})?\s*\))?\.(find_each|each|find_in_batches)\s*(\(\s*&:(destroy|delete)!?\s*\)|(\{|do)\s*\|\s*(\w+)\s*\|\s*\w+\.(destroy|delete)!?)|\b[A-Z]\w*\.objects(\.all\(\))?\.delete\(\)|\b[A-Z]\w*::(query\(\)->delete\(\)|truncate\(\))`)
})

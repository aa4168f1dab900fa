package danger

import (
	"slices"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// The rules of this pack.
var (
	hostedRepoDelete    = &Rule{ID: "hosted.repo-delete", Action: Deny, Radius: High, Instead: "ask the user to delete repositories themselves (gh repo archive keeps it read-only)"}
	hostedProjectDelete = &Rule{ID: "hosted.project-delete", Action: Deny, Radius: High, Instead: "ask the user to delete hosted projects and apps themselves"}
	hostedStorageWipe   = &Rule{ID: "hosted.storage-wipe", Action: Deny, Radius: High, Instead: "delete the objects you mean by name or under a narrow prefix"}
	hostedBackupDelete  = &Rule{ID: "hosted.backup-delete", Action: Deny, Radius: High, Instead: "delete the one backup you mean, and leave backup repositories and vaults to the user"}
	hostedGatewayReset  = &Rule{ID: "hosted.gateway-reset", Action: Deny, Radius: High, Instead: "change the routes you mean with a reviewed sync (deck gateway diff first)"}
)

var packHosted = pack{name: "hosted", title: "hosted repositories, storage and backups",
	rules: []*Rule{hostedRepoDelete, hostedProjectDelete, hostedStorageWipe, hostedBackupDelete, hostedGatewayReset},
	programs: []program{
		{[]string{"gh", "glab", "hub"}, (*judge).gitPlatform},
		{[]string{"vercel", "netlify", "fly", "flyctl", "supabase", "neonctl", "firebase"}, (*judge).appPlatform},
		{[]string{"rclone", "mc", "azcopy", "s3cmd", "s5cmd", "b2", "ossutil", "ossutil64", "obsutil", "coscli"}, (*judge).objectTool},
		{[]string{"oci"}, (*judge).oci},
		{[]string{"borg", "velero", "pgbackrest", "wal-g"}, (*judge).backupTool}, {[]string{"deck", "kong"}, (*judge).gateway},
	},
	known: (*judge).hostedKnown,
}

// The option grammars of the programs this file judges: which options take a value.
var (
	ghOpts     = shell.Opts{Short: "XHfFqtpR", Long: []string{"method", "header", "raw-field", "field", "jq", "template", "input", "hostname", "preview", "cache", "repo"}}
	rcloneOpts = shell.Opts{Long: []string{"config", "include", "exclude", "filter", "filter-from", "include-from", "exclude-from", "files-from", "min-age", "max-age",
		"min-size", "max-size", "transfers", "checkers", "log-file", "log-level", "bwlimit", "backup-dir", "drive-root-folder-id"}}
	objectOpts = shell.Opts{Long: []string{"config", "config-dir", "older-than", "newer-than", "include-pattern", "exclude-pattern", "include-path", "exclude-path",
		"include-regex", "exclude-regex", "list-of-files", "log-level", "endpoint-url", "profile", "region", "access-key", "secret-key", "include", "exclude"}}
	borgOpts = shell.Opts{Short: "ar", Long: []string{"glob-archives", "match-archives", "prefix", "repo", "remote-path", "rsh", "first", "last", "sort-by", "lock-wait"}}
)

// hostedKnown: Cloudflare's wrangler and Turso's CLI, judged as databases by their SQL, also
// delete whole databases and buckets (wrangler d1 delete, wrangler r2 bucket delete, turso db
// destroy).
func (j *judge) hostedKnown(c *shell.Cmd) {
	if c.Name == "wrangler" || c.Name == "turso" {
		j.resourceDelete(c, shell.Opts{Short: "ce", Long: []string{"config", "env", "command", "file"}}.Parse(c.Args).Operands)
	}
}

// gitPlatform: gh and glab deleting a repository (repo delete, or api -X DELETE of a
// repository's or group's route).
func (j *judge) gitPlatform(c *shell.Cmd) {
	p := ghOpts.Parse(c.Args)
	ops := p.Operands
	if at(ops, 0) == "api" && len(ops) > 1 {
		m, _ := p.Value("X", "method")
		host := "api.github.com"
		if c.Name == "glab" {
			host = "gitlab.com"
		}
		u := ops[1]
		if !strings.Contains(u, "://") {
			u = host + "/" + strings.TrimPrefix(u, "/")
		}
		h, _, segs, _ := splitURL(u)
		if b := branchRoute(segs); b != "" && strings.EqualFold(m, "DELETE") && j.protected(b) {
			j.add(c, gitDeleteDefault, "it deletes the protected branch "+b+" on the hosting service", "")
			return
		}
		j.repoRequest(c, strings.ToUpper(m), h, segs, true)
		return
	}
	switch {
	case c.Name == "hub" && at(ops, 0) == "delete" && len(ops) > 1:
		j.add(c, hostedRepoDelete, "hub delete "+ops[1]+" deletes a hosted repository with its issues, pull requests and wiki", "")
	case at(ops, 0) != "project": // gh project: a planning board, not a hosted project
		j.resourceDelete(c, ops)
	}
}

// branchRoute is the branch an API route names: GitHub's repos/O/R/git/refs/heads/B (and
// branches/B), GitLab's projects/ID/repository/branches/B; "" for any other route.
func branchRoute(segs []string) string {
	for i, s := range segs {
		switch {
		case s == "refs" && at(segs, i+1) == "heads" && i+2 < len(segs):
			return strings.Join(segs[i+2:], "/")
		case s == "branches" && i > 0 && (segs[0] == "repos" || at(segs, i-1) == "repository") && i+1 < len(segs):
			return strings.Join(segs[i+1:], "/")
		}
	}
	return ""
}

// repoRequest: an API call deleting a repository, a group or organization of them, or a
// hosted project: GitHub (and Enterprise's /api/v3), GitLab's /api/v4, Bitbucket Cloud and
// Server, Gitea and Forgejo, Azure DevOps's _apis, Docker Hub; Vercel, Netlify, Heroku,
// Supabase, Neon. A host that is neither a known platform nor named like one must use one
// of those platforms' own route prefixes. True when one was found.
func (j *judge) repoRequest(c *shell.Cmd, method, host string, segs []string, platform bool) bool {
	if method != "DELETE" || len(segs) < 2 {
		return false
	}
	what := ""
	for i, s := range segs {
		if s == "_apis" { // Azure DevOps: {org}/{project}/_apis/git/repositories/{id}, {org}/_apis/projects/{id}
			r := segs[i+1:]
			if len(r) == 3 && r[0] == "git" && r[1] == "repositories" || len(r) == 2 && r[0] == "projects" {
				what = "repo"
			}
			return j.repoFinding(c, what, segs)
		}
	}
	i := 0
	for i < len(segs) && (segs[i] == "api" || segs[i] == "rest" || apiVersion(segs[i])) {
		i++
	}
	prefix := strings.Join(segs[:i], "/")
	s := segs[i:]
	if host == "localhost" || strings.HasPrefix(host, "127.") {
		return false // a platform's local test instance, or the project's own API
	}
	// Without a platform's host, its own route prefix must say which it is: GitLab's api/v4,
	// GitHub Enterprise's api/v3, Bitbucket Server's rest/api/1.0.
	git := platform || hostWords(host, "github", "gitlab", "gitea", "forgejo", "gogs", "bitbucket", "codeberg", "git", "scm", "docker")
	app := host == "api.vercel.com" || host == "api.netlify.com" || host == "api.heroku.com" || host == "api.supabase.com" || host == "console.neon.tech" || host == "api.render.com"
	switch {
	case (git || prefix == "api/v3") && len(s) == 3 && (s[0] == "repos" || s[0] == "repositories"),
		(git || prefix == "rest/api/1.0") && (len(s) == 4 && s[0] == "projects" && s[2] == "repos" || len(s) == 2 && s[0] == "projects"),
		(git || prefix == "api/v4") && len(s) == 2 && (s[0] == "projects" || s[0] == "groups"),
		(git || prefix == "api/v3") && len(s) == 2 && s[0] == "orgs":
		what = "repo"
	case app && len(s) == 2 && (s[0] == "projects" || s[0] == "sites" || s[0] == "apps" || s[0] == "services"):
		what = "project"
	}
	return j.repoFinding(c, what, segs)
}

func (j *judge) repoFinding(c *shell.Cmd, what string, segs []string) bool {
	route := strings.Join(segs, "/")
	switch what {
	case "repo":
		j.add(c, hostedRepoDelete, "DELETE of "+route+" deletes hosted repositories with their issues, pull requests and wiki", "")
	case "project":
		j.add(c, hostedProjectDelete, "DELETE of "+route+" deletes a hosted project with its deployments and data", "")
	default:
		return false
	}
	return true
}

// apiVersion reports a version segment of an API route: v4, v1beta, 2.0, 1.0.
func apiVersion(s string) bool {
	if len(s) > 1 && s[0] == 'v' && s[1] >= '0' && s[1] <= '9' {
		return true
	}
	return s != "" && strings.Trim(s, "0123456789.") == ""
}

// appPlatform: hosting platforms' CLIs deleting a project, site or app (vercel project rm,
// vercel rm of a project name, netlify sites:delete, fly apps destroy, supabase projects
// delete).
func (j *judge) appPlatform(c *shell.Cmd) {
	ops := shell.Opts{Short: "astT", Long: []string{"scope", "token", "app", "team", "site", "org-id", "project-ref", "config"}}.Parse(c.Args).Operands
	switch {
	case c.Name == "vercel" && (at(ops, 0) == "rm" || at(ops, 0) == "remove") && len(ops) > 1 && !strings.Contains(ops[1], ".") && !slices.Contains(c.Args, "--safe"):
		j.add(c, hostedProjectDelete, "vercel "+ops[0]+" "+ops[1]+" removes every deployment of the project", "")
	case (c.Name == "fly" || c.Name == "flyctl") && at(ops, 0) == "destroy":
		j.add(c, hostedProjectDelete, c.Name+" destroy deletes the app with its machines and volumes", "")
	case (c.Name == "fly" || c.Name == "flyctl") && (at(ops, 0) == "postgres" || at(ops, 0) == "pg" || at(ops, 0) == "mpg" || at(ops, 0) == "redis" || at(ops, 0) == "volumes" || at(ops, 0) == "volume") && (at(ops, 1) == "destroy" || at(ops, 1) == "delete"):
		j.add(c, storeManagedDelete, c.Name+" "+ops[0]+" "+ops[1]+" deletes a managed data store with its data", "")
	case (c.Name == "fly" || c.Name == "flyctl") && j.serverDelete(c):
		// fly machine destroy: one server of the app, judged as the other clouds' are
	case c.Name == "supabase" && at(ops, 0) == "db" && at(ops, 1) == "reset" && (slices.Contains(c.Args, "--linked") || hasOpt(c.Args, "--db-url")):
		j.add(c, storeManagedDelete, "supabase db reset --linked drops and recreates the hosted project's database", "")
	case c.Name == "firebase" && at(ops, 0) == "database:remove":
		if strings.Trim(at(ops, 1), "/") == "" { // one path below the root is ordinary data work
			j.add(c, storeKVWipe, "firebase database:remove / deletes the whole Realtime Database", "")
		}
	default:
		j.resourceDelete(c, ops)
	}
}

// objectTool: object-storage clients wiping a bucket or a prefix: rclone purge and delete
// (without filters), MinIO's mc rm --recursive and rb --force, azcopy remove --recursive,
// s3cmd del|rm --recursive and rb --force, s5cmd rm with a wildcard, b2 rm --recursive. A
// prefix in a scratch bucket is a cleanup, as with aws s3 rm.
func (j *judge) objectTool(c *shell.Cmd) {
	if c.Name == "rclone" || c.Name == "azcopy" || c.Name == "mc" {
		j.syncTool(c)
	}
	opts := objectOpts
	if c.Name == "rclone" {
		opts = rcloneOpts
	}
	p := opts.Parse(c.Args)
	ops := p.Operands
	if len(ops) < 2 {
		return
	}
	verb, target := ops[0], ops[1]
	recursive := p.Has("recursive", "r", "R") && p.Flags["recursive"] != "false"
	narrowed := p.Has("include", "exclude", "filter", "filter-from", "include-from", "exclude-from", "files-from", "min-age", "max-age", "min-size", "max-size",
		"older-than", "newer-than", "include-pattern", "exclude-pattern", "include-path", "exclude-path", "include-regex", "exclude-regex", "list-of-files")
	wipe := false
	switch c.Name {
	case "rclone":
		j.rcloneLocal(c, verb, target, narrowed)
		remote, _, ok := strings.Cut(target, ":")
		wipe = ok && len(remote) > 1 && (verb == "purge" || verb == "delete" && !narrowed)
	case "mc":
		wipe = verb == "rm" && recursive && p.Has("force") && !narrowed || verb == "rb" && p.Has("force")
	case "azcopy":
		wipe = (verb == "remove" || verb == "rm") && recursive && !narrowed
	case "s3cmd":
		wipe = (verb == "del" || verb == "rm") && (recursive || strings.Contains(target, "*")) && !narrowed || verb == "rb" && recursive && p.Has("force", "f")
	case "s5cmd":
		wipe = verb == "rm" && strings.Contains(target, "*")
	case "b2", "ossutil", "ossutil64", "obsutil", "coscli":
		wipe = verb == "rm" && recursive && !narrowed
	}
	if !wipe {
		return
	}
	if bucket, prefix := bucketPath(target); verb != "rb" && verb != "purge" && strings.Trim(prefix, "/*") != "" && scratchBucket(bucket) && !prodWord(bucket) && shell.Known(prefix) {
		return
	}
	if verb == "rb" || verb == "purge" {
		j.add(c, hostedStorageWipe, c.Name+" "+verb+" removes "+target+" with every object in it", "")
		return
	}
	j.add(c, hostedStorageWipe, c.Name+" "+verb+" deletes every object under "+target, "")
}

// bucketPath splits an object-storage target (s3://b/p, remote:b/p, alias/b/p, an
// https://account.blob.core.windows.net/container/p URL) into its bucket and prefix.
func bucketPath(t string) (string, string) {
	if i := strings.Index(t, "://"); i >= 0 {
		t = t[i+3:]
		if strings.Contains(t, ".blob.core.") || strings.Contains(t, ".dfs.core.") {
			_, t, _ = strings.Cut(t, "/")
		}
	} else if i := strings.IndexByte(t, ':'); i >= 0 {
		t = t[i+1:]
	} else {
		_, t, _ = strings.Cut(t, "/") // mc's alias/bucket/prefix
	}
	t, _, _ = strings.Cut(t, "?")
	b, p, _ := strings.Cut(t, "/")
	return b, p
}

// backupTool: a whole backup repository or every backup deleted: borg delete of a repository
// (no ::archive, no archive filter, or one matching everything; borg 2's repo-delete),
// velero backup|schedule delete --all, pgbackrest stanza-delete, wal-g delete everything.
func (j *judge) backupTool(c *shell.Cmd) {
	p := borgOpts.Parse(c.Args)
	ops := p.Operands
	switch c.Name {
	case "pgbackrest":
		if slices.Contains(c.Args, "stanza-delete") {
			j.add(c, hostedBackupDelete, "pgbackrest stanza-delete deletes every backup and archived WAL of the stanza", "")
		}
	case "wal-g":
		if at(ops, 0) == "delete" && at(ops, 1) == "everything" {
			j.add(c, hostedBackupDelete, "wal-g delete everything deletes every backup", "")
		}
	case "borg":
		glob, filtered := p.Value("a", "glob-archives", "match-archives", "prefix", "first", "last")
		// borg delete REPO (no ::ARCHIVE, no archive names after it, no filter or one matching
		// everything) deletes the repository; --cache-only deletes only the local cache.
		switch {
		case at(ops, 0) == "rdelete" || at(ops, 0) == "repo-delete":
		case at(ops, 0) == "delete" && !p.Has("cache-only") && (!filtered || strings.Trim(glob, "sh:*'\"") == "") &&
			(len(ops) == 2 && !strings.Contains(ops[1], "::") || len(ops) == 1 && p.Has("r", "repo")):
		default:
			return
		}
		j.add(c, hostedBackupDelete, "borg "+ops[0]+" deletes the whole backup repository", "")
	case "velero":
		if len(ops) > 1 && (ops[0] == "backup" || ops[0] == "schedule") && ops[1] == "delete" && p.Has("all") {
			j.add(c, hostedBackupDelete, "velero "+ops[0]+" delete --all deletes every cluster "+ops[0], "")
		}
	}
}

// oci: Oracle Cloud's CLI emptying or deleting a bucket (os object bulk-delete without a
// prefix or pattern, os bucket delete --empty) or deleting a managed database (db, mysql,
// nosql, opensearch ... delete).
func (j *judge) oci(c *shell.Cmd) {
	ops := shell.Opts{Long: []string{"bucket-name", "bn", "namespace", "ns", "prefix", "include", "exclude", "profile", "region", "config-file"}}.Parse(c.Args)
	o := ops.Operands
	switch {
	case at(o, 0) == "os" && at(o, 1) == "object" && at(o, 2) == "bulk-delete" && !ops.Has("prefix", "include", "exclude"),
		at(o, 0) == "os" && at(o, 1) == "bucket" && at(o, 2) == "delete" && ops.Has("empty"):
		j.add(c, hostedStorageWipe, "oci os "+o[1]+" "+o[2]+" deletes every object of the bucket", "")
	case (at(o, 0) == "db" || at(o, 0) == "mysql" || at(o, 0) == "nosql" || at(o, 0) == "opensearch" || at(o, 0) == "psql") && slices.Contains(o[:min(len(o), 4)], "delete"):
		j.add(c, storeManagedDelete, "oci "+strings.Join(o[:min(len(o), 3)], " ")+" deletes a managed database with its data", "")
	}
}

// hasOpt reports a long option given with or without an attached value (--x v, --x=v).
func hasOpt(args []string, name string) bool {
	for _, a := range args {
		if a == name || strings.HasPrefix(a, name+"=") {
			return true
		}
	}
	return false
}

// gateway: an API gateway's whole configuration reset: decK's gateway reset (reset in decK 1),
// kong migrations reset (drops Kong's database).
func (j *judge) gateway(c *shell.Cmd) {
	ops := shell.Opts{Short: "c", Long: []string{"kong-addr", "headers", "konnect-token", "konnect-addr", "workspace", "select-tag", "config", "c"}}.Parse(c.Args).Operands
	switch {
	case c.Name == "deck" && (at(ops, 0) == "reset" || at(ops, 0) == "gateway" && at(ops, 1) == "reset"):
		j.add(c, hostedGatewayReset, "deck "+strings.Join(ops, " ")+" deletes every route, service, plugin and consumer of the gateway", "")
	case c.Name == "kong" && at(ops, 0) == "migrations" && at(ops, 1) == "reset":
		j.add(c, hostedGatewayReset, "kong migrations reset drops the gateway's database with its whole configuration", "")
	}
}

package danger

import (
	"cmp"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/hookkit/harness/lib/shell"
)

// The rules of this pack.
var (
	storeIndexDelete   = &Rule{ID: "store.index-delete", Action: Deny, Radius: High, Instead: "delete the documents you mean by id or by a narrow query, and ask the user before dropping an index"}
	storeBrokerDelete  = &Rule{ID: "store.broker-delete", Action: Deny, Radius: High, Instead: "ask the user to delete or purge topics, streams and queues themselves"}
	storeKVWipe        = &Rule{ID: "store.kv-wipe", Action: Deny, Radius: High, Instead: "delete the keys or records you mean, under a narrow prefix or filter"}
	storeManagedDelete = &Rule{ID: "store.managed-delete", Action: Deny, Radius: High, Instead: "ask the user to delete managed databases and data stores themselves, after a final backup"}
)

var packStore = pack{name: "store", title: "data stores and message brokers",
	rules: []*Rule{storeIndexDelete, storeBrokerDelete, storeKVWipe, storeManagedDelete},
	programs: []program{
		{[]string{"kafka-topics", "kafka-topics.sh", "kafka-delete-records", "kafka-delete-records.sh"}, (*judge).kafka},
		{[]string{"rabbitmqctl", "rabbitmqadmin"}, (*judge).rabbitmq}, {[]string{"nats"}, (*judge).nats},
		{[]string{"etcdctl", "consul"}, (*judge).kvStore},
		{[]string{"rpk", "algolia", "atlas", "mongocli", "pscale", "upstash", "confluent", "pulsar-admin", "pulsarctl", "artemis", "couchbase-cli",
			"splunk", "influx", "scw", "vultr-cli", "avn", "exo", "civo", "upctl", "linode-cli", "aliyun"}, (*judge).platformCLI},
		{[]string{"cypher-shell"}, (*judge).cypher},
	},
	known: (*judge).storeKnown,
}

// The option grammars of the programs this file judges: which options take a value.
var (
	rabbitmqOpts = shell.Opts{Short: "pntHPuVs", Long: []string{"vhost", "node", "timeout", "host", "port", "username", "password", "config", "node-name"}}
	natsOpts     = shell.Opts{Short: "s", Long: []string{"server", "user", "password", "creds", "context", "nkey", "tlscert", "tlskey", "tlsca", "timeout", "js-domain", "subject"}}
	etcdOpts     = shell.Opts{Short: "w", Long: []string{"endpoints", "user", "password", "cacert", "cert", "key", "dial-timeout", "command-timeout", "write-out", "range-end"}}
	curlOpts     = shell.Opts{Short: "AbcCdDeEFHKmoPQrtTuUwxXyYz", Long: []string{"request", "data", "data-raw", "data-binary", "data-ascii", "data-urlencode", "json",
		"header", "user", "url", "output", "cert", "key", "cacert", "capath", "cookie", "cookie-jar", "form", "form-string", "proxy", "referer", "user-agent",
		"write-out", "max-time", "connect-timeout", "retry", "upload-file", "oauth2-bearer", "resolve", "connect-to", "config", "range", "output-dir", "aws-sigv4", "unix-socket"}}
	httpieOpts = shell.Opts{Short: "aApos", Long: []string{"auth", "auth-type", "output", "session", "session-read-only", "verify", "cert", "cert-key", "timeout",
		"print", "pretty", "style", "format-options", "proxy", "max-redirects", "raw", "response-charset", "response-mime"}}
	wgetOpts = shell.Opts{Short: "oOaPUeT", Long: []string{"method", "body-data", "body-file", "header", "user", "password", "http-user", "http-password",
		"output-document", "output-file", "user-agent", "post-data", "post-file", "directory-prefix", "timeout", "tries"}}
)

// storeKnown judges what any known program sends to a data store's HTTP API (search engines,
// broker management APIs) or to a hosting platform's (repositories, projects).
func (j *judge) storeKnown(c *shell.Cmd) {
	if !httpClient(c.Name) || !mayDestroy(c.Args) {
		return
	}
	r := httpRequest(c)
	for _, u := range r.urls {
		h, port, segs, query := splitURL(u)
		if vs := shell.Vars(strings.SplitN(u, "/", 2)[0]); h == "" && len(vs) == 1 {
			// "$OPENSEARCH_URL/products": the variable's name says what it points at
			h = strings.ToLower(strings.ReplaceAll(vs[0], "_", "-"))
		}
		if b := branchRoute(segs); b != "" && r.method == "DELETE" && j.protected(b) {
			j.add(c, gitDeleteDefault, "it deletes the protected branch "+b+" on the hosting service", "")
			return
		}
		if j.searchRequest(c, r, h, port, segs, query) || j.brokerRequest(c, r, h, port, segs) || j.repoRequest(c, r.method, h, segs, false) {
			return
		}
		if port == "8123" || hostWords(h, "clickhouse") {
			// ClickHouse's HTTP interface runs the SQL in ?query= or the body
			j.sqlStatements(c, r.body+";\n"+queryParam(query, "query"))
		}
	}
}

// mayDestroy reports whether a request's words hold what every destructive request this pack
// knows has (a DELETE method or action, a delete-by-query, an index clear, a Solr update,
// ClickHouse's port or name), so that other requests are not parsed at all.
func mayDestroy(args []string) bool {
	for _, a := range args {
		if strings.Contains(a, "DELETE") || strings.Contains(a, "delete") || strings.Contains(a, "Delete") || strings.Contains(a, "clear") ||
			strings.Contains(a, "update") || strings.Contains(a, "8123") || strings.Contains(a, "clickhouse") || strings.Contains(a, "UNLOAD") || strings.Contains(a, "unload") {
			return true
		}
	}
	return false
}

// request is the HTTP request a client command makes, as far as it is known: its method
// (upper case), the URLs it names and the body it sends.
type request struct {
	method string
	urls   []string
	body   string
}

// httpRequest reads the request of curl, wget, httpie or xh: -X/--request (joined, attached
// or in a cluster: -sXDELETE), wget's --method, httpie's METHOD word.
func httpRequest(c *shell.Cmd) request {
	var r request
	switch c.Name {
	case "curl":
		p := curlOpts.Parse(c.Args)
		r.urls = p.Operands
		if u, ok := p.Value("url"); ok {
			r.urls = append(r.urls, u)
		}
		r.body = strings.Join(curlOpts.Values(c.Args, "d", "data", "data-raw", "data-binary", "data-ascii", "data-urlencode", "json"), "&")
		r.method, _ = p.Value("X", "request")
		if r.method == "" && r.body != "" {
			r.method = "POST"
		}
	case "wget":
		p := wgetOpts.Parse(c.Args)
		r.urls = p.Operands
		r.method, _ = p.Value("method")
		r.body, _ = p.Value("body-data", "post-data")
	case "aria2c":
		return r
	default: // httpie and xh: [METHOD] URL [ITEM ...]
		ops := httpieOpts.Parse(c.Args).Operands
		if len(ops) > 1 && httpMethod(ops[0]) {
			r.method, ops = ops[0], ops[1:]
		}
		if len(ops) > 0 {
			r.urls, r.body = ops[:1], strings.Join(ops[1:], " ")
		}
	}
	r.method = strings.ToUpper(cmp.Or(r.method, "GET"))
	return r
}

func httpMethod(w string) bool {
	switch strings.ToUpper(w) {
	case "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS":
		return true
	}
	return false
}

// splitURL cuts a URL (or httpie's host:port/path and :port/path shorthands) into its host
// (lower case, "" when only known at run time), port, path segments and query. In
// "$ES_URL/logs/_delete_by_query" the path after the variable still counts.
func splitURL(u string) (host, port string, segs []string, query string) {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	} else if strings.HasPrefix(u, ":") {
		u = "localhost" + u
	}
	u, _, _ = strings.Cut(u, "#")
	u, query, _ = strings.Cut(u, "?")
	hostport, path, _ := strings.Cut(u, "/")
	if i := strings.LastIndex(hostport, shell.Dyn); i >= 0 {
		hostport = hostport[i+len(shell.Dyn):] // "$ES_HOST:9200": the port is still known
	}
	if i := strings.LastIndexByte(hostport, '@'); i >= 0 {
		hostport = hostport[i+1:]
	}
	host = hostport
	if i := strings.LastIndexByte(hostport, ':'); i >= 0 && !strings.Contains(hostport, "]") {
		host, port = hostport[:i], hostport[i+1:]
	}
	for _, s := range strings.Split(path, "/") {
		if s != "" {
			segs = append(segs, s)
		}
	}
	return strings.ToLower(host), port, segs, query
}

// hostWords reports whether one of the words of a host name (split at dots and dashes) is
// one of words.
func hostWords(host string, words ...string) bool {
	for _, w := range strings.FieldsFunc(host, func(r rune) bool { return r == '.' || r == '-' }) {
		if slices.Contains(words, w) {
			return true
		}
	}
	return false
}

// searchHost reports a search engine's or vector database's endpoint: its default port
// (Elasticsearch and OpenSearch, Meilisearch, Typesense, Solr, Qdrant, Milvus) or a host named
// for one.
func searchHost(host, port string) bool {
	switch port {
	case "9200", "9243", "7700", "8108", "8983", "6333", "19530", "5984", "8086":
		return true
	}
	return hostWords(host, "es", "elastic", "elasticsearch", "opensearch", "search", "meili", "meilisearch", "typesense", "solr", "qdrant", "algolia", "algolianet",
		"aoss", "bonsai", "weaviate", "pinecone", "chroma", "chromadb", "milvus", "vespa", "couchdb", "influx", "influxdb")
}

// searchRequest: a search engine's index deleted or emptied over HTTP: DELETE of an index,
// an index pattern or _all (Elasticsearch, OpenSearch), of /indexes/x or its documents
// (Meilisearch, Algolia, Pinecone), of /collections/x (Typesense, Qdrant, Chroma), of a
// Weaviate class's /v1/schema/X; a delete-by-query or Solr delete matching every document, a
// Solr collection or core deleted through its admin API.
func (j *judge) searchRequest(c *shell.Cmd, r request, host, port string, segs []string, query string) bool {
	if len(segs) == 0 {
		return false
	}
	engine := searchHost(host, port)
	last := segs[len(segs)-1]
	// The route below an API prefix (api/v1/collections/x, 1/indexes/x, v1/schema/X).
	v := segs
	for len(v) > 1 && (v[0] == "api" || apiVersion(v[0])) {
		v = v[1:]
	}
	why := ""
	switch {
	case last == "_delete_by_query" && (r.method == "POST" || r.method == "GET") && matchesAll(r.body, query):
		why = "a delete-by-query matching every document empties " + cmp.Or(strings.Join(segs[:len(segs)-1], "/"), "every index")
	case engine && r.method == "POST" && slices.Contains(segs, "update") && strings.Contains(r.body, "delete") && strings.Contains(r.body, "*:*"):
		why = "a Solr delete of *:* empties the collection"
	case engine && r.method == "POST" && len(v) == 3 && v[0] == "indexes" && last == "clear":
		why = "clearing " + v[1] + " deletes every record of the index"
	case engine && slices.Contains(segs, "admin") && (last == "collections" || last == "cores") && solrDelete(query):
		why = "a Solr admin " + last + " delete removes a whole collection or core with its index"
	case r.method != "DELETE", slices.Contains(segs, "scroll") || slices.Contains(segs, "_pit") || slices.Contains(segs, "_async_search"):
		// DELETE _search/scroll/_all frees search cursors, not data
	case slices.Contains(segs, "_all"):
		why = "DELETE of _all deletes every index of the search engine"
	case !engine && !(v[0] == "indexes" && len(v) == 2):
		// /indexes/NAME is a search engine's route (Meilisearch, Algolia) on whatever host
	case v[0] == "indexes" && (len(v) == 2 || len(v) == 3 && last == "documents"),
		v[0] == "collections" && len(v) == 2, v[0] == "schema" && len(v) == 2, v[0] == "buckets" && len(v) == 2,
		segs[0] == "_data_stream" && len(segs) == 2,
		len(segs) == 1 && !strings.HasPrefix(last, "_"):
		why = "DELETE of " + strings.Join(segs, "/") + " deletes a whole index, collection or database with every document in it"
	case strings.Contains(last, "*"):
		why = "DELETE of " + strings.Join(segs, "/") + " deletes everything the pattern matches on the search engine"
	}
	if why == "" {
		return false
	}
	j.add(c, storeIndexDelete, why, "")
	return true
}

// solrDelete reports a Solr admin query that deletes a collection or a core with its index.
func solrDelete(query string) bool {
	del, unload, index := false, false, false
	for _, q := range strings.Split(query, "&") {
		k, val, _ := strings.Cut(q, "=")
		switch {
		case k == "action" && strings.EqualFold(val, "DELETE"):
			del = true
		case k == "action" && strings.EqualFold(val, "UNLOAD"):
			unload = true
		case (k == "deleteIndex" || k == "deleteInstanceDir" || k == "deleteDataDir") && val == "true":
			index = true
		}
	}
	return del || unload && index
}

// queryParam is a URL query's parameter, decoded (+ and %XX).
func queryParam(query, name string) string {
	for _, q := range strings.Split(query, "&") {
		k, v, _ := strings.Cut(q, "=")
		if k != name {
			continue
		}
		var b strings.Builder
		for i := 0; i < len(v); i++ {
			if v[i] == '+' {
				b.WriteByte(' ')
			} else if n, err := strconv.ParseUint(v[min(i+1, len(v)):min(i+3, len(v))], 16, 8); v[i] == '%' && err == nil && i+2 < len(v) {
				b.WriteByte(byte(n))
				i += 2
			} else {
				b.WriteByte(v[i])
			}
		}
		return b.String()
	}
	return ""
}

// matchesAll reports a query that selects every document: match_all, *:*, q=*.
func matchesAll(body, query string) bool {
	for _, q := range strings.Split(query, "&") {
		if q == "q=*" || q == "q=*:*" || q == "q=%2A" {
			return true
		}
	}
	return strings.Contains(body, "match_all") || strings.Contains(body, "*:*")
}

// brokerRequest: RabbitMQ's management API deleting or purging a queue, or deleting a vhost.
func (j *judge) brokerRequest(c *shell.Cmd, r request, host, port string, segs []string) bool {
	if r.method != "DELETE" || len(segs) < 3 || segs[0] != "api" || port != "15672" && !hostWords(host, "rabbit", "rabbitmq", "amqp", "mq") {
		return false
	}
	switch {
	case segs[1] == "queues" && (len(segs) == 4 || len(segs) == 5 && segs[4] == "contents"), segs[1] == "vhosts" && len(segs) == 3:
		j.add(c, storeBrokerDelete, "DELETE of "+strings.Join(segs, "/")+" deletes or purges queues with their messages", "")
		return true
	}
	return false
}

// kafka: kafka-topics --delete (a pattern such as '.*' takes every topic), kafka-delete-records.
func (j *judge) kafka(c *shell.Cmd) {
	if strings.HasPrefix(c.Name, "kafka-delete-records") {
		j.add(c, storeBrokerDelete, c.Name+" deletes a topic's records", "")
		return
	}
	if slices.Contains(c.Args, "--delete") {
		j.add(c, storeBrokerDelete, c.Name+" --delete deletes topics with every message in them", "")
	}
}

// rabbitmq: rabbitmqctl delete_queue, purge_queue, delete_vhost, reset; rabbitmqadmin
// delete|purge queue|vhost (and its newer queues delete|purge).
func (j *judge) rabbitmq(c *shell.Cmd) {
	ops := rabbitmqOpts.Parse(c.Args).Operands
	if len(ops) == 0 {
		return
	}
	switch {
	case c.Name == "rabbitmqctl" && (ops[0] == "delete_queue" || ops[0] == "purge_queue" || ops[0] == "delete_vhost" || ops[0] == "reset" || ops[0] == "force_reset"):
	case c.Name == "rabbitmqadmin" && len(ops) > 1 && (ops[0] == "delete" || ops[0] == "purge") && (ops[1] == "queue" || ops[1] == "vhost"):
	case c.Name == "rabbitmqadmin" && len(ops) > 1 && (ops[0] == "queues" || ops[0] == "vhosts") && (ops[1] == "delete" || ops[1] == "purge"):
	default:
		return
	}
	j.add(c, storeBrokerDelete, c.Name+" "+strings.Join(ops[:min(len(ops), 2)], " ")+" discards queued messages", "")
}

// nats: JetStream streams removed or purged; a key-value or object bucket removed whole (del
// with a key, or rm of one object, is ordinary data work).
func (j *judge) nats(c *shell.Cmd) {
	ops := natsOpts.Parse(c.Args).Operands
	if len(ops) < 3 {
		return
	}
	switch verb := ops[1]; ops[0] {
	case "stream", "str":
		if verb == "rm" || verb == "del" || verb == "delete" || verb == "remove" || verb == "purge" {
			j.add(c, storeBrokerDelete, "nats stream "+verb+" discards every message of stream "+ops[2], "")
		}
	case "kv", "obj", "object":
		if (verb == "rm" || verb == "del" || verb == "delete") && len(ops) == 3 {
			j.add(c, storeBrokerDelete, "nats "+ops[0]+" "+verb+" removes bucket "+ops[2]+" with everything in it", "")
		}
	}
}

// kvStore: every key of etcd or Consul deleted (an empty prefix, --from-key "").
func (j *judge) kvStore(c *shell.Cmd) {
	if c.Name == "consul" {
		// consul takes Go-style flags: -recurse, -http-addr=...
		var ops []string
		recurse := false
		for _, a := range c.Args {
			if a == "-recurse" || a == "--recurse" || a == "-recurse=true" || a == "--recurse=true" {
				recurse = true
			} else if !strings.HasPrefix(a, "-") {
				ops = append(ops, a)
			}
		}
		if recurse && at(ops, 0) == "kv" && at(ops, 1) == "delete" && strings.Trim(at(ops, 2), "/") == "" {
			j.add(c, storeKVWipe, "consul kv delete -recurse of the root deletes every key", "")
		}
		return
	}
	p := etcdOpts.Parse(c.Args)
	if at(p.Operands, 0) != "del" {
		return
	}
	if key := strings.Trim(at(p.Operands, 1), "/\x00"); key == "" && (p.Has("prefix") || p.Has("from-key")) {
		j.add(c, storeKVWipe, "etcdctl del of the empty prefix deletes every key in the cluster", "")
	}
}

// platformCLI judges the CLIs of hosted data services and platforms whose subcommands name a
// resource and then a destroy verb (atlas clusters delete, rpk topic delete, pscale database
// delete, algolia indices delete|clear).
func (j *judge) platformCLI(c *shell.Cmd) {
	ops := shell.Opts{}.Parse(c.Args).Operands
	switch first := at(ops, 0); {
	case c.Name == "couchbase-cli" && (first == "bucket-delete" || first == "bucket-flush"),
		c.Name == "influx" && first == "bucket" && at(ops, 1) == "delete",
		c.Name == "scw" && (first == "rdb" || first == "redis" || first == "mongodb" || first == "document-db") && slices.Contains(ops[:min(len(ops), 4)], "delete"),
		c.Name == "avn" && first == "service" && at(ops, 1) == "terminate",
		c.Name == "linode-cli" && first == "databases" && strings.HasSuffix(at(ops, 1), "-delete"),
		c.Name == "aliyun" && (first == "rds" || first == "polardb" || first == "r-kvstore" || first == "dds" || first == "elasticsearch" || first == "hbase") &&
			strings.HasPrefix(at(ops, 1), "Delete") && (strings.HasSuffix(at(ops, 1), "Instance") || strings.HasSuffix(at(ops, 1), "Cluster")):
		j.add(c, storeManagedDelete, c.Name+" "+strings.Join(ops[:min(len(ops), 3)], " ")+" deletes a managed data store with its data", "")
	case c.Name == "splunk" && (first == "remove" && at(ops, 1) == "index" || first == "clean" && at(ops, 1) == "eventdata"):
		j.add(c, storeIndexDelete, "splunk "+first+" "+ops[1]+" deletes an index's events", "")
	case c.Name == "influx":
		// InfluxDB 1's CLI takes InfluxQL with Go-style flags: -execute 'DROP DATABASE x'
		for i, a := range c.Args {
			if a == "-execute" || a == "--execute" {
				j.sqlStatements(c, at(c.Args, i+1))
			}
		}
	default:
		if !j.serverDelete(c) {
			j.resourceDelete(c, ops)
		}
	}
}

// cypher matches every node of a graph (MATCH (n) with no label and no WHERE) and deletes it.
var cypherWipe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?is)\bmatch\s*\(\s*\w*\s*\)\s*(detach\s+)?delete\b`)
})

// cypher: Neo4j's shell deleting every node of the graph.
func (j *judge) cypher(c *shell.Cmd) {
	text := strings.Join(shell.Opts{Short: "aupdf", Long: []string{"address", "username", "password", "database", "file", "format"}}.Parse(c.Args).Operands, " ")
	if c.Stdin != nil && c.Stdin.Known {
		text += "\n" + c.Stdin.Text
	}
	if cypherWipe().MatchString(text) {
		j.add(c, storeKVWipe, "MATCH (n) DELETE with no label and no WHERE deletes every node of the graph", "")
	}
}

// resourceDelete finds "RESOURCE VERB" (or RESOURCE:VERB) among the first words of a CLI's
// subcommand path and judges it by what the resource holds; true when it was one.
func (j *judge) resourceDelete(c *shell.Cmd, ops []string) bool {
	for i := 0; i < len(ops) && i < 4; i++ {
		res, verb, colon := strings.Cut(ops[i], ":")
		if !colon {
			res, verb = "", ops[i]
			if i > 0 {
				res = ops[i-1]
			}
		}
		switch verb {
		case "delete", "destroy", "rm", "remove", "del", "purge", "clear":
		default:
			continue
		}
		what := c.Name + " " + strings.Join(ops[:i+1], " ")
		clear := verb == "purge" || verb == "clear"
		switch res {
		case "index", "indices", "indexes":
			j.add(c, storeIndexDelete, what+" deletes or empties a search index", "")
		case "topic", "topics", "stream", "streams", "queue", "queues":
			j.add(c, storeBrokerDelete, what+" discards every message it holds", "")
		case "database", "databases", "db", "dbs", "d1", "cluster", "clusters", "serverless", "namespace", "namespaces", "redis", "kafka", "vector", "vectorize", "dbaas":
			if clear {
				return false
			}
			j.add(c, storeManagedDelete, what+" deletes a managed data store with its data", "")
		case "bucket", "buckets":
			if clear {
				return false
			}
			j.add(c, hostedStorageWipe, what+" deletes a storage bucket", "")
		case "repo", "repos", "repository", "repositories":
			if clear {
				return false
			}
			j.add(c, hostedRepoDelete, what+" deletes a hosted repository with its issues, pull requests and wiki", "")
		case "project", "projects", "app", "apps", "site", "sites":
			if clear {
				return false
			}
			j.add(c, hostedProjectDelete, what+" deletes a hosted project with its deployments and data", "")
		default:
			return false
		}
		return true
	}
	return false
}

// cloudData judges the deletes of the cloud CLIs (aws, gcloud, az, doctl; ops are the
// operands after the global options) that take a managed data store, a queue, a hosted
// repository, storage or a backup vault with them: deny on every cloud. True when one was.
func (j *judge) cloudData(c *shell.Cmd, ops []string) bool {
	if len(ops) < 2 {
		return false
	}
	svc, op := ops[0], ops[1]
	var r *Rule
	switch c.Name {
	case "aws":
		switch {
		case svc == "sqs" && (op == "purge-queue" || op == "delete-queue"), svc == "kinesis" && op == "delete-stream", svc == "mq" && op == "delete-broker":
			r = storeBrokerDelete
		case svc == "backup" && op == "delete-backup-vault":
			r = hostedBackupDelete
		case svc == "organizations" && op == "close-account":
			r = hostedProjectDelete
		case svc == "codecommit" && op == "delete-repository", svc == "ecr" && op == "delete-repository" && slices.Contains(c.Args, "--force"):
			r = hostedRepoDelete
		case svc == "lightsail" && op == "delete-relational-database", awsDataService(svc) && strings.HasPrefix(op, "delete-") && awsDataKind(op):
			r = storeManagedDelete
		}
	case "gcloud":
		res, verb := at(ops, 1), at(ops, 2)
		switch {
		case svc == "pubsub" && verb == "delete" && (res == "topics" || res == "subscriptions" || res == "lite-topics"):
			r = storeBrokerDelete
		case verb == "delete" && (svc == "source" && res == "repos" || svc == "artifacts" && res == "repositories"):
			r = hostedRepoDelete
		case svc == "backup-dr" && res == "backup-vaults" && verb == "delete":
			r = hostedBackupDelete
		case verb == "delete" && (res == "instances" || res == "databases" || res == "clusters" || res == "tables") &&
			slices.Contains([]string{"sql", "spanner", "bigtable", "firestore", "alloydb", "redis", "memcache", "filestore", "datastore"}, svc):
			r = storeManagedDelete
		}
	case "az":
		res, verb := op, at(ops, 2)
		switch {
		case svc == "repos" && op == "delete" || svc == "devops" && res == "project" && verb == "delete":
			r = hostedRepoDelete
		case svc == "backup" && (res == "vault" && verb == "delete" || res == "protection" && verb == "disable" && azTrue(c.Args, "--delete-backup-data")):
			r = hostedBackupDelete
		case svc == "storage" && (verb == "delete" && (res == "account" || res == "container" || res == "share" || res == "fs") ||
			res == "blob" && verb == "delete-batch" && !slices.Contains(c.Args, "--pattern")):
			r = hostedStorageWipe
		case (svc == "servicebus" || svc == "eventhubs") && slices.Contains(ops[:min(len(ops), 4)], "delete"):
			r = storeBrokerDelete
		case slices.Contains([]string{"sql", "postgres", "mysql", "mariadb", "cosmosdb", "redis", "synapse", "kusto", "search"}, svc) && azDataDelete(ops):
			r = storeManagedDelete
		}
	case "doctl":
		if svc == "databases" {
			return j.resourceDelete(c, ops)
		}
	case "heroku":
		if (svc == "addons:destroy" || svc == "addons:remove") && dataAddon(op) {
			r = storeManagedDelete
		}
	}
	if r == nil {
		return false
	}
	j.add(c, r, c.Name+" "+strings.Join(ops[:min(len(ops), 3)], " ")+" deletes "+cloudKind(r)+" for good", "")
	return true
}

func cloudKind(r *Rule) string {
	switch r {
	case storeBrokerDelete:
		return "a hosted queue, topic or stream and its messages"
	case hostedBackupDelete:
		return "backups"
	case hostedRepoDelete:
		return "a hosted repository or project with everything in it"
	case hostedProjectDelete:
		return "a whole account with everything in it"
	case hostedStorageWipe:
		return "a storage container and every object in it"
	}
	return "a managed data store and its data"
}

// dataAddon reports a Heroku add-on (or its attachment name) that is a data store.
func dataAddon(name string) bool {
	name = strings.ToLower(name)
	for _, w := range []string{"postgres", "redis", "kafka", "mongo", "mysql", "database", "elasticsearch", "opensearch", "bonsai", "searchbox", "memcache"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// awsDataService reports the AWS services whose resources hold data.
func awsDataService(svc string) bool {
	switch svc {
	case "rds", "docdb", "docdb-elastic", "neptune", "redshift", "redshift-serverless", "elasticache", "memorydb", "dynamodb", "dax",
		"opensearch", "es", "opensearchserverless", "timestream-write", "keyspaces", "qldb", "kafka":
		return true
	}
	return false
}

// awsDataKind reports a delete- operation of a resource that holds data itself (a cluster,
// table, domain, database; not a snapshot, parameter group or user).
func awsDataKind(op string) bool {
	for _, k := range []string{"-cluster", "-table", "-domain", "-database", "-keyspace", "-ledger", "-replication-group", "-serverless-cache",
		"-cache-cluster", "-instance", "-namespace", "-collection", "-global-cluster", "-elasticsearch-domain"} {
		if strings.HasSuffix(op, k) {
			return true
		}
	}
	return false
}

// azDataDelete reports az SERVICE [RESOURCE ...] delete of a data-holding resource (a server,
// database, account, cluster, container), not of a firewall rule or an administrator.
func azDataDelete(ops []string) bool {
	for i := 1; i < len(ops) && i < 4; i++ {
		if ops[i] == "delete" {
			switch ops[i-1] {
			case "sql", "postgres", "mysql", "mariadb", "cosmosdb", "redis", "db", "server", "mi", "flexible-server", "database", "container",
				"collection", "table", "keyspace", "cluster", "service", "workspace", "pool", "sql-pool", "graph", "gremlin", "mongodb", "cassandra":
				return true
			}
			return false
		}
	}
	return false
}

// azTrue reports an az boolean option set to true (--x true, --x=true, --x yes).
func azTrue(args []string, name string) bool {
	for i, a := range args {
		v, ok := "", false
		if a == name {
			v, ok = at(args, i+1), true
		} else if strings.HasPrefix(a, name+"=") {
			v, ok = a[len(name)+1:], true
		}
		if ok && (strings.EqualFold(v, "true") || strings.EqualFold(v, "yes")) {
			return true
		}
	}
	return false
}

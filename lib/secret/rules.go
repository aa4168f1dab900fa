// The rules: one per credential format, each with the keywords that open its windows.

package secret

var rules = []rule{
	{kind: PrivateKey, keywords: []string{"PRIVATE KEY"}, span: 32 << 10,
		// A header alone (grep '-----BEGIN RSA PRIVATE KEY-----') is not a key: a body must follow.
		pattern: `-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]{0,200}?[A-Za-z0-9+/]{20,}[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\z)`},
	// A PEM private key encoded once more in base64, as kubeconfig's client-key-data and
	// Kubernetes secrets hold it: "-----BEGIN" encodes to LS0tLS1CRUdJTi.
	// A key's body pasted without its armour: base64 that opens as private keys' DER does
	// (PKCS#1 RSA, PKCS#8 RSA, EC and Ed25519, SEC1 EC) or as OpenSSH's private key format. Public
	// keys and certificates open otherwise.
	{kind: PrivateKey, keywords: []string{"IBAAKCA", "BgkqhkiG9w0BAQEFAASC", "b3BlbnNzaC1rZXktdjE", "MHcCAQEEI", "MIGHAgEAMBMGByqGSM49", "MC4CAQAwBQYDK2VwBCIEI"}, runs: base64Line,
		pattern: `(?:^|[^A-Za-z0-9+/])([A-Za-z0-9+/]{0,16}(?:IBAAKCA[QgY]EA|BgkqhkiG9w0BAQEFAASC|b3BlbnNzaC1rZXktdjE|MHcCAQEEI|MIGHAgEAMBMGByqGSM49|MC4CAQAwBQYDK2VwBCIEI)[A-Za-z0-9+/=\r\n]{40,})`},
	{kind: PrivateKey, keywords: []string{"LS0tLS1CRUdJTi"}, runs: base64Line,
		pattern: `(LS0tLS1CRUdJTi[A-Za-z0-9+/=\r\n]{40,})`, accept: encodedKey},
	{kind: AWSAccessKey, keywords: []string{"AKIA", "ASIA", "ABIA", "ACCA"}, starts: true,
		pattern: `\b((?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16})\b`, accept: notExample},
	// Named in prose too: "the secret access key is ...".
	{kind: AWSSecretKey, keywords: []string{"aws", "secret_access", "secretaccess", "secret-access", "secret access"}, fold: true,
		pattern: `(?i)(?:aws[_ -]?secret[_ -]?(?:access[_ -]?)?key|secret[_ -]?access[_ -]?key)["']?(?:\s*[:=,]\s*|\s+(?:is|was|of)?\s*)["']?([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+]|$)`, accept: notExample},
	{kind: GitHubToken, keywords: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, starts: true,
		pattern: `\b((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9_]{82})\b`, accept: random},
	// GitLab's prefixes: personal, project and group access, deploy, runner, trigger, feed, SCIM,
	// OAuth application, CI job, incoming mail, agent and feature-flag tokens, and the old
	// runner registration tokens.
	{kind: GitLabToken, keywords: []string{"glpat-", "gldt-", "glrt-", "glptt-", "glft-", "glsoat-", "gloas-", "glcbt-", "glimt-", "glagent-", "glffct-", "GR1348941"}, starts: true,
		pattern: `\b((?:glpat|gldt|glrt|glptt|glft|glsoat|gloas|glcbt|glimt|glagent|glffct)-[A-Za-z0-9_-]{20,}|GR1348941[A-Za-z0-9_-]{20,})`, accept: random},
	{kind: AnthropicKey, keywords: []string{"sk-ant-"}, starts: true, pattern: `\b(sk-ant-[a-z]+\d{2}-[A-Za-z0-9_-]{80,})`, accept: random},
	{kind: OpenAIKey, keywords: []string{"sk-"}, starts: true,
		pattern: `\b(sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}|sk-[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}|sk-[A-Za-z0-9]{48})\b`, accept: random},
	{kind: SlackWebhook, keywords: []string{"hooks.slack.com"},
		pattern: `(https://hooks\.slack\.com/(?:services|workflows)/T[A-Z0-9]+/[A-Z0-9]+/[A-Za-z0-9]{16,})`, accept: random},
	{kind: SlackToken, keywords: []string{"xox", "xapp-"}, starts: true, pattern: `\b(xox[abceoprs]-[0-9]+-[0-9A-Za-z-]{10,}|xoxd-[A-Za-z0-9%+/=_-]{30,}|xapp-[0-9]+-[A-Z0-9]+-[0-9]+-[A-Za-z0-9]{16,})`, accept: random},
	{kind: StripeKey, keywords: []string{"_live_", "_test_"}, pattern: `\b((?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,})\b`, accept: random},
	// Stripe's webhook signing secret signs the events a server trusts.
	{kind: StripeKey, keywords: []string{"whsec_"}, starts: true, pattern: `\b(whsec_[A-Za-z0-9+/=]{24,})`, accept: random},
	// Telegram's bot token (the bot's id, then AA and 33 characters) and Discord's (the bot's id
	// in base64, a timestamp, an HMAC): each is the bot's whole identity.
	{kind: BotToken, keywords: []string{":AA"}, pattern: `(?:^|[^0-9])(\d{8,10}:AA[A-Za-z0-9_-]{30,40})(?:[^A-Za-z0-9_-]|$)`, accept: random},
	{kind: BotToken, keywords: []string{"discord", "bot.run", ".login(", "bot_token", "bot-token"}, fold: true,
		pattern: `(?:^|[^A-Za-z0-9_-])([MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40})(?:[^A-Za-z0-9_-]|$)`, accept: random},
	{kind: GoogleAPIKey, keywords: []string{"AIza"}, starts: true, pattern: `\b(AIza[0-9A-Za-z_-]{35})(?:[^0-9A-Za-z_-]|$)`, accept: random},
	// Azure storage: an account key (88 characters of base64) after AccountKey= in a connection
	// string, --account-key or AZURE_STORAGE_KEY, and a SAS URL's signature.
	{kind: AzureStorageKey, keywords: []string{"accountkey", "account-key", "account_key", "storagekey", "storage-key", "storage_key"}, fold: true,
		pattern: `(?i)(?:account|storage)[_-]?key["']?(?:\s*[:=]\s*|\s+)["']?([A-Za-z0-9+/]{86}==)`, accept: random},
	// az storage account keys list: [{"keyName": "key1", "permissions": "FULL", "value": "..."}].
	{kind: AzureStorageKey, keywords: []string{"keyname"}, fold: true,
		pattern: `(?i)"keyName"\s*:\s*"key\d"[^{}]{0,200}?"value"\s*:\s*"([A-Za-z0-9+/]{86}==)"`, accept: random},
	{kind: AzureStorageKey, keywords: []string{"sv="},
		pattern: `\bsv=\d{4}-\d{2}-\d{2}&[^\s"'<>#]*?\bsig=([A-Za-z0-9%+/]{20,}(?:%3D|%3d|=)*)`, accept: random},
	{kind: GoogleOAuthToken, keywords: []string{"ya29."}, starts: true, pattern: `\b(ya29\.[0-9A-Za-z_-]+(?:\.[0-9A-Za-z_-]+)*)`, accept: longRandom},
	{kind: SendGridKey, keywords: []string{"SG."}, starts: true, pattern: `\b(SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,50})`, accept: random},
	// Mailgun's key-<32 hex> is a cache key's shape too: Mailgun or its api: user must be named
	// before it.
	{kind: MailgunKey, keywords: []string{"key-"}, starts: true, pattern: `\b(key-[0-9a-f]{32})\b`, accept: random, near: mailgun},
	// Twilio's auth token is 32 hex digits, told from a hash only by its company: the account SID
	// (AC and 32 hex digits) just before it, or a Twilio name.
	{kind: TwilioToken, keywords: []string{"AC"}, starts: true, span: 256, pattern: `\b([0-9a-f]{32})\b`, accept: random, near: twilioSID},
	{kind: TwilioToken, keywords: []string{"twilio"}, fold: true,
		pattern: `(?i)twilio\w*?[ _-]?(?:auth[ _-]?)?token["']?(?:\s*[:=]\s*|\s+(?:is\s+)?)["']?([0-9a-f]{32})\b`, accept: random},
	{kind: VaultToken, keywords: []string{"hvs.", "hvb.", "hvr."}, starts: true, pattern: `\b(hv[sbr]\.[A-Za-z0-9_-]{20,})`, accept: random},
	// Package registries: PyPI (a macaroon, pypi-AgE...), Docker Hub, npm, crates.io; and a token
	// handed to cargo login, whatever its shape.
	{kind: RegistryToken, keywords: []string{"pypi-AgE"}, starts: true, pattern: `\b(pypi-AgE[A-Za-z0-9_-]{50,})`, accept: random},
	{kind: RegistryToken, keywords: []string{"dckr_"}, starts: true, pattern: `\b(dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,})`, accept: random},
	{kind: RegistryToken, keywords: []string{"npm_"}, starts: true, pattern: `\b(npm_[A-Za-z0-9]{36})\b`, accept: random},
	{kind: RegistryToken, keywords: []string{"cio"}, starts: true, pattern: `\b(cio[A-Za-z0-9]{32})\b`, accept: random},
	{kind: RegistryToken, keywords: []string{"cargo login"}, pattern: `\bcargo\s+login\s+(?:--?[a-z-]+(?:[= ][\w.-]+)?\s+)*["']?([A-Za-z0-9_-]{20,})`, accept: highEntropy},
	{kind: JWT, keywords: []string{"eyJ"}, starts: true, runs: tokenByte, pattern: `\b(eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,})`},
	{kind: URLPassword, keywords: []string{"://"},
		pattern: `\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@'"]*:([^\s@/'"]+)@[^\s/'"@]+`, accept: realPassword},
	// HTTP Basic credentials: base64 of user:password.
	{kind: PasswordAssignment, keywords: []string{"basic "}, fold: true,
		pattern: `(?i)authorization["']?\s*[:=]\s*["']?basic\s+([A-Za-z0-9+/]{8,}={0,2})`, accept: basicCredentials},
	// Any other generated value sent as a bearer token.
	{kind: BearerToken, keywords: []string{"bearer"}, fold: true,
		pattern: `(?i)\bauthorization["']?\s*[:=]\s*["']?bearer\s+([A-Za-z0-9._~+/-]{16,}=*)`, accept: bearerValue},
	// A Docker config.json's "auth": base64 of user:password (or user:token).
	{kind: DockerAuth, keywords: []string{`"auth"`}, pattern: `"auth"\s*:\s*"([A-Za-z0-9+/]{8,}={0,2})"`, accept: basicCredentials},
	// The assignment rule is matched by hand (assignment below): its keywords are common words
	// and a case-insensitive regexp over a large prompt is too slow.
	{kind: PasswordAssignment, fold: true, keywords: assignmentKeys, accept: highEntropy},
	// A password a command takes as an argument: after the assignment rule, so that a generated
	// value keeps its kind, and any literal value counts here (the flag says what it is).
	{kind: CommandPassword, keywords: []string{"redis-cli"}, pattern: `\bredis-cli\b[^\n;&|]*?\s(?:-a|--pass)\s+["']?([^\s"';&|)\x60]+)`, accept: literalPassword},
	{kind: CommandPassword, keywords: []string{"mysql", "mariadb"},
		pattern: `\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mariadb|mariadb-dump)\b[^\n;&|]*?\s(?:-p|--password=)["']?([^\s"';&|)\x60]+)`, accept: literalPassword},
	{kind: CommandPassword, keywords: []string{"curl"}, pattern: `\bcurl\b[^\n;&|]*?\s(?:-u|--user)(?:\s+|=)?["']?[^\s:"']*:([^\s"';&|)\x60]+)`, accept: literalPassword},
	{kind: CommandPassword, keywords: []string{"sshpass"}, pattern: `\bsshpass\s+(?:-[a-oq-zA-Z]\S*\s+)*-p\s*["']?([^\s"';&|)\x60]+)`, accept: literalPassword},
	// htpasswd -b takes the password last: after the file and the user, or with -n (no file)
	// after the user alone.
	{kind: CommandPassword, keywords: []string{"htpasswd"},
		pattern: `\bhtpasswd\s+(?:-[a-zA-Z]+\s+)*?-[a-mo-zA-Z]*b[a-mo-zA-Z]*\s+(?:-[a-mo-zA-Z]+\s+)*[^-\s]\S*\s+\S+\s+["']?([^\s"';&|)\x60]+)`, accept: literalPassword},
	{kind: CommandPassword, keywords: []string{"htpasswd"},
		pattern: `\bhtpasswd\s+(?:-[a-zA-Z]+\s+)*?-(?:[a-zA-Z]*n[a-zA-Z]*b|[a-zA-Z]*b[a-zA-Z]*n)[a-zA-Z]*\s+(?:-[a-zA-Z]+\s+)*[^-\s]\S*\s+["']?([^\s"';&|)\x60]+)`, accept: literalPassword},
	{kind: CommandPassword, keywords: []string{" login", "twine"},
		pattern: `\b(?:(?:docker|podman|buildah|skopeo|oras|helm(?:\s+registry)?)\s+login|twine\s+upload)\b[^\n;&|]*?\s(?:-p|--password)(?:\s+|=)["']?([^\s"';&|)\x60]+)`, accept: literalPassword},
	// A literal echoed into a login that reads its password from stdin.
	{kind: CommandPassword, keywords: []string{"password-stdin"},
		pattern: `\b(?:echo|printf)\s+(?:-n\s+)?["']?([^\s"';&|)\x60]+)["']?\s*\|\s*(?:docker|podman|buildah|skopeo|oras|helm(?:\s+registry)?)\s+login\b[^\n;&|]*--password-stdin`, accept: literalPassword},
	{kind: CommandPassword, keywords: []string{"mongo"},
		pattern: `\bmongo(?:sh|dump|restore|export|import)?\b[^\n;&|]*?\s(?:-p|--password)(?:\s+|=)["']?([^\s"';&|)\x60]+)`, accept: literalPassword},
	{kind: CommandPassword, keywords: []string{"sqlcmd"}, pattern: `\bsqlcmd\b[^\n;&|]*?\s-P\s*["']?([^\s"';&|)\x60]+)`, accept: literalPassword},
	{kind: CommandPassword, keywords: []string{"rabbitmqctl"}, pattern: `\brabbitmqctl\s+(?:add_user|change_password)\s+\S+\s+["']?([^\s"';&|)\x60]+)`, accept: literalPassword},
	// openssl's pass:<pw>, keytool's store and key passwords, ldap tools' -w, archivers' passwords.
	{kind: CommandPassword, keywords: []string{"pass:"}, pattern: `\s-(?:passin|passout|pass|password)\s+["']?pass:([^\s"';&|)\x60]+)`, accept: literalPassword},
	{kind: CommandPassword, keywords: []string{"storepass", "keypass"}, pattern: `\s-(?:src|dest)?(?:storepass|keypass)\s+["']?([^\s"';&|)\x60]+)`, accept: literalPassword},
	{kind: CommandPassword, keywords: []string{"ldap"}, pattern: `\bldap(?:search|add|modify|delete|passwd|whoami|compare|modrdn)\b[^\n;&|]*?\s-w\s+["']?([^\s"';&|)\x60]+)`, accept: literalPassword},
	{kind: CommandPassword, keywords: []string{"zip", "7z", "rar"},
		pattern: `\b(?:(?:un)?zip\b[^\n;&|]*?\s-P\s+|(?:7z|7za|7zz|rar|unrar)\b[^\n;&|]*?\s-p)["']?([^\s"';&|)\x60]+)`, accept: literalPassword},
	{kind: CommandPassword, keywords: []string{"PGPASSWORD=", "MYSQL_PWD=", "REDISCLI_AUTH="}, pattern: `\b(?:PGPASSWORD|MYSQL_PWD|REDISCLI_AUTH)=["']?([^\s"';&|)\x60]+)`, accept: literalPassword},
	// Redis's own commands: AUTH [user] password after redis-cli, its prompt or a quote (a
	// command sent through nc), CONFIG SET requirepass, and redis.conf's lines. Prose uses these
	// words too ("AUTH failed", "set requirepass first"), so a value of lower-case letters alone
	// is read as a word, and the value must end the command or the line.
	{kind: CommandPassword, keywords: []string{"AUTH "}, pattern: `(?:redis-cli\b[^\n]*?[ \t]|["'>][ \t]*)AUTH[ \t]+(?:[\w.-]+[ \t]+)?["']?([^\s"';&|)\x60]+)["']?[ \t]*(?:[\r\n\\;&|)]|$)`, accept: redisPassword},
	{kind: CommandPassword, keywords: []string{"requirepass", "masterauth"}, fold: true, pattern: `(?i)\b(?:requirepass|masterauth)["']?[ \t]+["']?([^\s"';&|)\x60]+)["']?[ \t]*(?:[\r\n\\;&|)]|$)`, accept: redisPassword},
}

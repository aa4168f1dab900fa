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
	{kind: AWSSecretKey, keywords: []string{"aws", "secret_access", "secretaccess", "secret-access", "secret access", "secret key", "secret_key"}, fold: true,
		pattern: `(?i)(?:aws[_ -]?secret[_ -]?(?:access[_ -]?)?key|secret[_ -]?access[_ -]?key|secret[_ -]key)["']?(?:\s*[:=,]\s*|\s+(?:is|was|of)?\s*|(?:\s+[\w,.'()-]+){1,8}?(?:\s+(?:is|was)\s+|:\s*))["']?([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+]|$)`, accept: notExample},
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
	{kind: AzureStorageKey, keywords: []string{"accountkey", "account-key", "account_key", "storagekey", "storage-key", "storage_key", "storage key", "account key"}, fold: true,
		pattern: `(?i)(?:account|storage)[_ -]?key\d?["']?(?:\s*[:=]\s*|\s+(?:is\s+)?|(?:\s+[\w.-]+){1,4}?\s+(?:is|was|:)\s+)["']?([A-Za-z0-9+/]{86}==)`, accept: random},
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
	// Services' own prefixes: Shopify's app tokens, Linear's and Notion's API keys, New Relic's
	// keys, age's secret keys, Databricks' tokens, Firebase's server keys, Artifactory's API
	// keys, Fly.io's tokens, Azure AD's client secrets (three characters, a digit, Q~).
	{kind: BearerToken, keywords: []string{"shpat_", "shpca_", "shppa_", "shpss_"}, starts: true, pattern: `\b(shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32})\b`, accept: random},
	{kind: BearerToken, keywords: []string{"lin_api_"}, starts: true, pattern: `\b(lin_api_[A-Za-z0-9]{40})\b`, accept: random},
	{kind: BearerToken, keywords: []string{"ntn_"}, starts: true, pattern: `\b(ntn_[0-9]{11}[A-Za-z0-9]{35})\b`, accept: random},
	{kind: BearerToken, keywords: []string{"NRAK-", "NRAL", "NRJS-", "NRII-"}, pattern: `\b(NRAK-[A-Z0-9]{27}|[a-f0-9]{36}NRAL|NRJS-[a-f0-9]{19}|NRII-[A-Za-z0-9_-]{32})\b`, accept: random},
	{kind: PrivateKey, keywords: []string{"AGE-SECRET-KEY-1"}, starts: true, pattern: `\b(AGE-SECRET-KEY-1[0-9A-Z]{20,})`, accept: random},
	{kind: BearerToken, keywords: []string{"dapi"}, pattern: `(dapi[a-f0-9]{32})(?:-\d+)?\b`, accept: random},
	{kind: BearerToken, keywords: []string{":APA91"}, pattern: `\b(AAAA[A-Za-z0-9_-]{7}:APA91[A-Za-z0-9_-]{100,})`, accept: random},
	{kind: BearerToken, keywords: []string{"AKCp"}, starts: true, pattern: `\b(AKCp[A-Za-z0-9]{69})\b`, accept: random},
	{kind: BearerToken, keywords: []string{"fm1_", "fm2_"}, starts: true, pattern: `\b(fm[12]_[A-Za-z0-9+/=_-]{40,})`, accept: random},
	{kind: PasswordAssignment, keywords: []string{"Q~"}, pattern: `(?:^|[^A-Za-z0-9_~.-])([A-Za-z0-9_~.-]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34})(?:[^A-Za-z0-9_~.-]|$)`, accept: random},
	{kind: BearerToken, keywords: []string{"dop_v1_", "doo_v1_", "dor_v1_"}, starts: true, pattern: `\b(do[por]_v1_[a-f0-9]{64})\b`, accept: random},
	{kind: BearerToken, keywords: []string{"nfp_"}, starts: true, pattern: `\b(nfp_[A-Za-z0-9]{36,40})\b`, accept: random},
	{kind: BearerToken, keywords: []string{"algoliasearch"}, pattern: `algoliasearch\(\s*["'][A-Z0-9]{10}["']\s*,\s*["']([a-f0-9]{32})["']`, accept: random, near: notSearchOnly},
	// Keys by their place in an SDK's constructor, Notion's older secret_, Atlassian's API
	// tokens, a wallet's private key in hex, a PuTTY key file, a chpasswd line, session cookies.
	{kind: BearerToken, keywords: []string{"cohere.client", "mistralclient(", "mistral("}, fold: true,
		pattern: `(?i)(?:cohere\.Client(?:V2)?|MistralClient|Mistral)\(\s*(?:api_key\s*=\s*)?["']([A-Za-z0-9]{32,48})["']`, accept: random},
	{kind: BearerToken, keywords: []string{"secret_"}, starts: true, pattern: `\b(secret_[A-Za-z0-9]{43})\b`, accept: random},
	{kind: BearerToken, keywords: []string{"ATATT3"}, starts: true, pattern: `\b(ATATT3[A-Za-z0-9_=-]{100,})`, accept: random},
	{kind: PrivateKey, keywords: []string{"private key", "private_key", "privatekey"}, fold: true,
		pattern: `(?i)private[ _]?key["']?\s*[:=]?\s*["']?(0x[0-9a-fA-F]{64})\b`, accept: random},
	{kind: PrivateKey, keywords: []string{"PuTTY-User-Key-File"}, span: 4096,
		pattern: `PuTTY-User-Key-File-\d+:[^\n]*\n(?:[^\n]*\n){0,64}?Private-Lines:\s*\d+\s*\n([A-Za-z0-9+/=\r\n]{20,})`},
	{kind: CommandPassword, keywords: []string{"chpasswd"}, reach: 512,
		pattern: `\b(?:echo|printf)\s+(?:-n\s+|["']%s(?:\\n)?["']\s+)?["']?[\w.@-]+:([^\s"';&|)\x60]+)["']?\s*\|\s*(?:sudo\s+)?chpasswd\b`, accept: literalPassword},
	{kind: BearerToken, keywords: []string{"connect.sid=", "session=", "sessionid=", "session_id=", "__secure-", "__host-", "_session="}, fold: true,
		pattern: `(?i)(?:^|[;\s'"])(?:connect\.sid|[\w.-]*session(?:_?id)?|__Secure-[\w-]+|__Host-[\w-]+)=([^;\s'"]{24,})`, accept: sessionValue},
	// SQL's CREATE/ALTER USER ... IDENTIFIED BY 'pw' (MySQL, Oracle), and an Algolia admin key
	// named in prose.
	{kind: CommandPassword, keywords: []string{"identified by"}, fold: true, pattern: `(?i)\bidentified\s+(?:with\s+\S+\s+)?by\s+'([^'\n]{6,})'`, accept: literalPassword},
	{kind: BearerToken, keywords: []string{"algolia"}, fold: true, pattern: `(?i)algolia[^\n]{0,40}?admin[ _-]?(?:api[ _-]?)?key["']?[\s:=]+["']?([a-f0-9]{32})\b`, accept: random},
	// WordPress's keys and salts (define('AUTH_KEY', '...')): they sign every login cookie.
	{kind: PasswordAssignment, keywords: []string{"_KEY'", "_SALT'", "_KEY\"", "_SALT\""},
		pattern: `define\(\s*['"](?:SECURE_)?(?:AUTH|LOGGED_IN|NONCE)_(?:KEY|SALT)['"]\s*,\s*'([^'\n]{32,})'`, accept: wordpressSalt},
	{kind: SlackWebhook, keywords: []string{"/api/webhooks/"}, pattern: `(https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]{60,})`, accept: random},
	// Google's OAuth refresh tokens (1//0...), LaunchDarkly's server SDK keys, and the secrets
	// that follow a public id in a client's constructor (Twilio's API key SK..., Razorpay's key id).
	{kind: GoogleOAuthToken, keywords: []string{"1//0"}, pattern: `(?:^|[^A-Za-z0-9/])(1//0[A-Za-z0-9_-]{40,})`, accept: random},
	{kind: BearerToken, keywords: []string{"sdk-"}, starts: true, pattern: `\b(sdk-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b`},
	{kind: TwilioToken, keywords: []string{"SK"}, starts: true, pattern: `\bSK[0-9a-f]{32}["']?\s*,\s*["']([A-Za-z0-9]{32})["']`, accept: random},
	{kind: BearerToken, keywords: []string{"rzp_live_", "rzp_test_"}, starts: true, pattern: `\brzp_(?:live|test)_[A-Za-z0-9]{14}["']?\s*,\s*["']([A-Za-z0-9]{20,})["']`, accept: random},
	{kind: VaultToken, keywords: []string{"hvs.", "hvb.", "hvr."}, starts: true, pattern: `\b(hv[sbr]\.[A-Za-z0-9_-]{20,})`, accept: random},
	// Package registries: PyPI (a macaroon, pypi-AgE...), Docker Hub, npm, crates.io; and a token
	// handed to cargo login, whatever its shape.
	{kind: RegistryToken, keywords: []string{"pypi-AgE"}, starts: true, pattern: `\b(pypi-AgE[A-Za-z0-9_-]{50,})`, accept: random},
	{kind: RegistryToken, keywords: []string{"dckr_"}, starts: true, pattern: `\b(dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,})`, accept: random},
	{kind: RegistryToken, keywords: []string{"npm_"}, starts: true, pattern: `\b(npm_[A-Za-z0-9]{36})\b`, accept: random},
	{kind: RegistryToken, keywords: []string{"cio"}, starts: true, pattern: `\b(cio[A-Za-z0-9]{32})\b`, accept: random},
	{kind: RegistryToken, keywords: []string{"cargo login"}, pattern: `\bcargo\s+login\s+(?:--?[a-z-]+(?:[= ][\w.-]+)?\s+)*["']?([A-Za-z0-9_-]{20,})`, accept: highEntropy},
	{kind: JWT, keywords: []string{"eyJ"}, starts: true, runs: tokenByte, pattern: `\b(eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,})`, accept: notAnonJWT},
	{kind: URLPassword, keywords: []string{"://"},
		pattern: `\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@'"]*:([^\s@/'"]+)@[^\s/'"@]+`, accept: realPassword},
	// HTTP Basic credentials: base64 of user:password.
	{kind: PasswordAssignment, keywords: []string{"basic "}, fold: true,
		pattern: `(?i)authorization["']?\s*[:=]\s*["']?basic\s+([A-Za-z0-9+/]{8,}={0,2})`, accept: basicCredentials},
	// Any other generated value sent as a bearer token (or Okta's SSWS, a token scheme), and one
	// sent in a header that carries credentials (Cloudflare's X-Auth-Key, Artifactory's API key,
	// GitLab's PRIVATE-TOKEN, an API key header).
	{kind: BearerToken, keywords: []string{"bearer", "ssws"}, fold: true,
		pattern: `(?i)\bauthorization["']?\s*[:=]\s*["'\x60]?(?:bearer|ssws)\s+([A-Za-z0-9._~+/-]{16,}=*)`, accept: bearerValue},
	{kind: PasswordAssignment, keywords: []string{"x-auth-key", "x-api-key", "x-auth-token", "x-jfrog-art-api", "x-access-token", "private-token", "x-apikey", "api-key:", "x-figma-token", "x-shopify-access-token", "x-vault-token"}, fold: true,
		pattern: `(?i)\b(?:x-auth-key|x-api-key|x-auth-token|x-jfrog-art-api|x-access-token|private-token|x-apikey|api-key|x-figma-token|x-shopify-access-token|x-vault-token)["']?\s*:\s*["']?([A-Za-z0-9._~+/=-]{16,})`, accept: highEntropy},
	// A value given as the whole Authorization header, with no scheme (Linear's API keys).
	{kind: BearerToken, keywords: []string{"authorization"}, fold: true,
		pattern: `(?i)\bauthorization["']?\s*[:=]\s*["'\x60]([A-Za-z0-9_-]{32,})["'\x60]`, accept: highEntropy},
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
	{kind: CommandPassword, keywords: []string{"curl"}, pattern: `\bcurl\b[^\n;&|]*?\s(?:-u|--user)(?:\s+|=)?["']?[^\s:"']*:["']?([^\s"';&|)\x60]+)`, accept: literalPassword},
	// Windows shares: smbclient and rpcclient -U 'DOMAIN\user%password', net use ... /user:X password.
	{kind: CommandPassword, keywords: []string{"smbclient", "rpcclient", "smbmap", "net use"}, fold: true,
		pattern: `(?i)\b(?:smbclient|rpcclient|smbmap)\b[^\n;&|]*?\s(?:-U|--user)(?:\s+|=)["']?[^\s%"']+%([^\s"';&|)\x60]+)|\bnet\s+use\b[^\n;&|]*?/user:\S+\s+["']?([^\s"'/;&|)\x60][^\s"';&|)\x60]*)`, accept: literalPassword},
	// A literal echoed into sudo -S, which reads the user's password from stdin.
	{kind: CommandPassword, keywords: []string{"sudo -S", "sudo --stdin"}, reach: 512,
		pattern: `\b(?:echo|printf)\s+(?:-n\s+|["']%s(?:\\n)?["']\s+)?["']?([^\s"';&|)\x60]+)["']?\s*\|\s*sudo\s+(?:-[a-zA-Z]+\s+)*?(?:-S|--stdin)\b`, accept: literalPassword},
	// the same with the password quoted, symbols and all ('Falcon@5344violet&')
	{kind: CommandPassword, keywords: []string{"sudo -S", "sudo --stdin"}, reach: 512,
		pattern: `\b(?:echo|printf)\s+(?:-n\s+)?'([^'\n]+)'\s*\|\s*sudo\s+(?:-[a-zA-Z]+\s+)*?(?:-S|--stdin)\b`, accept: literalPassword},
	// .NET appSettings: <add key="ApiSecret" value="..."/>.
	{kind: PasswordAssignment, keywords: []string{"key="}, fold: true,
		pattern: `(?i)\bkey\s*=\s*["'][\w.:-]*(?:password|passwd|secret|token|apikey|api_key)[\w.:-]*["']\s+value\s*=\s*["']([^"'\s]{8,})["']`, accept: highEntropy},
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
	{kind: CommandPassword, keywords: []string{"password-stdin"}, reach: 1024,
		pattern: `\b(?:echo|printf)\s+(?:-n\s+|["']%s(?:\\n)?["']\s+)?["']?([^\s"';&|)\x60]+)["']?\s*\|\s*(?:docker|podman|buildah|skopeo|oras|nerdctl|helm(?:\s+registry)?)\s+login\b[^\n;&|]*--password-stdin`, accept: literalPassword},
	// az login -p (a service principal's secret or a user's password), and a plain-text
	// password made into a SecureString in PowerShell.
	{kind: CommandPassword, keywords: []string{"az login"}, pattern: `\baz\s+login\b[^\n;&|]*?\s(?:-p|--password)(?:\s+|=)["']?([^\s"';&|)\x60]+)`, accept: literalPassword},
	{kind: CommandPassword, keywords: []string{"convertto-securestring"}, fold: true,
		pattern: `(?i)convertto-securestring\s+(?:-string\s+)?["']([^"'$\x60]+)["']\s+-asplaintext`, accept: literalPassword},
	// A Kubernetes container's env entry: a password's, secret's or token's name, then its value.
	{kind: CommandPassword, keywords: []string{"value:"}, span: 256, reach: 256, lines: true,
		pattern: `(?i)name:\s*["']?[a-z0-9_]*(?:password|passwd|secret|token|api_key)["']?[ \t]*\r?\n[ \t-]*value:[ \t]*["']([^"'\n]+)["']`, accept: literalPassword},
	// A key's passphrase given to ssh-keygen (-N new, -P old).
	{kind: CommandPassword, keywords: []string{"ssh-keygen"}, pattern: `\bssh-keygen\b[^\n;&|]*?\s-[NP]\s*["']([^"'\n]+)["']`, accept: literalPassword},
	// httpie's -a user:password; Cassandra's and ClickHouse's clients.
	{kind: CommandPassword, keywords: []string{"http ", "https ", "httpie"}, pattern: `\bhttps?\b[^\n;&|]*?\s(?:-a|--auth)(?:\s+|=)["']?[^\s:"']*:["']?([^\s"';&|)\x60]+)`, accept: literalPassword},
	{kind: CommandPassword, keywords: []string{"cqlsh", "clickhouse"}, pattern: `\b(?:cqlsh|clickhouse-client|clickhouse\s+client)\b[^\n;&|]*?\s(?:-p|--password)(?:\s+|=)["']?([^\s"';&|)\x60]+)`, accept: literalPassword},
	// A .pgpass line: host:port:database:user:password.
	{kind: CommandPassword, keywords: []string{"pgpass", ":5432:"}, fold: true,
		pattern: `(?m)^[\w.*-]+:(?:\d+|\*):[\w*-]+:[\w*.@-]+:([^\s:]+)$`, accept: chosenPassword},
	// Terraform: a password variable's default.
	{kind: PasswordAssignment, keywords: []string{"variable"},
		pattern: `(?i)\bvariable\s+"[\w-]*(?:password|passwd|secret|token)[\w-]*"\s*\{[^}]{0,300}?\bdefault\s*=\s*"([^"\n]{8,})"`, accept: literalPassword},
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

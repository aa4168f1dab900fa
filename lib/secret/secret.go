package secret

import (
	"bytes"
	"encoding/base64"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// Kind names a sort of credential.
type Kind string

const (
	PrivateKey         Kind = "private-key"
	AWSAccessKey       Kind = "aws-access-key"
	AWSSecretKey       Kind = "aws-secret-key"
	GitHubToken        Kind = "github-token"
	GitLabToken        Kind = "gitlab-token"
	AnthropicKey       Kind = "anthropic-key"
	OpenAIKey          Kind = "openai-key"
	SlackToken         Kind = "slack-token"
	SlackWebhook       Kind = "slack-webhook"
	StripeKey          Kind = "stripe-key"
	GoogleAPIKey       Kind = "google-api-key"
	JWT                Kind = "jwt"
	URLPassword        Kind = "url-password"
	PasswordAssignment Kind = "password-assignment"
	AzureStorageKey    Kind = "azure-storage-key"
	GoogleOAuthToken   Kind = "google-oauth-token"
	SendGridKey        Kind = "sendgrid-key"
	MailgunKey         Kind = "mailgun-key"
	TwilioToken        Kind = "twilio-token"
	VaultToken         Kind = "vault-token"
	RegistryToken      Kind = "registry-token"
	BearerToken        Kind = "bearer-token"
	CommandPassword    Kind = "command-password"
	DockerAuth         Kind = "docker-auth"
	BotToken           Kind = "bot-token"
)

var names = map[Kind]string{
	PrivateKey: "a private key", AWSAccessKey: "an AWS access key ID", AWSSecretKey: "an AWS secret access key",
	GitHubToken: "a GitHub token", GitLabToken: "a GitLab token", AnthropicKey: "an Anthropic API key",
	OpenAIKey: "an OpenAI API key", SlackToken: "a Slack token", SlackWebhook: "a Slack webhook URL",
	StripeKey: "a Stripe key", GoogleAPIKey: "a Google API key", JWT: "a JSON Web Token",
	URLPassword: "a password in a URL", PasswordAssignment: "a password or token assignment",
	AzureStorageKey: "an Azure storage credential", GoogleOAuthToken: "a Google OAuth access token",
	SendGridKey: "a SendGrid API key", MailgunKey: "a Mailgun API key", TwilioToken: "a Twilio auth token",
	VaultToken: "a Vault token", RegistryToken: "a package registry token", BearerToken: "a bearer token",
	CommandPassword: "a command-line password", DockerAuth: "a Docker registry login",
	BotToken: "a chat bot token",
}

// Describe names the kind for people: "an AWS access key ID".
func (k Kind) Describe() string { return names[k] }

// Match is one credential found: its kind and where it is (byte offsets of the secret part).
type Match struct {
	Kind       Kind
	Start, End int
}

// rule finds one kind: keywords any of which must appear (the cheap prefilter), a pattern
// whose submatch 1 (or the whole match) is the secret, and a check that rejects look-alikes.
type rule struct {
	kind     Kind
	keywords []string
	fold     bool // keywords are lower case and searched case-insensitively
	pattern  string
	accept   func(secret string) bool
	// span is how far past a keyword a match can reach (default 512 bytes).
	span int
	// runs: the secret is one unbroken token (a JWT, a base64 key) of these characters; its
	// window reaches past span only as far as they run on, so a long token is whole and other
	// text stays cheap.
	runs func(byte) bool
	// reach is how far before a keyword, on its line, a match can start (default 64 bytes);
	// lines lets it reach back over line breaks too.
	reach int
	lines bool
	// starts: a keyword begins the secret's token (the pattern opens with \b), so one that
	// follows a word character is no match and opens no window.
	starts bool
	// near, when set, must hold of the text before the secret (which starts at start): a
	// company that tells a generic shape from a credential, checked in Go rather than with a
	// long counted repetition, which would make the pattern slow.
	near func(text string, start int) bool
}

// compiled holds each rule's regexp, compiled the first time a keyword of the rule turns up:
// most texts hold no keyword at all, and compiling every pattern would cost each hook start
// half a millisecond. The table itself is made on the first scan, not at start.
var compiled = sync.OnceValue(func() []func() *regexp.Regexp {
	out := make([]func() *regexp.Regexp, len(rules))
	for i, r := range rules {
		if r.pattern != "" {
			out[i] = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(r.pattern) })
		}
	}
	return out
})

// asciiLower lowers A-Z only, so that offsets in the result are offsets in s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

// assignmentKeys are the names a secret is assigned to (lower case).
var assignmentKeys = []string{"password", "passwd", "pwd", "pass", "secret", "token", "apikey", "api_key", "api-key",
	"accesskey", "access_key", "access-key", "private_key", "private-key", "privatekey", "credential", "credentials", "psk",
	"encryption_key", "encryptionkey", "master_key", "masterkey", "hmac_key", "aes_key", "admin_key", "adminkey", "sdk_key", "server_key"}

// encryptedContext reports a key inside a block of values encrypted for a cluster or a vault
// (a SealedSecret's encryptedData, SOPS's ENC[...], Ansible's !vault): ciphertext, no secret
// without the key that only the cluster holds.
func encryptedContext(lower string, i int) bool {
	before := lower[max(0, i-400):i]
	after := lower[i:min(len(lower), i+64)]
	return strings.Contains(before, "encrypteddata") || strings.Contains(after, "enc[") || strings.Contains(after, "!vault")
}

// strongChosen accepts a password named in prose: a chosen one with letters, a digit and a
// symbol, so that the word after "password" in a sentence is not read as one.
func strongChosen(v string) bool {
	v = strings.TrimRight(v, ".,!?")
	return chosenPassword(v) && strings.ContainsAny(v, "0123456789") && strings.ContainsAny(v, "!@#$%^&+=?~*")
}

// proseLen bounds a password named in prose: 8 to 64 characters.
func proseLen(v string) bool { return len(v) >= 8 && len(v) <= 64 }

// wordpressSalt accepts a generated salt (WordPress's own service draws them from every printable
// character, < and > included), not the sample file's "put your unique phrase here".
func wordpressSalt(v string) bool {
	return !strings.Contains(v, " ") && entropy(v) >= 4
}

// notSearchOnly accepts an Algolia key that is the admin's: its line says so, or, when the
// line names no kind of key, the text writes or deletes with it; a key its line calls a search
// key is public by design.
func notSearchOnly(text string, start int) bool {
	ls := strings.LastIndexByte(text[:start], '\n') + 1
	le := strings.IndexByte(text[start:], '\n')
	if le < 0 {
		le = len(text) - start
	}
	line := strings.ReplaceAll(asciiLower(text[ls:start+le]), "algoliasearch", "")
	if strings.Contains(line, "admin") {
		return true
	}
	if strings.Contains(line, "search") {
		return false // a search-only key, public by design
	}
	// The client's constructor names no kind of key: a key that writes is the admin's.
	all := asciiLower(text)
	for _, op := range []string{"deleteindex", "delete_index", "saveobject", "save_objects", "clearobjects", "clear_objects", "setsettings", "set_settings",
		"deleteobject", "delete_object", "partialupdateobject", "partial_update_object", "addapikey", "add_api_key", "replaceallobjects", "deleteby"} {
		if strings.Contains(all, op) {
			return true
		}
	}
	return false
}

// sessionValue accepts a session cookie's value: long and generated, not a word or a flag.
func sessionValue(v string) bool {
	v = strings.TrimPrefix(strings.TrimPrefix(v, "s%3A"), "s:")
	return !strings.HasPrefix(v, "eyJ") && len(v) >= 24 && random(v) && entropy(v) >= 3.5 // a JWT is the JWT rule's
}

// notAnonJWT rejects a JWT whose claims give the anonymous role (Supabase's anon key, meant
// for the browser); any other JWT is a credential.
func notAnonJWT(t string) bool {
	parts := strings.Split(t, ".")
	if len(parts) < 2 {
		return true
	}
	claims, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	return err != nil || !strings.Contains(strings.ReplaceAll(string(claims), " ", ""), `"role":"anon"`)
}

// passwordKey reports the names of a password (not of a token or key, whose values are
// generated and judged by their entropy).
func passwordKey(k string) bool {
	return k == "password" || k == "passwd" || k == "pwd" || k == "pass" || k == "psk"
}

// chosenPassword accepts a quoted password value that a person chose: a literal, not a word
// alone, at least two kinds of character and a symbol or digit among its letters.
func chosenPassword(v string) bool {
	lower := strings.ToLower(v)
	if !literalPassword(v) || strings.HasPrefix(lower, "test") {
		return false
	}
	for _, w := range []string{"pass", "fake", "wrong", "invalid", "secret", "real", "bad", "incorrect"} {
		if strings.Contains(lower, w) {
			return false // 'wrong-password', "not-a-real-password": a test's words
		}
	}
	if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || strings.HasPrefix(v, ".") || strings.Contains(v, "://") {
		return false // a path or a URL (OLDPWD=/home/dev/src)
	}
	letters, others := false, false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letters = true
		case c >= '0' && c <= '9' || strings.IndexByte("!@#$%^&+=?~,;:*", c) >= 0:
			others = true // a digit or a symbol; brackets and dashes alone make no password ([FILTERED])
		}
	}
	return letters && others && entropy(v) >= 2.8
}

// keyName reports whether the keyword key at i names a credential. Short keywords (pass,
// pwd) must start a word, a camelCase part or end an upper-case name (compass and bypass are
// not passwords; dbPass and SSHPASS are); the longer ones may end a longer name (PGPASSWORD, clientsecret, apitoken). A name whose
// last part before the keyword names something else is no credential (nextPageToken,
// idempotency_token).
func keyName(text, lower string, i int, key string) bool {
	alnum := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }
	if i > 0 && (key == "pass" || key == "pwd" || key == "psk") {
		prev := text[i-1]
		upper := func(c byte) bool { return c >= 'A' && c <= 'Z' }
		camel := prev >= 'a' && prev <= 'z' && upper(text[i])
		if alnum(prev) && !camel && !(upper(prev) && upper(text[i])) { // SSHPASS, as env vars are written
			return false
		}
	}
	// The name's part before the keyword: back over one separator, then letters and digits
	// up to the next separator or the start of a camelCase part (nextPage -> page).
	j := i
	if j > 0 && (text[j-1] == '_' || text[j-1] == '-') {
		j--
	}
	k := j
	for k > 0 && alnum(text[k-1]) {
		k--
		if text[k] >= 'A' && text[k] <= 'Z' && k > 0 && text[k-1] >= 'a' && text[k-1] <= 'z' {
			break
		}
	}
	part := lower[k:j]
	for _, q := range nonSecretQualifiers {
		if part == q {
			return false
		}
	}
	return true
}

// uuidToken reports a UUID assigned to a client or request token (AWS's ClientToken, a
// RequestToken): an identifier that makes a request idempotent, not a credential. Elsewhere a
// UUID can be a key (HEROKU_API_KEY).
func uuidToken(lower string, i int, value string) bool {
	if !strings.HasPrefix(lower[i:], "token") || len(value) != 36 || strings.Count(value, "-") != 4 || strings.Trim(value, "0123456789abcdefABCDEF-") != "" {
		return false
	}
	before := strings.TrimRight(lower[max(0, i-8):i], "_-")
	return strings.HasSuffix(before, "client") || strings.HasSuffix(before, "request")
}

// nonSecretQualifiers name things other than credentials when they precede token, key, ...
var nonSecretQualifiers = []string{"page", "next", "continuation", "idempotency", "cancellation", "sync", "resume",
	"pagination", "cursor", "skip", "encrypted", "hashed"}

// assignment matches `<key>["']? *[:= ] *["']?<value>` at a key found at i in lower, and
// returns where the value is.
func assignment(text, lower string, i int, key string) (int, int, bool) {
	j := i + len(key)
	if j < len(lower) && lower[j] == 's' && key == "credential" {
		j++
	}
	// SECRET_KEY, secretKey, token_value: the keyword, then a part that names its value.
	for _, suffix := range []string{"_key_base", "_key", "-key", "key", "_value", "value"} {
		if strings.HasPrefix(lower[j:], suffix) && (j+len(suffix) == len(lower) || !isWordByte(lower[j+len(suffix)])) {
			j += len(suffix)
			break
		}
	}
	if j < len(text) && text[j] == '>' {
		return xmlElement(text, i, j)
	}
	if j < len(text) && (text[j] == '"' || text[j] == '\'') {
		j++
		if j < len(text) && text[j] == ']' {
			j++ // os.environ['SECRET_KEY'] = ..., $config["password"] = ...
		}
	}
	k := j
	for k < len(text) && (text[k] == ' ' || text[k] == '\t') {
		k++
	}
	if k < len(text) && (text[k] == ':' || text[k] == '=' || text[k] == '|' && k+1 < len(text) && text[k+1] == ' ') {
		// | NAME | value |: a table's row
		k++
		if k < len(text) && (text[k] == '=' && text[k-1] == ':' || text[k] == '>' && text[k-1] == '=') {
			k++ // Go's :=, Ruby's and PHP's =>
		}
		for k < len(text) && (text[k] == ' ' || text[k] == '\t') {
			k++
		}
	} else if k < len(text) && text[k] == ',' && j > 0 && (text[j-1] == '"' || text[j-1] == '\'') {
		k++ // define('DB_PASSWORD', '...'), ("password", "..."): a quoted name, then a quoted value
		for k < len(text) && (text[k] == ' ' || text[k] == '\t') {
			k++
		}
		if k >= len(text) || text[k] != '"' && text[k] != '\'' {
			return 0, 0, false // get("token", defaultToken): code, not a value
		}
	} else if k == j {
		return 0, 0, false // the key runs on into a longer word (tokenizer, passes)
	}
	spaced := k > j && !strings.ContainsAny(text[j:k], ":=,")
	if spaced {
		// prose: "the password is X", "the token was X", and for a password a few words
		// between ("my password for the VPN is X")
		found := false
		for _, w := range []string{"is ", "was ", "is: ", "are "} {
			if strings.HasPrefix(lower[k:], w) {
				k += len(w)
				found = true
				break
			}
		}
		if !found && passwordKey(key) {
			line := lower[k:min(len(lower), k+60)]
			if nl := strings.IndexByte(line, '\n'); nl >= 0 {
				line = line[:nl]
			}
			if is := strings.Index(line, " is "); is >= 0 && strings.Count(line[:is], " ") < 5 {
				k += is + len(" is ")
			}
		}
		for k < len(text) && text[k] == ' ' {
			k++
		}
	}
	var quote byte
	if k < len(text) && (text[k] == '"' || text[k] == '\'') {
		quote = text[k]
		k++
	}
	start := k
	if quote != 0 {
		// a quoted value runs to its closing quote, symbols and all (Django's SECRET_KEY)
		if end := strings.IndexByte(text[k:min(len(text), k+256)], quote); end >= 8 && !strings.ContainsAny(text[k:k+end], "\n\r") {
			if end < 12 && !passwordKey(key) {
				return 0, 0, false
			}
			return k, k + end, true
		}
	}
	if k < len(text) && text[k] == '{' {
		// '{Wk7qLz3NvT9pRx}': a value in braces, unless it is a template's field
		if end := strings.IndexAny(text[k:], "} \t\r\n\"'"); end > 0 && text[k+end] == '}' {
			if v := text[k : k+end+1]; !templateField(v) && end-1 >= 12 {
				return k + 1, k + end, true
			}
		}
		return 0, 0, false
	}
	if spaced && passwordKey(key) {
		// prose: the value runs to the next space, less the sentence's punctuation
		for k < len(text) && text[k] != ' ' && text[k] != '\t' && text[k] != '\n' && text[k] != '\r' {
			k++
		}
		for k > start && strings.IndexByte(".,;:!?)\"'", text[k-1]) >= 0 {
			k--
		}
		if k-start < 8 {
			return 0, 0, false
		}
		return start, k, true
	}
	for k < len(text) && !strings.ContainsRune(" \t\r\n\"'`,;&|)(<>{}[]", rune(text[k])) {
		k++
	}
	if k-start < 12 && !(passwordKey(key) && k-start >= 8 && (k == len(text) || strings.IndexByte("\r\n;&'\"", text[k]) >= 0)) {
		return 0, 0, false // a password may be short where its end is plain: a line's, a connection string's field
	}
	if spaced && strings.ContainsAny(text[start:k-2], "=:") {
		return 0, 0, false // "token kid=4303...": another field follows the word, not its value
	}
	return start, k, true
}

// xmlElement finds the value of an XML element whose name holds the keyword at i and ends at
// j, the '>' of its tag: Maven's settings.xml <password>...</password>. A value in braces is
// one Maven encrypted, no secret without the master password.
func xmlElement(text string, i, j int) (int, int, bool) {
	n := i
	for n > 0 && (isWordByte(text[n-1]) || text[n-1] == '.' || text[n-1] == '-') {
		n--
	}
	if n == 0 || text[n-1] != '<' {
		return 0, 0, false
	}
	start := j + 1
	end := strings.IndexAny(text[start:], "<\n")
	if end < 6 || text[start+end] != '<' || !strings.HasPrefix(text[start+end:], "</") || text[start] == '{' {
		return 0, 0, false
	}
	return start, start + end, true
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// Scan finds the credentials in text, without overlaps, in order. Specific formats win over
// the generic assignment rule. The patterns run only on windows around their keywords, so a
// megabyte of text costs a few milliseconds.
func Scan(text string) []Match { return scan(text, true) }

// scan is Scan; deep also looks for credentials in disguise (disguise.go).
func scan(text string, deep bool) []Match {
	h := &haystack{text: text}
	res := compiled()
	var out []Match
	for i, r := range rules {
		if r.pattern == "" {
			out = r.assignments(h, out)
			continue
		}
		for _, w := range r.windows(h) {
			for _, m := range res[i]().FindAllStringSubmatchIndex(text[w[0]:w[1]], 256) {
				start, end := m[0]+w[0], m[1]+w[0]
				if len(m) >= 4 && m[2] >= 0 {
					start, end = m[2]+w[0], m[3]+w[0]
				}
				if r.accept != nil && !r.accept(text[start:end]) || r.near != nil && !r.near(text, start) || overlaps(out, start, end) {
					continue
				}
				out = append(out, Match{Kind: r.kind, Start: start, End: end})
			}
		}
	}
	if deep {
		out = undisguise(text, out)
	}
	out = slices.DeleteFunc(out, func(m Match) bool { return documented(text[m.Start:m.End]) })
	awsPairs(text, out)
	sort.Slice(out, func(a, b int) bool { return out[a].Start < out[b].Start })
	return out
}

// awsPairs names an assigned value AWS's secret access key when it has that key's shape (40
// characters of base64) and an access key ID stands within a few lines of it (terraform's
// access_key/secret_key, an SDK's constructor).
func awsPairs(text string, out []Match) {
	for i := range out {
		m := &out[i]
		if m.Kind != PasswordAssignment || m.End-m.Start != 40 || strings.Trim(text[m.Start:m.End], "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/+") != "" {
			continue
		}
		for _, o := range out {
			if o.Kind == AWSAccessKey && o.Start > m.Start-512 && o.Start < m.End+512 {
				m.Kind = AWSSecretKey
				break
			}
		}
	}
}

// assignments finds the values assigned to the rule's key names that the rule accepts.
func (r rule) assignments(h *haystack, out []Match) []Match {
	text, lower := h.text, h.low()
	for _, k := range r.keywords {
		if !h.mayHold(k) {
			continue
		}
		for from := 0; from < len(lower) && len(out) < 1024; {
			i := strings.Index(lower[from:], k)
			if i < 0 {
				break
			}
			i += from
			from = i + len(k)
			if !keyName(text, lower, i, k) {
				continue
			}
			start, end, ok := assignment(text, lower, i, k)
			if ok {
				from = max(from, end) // a keyword inside the value is part of it: each byte is read once
			}
			// An unquoted dotted name is code naming where the secret is kept; in quotes it
			// is the value itself (a passphrase like Correct.Horse.Battery.Staple).
			quoted := start > 0 && (text[start-1] == '"' || text[start-1] == '\'')
			// An XML element's name says what its value is, generated or not.
			xml := ok && start > 0 && text[start-1] == '>' && literalPassword(text[start:end])
			// A password's name with a quoted value: a chosen password, not only a generated one.
			// Unquoted, where the value ends plainly: a properties line, a connection string.
			plainEnd := end == len(text) || strings.IndexByte("\r\n;&'\"", text[end]) >= 0
			sep := ok && (quoted || strings.ContainsAny(text[i+len(k):start], "=:|")) // a value given, not a word that follows
			chosen := ok && sep && (quoted || plainEnd) && passwordKey(k) && k != "pass" && chosenPassword(text[start:end]) && !encryptedContext(lower, i) ||
				// prose ("with password Copper9162*", "my password for the VPN is Harbor4708&"):
				// letters, a digit and a symbol, as people make passwords
				ok && !sep && passwordKey(k) && k != "pass" && proseLen(text[start:end]) && strongChosen(text[start:end])
			publishable := ok && (strings.HasPrefix(text[start:end], "pk.") || strings.HasPrefix(text[start:end], "pk_live_") || strings.HasPrefix(text[start:end], "pk_test_"))
			if ok && !publishable && !encryptedContext(lower, i) && (r.accept(text[start:end]) || xml || chosen) && (quoted || !codeRef(text[start:end])) && !uuidToken(lower, i, text[start:end]) && !overlaps(out, start, end) {
				out = append(out, Match{Kind: r.kind, Start: start, End: end})
			}
		}
	}
	return out
}

// windows returns the stretches of text around the rule's keywords, merged where they touch;
// each starts at the beginning of the keyword's line (at most 64 bytes back).
func (r rule) windows(h *haystack) [][2]int {
	text, hay := h.text, h.text
	if r.fold {
		hay = h.low()
	}
	span := r.span
	if span == 0 {
		span = 512
	}
	var ws [][2]int
	for _, k := range r.keywords {
		if !h.mayHold(k) {
			continue
		}
		runEnd := 0 // the end of the last token run: a keyword inside it is in that window already
		for from := 0; from < len(hay); {
			i := strings.Index(hay[from:], k)
			if i < 0 {
				break
			}
			i += from
			from = i + len(k)
			if r.starts && i > 0 && wordByte(hay[i-1]) {
				continue // the token starts at a word boundary, which a word character before rules out (task-1 is no sk- key)
			}
			reach := r.reach
			if reach == 0 {
				reach = 64
			}
			start := max(0, i-reach)
			if nl := strings.LastIndexByte(text[start:i], '\n'); nl >= 0 && !r.lines {
				start += nl + 1
			}
			end := i + span
			if r.runs != nil {
				if i < runEnd {
					continue
				}
				run := i
				for run < len(text) && run < i+64<<10 && r.runs(text[run]) {
					run++
				}
				runEnd = run
				end = max(end, run+1)
			}
			ws = append(ws, [2]int{start, min(len(text), end)})
		}
	}
	if len(ws) < 2 {
		return ws
	}
	sort.Slice(ws, func(a, b int) bool { return ws[a][0] < ws[b][0] })
	merged := ws[:1]
	for _, w := range ws[1:] {
		last := &merged[len(merged)-1]
		if w[0] <= last[1] {
			last[1] = max(last[1], w[1])
			continue
		}
		merged = append(merged, w)
	}
	return merged
}

// haystack is a text being scanned, with what is worked out from it once: its lower-case
// copy and, for a long text, the pairs of adjacent bytes it holds (case folded), so that a
// keyword with a pair the text lacks is never searched for: most keywords are absent from most
// texts, and a megabyte costs one pass instead of one per keyword.
type haystack struct {
	text, lower string
	pairs       *[1 << 16 / 64]uint64
}

func (h *haystack) low() string {
	if h.lower == "" {
		h.lower = asciiLower(h.text)
	}
	return h.lower
}

// pairsFrom is how long a text must be before its pairs are worth collecting.
const pairsFrom = 16 << 10

// mayHold reports whether the text may hold k (in any case): false only when it surely does not.
func (h *haystack) mayHold(k string) bool {
	if len(h.text) < pairsFrom {
		return true
	}
	if h.pairs == nil {
		h.pairs = new([1 << 16 / 64]uint64)
		l := h.low()
		for i := 0; i+1 < len(l); i++ {
			p := uint16(l[i])<<8 | uint16(l[i+1])
			h.pairs[p/64] |= 1 << (p % 64)
		}
	}
	for i := 0; i+1 < len(k); i++ {
		p := uint16(lowerByte(k[i]))<<8 | uint16(lowerByte(k[i+1]))
		if h.pairs[p/64]&(1<<(p%64)) == 0 {
			return false
		}
	}
	return true
}

func lowerByte(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 32
	}
	return c
}

func overlaps(ms []Match, start, end int) bool {
	for _, m := range ms {
		if start < m.End && m.Start < end {
			return true
		}
	}
	return false
}

// Kinds lists the distinct kinds of matches, in order of first appearance.
func Kinds(ms []Match) []Kind {
	var out []Kind
	seen := map[Kind]bool{}
	for _, m := range ms {
		if !seen[m.Kind] {
			seen[m.Kind] = true
			out = append(out, m.Kind)
		}
	}
	return out
}

// Redact replaces every credential in text with [REDACTED:<kind>].
func Redact(text string) string {
	ms := Scan(text)
	if len(ms) == 0 {
		return text
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		b.WriteString(text[last:m.Start])
		b.WriteString("[REDACTED:" + string(m.Kind) + "]")
		last = m.End
	}
	b.WriteString(text[last:])
	return b.String()
}

// notExample rejects AWS's documented example credentials (…EXAMPLE, …EXAMPLEKEY).
func notExample(s string) bool {
	return !strings.HasSuffix(s, "EXAMPLE") && !strings.HasSuffix(s, "EXAMPLEKEY") && random(s)
}

// random rejects placeholders: runs of one character (ghp_XXXX…), too few distinct characters.
func random(s string) bool {
	body := s
	if i := strings.LastIndexAny(s, "_-"); i >= 0 && i < len(s)-8 {
		body = s[i+1:]
	}
	distinct := map[rune]bool{}
	for _, r := range body {
		distinct[r] = true
	}
	return len(distinct) >= 6 && !placeholder(strings.ToLower(s))
}

// placeholder reports the words people put where a secret goes in examples and templates.
func placeholder(lower string) bool {
	for _, w := range []string{"xxxx", "your", "example", "changeme", "placeholder", "redacted", "dummy", "sample", "<", ">", "${", "{{", "****", "...", "todo", "insert", "replace"} {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// realPassword accepts a URL password that is not a placeholder or a variable.
func realPassword(p string) bool {
	lower := strings.ToLower(p)
	switch lower {
	case "password", "pass", "passwd", "secret", "pwd", "root", "admin", "user", "postgres", "guest", "test":
		return false
	}
	if strings.HasPrefix(p, "$") || strings.HasPrefix(p, "%") || placeholder(lower) || templateField(p) {
		return false // a variable, or a template's field ({DB_PASSWORD} in a Python f-string)
	}
	return len(p) >= 6
}

// literalPassword accepts a password written out on a command line: not a variable ($PW,
// ${PW}, $(cat file), %PW%), a placeholder or a word that stands for one.
func literalPassword(p string) bool {
	lower := strings.ToLower(p)
	switch lower {
	case "password", "passwd", "pass", "pwd", "pw", "secret", "mypassword", "yourpassword", "foobared", "changeit", "-",
		"root", "admin", "guest", "postgres", "user", "test", "cassandra", "minioadmin", "rabbitmq", "neo4j", "sa":
		// foobared: redis.conf's own example; changeit: Java's default key store password; the
		// rest are defaults that documentation and local setups show, as for a URL's password.
		return false
	}
	if strings.ContainsAny(p[:1], "$%`-") || placeholder(lower) || templateField(p) {
		return false
	}
	distinct := map[rune]bool{}
	for _, r := range p {
		distinct[r] = true
	}
	return len(distinct) >= 3
}

// mailgun reports Mailgun named within a few lines before start, or its api: user just before.
func mailgun(text string, start int) bool {
	return strings.HasSuffix(text[:start], "api:") || strings.Contains(asciiLower(text[max(0, start-400):start]), "mailgun")
}

// twilioSID reports a Twilio account SID (AC and 32 hex digits) within 256 bytes before start.
func twilioSID(text string, start int) bool {
	before := text[max(0, start-256):start]
	for i := strings.Index(before, "AC"); i >= 0; {
		if sid := before[i+2:]; len(sid) >= 32 && strings.Trim(sid[:32], "0123456789abcdef") == "" {
			return true
		}
		next := strings.Index(before[i+2:], "AC")
		if next < 0 {
			break
		}
		i += 2 + next
	}
	return false
}

// longRandom accepts a token of at least 30 characters that random accepts.
func longRandom(s string) bool { return len(s) >= 30 && random(s) }

// redisPassword accepts a literal password that is not a lower-case word.
func redisPassword(p string) bool {
	return literalPassword(p) && strings.Trim(p, "abcdefghijklmnopqrstuvwxyz") != ""
}

// bearerValue accepts a generated bearer token; a JWT cut short is not one.
func bearerValue(v string) bool {
	return !strings.HasPrefix(v, "eyJ") && highEntropy(v)
}

// highEntropy accepts an assignment's value that looks generated: long enough, varied enough,
// not a variable reference, a path or a placeholder.
func highEntropy(v string) bool {
	lower := strings.ToLower(v)
	if strings.HasPrefix(v, "$") || strings.HasPrefix(v, "%") || strings.Contains(v, "/") && !strings.ContainsAny(v, "+=") ||
		placeholder(lower) || strings.HasPrefix(lower, "test") || strings.HasPrefix(lower, "fake") || strings.HasPrefix(lower, "mock") {
		return false
	}
	classes := 0
	for _, set := range []string{"abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "0123456789"} {
		if strings.ContainsAny(v, set) {
			classes++
		}
	}
	return classes >= 2 && entropy(v) >= 3.3
}

// codeRef reports a value that is code naming where the secret is kept, not the secret:
// a dotted chain of identifiers without digits (process.env.NEXTAUTH_SECRET,
// settings.OPENAI_API_KEY); generated values have digits in them.
func codeRef(v string) bool {
	parts := strings.Split(v, ".")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if p == "" {
			return false
		}
		for i := 0; i < len(p); i++ {
			c := p[i]
			if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
				return false
			}
		}
	}
	return true
}

// entropy is the Shannon entropy of s in bits per character.
func entropy(s string) float64 {
	counts := map[rune]int{}
	n := 0
	for _, r := range s {
		counts[r]++
		n++
	}
	var h float64
	for _, c := range counts {
		p := float64(c) / float64(n)
		h -= p * math.Log2(p)
	}
	return h
}

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// tokenByte: a character of a base64url token with its dots (a JWT's alphabet).
func tokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
}

// templateField reports {NAME} or {obj.name}: a field of a format string, not a password.
func templateField(p string) bool {
	if len(p) < 3 || p[0] != '{' || p[len(p)-1] != '}' {
		return false
	}
	inner := p[1 : len(p)-1]
	digit, upper, lower := false, false, false
	for i := 0; i < len(inner); i++ {
		switch c := inner[i]; {
		case c >= '0' && c <= '9' && i > 0:
			digit = true
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z':
			upper = true
		case c != '_' && c != '.':
			return false
		}
	}
	return !(digit && upper && lower) // digits among both cases: a generated value in braces
}

func base64Byte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '='
}

func base64Line(c byte) bool { return base64Byte(c) || c == '\n' || c == '\r' }

// encodedKey accepts base64 (wrapped or not) whose text holds a PEM private key, after any
// certificates before it.
func encodedKey(s string) bool {
	s = strings.NewReplacer("\n", "", "\r", "").Replace(s)
	s = s[:min(len(s), 64<<10)&^3]
	dec, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		dec, _ = base64.StdEncoding.DecodeString(strings.TrimRight(s, "=")[:len(strings.TrimRight(s, "="))&^3])
	}
	return bytes.Contains(dec, []byte("PRIVATE KEY-----"))
}

// basicCredentials accepts base64 of user:password with a password that is not a placeholder.
func basicCredentials(s string) bool {
	dec, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		if dec, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "=")); err != nil {
			return false
		}
	}
	_, pass, ok := strings.Cut(string(dec), ":")
	return ok && realPassword(pass) && utf8.ValidString(pass)
}

// documented reports the example credentials vendors print in their documentation, which are
// not anyone's: Stripe's test key from its quickstart, jwt.io's sample token, Telegram's
// example bot token, Azurite's development key.
func documented(secret string) bool {
	for _, d := range []string{"sk_test_4eC39HqLyjWDarjtT1zdp7dc", "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ",
		"123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11",
		// the Azure Storage emulator's (Azurite) key for devstoreaccount1, the same everywhere
		"Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="} {
		if strings.Contains(secret, d) {
			return true
		}
	}
	return false
}

package shell

import "strings"

// SecretName reports an environment variable named as a credential: GITHUB_TOKEN,
// AWS_SECRET_ACCESS_KEY, OPENAI_API_KEY, PGPASSWORD, DB_PASS; not its URL, file, id or name
// (TOKEN_URL, SECRET_NAME, AWS_ACCESS_KEY_ID), nor TOKENIZERS_PARALLELISM or PUBLIC_KEY.
func SecretName(name string) bool {
	parts := strings.Split(strings.ToUpper(name), "_")
	switch parts[len(parts)-1] {
	case "URL", "URI", "ENDPOINT", "NAME", "FILE", "PATH", "ID", "DIR", "TYPE", "HEADER", "PREFIX", "FIELD", "LENGTH", "LEN",
		"TTL", "EXPIRY", "EXPIRES", "EXPIRATION", "ARN", "REGION", "HOST", "PORT", "USER", "USERNAME", "EMAIL", "VERSION", "COUNT", "LIMIT":
		return false
	}
	for i, p := range parts {
		if i > 0 && (p == "TOKEN" || p == "KEY") {
			switch parts[i-1] {
			case "PAGE", "NEXT", "CONTINUATION", "CURSOR", "SYNC", "RESUME", "IDEMPOTENCY", "CACHE", "SORT", "PARTITION", "PRIMARY", "PUBLIC", "PUBLISHABLE":
				return false // NEXT_PAGE_TOKEN, CACHE_KEY
			}
		}
		for _, s := range []string{"SECRET", "TOKEN", "PASSWORD", "PASSWD", "PASSPHRASE", "APIKEY", "ACCESSKEY", "CREDENTIALS"} {
			if strings.HasSuffix(p, s) {
				return true
			}
		}
		switch p {
		case "PASS", "PAT", "PWD":
			return i > 0 // MYSQL_PWD, DB_PASS, GH_PAT; not PWD itself
		case "KEY":
			if i > 0 {
				switch parts[i-1] {
				case "API", "ACCESS", "PRIVATE", "SECRET", "SIGNING", "ENCRYPTION", "MASTER", "AUTH", "SERVICE", "ACCOUNT",
					"LICENSE", "CLIENT", "APP", "DEPLOY", "SSH", "GPG", "HMAC", "JWT", "SESSION", "WEBHOOK", "ADMIN":
					return true
				}
			}
		}
	}
	return false
}

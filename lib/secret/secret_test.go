package secret

import (
	"encoding/base64"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestScanAndRedact(t *testing.T) {
	tests := []struct {
		text string
		want []Kind
	}{
		{"my key is AKIAZ3MNQ5R7T2WXY4BQ ok", []Kind{AWSAccessKey}},
		{"AKIAIOSFODNN7EXAMPLE is the documented example", nil},
		{"export GITHUB_TOKEN=ghp_R4nd0mT0k3nV4lu3W1thM1x3dC4s3Ab12Cde", []Kind{GitHubToken}},
		{"ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", nil},
		{"postgres://app:S3cr3t-Pw0rd!x@db.internal:5432/app", []Kind{URLPassword}},
		{"postgres://user:password@localhost/app", nil},
		{"DB_PASSWORD=f8Kq2LmZ9xPw4RtY", []Kind{PasswordAssignment}},
		{"password=${DB_PASSWORD}", nil},
		{"commit 3f786850e387550fdab836ed7e6dc881de23001b", nil},
		{"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----", []Kind{PrivateKey}},
		{"İİİ token=f8Kq2LmZ9xPw4RtY after dotted capitals", []Kind{PasswordAssignment}},
		{"-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkq\n-----END PUBLIC KEY-----", nil},
		{`password = "Correct.Horse.Battery.Staple"`, []Kind{PasswordAssignment}},
		{`api_key = settings.OPENAI_API_KEY`, nil},
		{"postgres://app:{Q1uhyT7vkz9Lm}@db.internal/app", []Kind{URLPassword}},
		{"postgres://app:{DB_PASSWORD}@db.internal/app", nil},
		{"> Authorization: Basic c3ZjLWNpOlQ3cVo5eEw0bVc4dlAya1I=", []Kind{PasswordAssignment}},
		{"> Authorization: Basic dXNlcjpwYXNzd29yZA==", nil},
		{"client-key-data: LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0tCk1IY0NBUUVFSUlaVjBpS2xsZFh6WjM1aE5aVGZ3ZGhqTnNxM2ZWUXdPSm9sa2Y3V1FxRGJvQW9HQ0NxR1NNNDkKLS0tLS1FTkQgRUMgUFJJVkFURSBLRVktLS0tLQo=", []Kind{PrivateKey}},
		{"certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJkekNDQVIyZ0F3SUJBZ0lCQURBS0JnZ3Foa2pPUFFRREFqQWpNU0V3SHdZRFZRUUREQmhyTTNNdGMyVnkK", nil},
		{"define( 'DB_PASSWORD', 'i#zc!Gy9j1tX*uf6o^ussz' );", []Kind{PasswordAssignment}},
		{"define( 'DB_USER', 'wp_acme_production' );", nil},
		{"jwt: rejected token kid=430391789f1127db476f5878a525b0ff625d2a7b alg=none", nil},
		{`encrypted_password: "$2a$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW"`, nil},
		{"access_key = \"AKIAZ3MNQ5R7T2WXY4BQ\"\nsecret_key = \"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\"", []Kind{AWSAccessKey, AWSSecretKey}},
		{`ClientToken="c246a310-81a6-4ce6-a2b1-0c8e5d3f9a71"`, nil},
		{`HEROKU_API_KEY=c246a310-81a6-4ce6-a2b1-0c8e5d3f9a71`, []Kind{PasswordAssignment}},
		{"SLACK_COOKIE=xoxd-pW7kE3%2BqL9z%2FmN4rT8vB2cX6yH1jK5sD0fG3aQ%3D%3D", []Kind{SlackToken}},
		{"a rule of equals signs\n==============================\n", nil},
		{"token: xoxc-2210535565-4920315437-4956712350642-6f1c0e2a9b3d4c5e8f7a6b1d2c3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3", []Kind{SlackToken}},
	}
	for _, tt := range tests {
		got := Kinds(Scan(tt.text))
		if strings.Join(kindStrings(got), ",") != strings.Join(kindStrings(tt.want), ",") {
			t.Errorf("%q: %v, want %v", tt.text, got, tt.want)
		}
		if len(tt.want) > 0 && strings.Contains(Redact(tt.text), "[REDACTED:"+string(tt.want[0])+"]") == false {
			t.Errorf("%q: not redacted: %s", tt.text, Redact(tt.text))
		}
	}
}

func kindStrings(ks []Kind) []string {
	var out []string
	for _, k := range ks {
		out = append(out, string(k))
	}
	return out
}

// megabyte is 1 MB of prose and code with a few credentials in it.
func megabyte() string {
	var b strings.Builder
	line := "The build uses token-based auth; see docs/auth.md. const x = compute(a, b) // sha 3f786850e387550fdab836ed7e6dc881de23001b\n"
	for b.Len() < 1<<20 {
		b.WriteString(line)
		if b.Len()%(200<<10) < len(line) {
			b.WriteString("export AWS_ACCESS_KEY_ID=AKIAZ3MNQ5R7T2WXY4BQ\n")
		}
	}
	return b.String()
}

// BenchmarkScan1MB: target <= 20 ms.
func BenchmarkScan1MB(b *testing.B) {
	text := megabyte()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Scan(text)
	}
}

// BenchmarkScanBase64MB: a megabyte of base64 (a manifest full of encoded blobs, some of them
// encoded JSON, which begins eyJ like a JWT): the windows opened at each eyJ must stay short
// unless a token really runs on.
func BenchmarkScanBase64MB(b *testing.B) {
	var sb strings.Builder
	r := rand.New(rand.NewPCG(1, 2))
	raw := make([]byte, 57)
	for n := 0; sb.Len() < 1<<20; n++ {
		sb.WriteString("  blob: ")
		if n%16 == 0 {
			sb.WriteString(base64.StdEncoding.EncodeToString([]byte(`{"auths":{"registry.example":{"auth":"`)))
		}
		for range 8 {
			for i := range raw {
				raw[i] = byte(r.Uint32())
			}
			sb.WriteString(base64.StdEncoding.EncodeToString(raw))
		}
		sb.WriteString("\n")
	}
	text := sb.String()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Scan(text)
	}
}

// BenchmarkScanRepeatedKeywords: a megabyte made of one keyword that opens a token run, over
// and over (eyJ., LS0tLS1CRUdJTi): each run is scanned once, not once per keyword in it; or an
// assignment whose value runs on over the keywords after it (token=token=...), read once, not
// once per keyword; or a command's name that opens a window each time (curl -u).
func BenchmarkScanRepeatedKeywords(b *testing.B) {
	for _, unit := range []string{"eyJ.", "LS0tLS1CRUdJTi", "token=", "curl -u "} {
		text := strings.Repeat(unit, (1<<20)/len(unit))
		b.Run(unit, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				Scan(text)
			}
		})
	}
}

// BenchmarkScanWrappedMB: a megabyte of base64 wrapped at 76 columns, as a mail or a PEM body
// is: every line break looks like a wrapped token, so the text is joined and scanned again.
func BenchmarkScanWrappedMB(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	raw := make([]byte, 3<<20/4)
	for i := range raw {
		raw[i] = byte(r.Uint32())
	}
	enc := base64.StdEncoding.EncodeToString(raw)
	var sb strings.Builder
	for i := 0; i < len(enc); i += 76 {
		sb.WriteString(enc[i:min(len(enc), i+76)] + "\n")
	}
	text := sb.String()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Scan(text)
	}
}

func FuzzScan(f *testing.F) {
	for _, s := range []string{"AKIAZ3MNQ5R7T2WXY4BQ", "password=abc", "A=ghp_1; B=2; $A$B", "==============================", "gh\u200bp_\nx", "x://a:b@c", "eyJa.eyJb.c", "-----BEGIN RSA PRIVATE KEY-----"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ms := Scan(s)
		last := 0
		for _, m := range ms {
			if m.Start < last || m.End > len(s) || m.Start >= m.End {
				t.Fatalf("bad match %+v in %q", m, s)
			}
			last = m.End
		}
		r := Redact(s)
		for _, m := range ms {
			// Fewer copies than before: the same text may stand elsewhere as no secret (a URL's
			// user name spelled like its password).
			if sec := s[m.Start:m.End]; m.End-m.Start > 12 && strings.Count(r, sec) >= strings.Count(s, sec) {
				t.Fatalf("Redact left %q in", sec)
			}
		}
	})
}

// Every kind a rule finds has a name for people, in printable text: a guard's reason is built
// from these names alone, never from the secret.
func TestDescribeEveryKind(t *testing.T) {
	for _, r := range rules {
		d := r.kind.Describe()
		if d == "" || strings.IndexFunc(d, func(c rune) bool { return c < ' ' || c == 0x7f }) >= 0 {
			t.Errorf("%s: description %q", r.kind, d)
		}
	}
}

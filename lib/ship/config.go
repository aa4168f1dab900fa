package ship

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/user"
	"sort"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/config"
)

// The configuration keys (docs/configuration.md) and their defaults.
const (
	KeyEndpoint = "audit.ship.endpoint"
	KeyHeaders  = "audit.ship.headers"
	KeyBatch    = "audit.ship.batch"
	KeyTimeout  = "audit.ship.timeout_ms"

	DefaultBatch   = 512
	DefaultTimeout = 10 * time.Second
)

// ErrNoEndpoint is returned when neither the configuration nor the command line names an
// endpoint: there is nowhere to ship to.
var ErrNoEndpoint = errors.New("no OTLP endpoint: set " + KeyEndpoint + " in $HARNESS_HOME/config.json or pass --endpoint")

// Header is one HTTP header whose value is read, when shipping, from a file or an environment
// variable: the configuration names where the secret is, never the secret.
type Header struct {
	Name, Env, File string
}

// Config is where and how to ship.
type Config struct {
	// Endpoint is the OTLP/HTTP base URL (http://127.0.0.1:4318); logs go to Endpoint/v1/logs.
	Endpoint string
	Headers  []Header
	// Batch is how many records go in one request; Timeout bounds one request with its retries.
	Batch   int
	Timeout time.Duration
	// EnvProxy lets the proxy variables (HTTPS_PROXY, ...) route the requests: for the harness
	// CLI, which its owner runs. The AuditShip hook leaves it off: a project's settings can set
	// those variables for every hook, and must not route the audit trail through a host of its own.
	EnvProxy bool
}

// Load reads the shipping keys from the harness configuration outside any project (user scope
// and the scopes an administrator owns): a repository cannot send the audit trail elsewhere.
// problems are the configuration's, one line each (a key of the wrong kind keeps its default).
func Load(system, harnessHome string) (cfg Config, problems []string) {
	c := config.Load(config.Scopes{System: system, Home: harnessHome})
	cfg = Config{
		Endpoint: c.Get(KeyEndpoint).Str,
		Batch:    c.Int(KeyBatch, DefaultBatch),
		Timeout:  time.Duration(c.Int(KeyTimeout, int(DefaultTimeout/time.Millisecond))) * time.Millisecond,
	}
	if h := c.Get(KeyHeaders); config.IsHeaders(h) {
		h.ForEach(func(k, v gjson.Result) bool {
			cfg.Headers = append(cfg.Headers, Header{Name: k.Str, Env: v.Get("env").Str, File: v.Get("file").Str})
			return true
		})
	}
	sort.Slice(cfg.Headers, func(i, j int) bool { return cfg.Headers[i].Name < cfg.Headers[j].Name })
	return cfg, c.Problems
}

// CheckEndpoint says what is wrong with an endpoint URL: it must be http or https, with a
// host, and carry no credentials (they belong in a header read from a file or variable).
func CheckEndpoint(endpoint string) error {
	if endpoint == "" {
		return ErrNoEndpoint
	}
	u, err := url.Parse(endpoint)
	switch {
	case err != nil:
		return fmt.Errorf("endpoint %q is not a URL: write it as http://host:4318", endpoint)
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("endpoint %q: the scheme must be http or https (OTLP/HTTP)", endpoint)
	case u.Host == "":
		return fmt.Errorf("endpoint %q has no host", endpoint)
	case u.User != nil:
		return fmt.Errorf("endpoint %q carries credentials: put them in %s (a file or an environment variable)", u.Redacted(), KeyHeaders)
	case u.RawQuery != "" || u.Fragment != "":
		return fmt.Errorf("endpoint %q: a base URL takes no query or fragment", endpoint)
	}
	return nil
}

// logsURL is the base URL with OTLP's logs path appended.
func logsURL(endpoint string) string {
	return strings.TrimRight(endpoint, "/") + "/v1/logs"
}

// HeaderValues reads each header's value from its file (trailing white space trimmed) or its
// environment variable. An error names the header and its source, never a value.
func HeaderValues(hs []Header, getenv func(string) (string, bool)) (map[string]string, error) {
	out := make(map[string]string, len(hs))
	for _, h := range hs {
		var v string
		switch {
		case h.Env != "":
			s, ok := getenv(h.Env)
			if !ok || s == "" {
				return nil, fmt.Errorf("header %s: environment variable %s is not set", h.Name, h.Env)
			}
			v = s
		case h.File != "":
			b, err := os.ReadFile(h.File)
			if err != nil {
				return nil, fmt.Errorf("header %s: reading its value: %w", h.Name, unwrapPath(err))
			}
			v = strings.TrimRight(string(b), " \t\r\n")
			if v == "" {
				return nil, fmt.Errorf("header %s: %s is empty", h.Name, h.File)
			}
		default:
			return nil, fmt.Errorf("header %s names neither a file nor an environment variable", h.Name)
		}
		if strings.ContainsAny(v, "\r\n") {
			return nil, fmt.Errorf("header %s: its value spans lines", h.Name)
		}
		out[h.Name] = v
	}
	return out, nil
}

// unwrapPath keeps an os.PathError's path and reason (never file contents).
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return err
}

// Open reads the header values and makes the shipper for cfg.
func Open(cfg Config, getenv func(string) (string, bool), id Identity) (*Shipper, error) {
	if err := CheckEndpoint(cfg.Endpoint); err != nil {
		return nil, err
	}
	headers, err := HeaderValues(cfg.Headers, getenv)
	if err != nil {
		return nil, err
	}
	return New(cfg, headers, id)
}

// Me is this machine and user, for the records' resource.
func Me(version string) Identity {
	id := Identity{Version: version}
	id.Host, _ = os.Hostname()
	if u, err := user.Current(); err == nil {
		id.User = u.Username
	} else {
		id.User = os.Getenv("USER")
	}
	return id
}

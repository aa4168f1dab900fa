package ship

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestLoad(t *testing.T) {
	home := t.TempDir()
	cfg := `{"audit": {"ship": {"endpoint": "http://127.0.0.1:4318", "batch": 100, "timeout_ms": 2500,
		"headers": {"X-Org": {"file": "/etc/org"}, "Authorization": {"env": "OTLP_AUTH"}}}}}`
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	got, problems := Load("", home)
	want := Config{Endpoint: "http://127.0.0.1:4318", Batch: 100, Timeout: 2500 * time.Millisecond,
		Headers: []Header{{Name: "Authorization", Env: "OTLP_AUTH"}, {Name: "X-Org", File: "/etc/org"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	if len(problems) != 0 {
		t.Errorf("problems: %v", problems)
	}
	// Defaults, and a header given as a value (a secret in the file) is a problem, not used.
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"audit": {"ship": {"headers": {"Authorization": "Bearer x"}}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	got, problems = Load("", home)
	if got.Endpoint != "" || got.Batch != DefaultBatch || got.Timeout != DefaultTimeout || got.Headers != nil {
		t.Errorf("defaults: %+v", got)
	}
	if len(problems) != 1 || !strings.Contains(problems[0], "audit.ship.headers should be an object of header names") {
		t.Errorf("problems: %v", problems)
	}
}

func TestHeaderValues(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "token")
	os.WriteFile(file, []byte("Bearer from-file\n"), 0o600)
	env := func(k string) (string, bool) {
		if k == "TOKEN" {
			return "Bearer from-env", true
		}
		return "", false
	}
	got, err := HeaderValues([]Header{{Name: "A", File: file}, {Name: "B", Env: "TOKEN"}}, env)
	if err != nil || !reflect.DeepEqual(got, map[string]string{"A": "Bearer from-file", "B": "Bearer from-env"}) {
		t.Errorf("%v %v", got, err)
	}
	for _, c := range []struct {
		h    Header
		want string
	}{
		{Header{Name: "B", Env: "MISSING"}, "header B: environment variable MISSING is not set"},
		{Header{Name: "A", File: filepath.Join(dir, "nope")}, "header A: reading its value: " + filepath.Join(dir, "nope") + ": no such file or directory"},
		{Header{Name: "C"}, "header C names neither a file nor an environment variable"},
	} {
		if _, err := HeaderValues([]Header{c.h}, env); err == nil || err.Error() != c.want {
			t.Errorf("%+v: %v, want %s", c.h, err, c.want)
		}
	}
}

func TestCheckEndpoint(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:4318":         "",
		"https://otel.example.com/otlp": "",
		"":                              ErrNoEndpoint.Error(),
		"127.0.0.1:4318":                `endpoint "127.0.0.1:4318" is not a URL: write it as http://host:4318`,
		"grpc://x:4317":                 `endpoint "grpc://x:4317": the scheme must be http or https (OTLP/HTTP)`,
		"http://u:secret@x:4318":        `endpoint "http://u:xxxxx@x:4318" carries credentials: put them in audit.ship.headers (a file or an environment variable)`,
		"http://x:4318/?a=b":            `endpoint "http://x:4318/?a=b": a base URL takes no query or fragment`,
	} {
		got := ""
		if err := CheckEndpoint(in); err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

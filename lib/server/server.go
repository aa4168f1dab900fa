package server

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/builtin"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/hook"
)

// SecretHeader carries the secret the installer wrote; the hooks' settings send it.
const SecretHeader = "X-Harness-Secret"

// ProofPath answers a nonce (NonceHeader) with Proof(secret, nonce): status and doctor learn
// that what listens on the port is the server with this install's secret, and the secret is
// never sent. The request needs no secret; it still needs the Host and no Origin.
const (
	ProofPath   = "/proof"
	NonceHeader = "X-Harness-Nonce"
)

// Proof is the server's answer to a nonce: HMAC-SHA256 of the nonce under the secret, in hex.
func Proof(secret, nonce string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("harness serve proof\x00" + nonce))
	return hex.EncodeToString(m.Sum(nil))
}

// Config is what the server is told at its start, from its command line alone.
type Config struct {
	// Home and SystemDir are the harness home and the administrator's scope (hook.Request).
	Home, SystemDir string
	// Secret is what every request must carry in SecretHeader.
	Secret string
	// Host is the Host header every request must carry: the listener's own address, so that
	// a web page whose name a DNS server points at the loopback is refused (DNS rebinding).
	Host string
	// Hooks are the hooks served, by name (POST /hook/<Name>).
	Hooks map[string]builtin.Hook
	// Log gets one line per refused request and per failed call (never a payload or secret).
	Log io.Writer
}

// Handler answers POST /hook/<Name>: the hook runs on the body as its process would on stdin,
// and its answer is given as an HTTP hook gives it (Render).
func Handler(c Config) http.Handler {
	var mu sync.Mutex
	logf := func(format string, args ...any) {
		if c.Log != nil {
			mu.Lock()
			fmt.Fprintf(c.Log, format+"\n", args...)
			mu.Unlock()
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, _ := strings.CutPrefix(r.URL.Path, "/hook/")
		h, known := c.Hooks[name]
		body, readErr := io.ReadAll(io.LimitReader(r.Body, hook.DefaultMaxInput+1))
		ev := event.Name(gjson.GetBytes(body, "hook_event_name").Str)
		refuse := func(status int, why string) {
			logf("harness serve: %s %s refused: %s", r.Method, r.URL.Path, why)
			if !known {
				http.Error(w, "harness serve: "+why, status)
				return
			}
			writeResponse(w, h.Spec, ev, hook.Response{Stderr: []byte(h.Spec.Name + ": blocked because the hook could not check this call: " + why + "\n"),
				Code: failCode(h.Spec)}, status)
		}
		switch {
		case r.Header.Get("Origin") != "" || len(r.Header.Values("Origin")) > 0:
			refuse(http.StatusForbidden, "a request from a web page (it carries an Origin header)")
		case r.Host != c.Host:
			refuse(http.StatusForbidden, fmt.Sprintf("the Host header is %q, not the server's address", r.Host))
		case r.URL.Path == ProofPath:
			nonce := r.Header.Get(NonceHeader)
			if len(nonce) < 16 || len(nonce) > 256 || c.Secret == "" {
				http.Error(w, "harness serve: the proof takes a nonce of 16 to 256 characters in "+NonceHeader, http.StatusBadRequest)
				return
			}
			w.Header().Set("Cache-Control", "no-store")
			io.WriteString(w, Proof(c.Secret, nonce))
		case subtle.ConstantTimeCompare([]byte(r.Header.Get(SecretHeader)), []byte(c.Secret)) != 1 || c.Secret == "":
			refuse(http.StatusForbidden, "the request does not carry the server's secret (header "+SecretHeader+")")
		case !known:
			refuse(http.StatusNotFound, fmt.Sprintf("no hook is served at %s (POST /hook/<Name>)", r.URL.Path))
		case r.Method != http.MethodPost:
			refuse(http.StatusMethodNotAllowed, "hooks are asked with POST")
		case readErr != nil:
			refuse(http.StatusBadRequest, "reading the body: "+readErr.Error())
		default:
			id := gjson.GetBytes(body, "session_id").Str
			s, err := Lookup(c.Home, id)
			if err != nil {
				refuse(http.StatusForbidden, err.Error())
				return
			}
			env := map[string]string{"HOME": s.Home, "CLAUDE_PROJECT_DIR": s.Project}
			if s.TempDir != "" {
				env["TMPDIR"] = s.TempDir
			}
			if s.ClaudeDir != "" {
				env["CLAUDE_CONFIG_DIR"] = s.ClaudeDir
			}
			res := hook.Call(h.Spec, h.Run, hook.Request{Payload: body, Home: c.Home, SystemDir: c.SystemDir,
				Project: s.Project, UserHome: s.Home, Env: env, Client: "claude"})
			if res.Code == answer.Failed {
				// A fail-open hook could not do its work; a block is in the audit log, and its
				// reason may quote the command, which stays out of this log.
				logf("harness serve: %s: exit %d: %s", name, res.Code, bytes.TrimSpace(res.Stderr))
			}
			writeResponse(w, h.Spec, ev, res, http.StatusOK)
		}
	})
}

func failCode(s hook.Spec) answer.Code {
	if s.Policy == hook.Closed {
		return answer.Blocked
	}
	return answer.Failed
}

// writeResponse gives a hook's answer as an HTTP hook gives it. Claude Code reads an HTTP
// hook's 2xx body as a command's stdout and reads no status or exit code: exit 0 is its stdout
// with 200; exit 2 becomes the JSON block of the event (answer.HTTPBlock); exit 1 (a
// fail-open hook that could not do its work) is a 500 with the reason, the non-blocking
// error a command's exit 1 is. A block that cannot be put as JSON (the event is unknown) is a
// 500 too, which onFailure "block" turns into a block. status is the code for what is not 200.
func writeResponse(w http.ResponseWriter, spec hook.Spec, ev event.Name, res hook.Response, status int) {
	w.Header().Set("Cache-Control", "no-store")
	switch {
	case res.Code == answer.OK:
		if len(res.Stdout) > 0 {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(http.StatusOK)
		w.Write(res.Stdout)
		return
	case res.Code == answer.Blocked && len(res.Stdout) > 0:
		// Already a JSON deny (PermissionRequest ignores exit 2).
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		w.Write(res.Stdout)
		return
	case res.Code == answer.Blocked:
		if b, err := answer.HTTPBlock(ev, string(res.Stderr)); err == nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			w.Write(b)
			return
		}
	}
	if status == http.StatusOK {
		status = http.StatusInternalServerError
	}
	http.Error(w, strings.TrimSpace(string(res.Stderr)), status)
}

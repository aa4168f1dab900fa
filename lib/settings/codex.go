package settings

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/dialect"
)

// Codex CLI runs only the hooks of hooks.json that config.toml trusts, each by a table
// [hooks.state."<hooks.json>:<event>:<group>:<handler>"] holding the SHA-256 of the handler's
// identity (../shared/protocol/clients/codex.md, "Trust").

// SnakeEvent is an event's name in snake_case, as Codex's trust keys and hashes and VT Code's
// vtcode.toml write it: PreToolUse is pre_tool_use.
func SnakeEvent(ev string) string {
	var b strings.Builder
	for i, r := range ev {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// TrustKey is the hooks.state key of handler h of group g of event ev in the hooks.json at
// file (an absolute path).
func TrustKey(file, ev string, g, h int) string {
	return fmt.Sprintf("%s:%s:%d:%d", file, SnakeEvent(ev), g, h)
}

// TrustHash is the trusted_hash Codex computes for handler h of a matcher group (its JSON)
// of event ev: "sha256:" and the hex SHA-256 of TrustIdentity.
func TrustHash(ev string, group []byte, h int) string {
	sum := sha256.Sum256([]byte(TrustIdentity(ev, group, h)))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// TrustIdentity is what Codex hashes: compact JSON, keys sorted, of {"event_name", "hooks":
// [the handler, normalised], "matcher" (left out when the group has none)}. The normalised
// handler has async (default false), command, statusMessage (only when set), timeout (default
// 600, at least 1) and type "command".
func TrustIdentity(ev string, group []byte, h int) string {
	g := gjson.ParseBytes(group)
	hd := g.Get(fmt.Sprintf("hooks.%d", h))
	timeout := int64(600)
	if t := hd.Get("timeout"); t.Exists() {
		timeout = max(t.Int(), 1)
	}
	fields := map[string]string{
		"async":   fmt.Sprint(hd.Get("async").Bool()),
		"command": jsonString(hd.Get("command").Str),
		"timeout": fmt.Sprint(timeout),
		"type":    jsonString("command"),
	}
	if m := hd.Get("statusMessage"); m.Exists() {
		fields["statusMessage"] = jsonString(m.Str)
	}
	handler := jsonObject(fields)
	id := map[string]string{"event_name": jsonString(SnakeEvent(ev)), "hooks": "[" + handler + "]"}
	if m := g.Get("matcher"); m.Exists() {
		id["matcher"] = jsonString(m.Str)
	}
	return jsonObject(id)
}

// jsonObject writes compact JSON members (already encoded values) with the keys sorted.
func jsonObject(fields map[string]string) string {
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(jsonString(k) + ":" + fields[k])
	}
	b.WriteByte('}')
	return b.String()
}

// jsonString encodes s as serde_json does (Codex is Rust): only ", \ and control characters
// escaped; encoding/json would also escape <, >, & and U+2028, and change the hash.
func jsonString(s string) string {
	const hexDigits = "0123456789abcdef"
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if c < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte(hexDigits[c>>4])
				b.WriteByte(hexDigits[c&0xf])
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// CheckTopKeys refuses a hook file whose top level holds a key other than those its client
// accepts (dialect.Files.TopKeys): the client drops the whole file then, and no hook runs.
func CheckTopKeys(d *dialect.Dialect, path string, raw []byte) error {
	keys := d.Files.TopKeys
	if keys == nil {
		return nil
	}
	var bad []string
	gjson.ParseBytes(raw).ForEach(func(k, _ gjson.Result) bool {
		if !slices.Contains(keys, k.Str) {
			bad = append(bad, fmt.Sprintf("%q", k.Str))
		}
		return true
	})
	if len(bad) == 0 {
		return nil
	}
	return fmt.Errorf("%s has the top-level key(s) %s: %s accepts only %s there "+
		"and ignores the whole file otherwise (no hook would run); remove them and run the install again",
		path, strings.Join(bad, ", "), d.Name(), d.Files.QuotedTopKeys())
}

package settings

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"
)

// Codex's config.toml is edited in place: the installer appends, changes or removes only the
// lines of its own [hooks.state."..."] tables and never re-serialises the file, so every other
// byte, comment and table stays. A TOML parser checks the file before (invalid TOML is refused,
// untouched) and after every edit: the result must decode to exactly the document before plus
// that one change, or nothing is written.

// ReadTOML loads a TOML file and its decoded document. A missing file is an empty File; a
// file that is not valid TOML is a *SyntaxError naming the line and column.
func ReadTOML(path string) (*File, map[string]any, error) {
	f := &File{Path: path, Mode: 0o600}
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return f, map[string]any{}, nil
	case err != nil:
		return nil, nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if st, err := os.Stat(path); err == nil {
		f.Mode = st.Mode().Perm()
	}
	f.Raw, f.Exists = b, true
	doc, err := DecodeTOML(path, b)
	if err != nil {
		return nil, nil, err
	}
	return f, doc, nil
}

// DecodeTOML decodes data, or says where it stops being TOML.
func DecodeTOML(path string, data []byte) (map[string]any, error) {
	doc := map[string]any{}
	_, err := toml.Decode(string(data), &doc)
	var pe toml.ParseError
	switch {
	case errors.As(err, &pe):
		return nil, &SyntaxError{Path: path, Format: "TOML", Line: pe.Position.Line, Col: pe.Position.Col, Msg: pe.Message}
	case err != nil:
		return nil, &SyntaxError{Path: path, Format: "TOML", Line: 1, Col: 1, Msg: err.Error()}
	}
	return doc, nil
}

// TrustedHash returns the trusted_hash config.toml holds for a hooks.state key.
func TrustedHash(doc map[string]any, key string) (string, bool) {
	hooks, _ := doc["hooks"].(map[string]any)
	st, _ := hooks["state"].(map[string]any)
	t, _ := st[key].(map[string]any)
	h, ok := t["trusted_hash"].(string)
	return h, ok
}

// trustHeader is the header line of the table of key.
func trustHeader(key string) string { return "[hooks.state." + tomlString(key) + "]" }

func trustBlock(key, hash, nl string) string {
	return trustHeader(key) + nl + "trusted_hash = " + tomlString(hash) + nl
}

func newline(raw []byte) string {
	if bytes.Contains(raw, []byte("\r\n")) {
		return "\r\n"
	}
	return "\n"
}

// AddTrust appends the table trusting key with hash at the end of a config.toml, after a
// blank line, and checks the result.
func AddTrust(path string, raw []byte, key, hash string) ([]byte, error) {
	if n := inlineHooks(raw); n > 0 {
		return nil, fmt.Errorf("%s defines hooks or hooks.state as an inline table (line %d), which a [hooks.state.\"...\"] table cannot extend; "+
			"write it as [hooks.state.\"...\"] tables and run the install again", path, n)
	}
	nl := newline(raw)
	out := append([]byte(nil), raw...)
	if len(bytes.TrimSpace(out)) > 0 {
		if !bytes.HasSuffix(out, []byte("\n")) {
			out = append(out, nl...)
		}
		out = append(out, nl...)
	}
	out = append(out, trustBlock(key, hash, nl)...)
	return out, verifyTrust(path, raw, out, key, hash)
}

// RemoveTrust removes the table AddTrust wrote (found by its exact text, at the start of a
// line) and the blank line before it, and checks the result. ok is false when the table is not
// there as written.
func RemoveTrust(path string, raw []byte, key, hash string) (out []byte, ok bool, err error) {
	nl := newline(raw)
	block := trustBlock(key, hash, nl)
	i := lineIndex(raw, block)
	end := i + len(block)
	if i < 0 {
		// The last table of a file whose final newline was taken away.
		block = strings.TrimSuffix(block, nl)
		if i = lineIndex(raw, block); i < 0 || i+len(block) != len(raw) {
			return raw, false, nil
		}
		end = len(raw)
	}
	start := i
	if bytes.HasSuffix(raw[:start], []byte(nl+nl)) {
		start -= len(nl)
	}
	out = append(append([]byte(nil), raw[:start]...), raw[end:]...)
	return out, true, verifyTrust(path, raw, out, key, "")
}

// lineIndex finds text at the start of a line of raw.
func lineIndex(raw []byte, text string) int {
	from := 0
	for {
		i := bytes.Index(raw[from:], []byte(text))
		if i < 0 {
			return -1
		}
		i += from
		if i == 0 || raw[i-1] == '\n' {
			return i
		}
		from = i + 1
	}
}

// inlineHooks returns the line where hooks, or hooks.state, is written as an inline table
// (0 if nowhere): TOML forbids adding a table to one, though the Go parser lets it pass.
func inlineHooks(raw []byte) int {
	table := ""
	for i, line := range strings.Split(string(raw), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			table = strings.TrimSpace(strings.Trim(strings.SplitN(t, "#", 2)[0], "[] \t\r"))
			continue
		}
		k, v, ok := strings.Cut(t, "=")
		if !ok || !strings.HasPrefix(strings.TrimSpace(v), "{") {
			continue
		}
		k = strings.Join(strings.Fields(k), "")
		if table == "" && (k == "hooks" || k == "hooks.state") || table == "hooks" && k == "state" {
			return i + 1
		}
	}
	return 0
}

var trustedHashLine = regexp.MustCompile(`^(\s*trusted_hash\s*=\s*)"(?:[^"\\]|\\.)*"(\s*(?:#.*)?)$`)

// SetTrust changes the trusted_hash of an existing table of key written as
// [hooks.state."<key>"] with a trusted_hash = "..." line, and checks the result. ok is false
// when the table is not written that way (an inline table, dotted keys): it is left alone.
func SetTrust(path string, raw []byte, key, hash string) (out []byte, ok bool, err error) {
	header := trustHeader(key)
	lines := strings.SplitAfter(string(raw), "\n")
	in := false
	for i, line := range lines {
		body := strings.TrimRight(line, "\r\n")
		trimmed := strings.TrimSpace(body)
		if strings.HasPrefix(trimmed, "[") {
			in = trimmed == header || strings.HasPrefix(trimmed, header+" ") || strings.HasPrefix(trimmed, header+"#")
			continue
		}
		if !in {
			continue
		}
		m := trustedHashLine.FindStringSubmatch(body)
		if m == nil {
			continue
		}
		lines[i] = m[1] + tomlString(hash) + m[2] + line[len(body):]
		out = []byte(strings.Join(lines, ""))
		return out, true, verifyTrust(path, raw, out, key, hash)
	}
	return raw, false, nil
}

// verifyTrust checks that after decodes to before with only the trust of key changed: set to
// hash, or removed when hash is "".
func verifyTrust(path string, before, after []byte, key, hash string) error {
	want, err := DecodeTOML(path, before)
	if err != nil {
		return err
	}
	got, err := DecodeTOML(path, after)
	if err != nil {
		return fmt.Errorf("editing %s would break it (%v); nothing was written", path, err)
	}
	hooks, _ := want["hooks"].(map[string]any)
	if hooks == nil {
		hooks = map[string]any{}
		want["hooks"] = hooks
	}
	st, _ := hooks["state"].(map[string]any)
	if st == nil {
		st = map[string]any{}
		hooks["state"] = st
	}
	if hash == "" {
		delete(st, key)
	} else {
		t, _ := st[key].(map[string]any)
		if t == nil {
			t = map[string]any{}
			st[key] = t
		}
		t["trusted_hash"] = hash
	}
	if !reflect.DeepEqual(prune(want), prune(got)) {
		return fmt.Errorf("%s: the trust table of %s cannot be edited in place without changing something else; nothing was written", path, key)
	}
	return nil
}

// prune drops empty tables, which a removed table leaves behind as parents.
func prune(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := map[string]any{}
	for k, x := range m {
		x = prune(x)
		if sub, ok := x.(map[string]any); ok && len(sub) == 0 {
			continue
		}
		out[k] = x
	}
	return out
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

package settings

import (
	"errors"
	"strings"
	"testing"
)

const (
	key  = "/home/dev/.codex/hooks.json:pre_tool_use:0:0"
	hash = "sha256:00ff"
)

// The trust tables go in and out of config.toml in place: every other byte stays.
func TestTrustInPlace(t *testing.T) {
	tests := []struct{ name, in, added string }{
		{"missing file", "",
			"[hooks.state.\"" + key + "\"]\ntrusted_hash = \"sha256:00ff\"\n"},
		{"comments, tables, odd spacing", "# mine\nmodel = \"o3\"   # pinned\n\n[model_providers.fake]\nname='fake'\n",
			"# mine\nmodel = \"o3\"   # pinned\n\n[model_providers.fake]\nname='fake'\n\n[hooks.state.\"" + key + "\"]\ntrusted_hash = \"sha256:00ff\"\n"},
		{"no final newline", "model = \"o3\"",
			"model = \"o3\"\n\n[hooks.state.\"" + key + "\"]\ntrusted_hash = \"sha256:00ff\"\n"},
		{"CRLF", "model = \"o3\"\r\n",
			"model = \"o3\"\r\n\r\n[hooks.state.\"" + key + "\"]\r\ntrusted_hash = \"sha256:00ff\"\r\n"},
		{"other trust and a [hooks] table already there", "[hooks]\n\n[hooks.state.\"/x:stop:0:0\"]\ntrusted_hash = \"sha256:aa\"\n",
			"[hooks]\n\n[hooks.state.\"/x:stop:0:0\"]\ntrusted_hash = \"sha256:aa\"\n\n[hooks.state.\"" + key + "\"]\ntrusted_hash = \"sha256:00ff\"\n"},
		{"multi-line string that looks like a table", "s = \"\"\"\n[hooks.state.\"k\"]\n\"\"\"\n",
			"s = \"\"\"\n[hooks.state.\"k\"]\n\"\"\"\n\n[hooks.state.\"" + key + "\"]\ntrusted_hash = \"sha256:00ff\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := AddTrust("config.toml", []byte(tt.in), key, hash)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.added {
				t.Fatalf("added:\n%q\nwant\n%q", out, tt.added)
			}
			doc, err := DecodeTOML("config.toml", out)
			if err != nil {
				t.Fatal(err)
			}
			if h, _ := TrustedHash(doc, key); h != hash {
				t.Fatalf("trusted_hash %q after the add", h)
			}
			back, ok, err := RemoveTrust("config.toml", out, key, hash)
			if err != nil || !ok {
				t.Fatalf("remove: %v %v", ok, err)
			}
			want := tt.in
			if tt.name == "no final newline" {
				want += "\n" // the newline the add put before its table stays
			}
			if string(back) != want {
				t.Fatalf("removed:\n%q\nwant\n%q", back, want)
			}
		})
	}
}

// A stale hash in a table of the standard form is changed in place, and can be put back.
func TestSetTrust(t *testing.T) {
	in := "a = 1\n[hooks.state.\"" + key + "\"] # trusted by hand\n  trusted_hash = \"sha256:old\"  # keep me\nother = true\n[b]\n"
	out, ok, err := SetTrust("config.toml", []byte(in), key, hash)
	if err != nil || !ok {
		t.Fatalf("set: %v %v", ok, err)
	}
	want := strings.Replace(in, "sha256:old", hash, 1)
	if string(out) != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
	back, ok, err := SetTrust("config.toml", out, key, "sha256:old")
	if err != nil || !ok || string(back) != in {
		t.Fatalf("put back: %v %v\n%s", ok, err, back)
	}
	// Written as an inline table: not the installer's to edit.
	inline := "hooks.state = { \"" + key + "\" = { trusted_hash = \"sha256:old\" } }\n"
	if _, ok, err := SetTrust("config.toml", []byte(inline), key, hash); ok || err != nil {
		t.Errorf("inline table: %v %v", ok, err)
	}
}

// An edit that would change anything but the one table is refused.
func TestTrustVerified(t *testing.T) {
	// hooks.state is an inline table: a [hooks.state."k"] header after it is invalid.
	in := "hooks = { state = {} }\n"
	for _, in := range []string{in, "[hooks]\nstate = { }\n", "hooks . state = {}\n"} {
		if _, err := AddTrust("config.toml", []byte(in), key, hash); err == nil || !strings.Contains(err.Error(), "as an inline table (line ") {
			t.Errorf("adding after an inline hooks table %q: %v", in, err)
		}
	}
	// The same under another table is not hooks.
	if _, err := AddTrust("config.toml", []byte("[x]\nhooks = {}\n"), key, hash); err != nil {
		t.Error(err)
	}
	// A table that is not ours to remove (another hash) is not found.
	added, _ := AddTrust("config.toml", nil, key, "sha256:other")
	if _, ok, _ := RemoveTrust("config.toml", added, key, hash); ok {
		t.Error("removed a table with another hash")
	}
}

func TestDecodeTOMLError(t *testing.T) {
	_, err := DecodeTOML("config.toml", []byte("model = \"o3\"\nb = = 2\n"))
	var te *SyntaxError
	if !errors.As(err, &te) || te.Line != 2 || te.Col != 5 {
		t.Fatalf("%v", err)
	}
	if !strings.HasPrefix(err.Error(), "config.toml is not valid TOML: line 2, column 5: ") {
		t.Errorf("%v", err)
	}
}
